import { XtrustError } from '../errors.js';

/**
 * Argument checks shared by the TS kernels and the native addon's wrappers, so that both reject bad
 * input with the same XtrustError (naming the argument) before any arithmetic runs.
 */

export function requireFloat32(name: string, a: unknown): asserts a is Float32Array {
  if (!(a instanceof Float32Array)) {
    throw new XtrustError('INVALID_ARGUMENT', `${name} must be a Float32Array, got ${describe(a)}`, { argument: name });
  }
}

export function requirePositiveInt(name: string, v: unknown): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    throw new XtrustError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${String(v)}`, {
      argument: name,
    });
  }
}

/** Throws when `a` holds NaN or ±Infinity, naming the argument and the first bad index. */
export function requireFinite(name: string, a: ArrayLike<number>): void {
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    // v - v is NaN exactly for NaN and ±Infinity.
    if (v - v !== 0) {
      throw new XtrustError('INVALID_ARGUMENT', `${name}[${i}] is ${v}; inputs must be finite numbers`, {
        argument: name,
        index: i,
      });
    }
  }
}

/** Number of rows of a row-major matrix with `dim` columns; throws when the length is not a multiple of it. */
export function rowsOf(name: string, a: Float32Array, dim: number): number {
  if (a.length % dim !== 0) {
    throw new XtrustError('DIMENSION_MISMATCH', `${name} has ${a.length} values, not a multiple of dim = ${dim}`, {
      argument: name,
    });
  }
  return a.length / dim;
}

export function describe(a: unknown): string {
  if (a === null) return 'null';
  if (Array.isArray(a)) return 'an Array';
  if (ArrayBuffer.isView(a)) return (a as object).constructor.name;
  return typeof a;
}
