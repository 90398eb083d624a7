import { spawn } from 'node:child_process';

/** What a finished command left: its exit status and its whole output. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion without blocking the test worker: a synchronous spawn that holds the thread
 * for over 60 s makes vitest's worker RPC time out ("Timeout calling onTaskUpdate"), failing the run.
 * The command is killed after `timeoutMs`.
 */
export function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 300_000,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
