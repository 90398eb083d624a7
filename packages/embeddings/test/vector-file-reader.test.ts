import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { detectVectorFormat, loadVectorFile, readVectorFile } from '../src/index.js';
import { tempDir } from './helpers.js';

const ROWS: [string, number[]][] = [
  ['king', [0.1, -0.2, 3e-1]],
  ['Queen', [0.15, -0.25, 0.29]],
  ['naïve', [1, 2, 3]],
  ['.', [-1.5e2, 0, 7]],
];
const textLines = (rows = ROWS) => `${rows.map(([w, v]) => `${w} ${v.join(' ')}`).join('\n')}\n`;

function w2vBinary(rows = ROWS, newline = true): Buffer {
  const parts: Buffer[] = [Buffer.from(`${rows.length} ${rows[0][1].length}\n`)];
  for (const [w, v] of rows) {
    parts.push(Buffer.from(`${w} `));
    const f = Buffer.alloc(v.length * 4);
    v.forEach((x, k) => f.writeFloatLE(x, k * 4));
    parts.push(f);
    if (newline) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

function caught(f: () => unknown): Error & { code?: string; details?: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('vector file readers', () => {
  it('reads GloVe text (no header), word2vec text / fastText .vec (header) and word2vec binary alike', () => {
    const dir = tempDir();
    const glove = join(dir, 'g.txt');
    const vec = join(dir, 'f.vec');
    const bin = join(dir, 'w.bin');
    const binNoNl = join(dir, 'w2.bin');
    writeFileSync(glove, textLines());
    writeFileSync(vec, `4 3\n${textLines()}`);
    writeFileSync(bin, w2vBinary());
    writeFileSync(binNoNl, w2vBinary(ROWS, false));
    expect(detectVectorFormat(glove)).toBe('glove');
    expect(detectVectorFormat(vec)).toBe('word2vec-text');
    expect(detectVectorFormat(bin)).toBe('word2vec-binary');
    for (const f of [glove, vec, bin, binNoNl]) {
      const t = readVectorFile(f);
      expect(t.words).toEqual(['king', 'Queen', 'naïve', '.']);
      expect(t.dim).toBe(3);
      expect([...t.matrix]).toEqual(ROWS.flatMap(([, v]) => v.map(Math.fround)));
      expect(t.norms[2]).toBeCloseTo(Math.hypot(1, 2, 3), 5);
    }
  });

  it('keeps only a vocabulary or the first words', () => {
    const dir = tempDir();
    const f = join(dir, 'f.vec');
    writeFileSync(f, `4 3\n${textLines()}`);
    expect(readVectorFile(f, { vocabulary: ['naïve', 'king', 'absent'] }).words).toEqual(['king', 'naïve']);
    expect(readVectorFile(f, { limit: 2 }).words).toEqual(['king', 'Queen']);
    const b = join(dir, 'w.bin');
    writeFileSync(b, w2vBinary());
    const t = readVectorFile(b, { vocabulary: ['.'] });
    expect(t.words).toEqual(['.']);
    expect([...t.matrix]).toEqual([-150, 0, 7]);
  });

  it('reads lines split across the 4 MB window (a large file)', () => {
    const dir = tempDir();
    const f = join(dir, 'big.txt');
    const dim = 50;
    const n = 20_000; // ~6 MB of text
    const lines: string[] = [];
    for (let i = 0; i < n; i++)
      lines.push(
        `w${i} ${Array.from({ length: dim }, (_, d) => (((i * 31 + d * 7) % 1000) / 997 - 0.5).toFixed(5)).join(' ')}`,
      );
    writeFileSync(f, lines.join('\n'));
    const t = readVectorFile(f);
    expect(t.words.length).toBe(n);
    expect(t.words[n - 1]).toBe(`w${n - 1}`);
    expect(t.matrix[(n - 1) * dim + 49]).toBeCloseTo((((n - 1) * 31 + 49 * 7) % 1000) / 997 - 0.5, 4);
  });

  it('reports a row of the wrong dimension with its line and byte offset', () => {
    const dir = tempDir();
    const f = join(dir, 'bad.vec');
    const text = `4 3\nking 0.1 -0.2 0.3\nQueen 0.15 -0.25\nx 1 2 3\n`;
    writeFileSync(f, text);
    const e = caught(() => readVectorFile(f));
    expect(isXtrustError(e, 'DIMENSION_MISMATCH')).toBe(true);
    expect(e.message).toMatch(
      new RegExp(`line 3 \\(byte ${text.indexOf('Queen')}\\): expected a word and 3 values, found 2 values`),
    );
    expect(e.details).toMatchObject({ line: 3, byteOffset: text.indexOf('Queen') });
  });

  it('reports a malformed number with the byte offset of the value', () => {
    const dir = tempDir();
    const f = join(dir, 'bad.txt');
    const text = 'king 0.1 -0.2 0.3\nqueen 0.15 0.x2 0.3\n';
    writeFileSync(f, text);
    const e = caught(() => readVectorFile(f));
    expect(isXtrustError(e, 'PARSE_ERROR')).toBe(true);
    expect(e.message).toMatch(
      new RegExp(`line 2 \\(byte ${text.indexOf('0.x2')}\\): value 2 of "queen" is not a number`),
    );
  });

  it('reports a truncated text file (header count) and a truncated binary file (byte offset)', () => {
    const dir = tempDir();
    const f = join(dir, 'short.vec');
    writeFileSync(f, `5 3\n${textLines()}`);
    expect(() => readVectorFile(f)).toThrow(/declares 5 words, the file has 4 \(truncated\?\)/);
    const b = join(dir, 'short.bin');
    const full = w2vBinary();
    const cut = full.subarray(0, full.length - 7); // inside the last vector
    writeFileSync(b, cut);
    const e = caught(() => readVectorFile(b));
    expect(isXtrustError(e, 'PARSE_ERROR')).toBe(true);
    const lastVectorAt = full.length - 1 - 12; // 3 floats + trailing newline
    expect(e.message).toMatch(
      new RegExp(`byte ${lastVectorAt}: the file ends inside the vector of "\\." \\(entry 4 of 4\\): 6 of 12 bytes`),
    );
  });

  it('names a missing file', () => {
    expect(
      isXtrustError(
        caught(() => readVectorFile('/nonexistent/v.txt', { format: 'glove' })),
        'FILE_NOT_FOUND',
      ),
    ).toBe(true);
  });

  it('loads a file as a StaticEmbedding through the cache, rebuilt when the file changes', async () => {
    const dir = tempDir();
    const f = join(dir, 'f.vec');
    writeFileSync(f, `4 3\n${textLines()}`);
    const a = await loadVectorFile(f, { cacheDir: join(dir, 'c') });
    expect(a.has('Queen')).toBe(true);
    expect(a.has('queen')).toBe(false); // default case folding for user files: none
    const b = await loadVectorFile(f, { cacheDir: join(dir, 'c'), caseFolding: 'fallback' });
    expect(b.has('KING')).toBe(true); // exact first, then the lower-cased query
    expect(b.has('Queen')).toBe(true);
    expect(a.has('KING')).toBe(false);
    writeFileSync(f, `1 3\nzebra 1 1 1\n`);
    const c = await loadVectorFile(f, { cacheDir: join(dir, 'c') });
    expect(c.words).toEqual(['zebra']);
  });
});
