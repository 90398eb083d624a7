import { closeSync, openSync, readSync } from 'node:fs';
import { XtrustError } from '@xtrust/core';

/**
 * A forward-only window over a file read in chunks, so a multi-gigabyte vector file never becomes
 * one JS string. Parsers read `buf[pos..end)` directly; `fileOffset(i)` turns a window index into the
 * byte offset in the file for error messages. `refill()` keeps the unread tail and appends the next
 * chunk; a token longer than the window doubles it.
 */
export class ByteReader {
  readonly file: string;
  buf: Buffer;
  pos = 0;
  end = 0;
  /** File offset of buf[0]. */
  base = 0;
  eof = false;
  private fd: number;

  constructor(file: string, chunkSize = 1 << 22) {
    this.file = file;
    try {
      this.fd = openSync(file, 'r');
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      throw new XtrustError(
        code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'FILE_UNREADABLE',
        `Vector file ${file} cannot be opened (${code ?? 'error'})`,
        { file },
        { cause },
      );
    }
    this.buf = Buffer.allocUnsafe(chunkSize);
  }

  fileOffset(i = this.pos): number {
    return this.base + i;
  }

  /** Reads more bytes after the unread tail `buf[pos..end)`. Returns false at end of file. */
  refill(): boolean {
    if (this.eof) return false;
    const tail = this.end - this.pos;
    if (tail >= this.buf.length / 2) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, this.pos, this.end);
      this.buf = bigger;
    } else if (this.pos > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.end);
    }
    this.base += this.pos;
    this.pos = 0;
    this.end = tail;
    const n = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.base + this.end);
    if (n === 0) {
      this.eof = true;
      return false;
    }
    this.end += n;
    return true;
  }

  /** Ensures at least `n` unread bytes unless the file ends first; returns the bytes available. */
  ensure(n: number): number {
    while (this.end - this.pos < n && this.refill()) {
      /* keep reading */
    }
    return this.end - this.pos;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/**
 * Parses a decimal number (JSON / C `strtod` syntax) at `buf[start..]`, stopping at the first byte
 * that cannot continue it. Returns the value and the index after it, or `next = -1` when the bytes
 * are not a number. Mantissas up to 15 digits and exponents within ±22 are computed as one exact
 * integer scaled by an exact power of ten (a single correctly rounded operation, the same double as
 * `parseFloat`); anything else falls back to `Number()` on the text.
 */
export function parseNumber(buf: Buffer, start: number, end: number): { value: number; next: number } {
  const value = scanNumber(buf, start, end);
  return { value, next: scanEnd };
}

/** Index after the number `scanNumber` last read, or −1 when it found none. */
export let scanEnd = -1;

/** `parseNumber` without the result object (hot loops): the value, with the end in `scanEnd`. */
export function scanNumber(buf: Buffer, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (i < end && (buf[i] === 45 || buf[i] === 43)) {
    neg = buf[i] === 45;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let frac = 0;
  const intStart = i;
  while (i < end && buf[i] >= 48 && buf[i] <= 57) {
    mant = mant * 10 + (buf[i] - 48);
    if (mant !== 0) digits++;
    i++;
  }
  let sawDigit = i > intStart;
  if (i < end && buf[i] === 46) {
    i++;
    const f0 = i;
    while (i < end && buf[i] >= 48 && buf[i] <= 57) {
      mant = mant * 10 + (buf[i] - 48);
      if (mant !== 0) digits++;
      i++;
    }
    frac = i - f0;
    sawDigit ||= frac > 0;
  }
  if (!sawDigit) {
    // nan / inf spellings of C printf
    scanEnd = -1;
    return NaN;
  }
  let exp = 0;
  if (i < end && (buf[i] === 101 || buf[i] === 69)) {
    let j = i + 1;
    let eneg = false;
    if (j < end && (buf[j] === 45 || buf[j] === 43)) {
      eneg = buf[j] === 45;
      j++;
    }
    const e0 = j;
    while (j < end && buf[j] >= 48 && buf[j] <= 57) {
      exp = exp * 10 + (buf[j] - 48);
      j++;
    }
    if (j === e0) {
      scanEnd = -1;
      return NaN;
    }
    if (eneg) exp = -exp;
    i = j;
  }
  const scale = exp - frac;
  let value: number;
  if (digits <= 15 && scale >= -22 && scale <= 22) {
    value = scale >= 0 ? mant * POW10[scale] : mant / POW10[-scale];
    if (neg) value = -value;
  } else {
    value = Number(buf.toString('latin1', start, i));
  }
  scanEnd = i;
  return value;
}
