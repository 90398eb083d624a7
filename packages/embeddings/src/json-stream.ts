import { XtrustError } from '@xtrust/core';
import { ByteReader, scanNumber, scanEnd } from './byte-reader.js';

const WS = new Uint8Array(256);
WS[32] = WS[9] = WS[10] = WS[13] = 1;

/**
 * A pull parser over a JSON file read in chunks (RFC 8259 syntax): the caller walks the structure it
 * expects, and only the strings and numbers it asks for are materialised. Errors carry the byte offset.
 */
export class JsonStream {
  readonly r: ByteReader;

  constructor(file: string) {
    this.r = new ByteReader(file);
  }

  fail(message: string, at = this.r.fileOffset()): never {
    throw new XtrustError('PARSE_ERROR', `${this.r.file}: byte ${at}: ${message}`, {
      file: this.r.file,
      byteOffset: at,
    });
  }

  private describe(): string {
    const r = this.r;
    if (r.pos >= r.end) return 'end of file';
    const c = r.buf[r.pos];
    return c >= 32 && c < 127 ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`;
  }

  /** Skips whitespace; returns the next byte without consuming it (−1 at end of file). */
  peek(): number {
    const r = this.r;
    for (;;) {
      while (r.pos < r.end && WS[r.buf[r.pos]]) r.pos++;
      if (r.pos < r.end) return r.buf[r.pos];
      if (!r.refill()) return -1;
    }
  }

  /** Consumes `byte` (after whitespace) or fails naming what was found instead. */
  expect(byte: number, what: string): void {
    if (this.peek() !== byte) this.fail(`expected ${what}, found ${this.describe()}`);
    this.r.pos++;
  }

  /** Consumes `byte` when it is next and returns true. */
  accept(byte: number): boolean {
    if (this.peek() === byte) {
      this.r.pos++;
      return true;
    }
    return false;
  }

  /** A JSON string (escapes decoded). */
  string(): string {
    if (this.peek() !== 34) this.fail(`expected a string, found ${this.describe()}`);
    const r = this.r;
    for (;;) {
      let i = r.pos + 1;
      let escaped = false;
      while (i < r.end && r.buf[i] !== 34) {
        if (r.buf[i] === 92) {
          escaped = true;
          i++;
        }
        i++;
      }
      if (i < r.end) {
        const start = r.pos;
        r.pos = i + 1;
        if (!escaped) return r.buf.toString('utf8', start + 1, i);
        try {
          return JSON.parse(r.buf.toString('utf8', start, i + 1)) as string;
        } catch {
          this.fail('malformed escape in string', r.fileOffset(start));
        }
      }
      if (!r.refill()) this.fail('unexpected end of file inside a string', r.fileOffset(r.pos));
    }
  }

  /** A JSON number. */
  number(): number {
    const r = this.r;
    this.peek();
    if (r.end - r.pos < 64 && !r.eof) r.ensure(64);
    const value = scanNumber(r.buf, r.pos, r.end);
    if (scanEnd < 0) this.fail(`expected a number, found ${this.describe()}`);
    r.pos = scanEnd;
    return value;
  }

  /** Skips any JSON value. */
  skipValue(): void {
    const c = this.peek();
    if (c === 34) this.string();
    else if (c === 123 || c === 91) {
      const close = c === 123 ? 125 : 93;
      this.r.pos++;
      if (this.accept(close)) return;
      do {
        if (c === 123) {
          this.string();
          this.expect(58, "':'");
        }
        this.skipValue();
      } while (this.accept(44));
      this.expect(close, c === 123 ? "',' or '}'" : "',' or ']'");
    } else if (c === 116 || c === 102 || c === 110) {
      const r = this.r;
      r.ensure(5);
      const word = r.buf.toString('latin1', r.pos, Math.min(r.end, r.pos + 5));
      const lit = ['true', 'false', 'null'].find((l) => word.startsWith(l));
      if (!lit) this.fail(`expected a value, found ${this.describe()}`);
      r.pos += lit.length;
    } else if (c === -1) this.fail('unexpected end of file');
    else this.number();
  }

  close(): void {
    this.r.close();
  }
}
