import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { XtrustError } from '@xtrust/core';
import { writeFileAtomic } from './cache-dir.js';

const require = createRequire(import.meta.url);
/** This package's version: part of every cache key, so a cache written by another version is rebuilt, never misread. */
export const EMBEDDINGS_VERSION: string = (require('../package.json') as { version: string }).version;

const MAGIC = 'XTRUSTWV';
/** Bump when the byte layout below changes. */
export const CACHE_FORMAT_VERSION = 1;

/** A vocabulary with its row-major Float32 matrix (count×dim) and the rows' L2 norms. */
export interface VectorTable {
  readonly words: readonly string[];
  readonly dim: number;
  readonly matrix: Float32Array;
  readonly norms: Float32Array;
}

interface Header {
  key: string;
  count: number;
  dim: number;
  vocabBytes: number;
  createdBy: string;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** L2 norms of the rows of a count×dim matrix (accumulated in double precision). */
export function rowNorms(matrix: Float32Array, dim: number): Float32Array {
  const count = matrix.length / dim;
  const norms = new Float32Array(count);
  for (let r = 0; r < count; r++) {
    let s = 0;
    const o = r * dim;
    for (let d = 0; d < dim; d++) s += matrix[o + d] * matrix[o + d];
    norms[r] = Math.sqrt(s);
  }
  return norms;
}

/**
 * The bytes of a cache file. Layout (little-endian): "XTRUSTWV", u32 format version, u32 header
 * length, header JSON {key, count, dim, vocabBytes, createdBy}, padding to 4; the vocabulary as UTF-8
 * words separated by "\n", padding to 4; the count×dim Float32 matrix; the count Float32 norms.
 * Alignment lets a load view the matrix in place instead of copying 136 MB.
 */
export function encodeVectorCache(key: string, table: VectorTable): Uint8Array[] {
  const { words, dim, matrix, norms } = table;
  const count = words.length;
  if (matrix.length !== count * dim || norms.length !== count) {
    throw new XtrustError('DIMENSION_MISMATCH', `cache: ${count} words need ${count * dim} values and ${count} norms, got ${matrix.length} and ${norms.length}`);
  }
  for (const w of words) {
    if (w.includes('\n')) throw new XtrustError('INVALID_ARGUMENT', `cache: a word contains a newline (${JSON.stringify(w)})`);
  }
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const header: Header = { key, count, dim, vocabBytes: vocab.length, createdBy: `@xtrust/embeddings@${EMBEDDINGS_VERSION}` };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.alloc(pad4(16 + headerBytes.length));
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(CACHE_FORMAT_VERSION, 8);
  pre.writeUInt32LE(headerBytes.length, 12);
  headerBytes.copy(pre, 16);
  const vocabPadded = Buffer.alloc(pad4(vocab.length));
  vocab.copy(vocabPadded);
  return [pre, vocabPadded, new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength), new Uint8Array(norms.buffer, norms.byteOffset, norms.byteLength)];
}

/** Writes a cache file atomically (temporary file + rename). */
export function writeVectorCache(file: string, key: string, table: VectorTable): void {
  writeFileAtomic(file, encodeVectorCache(key, table));
}

export type CacheRead = { readonly status: 'ok'; readonly table: VectorTable } | { readonly status: 'missing' } | { readonly status: 'stale'; readonly reason: string };

function f32View(buf: Buffer, offset: number, length: number): Float32Array {
  const abs = buf.byteOffset + offset;
  // Large reads get their own ArrayBuffer (offset 0); small pooled Buffers may be misaligned: copy then.
  if (abs % 4 === 0) return new Float32Array(buf.buffer, abs, length);
  return new Float32Array(buf.buffer.slice(abs, abs + length * 4));
}

/**
 * Reads a cache file written by `writeVectorCache`. `missing` when there is none; `stale` (with the
 * reason) when it has another key, format version or length — the caller rebuilds it rather than
 * trusting bytes it did not write.
 */
export function readVectorCache(file: string, key: string): CacheRead {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { status: 'missing' };
  }
  if (size < 16) return { status: 'stale', reason: `${size} bytes is too short for a header` };
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 8) !== MAGIC) return { status: 'stale', reason: 'not an xtrust vector cache (bad magic)' };
  const version = buf.readUInt32LE(8);
  if (version !== CACHE_FORMAT_VERSION) return { status: 'stale', reason: `format version ${version}, expected ${CACHE_FORMAT_VERSION}` };
  const hlen = buf.readUInt32LE(12);
  if (16 + hlen > buf.length) return { status: 'stale', reason: 'truncated header' };
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', 16, 16 + hlen)) as Header;
  } catch {
    return { status: 'stale', reason: 'unreadable header' };
  }
  if (header.key !== key) return { status: 'stale', reason: `written for "${header.key}", expected "${key}"` };
  const { count, dim, vocabBytes } = header;
  const vocabStart = pad4(16 + hlen);
  const matStart = vocabStart + pad4(vocabBytes);
  const normStart = matStart + count * dim * 4;
  const expected = normStart + count * 4;
  if (buf.length !== expected) return { status: 'stale', reason: `${buf.length} bytes, expected ${expected} (truncated or padded)` };
  const words = count === 0 ? [] : buf.toString('utf8', vocabStart, vocabStart + vocabBytes).split('\n');
  if (words.length !== count) return { status: 'stale', reason: `${words.length} words in the vocabulary, header says ${count}` };
  return { status: 'ok', table: { words, dim, matrix: f32View(buf, matStart, count * dim), norms: f32View(buf, normStart, count) } };
}

export interface CachedLoadOptions {
  /** Called with a human-readable warning (default: `process.emitWarning`). */
  warn?: (message: string) => void;
}

export interface CachedLoad {
  readonly table: VectorTable;
  /** `cache`: read from the file; `built`: built now (and written, unless `cacheFile` is undefined). */
  readonly source: 'cache' | 'built';
  /** The cache file in use, or undefined when it could not be written (the table lives in memory only). */
  readonly cacheFile: string | undefined;
}

/**
 * Loads a table from its cache file, or builds it and writes the cache. A stale cache (another key or
 * version) is rebuilt and replaced; an unwritable cache folder is not an error: the built table is
 * used from memory and a warning says why.
 */
export async function loadCachedTable(file: string, key: string, build: () => Promise<VectorTable> | VectorTable, options: CachedLoadOptions = {}): Promise<CachedLoad> {
  const warn = options.warn ?? ((m: string) => process.emitWarning(m, { code: 'XTRUST_CACHE' }));
  let read: CacheRead;
  try {
    read = readVectorCache(file, key);
  } catch (e) {
    read = { status: 'stale', reason: `unreadable: ${(e as Error).message}` };
  }
  if (read.status === 'ok') return { table: read.table, source: 'cache', cacheFile: file };
  if (read.status === 'stale') warn(`xtrust: rebuilding the vector cache ${file}: ${read.reason}`);
  const table = await build();
  try {
    writeVectorCache(file, key, table);
    return { table, source: 'built', cacheFile: file };
  } catch (e) {
    warn(`xtrust: cannot write the vector cache ${file} (${(e as Error).message}); keeping the vectors in memory only. Set XTRUST_CACHE_DIR to a writable folder.`);
    return { table, source: 'built', cacheFile: undefined };
  }
}
