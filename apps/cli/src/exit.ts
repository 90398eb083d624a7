import { isXtrustError } from '@xtrust/core';

/** Exit codes of every command: 0 ok, 1 a gate failed, 2 bad input or usage, 3 an unexpected failure. */
export const EXIT = { OK: 0, GATE_FAILED: 1, USAGE: 2, INTERNAL: 3 } as const;

/** A usage or input problem the user can fix: reported as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Error codes of @xtrust packages that mean "the input is wrong" rather than "xtrust is broken". */
const INPUT_CODES = new Set([
  'INVALID_ARGUMENT',
  'EMPTY_TEXT',
  'NO_KNOWN_WORDS',
  'UNKNOWN_LABEL',
  'BAD_MODEL_OUTPUT',
  'FILE_NOT_FOUND',
  'FILE_UNREADABLE',
  'PARSE_ERROR',
  'DATASET_ROW',
  'OUT_OF_VOCABULARY',
  'UNSUPPORTED',
  'INCOMPATIBLE',
  'NOT_FOUND',
  'BACKEND_UNAVAILABLE',
  'DIMENSION_MISMATCH',
]);

/** The exit code for an error thrown by a command. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (isXtrustError(error) && INPUT_CODES.has(error.code)) return EXIT.USAGE;
  return EXIT.INTERNAL;
}

/** The one line printed for an error: `xtrust: <message>`. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `xtrust: ${message.split('\n')[0]}`;
}

let requested: number | null = null;

/** Lets a command end with a non-zero code after printing its result (the gate); runCli returns it. */
export function requestExit(code: number): void {
  requested = code;
}

/** The exit code a command requested, cleared for the next in-process run. */
export function takeRequestedExit(): number | null {
  const c = requested;
  requested = null;
  return c;
}
