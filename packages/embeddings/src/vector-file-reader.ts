import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { XtrustError } from '@xtrust/core';
import {
  EMBEDDINGS_VERSION,
  loadCachedTable,
  rowNorms,
  type CachedLoadOptions,
  type VectorTable,
} from './binary-cache.js';
import { ByteReader, scanEnd, scanNumber } from './byte-reader.js';
import { cacheDir } from './cache-dir.js';
import { StaticEmbedding, type CaseFolding } from './static-embedding.js';

/**
 * The vector file formats users bring:
 * - `glove`: one `word v1 … vd` line per word, no header (Pennington et al. 2014 releases);
 * - `word2vec-text` / `fasttext-vec`: the same lines after a `count dim` header line (Mikolov et al.
 *   2013 `-binary 0`; fastText's `.vec`, Bojanowski et al. 2017 — identical layout);
 * - `word2vec-binary`: a `count dim` header line, then per word its bytes up to a space and dim
 *   little-endian float32 values, optionally followed by a newline (`-binary 1`).
 * `auto` picks `word2vec-binary` for a `.bin` file, otherwise looks for a `count dim` header.
 */
export type VectorFormat = 'glove' | 'word2vec-text' | 'fasttext-vec' | 'word2vec-binary' | 'auto';

export interface VectorFileOptions {
  format?: VectorFormat;
  /** Keep only the first `limit` words (files are usually sorted by frequency). */
  limit?: number;
  /** Keep only these words (exact match, before case folding): a 2 GB file then costs only what is kept. */
  vocabulary?: Iterable<string>;
}

const SPACE = 32;
const TAB = 9;
const NL = 10;
const CR = 13;

class Growable {
  data: Float32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Float32Array(Math.max(1024, capacity));
  }
  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const bigger = new Float32Array(Math.max(this.data.length * 2, this.length + n));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
  trimmed(): Float32Array {
    return this.data.length === this.length ? this.data : this.data.slice(0, this.length);
  }
}

function fail(
  code: 'PARSE_ERROR' | 'DIMENSION_MISMATCH',
  file: string,
  line: number | undefined,
  byteOffset: number,
  message: string,
): never {
  const where = line !== undefined ? `line ${line} (byte ${byteOffset})` : `byte ${byteOffset}`;
  throw new XtrustError(code, `${file}: ${where}: ${message}`, { file, line, byteOffset });
}

/** Detects the format from the extension and the first line. */
export function detectVectorFormat(file: string): Exclude<VectorFormat, 'auto'> {
  if (/\.bin$/i.test(file)) return 'word2vec-binary';
  const r = new ByteReader(file, 1 << 16);
  try {
    r.ensure(4096);
    let e = r.buf.indexOf(NL, 0);
    if (e < 0 || e > r.end) e = r.end;
    const first = r.buf.toString('utf8', 0, e).trim().split(/\s+/);
    return first.length === 2 && /^\d+$/.test(first[0]) && /^\d+$/.test(first[1]) ? 'word2vec-text' : 'glove';
  } finally {
    r.close();
  }
}

function readHeader(r: ByteReader): { count: number; dim: number; line: string } {
  r.ensure(256);
  const e = r.buf.indexOf(NL, r.pos);
  if (e < 0 || e >= r.end) fail('PARSE_ERROR', r.file, 1, 0, 'expected a "count dim" header line');
  const line = r.buf.toString('utf8', r.pos, e).trim();
  const m = /^(\d+)\s+(\d+)$/.exec(line);
  if (!m) fail('PARSE_ERROR', r.file, 1, 0, `expected a "count dim" header, found "${line.slice(0, 40)}"`);
  r.pos = e + 1;
  return { count: Number(m[1]), dim: Number(m[2]), line };
}

