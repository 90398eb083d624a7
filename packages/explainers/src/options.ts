import { XtrustError } from '@xtrust/core';

/** Throws INVALID_ARGUMENT unless `v` is an integer ≥ `min`, naming the option and why. */
export function intOption(name: string, v: unknown, fallback: number, min: number, why = ''): number {
  const x = v === undefined ? fallback : v;
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${name} must be an integer ≥ ${min}${why ? ` (${why})` : ''}, got ${String(x)}`,
      { argument: name },
    );
  }
  return x;
}

/** Throws INVALID_ARGUMENT unless `v` is a finite number > 0. */
export function positiveOption(name: string, v: unknown, fallback: number): number {
  const x = v === undefined ? fallback : v;
  if (typeof x !== 'number' || !Number.isFinite(x) || !(x > 0)) {
    throw new XtrustError('INVALID_ARGUMENT', `${name} must be a finite number > 0, got ${String(x)}`, {
      argument: name,
    });
  }
  return x;
}

/** The seed option: any integer (default 0). */
export function seedOption(v: unknown): number {
  const x = v === undefined ? 0 : v;
  if (typeof x !== 'number' || !Number.isInteger(x)) {
    throw new XtrustError('INVALID_ARGUMENT', `seed must be an integer, got ${String(x)}`, { argument: 'seed' });
  }
  return x;
}
