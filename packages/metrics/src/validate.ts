import { XtrustError } from '@xtrust/core';

/**
 * Input checks shared by every measure. Each throws XtrustError naming the argument and what was
 * expected; none of them lets a NaN through.
 */

export function invalid(argument: string, expected: string, got?: unknown): XtrustError {
  const shown = got === undefined ? '' : `, got ${describe(got)}`;
  return new XtrustError('INVALID_ARGUMENT', `${argument}: expected ${expected}${shown}`, {
    argument,
    expected,
    got: describe(got),
  });
}

/** As `invalid`, with `detail` shown as written (no quoting): "argument: expected …, got <detail>". */
export function invalidDetail(argument: string, expected: string, detail: string): XtrustError {
  return new XtrustError('INVALID_ARGUMENT', `${argument}: expected ${expected}, got ${detail}`, {
    argument,
    expected,
    got: detail,
  });
}

function describe(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of length ${(v as unknown as ArrayLike<number>).length}`;
  return typeof v;
}

export function checkFinite(argument: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(argument, 'a finite number', v);
  return v;
}

export function checkProbability(argument: string, v: unknown, { openLow = false, openHigh = false } = {}): number {
  const x = checkFinite(argument, v);
  if (x < 0 || x > 1 || (openLow && x === 0) || (openHigh && x === 1)) {
    throw invalid(argument, `a number in ${openLow ? '(' : '['}0, 1${openHigh ? ')' : ']'}`, v);
  }
  return x;
}

export function checkPositiveInt(argument: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid(argument, 'a positive integer', v);
  return v;
}

export function checkNumberArray(argument: string, v: unknown, { allowEmpty = false } = {}): ArrayLike<number> {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) {
    throw invalid(argument, 'an array or typed array of numbers', v);
  }
  const a = v as ArrayLike<number>;
  if (!allowEmpty && a.length === 0) throw invalid(argument, 'a non-empty array of numbers', v);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw invalid(`${argument}[${i}]`, 'a finite number', x);
  }
  return a;
}

export function checkStringArray(argument: string, v: unknown): readonly string[] {
  if (!Array.isArray(v)) throw invalid(argument, 'an array of strings', v);
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'string') throw invalid(`${argument}[${i}]`, 'a string', v[i]);
  }
  return v as readonly string[];
}

export function checkSameLength(nameA: string, a: ArrayLike<unknown>, nameB: string, b: ArrayLike<unknown>): void {
  if (a.length !== b.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `${nameA} and ${nameB} must have the same length, got ${a.length} and ${b.length}`,
      { [nameA]: a.length, [nameB]: b.length },
    );
  }
}

/** Binary labels as 0/1 bytes: accepts booleans or the numbers 0 and 1. */
export function checkBinary(argument: string, v: unknown): Uint8Array {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) {
    throw invalid(argument, 'an array of booleans or 0/1 numbers', v);
  }
  const a = v as ArrayLike<unknown>;
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === true || x === 1) out[i] = 1;
    else if (x === false || x === 0) out[i] = 0;
    else throw invalid(`${argument}[${i}]`, 'a boolean or 0/1', x);
  }
  return out;
}