function readText(file: string, hasHeader: boolean, options: VectorFileOptions): VectorTable {
  const r = new ByteReader(file);
  const keep = options.vocabulary ? new Set(options.vocabulary) : undefined;
  const limit = options.limit ?? Infinity;
  try {
    let dim = 0;
    let declared = -1;
    let lineNo = 0;
    if (hasHeader) {
      const h = readHeader(r);
      dim = h.dim;
      declared = h.count;
      lineNo = 1;
      if (dim <= 0) fail('PARSE_ERROR', file, 1, 0, `header declares ${dim} dimensions`);
    }
    const words: string[] = [];
    const cap = Number.isFinite(limit) ? limit : declared > 0 ? declared : 1 << 16;
    const out = new Growable(dim > 0 ? Math.min(cap, keep ? keep.size : cap) * dim : 1 << 20);
    let entries = 0;
    let values = new Float64Array(dim > 0 ? dim + 8 : 1024);
    // token boundaries of the current line, reused across lines
    let starts = new Int32Array(1024);
    let ends = new Int32Array(1024);
    for (;;) {
      if (words.length >= limit) break;
      // one whole line in the window
      let e = r.buf.indexOf(NL, r.pos);
      while ((e < 0 || e >= r.end) && r.refill()) e = r.buf.indexOf(NL, r.pos);
      if (e < 0 || e >= r.end) e = r.end;
      if (r.pos >= r.end && r.eof) break;
      lineNo++;
      const lineStart = r.pos;
      const at = r.fileOffset(lineStart);
      let end = e;
      while (end > lineStart && (r.buf[end - 1] === CR || r.buf[end - 1] === SPACE || r.buf[end - 1] === TAB)) end--;
      r.pos = e + 1;
      if (end === lineStart) continue; // blank line
      // Numbers are parsed from the end backwards-agnostic: collect every token's start, then take
      // the last `dim` as the vector and the rest as the word (GloVe 840B has words with spaces).
      let tokens = 0;
      const buf = r.buf;
      for (let i = lineStart; i < end; ) {
        while (i < end && (buf[i] === SPACE || buf[i] === TAB)) i++;
        if (i >= end) break;
        const s = i;
        while (i < end && buf[i] !== SPACE && buf[i] !== TAB) i++;
        if (tokens === starts.length) {
          const grow = (a: Int32Array) => {
            const b = new Int32Array(a.length * 2);
            b.set(a);
            return b;
          };
          starts = grow(starts);
          ends = grow(ends);
        }
        starts[tokens] = s;
        ends[tokens] = i;
        tokens++;
      }
      if (dim === 0) {
        dim = tokens - 1;
        if (dim <= 0) fail('PARSE_ERROR', file, lineNo, at, 'expected a word followed by its vector');
        values = new Float64Array(dim);
      }
      if (tokens < dim + 1) {
        fail('DIMENSION_MISMATCH', file, lineNo, at, `expected a word and ${dim} values, found ${tokens - 1} values`);
      }
      const firstValue = tokens - dim;
      if (firstValue > 1 && hasHeader) {
        // word2vec/fastText words never contain spaces: extra tokens mean a wrong dimension
        fail('DIMENSION_MISMATCH', file, lineNo, at, `expected a word and ${dim} values, found ${tokens - 1} values`);
      }
      const word = r.buf.toString('utf8', starts[0], ends[firstValue - 1]);
      entries++;
      if (keep && !keep.has(word)) continue;
      for (let k = 0; k < dim; k++) {
        const value = scanNumber(r.buf, starts[firstValue + k], ends[firstValue + k]);
        if (scanEnd !== ends[firstValue + k] || Number.isNaN(value)) {
          fail(
            'PARSE_ERROR',
            file,
            lineNo,
            r.fileOffset(starts[firstValue + k]),
            `value ${k + 1} of ${JSON.stringify(word)} is not a number ("${r.buf.toString('utf8', starts[firstValue + k], ends[firstValue + k]).slice(0, 20)}")`,
          );
        }
        values[k] = value;
      }
      out.reserve(dim);
      for (let k = 0; k < dim; k++) out.data[out.length + k] = values[k];
      out.length += dim;
      words.push(word);
    }
    if (declared >= 0 && !Number.isFinite(limit) && entries !== declared) {
      fail(
        'PARSE_ERROR',
        file,
        lineNo,
        r.fileOffset(),
        `the header declares ${declared} words, the file has ${entries} (truncated?)`,
      );
    }
    if (dim === 0) fail('PARSE_ERROR', file, undefined, 0, 'the file has no vectors');
    const matrix = out.trimmed();
    return { words, dim, matrix, norms: rowNorms(matrix, dim) };
  } finally {
    r.close();
  }
}

