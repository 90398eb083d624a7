import { InvalidArgumentError, Option, type Command } from 'commander';

/** Parses a non-negative integer flag value. */
export function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/** Parses a positive integer flag value. */
export function positiveIntArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

/** Parses a number in [0, 1]. */
export function fractionArg(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError(`expected a number between 0 and 1, got "${value}"`);
  return n;
}

/** Parses `a=b,c=d` into { a: 'b', c: 'd' } (for --class-names). */
export function pairsArg(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1)
      throw new InvalidArgumentError(`expected label=name pairs separated by commas, got "${part}"`);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

/** Options every command has: --json and --config (read by the program before the action runs). */
/** Parsed flags of withCommonOptions and withRunOptions. */
export interface RunFlags {
  out: string;
  resume: boolean;
  json: boolean;
  quiet: boolean;
}

export function withCommonOptions(command: Command): Command {
  return command
    .option('--json', 'print machine-readable JSON on stdout (progress stays on stderr)', false)
    .option('--quiet', 'no progress output', false)
    .addOption(
      new Option(
        '--config <file>',
        `read option values from this JSON file (default ./xtrust.config.json when present)`,
      ),
    );
}

/** Options of the commands that run long and keep a run directory. */
export function withRunOptions(command: Command, defaultOut: string): Command {
  return command
    .option('--out <dir>', 'run directory: JSONL as it goes, then the final files', defaultOut)
    .option('--resume', 'continue an interrupted run in --out without losing or repeating work', false);
}

/** Appends an "Examples:" block to a command's --help. */
export function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
