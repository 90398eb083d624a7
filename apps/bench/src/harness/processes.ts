/**
 * Child processes of the bench: one `node` child run to its end and timed (a benchmark script, a CLI
 * command), and worker processes started, awaited until they listen, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { procCpuSeconds } from './timing.js';

export interface RunChildOptions {
  /** Working directory of the child (default: this process's). */
  readonly cwd?: string;
  /** Variables added to this process's environment for the child. */
  readonly env?: Readonly<Record<string, string>>;
  /** 'capture' keeps the child's stdout and returns it; 'ignore' (default) discards it. */
  readonly stdout?: 'ignore' | 'capture';
  /**
   * Copied to this process's stderr as it comes: 'stderr' the child's stderr, 'all' its stderr and its
   * captured stdout, 'none' (default) nothing.
   */
  readonly echo?: 'none' | 'stderr' | 'all';
  /** Characters of the end of the child's stderr kept in `stderrTail` (default 4,000). */
  readonly tailChars?: number;
  /** Seconds after which the child is stopped: SIGTERM, then SIGKILL 5 s later if it is still there. */
  readonly limitS?: number;
  /** Called when `limitS` is reached, just before the SIGTERM (e.g. to log it). */
  readonly onTimeout?: () => void;
  /** The child's pid is in this set while it runs (a heartbeat can read its CPU from /proc meanwhile). */
  readonly live?: Set<number>;
}

/** How a child run ended. */
export interface ChildRun {
  /** Exit code; null when a signal ended it (`signal`). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Its whole stdout with `stdout: 'capture'`, else ''. */
  readonly stdout: string;
  /** The end of its stderr (`tailChars`). */
  readonly stderrTail: string;
  /** Whether `limitS` stopped it. */
  readonly timedOut: boolean;
  /** Wall seconds from the spawn to its exit. */
  readonly wall: number;
  /**
   * CPU seconds (user + system) of this process's reaped children between the spawn and the exit
   * (/proc/self/stat; 0 without /proc): the child's own, all its threads and its own reaped children,
   * as long as no other child of this process ends meanwhile.
   */
  readonly cpu: number;
}

/**
 * Runs `node args…` (this Node, `process.execPath`) to its end. Resolves however the child ends — the
 * caller decides what an exit code means — and rejects only when it cannot be started. Resolves once
 * the child's output is complete (its pipes closed; at most 10 s after its exit, in case a grandchild
 * still holds them).
 */
export function runChild(args: readonly string[], options: RunChildOptions = {}): Promise<ChildRun> {
  const keep = options.tailChars ?? 4000;
  return new Promise((resolveRun, rejectRun) => {
    const cpu0 = procCpuSeconds('self', 'children');
    const t0 = performance.now();
    const child = spawn(process.execPath, [...args], {
      cwd: options.cwd,
      env: options.env ? { ...process.env, ...options.env } : process.env,
      stdio: ['ignore', options.stdout === 'capture' ? 'pipe' : 'ignore', 'pipe'],
    });
    if (child.pid) options.live?.add(child.pid);
    let stdout = '';
    let tail = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (options.echo === 'all') process.stderr.write(d);
    });
    child.stderr?.on('data', (d: Buffer) => {
      tail = (tail + d.toString()).slice(-keep);
      if (options.echo === 'stderr' || options.echo === 'all') process.stderr.write(d);
    });
    let timedOut = false;
    const limit =
      options.limitS === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            options.onTimeout?.();
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }, options.limitS * 1000);
    let ended: Omit<ChildRun, 'stdout' | 'stderrTail'> | undefined;
    let closeWait: NodeJS.Timeout | undefined;
    let done = false;
    const finish = () => {
      if (done || !ended) return;
      done = true;
      clearTimeout(closeWait);
      resolveRun({ ...ended, stdout, stderrTail: tail });
    };
    child.once('error', (e) => {
      if (ended) return; // an error after the exit (a failed kill) changes nothing
      clearTimeout(limit);
      if (child.pid) options.live?.delete(child.pid);
      done = true;
      rejectRun(e);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      if (child.pid) options.live?.delete(child.pid);
      const wall = (performance.now() - t0) / 1000;
      ended = { code, signal, timedOut, wall, cpu: procCpuSeconds('self', 'children') - cpu0 };
      closeWait = setTimeout(finish, 10_000);
    });
    child.once('close', finish);
  });
}

/** The line a queue worker (`xtrust worker`, @xtrust/scale's worker-main) logs on stderr once it listens. */
export const WORKER_READY = 'xtrust worker on';

/**
 * Starts `n` processes `node args…` (e.g. a queue worker), stdin and stdout ignored, stderr piped (see
 * `workersReady`); `env` is added to this process's environment.
 */
export function startWorkers(
  n: number,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, [...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } }),
  );
}

/**
 * Resolves with the workers once each has logged `marker` on its stderr (so their start-up is not in
 * what is timed next); rejects with a worker's log if it exits first. From then on each worker's stderr
 * keeps flowing (a full pipe would block it) but is no longer collected here.
 */
export function workersReady(ws: readonly ChildProcess[], marker = WORKER_READY): Promise<ChildProcess[]> {
  return Promise.all(
    ws.map(
      (w) =>
        new Promise<ChildProcess>((ready, fail) => {
          let text = '';
          const onData = (d: Buffer) => {
            text += d.toString();
            if (text.includes(marker)) {
              w.stderr!.off('data', onData);
              w.stderr!.resume();
              ready(w);
            }
          };
          w.stderr!.on('data', onData);
          w.once('exit', (c) => fail(new Error(`worker exited (${c}) before it was ready: ${text.trim()}`)));
        }),
    ),
  );
}

/** Sends SIGTERM to each worker still running; resolves when every one has exited. */
export async function stopWorkers(ws: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    ws.map(
      (w) =>
        new Promise<void>((r) => {
          if (w.exitCode !== null || w.signalCode !== null) return r();
          w.once('exit', () => r());
          w.kill('SIGTERM');
        }),
    ),
  );
}