function readBinary(file: string, options: VectorFileOptions): VectorTable {
  const r = new ByteReader(file);
  const keep = options.vocabulary ? new Set(options.vocabulary) : undefined;
  const limit = options.limit ?? Infinity;
  try {
    const { count, dim } = readHeader(r);
    if (dim <= 0) fail('PARSE_ERROR', file, 1, 0, `header declares ${dim} dimensions`);
    const take = Math.min(count, limit);
    const words: string[] = [];
    const out = new Growable(Math.min(take, keep ? keep.size : take) * dim);
    const bytes = dim * 4;
    for (let n = 0; n < take; n++) {
      // skip the newline some writers put after each vector
      r.ensure(1);
      while (r.pos < r.end && (r.buf[r.pos] === NL || r.buf[r.pos] === CR)) {
        r.pos++;
        if (r.pos >= r.end) r.ensure(1);
      }
      const at = r.fileOffset();
      let s = r.buf.indexOf(SPACE, r.pos);
      while ((s < 0 || s >= r.end) && r.refill()) s = r.buf.indexOf(SPACE, r.pos);
      if (s < 0 || s >= r.end)
        fail('PARSE_ERROR', file, undefined, at, `the file ends inside the word of entry ${n + 1} of ${count}`);
      if (s - r.pos > 1000)
        fail(
          'PARSE_ERROR',
          file,
          undefined,
          at,
          `entry ${n + 1} has a word longer than 1000 bytes: not a word2vec binary file?`,
        );
      const word = r.buf.toString('utf8', r.pos, s);
      r.pos = s + 1;
      if (r.ensure(bytes) < bytes) {
        fail(
          'PARSE_ERROR',
          file,
          undefined,
          r.fileOffset(),
          `the file ends inside the vector of ${JSON.stringify(word)} (entry ${n + 1} of ${count}): ${r.end - r.pos} of ${bytes} bytes`,
        );
      }
      if (!keep || keep.has(word)) {
        out.reserve(dim);
        const dv = new DataView(r.buf.buffer, r.buf.byteOffset + r.pos, bytes);
        for (let k = 0; k < dim; k++) out.data[out.length + k] = dv.getFloat32(k * 4, true);
        out.length += dim;
        words.push(word);
      }
      r.pos += bytes;
    }
    const matrix = out.trimmed();
    return { words, dim, matrix, norms: rowNorms(matrix, dim) };
  } finally {
    r.close();
  }
}

/**
 * Reads a vector file in one streaming pass (4 MB window): a multi-gigabyte file never becomes one
 * string, and with `vocabulary`/`limit` only the kept rows are stored. Errors name the file, the
 * line and byte offset: PARSE_ERROR for malformed or truncated content, DIMENSION_MISMATCH for a row
 * whose length differs from the header's (or the first row's) dimension.
 */
export function readVectorFile(file: string, options: VectorFileOptions = {}): VectorTable {
  const format = options.format && options.format !== 'auto' ? options.format : detectVectorFormat(file);
  if (format === 'word2vec-binary') return readBinary(file, options);
  return readText(file, format !== 'glove', options);
}

export interface LoadVectorFileOptions extends VectorFileOptions, CachedLoadOptions {
  caseFolding?: CaseFolding;
  name?: string;
  /** Keep a binary cache of the parsed file (keyed by path, size, mtime and options). Default true. */
  cache?: boolean;
  cacheDir?: string;
}

/**
 * Loads a vector file as a `StaticEmbedding`, through the binary cache (rebuilt when the file's size
 * or modification time changes). Default case folding `none`: user files may be cased.
 */
export async function loadVectorFile(file: string, options: LoadVectorFileOptions = {}): Promise<StaticEmbedding> {
  const abs = resolve(file);
  const name = options.name ?? basename(abs);
  const embedOpts = { caseFolding: options.caseFolding ?? 'none' } as const;
  if (options.cache === false) return new StaticEmbedding(name, readVectorFile(abs, options), embedOpts);
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(abs);
  } catch (cause) {
    throw new XtrustError('FILE_NOT_FOUND', `Vector file ${abs} does not exist`, { file: abs }, { cause });
  }
  const vocab = options.vocabulary ? [...options.vocabulary].sort() : undefined;
  const key = JSON.stringify({
    file: abs,
    size: st.size,
    mtime: st.mtimeMs,
    format: options.format ?? 'auto',
    limit: options.limit ?? null,
    vocab: vocab ? createHash('sha256').update(vocab.join('\n')).digest('hex') : null,
    xtrust: EMBEDDINGS_VERSION,
  });
  const cacheFile = join(
    options.cacheDir ?? cacheDir(),
    'embeddings',
    `file-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.xvec`,
  );
  const got = await loadCachedTable(
    cacheFile,
    key,
    () => readVectorFile(abs, { ...options, vocabulary: vocab }),
    options,
  );
  return new StaticEmbedding(name, got.table, embedOpts);
}
