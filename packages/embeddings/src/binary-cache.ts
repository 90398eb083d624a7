import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { XtrustError, writeFileAtomic } from '@xtrust/core';

const require = createRequire(import.meta.url);
/** This package's version: part of every cache key, so a cache written by another version is rebuilt, never misread. */
export const EMBEDDINGS_VERSION: string = (require('../package.json') as { version: string }).version;

const MAGIC = 'XTRUSTWV';
/** Bump when the byte layout below changes. */
export const CACHE_FORMAT_VERSION = 2;

/**
 * Word → row look-up without one JS string per word: the cache's open-addressing hash table over
 * the UTF-8 vocabulary. Building a Map of 341k strings costs more than reading the whole 140 MB file.
 */
export interface VocabIndex {
  readonly count: number;
  /** Row of the word (exact bytes), or −1. */
  find(word: string): number;
  /** The word of a row, decoded on demand. */
  wordAt(row: number): string;
}

/**
 * A vocabulary with its row-major Float32 matrix (count×dim) and the rows' L2 norms. A table read
 * from a cache has an `index` and decodes `words` only when asked.
 */
export interface VectorTable {
  readonly words: readonly string[];
  readonly dim: number;
  readonly matrix: Float32Array;
  readonly norms: Float32Array;
  readonly index?: VocabIndex;
}

interface Header {
  key: string;
  count: number;
  dim: number;
  vocabBytes: number;
  tableSize: number;
  createdBy: string;
}

/** FNV-1a, 32 bits, over bytes [start, end). */
function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function tableSizeFor(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

class HashedVocab implements VocabIndex {
  readonly count: number;
  private readonly mask: number;
  constructor(
    private readonly vocab: Uint8Array,
    private readonly offsets: Int32Array,
    private readonly table: Int32Array,
  ) {
    this.count = offsets.length - 1;
    this.mask = table.length - 1;
  }
  private end(row: number): number {
    // words are separated by one "\n" byte; the last one ends at the blob's end
    return row + 1 === this.count ? this.offsets[row + 1] : this.offsets[row + 1] - 1;
  }
  find(word: string): number {
    const q = Buffer.from(word, 'utf8');
    let slot = fnv1a(q, 0, q.length) & this.mask;
    for (;;) {
      const entry = this.table[slot];
      if (entry === 0) return -1;
      const row = entry - 1;
      const s = this.offsets[row];
      const e = this.end(row);
      if (e - s === q.length) {
        let k = 0;
        while (k < q.length && this.vocab[s + k] === q[k]) k++;
        if (k === q.length) return row;
      }
      slot = (slot + 1) & this.mask;
    }
  }
  wordAt(row: number): string {
    return Buffer.from(this.vocab.buffer, this.vocab.byteOffset, this.vocab.byteLength).toString(
      'utf8',
      this.offsets[row],
      this.end(row),
    );
  }
}

/** Byte offsets of the words in the "\n"-joined blob (count + 1 entries) and the hash table (row + 1 per slot, 0 = empty; first occurrence wins). */
function buildIndex(vocab: Uint8Array, count: number): { offsets: Int32Array; table: Int32Array } {
  const offsets = new Int32Array(count + 1);
  let row = 0;
  for (let i = 0; i < vocab.length && row < count - 1; i++) if (vocab[i] === 10) offsets[++row] = i + 1;
  offsets[count] = vocab.length;
  const table = new Int32Array(tableSizeFor(count));
  const mask = table.length - 1;
  const probe = new HashedVocab(vocab, offsets, table);
  for (let r = 0; r < count; r++) {
    const s = offsets[r];
    const e = r + 1 === count ? offsets[r + 1] : offsets[r + 1] - 1;
    if (probe.find(Buffer.from(vocab.buffer, vocab.byteOffset + s, e - s).toString('utf8')) >= 0) continue; // duplicate
    let slot = fnv1a(vocab, s, e) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = r + 1;
  }
  return { offsets, table };
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
 * length, header JSON {key, count, dim, vocabBytes, tableSize, createdBy}, padding to 4; the
 * vocabulary as UTF-8 words separated by "\n", padding to 4; Int32 word offsets (count + 1); the
 * Int32 hash table (tableSize); the count×dim Float32 matrix; the count Float32 norms. Alignment lets
 * a load view every array in place instead of copying 136 MB.
 */
export function encodeVectorCache(key: string, table: VectorTable): Uint8Array[] {
  const { words, dim, matrix, norms } = table;
  const count = words.length;
  if (matrix.length !== count * dim || norms.length !== count) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `cache: ${count} words need ${count * dim} values and ${count} norms, got ${matrix.length} and ${norms.length}`,
    );
  }
  for (const w of words) {
    if (w.includes('\n'))
      throw new XtrustError('INVALID_ARGUMENT', `cache: a word contains a newline (${JSON.stringify(w)})`);
  }
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const { offsets, table: hash } = buildIndex(vocab, count);
  const header: Header = {
    key,
    count,
    dim,
    vocabBytes: vocab.length,
    tableSize: hash.length,
    createdBy: `@xtrust/embeddings@${EMBEDDINGS_VERSION}`,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.alloc(pad4(16 + headerBytes.length));
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(CACHE_FORMAT_VERSION, 8);
  pre.writeUInt32LE(headerBytes.length, 12);
  headerBytes.copy(pre, 16);
  const vocabPadded = Buffer.alloc(pad4(vocab.length));
  vocab.copy(vocabPadded);
  const bytes = (a: Int32Array | Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return [pre, vocabPadded, bytes(offsets), bytes(hash), bytes(matrix), bytes(norms)];
}

/** Writes a cache file atomically (temporary file + rename). */
export function writeVectorCache(file: string, key: string, table: VectorTable): void {
  writeFileAtomic(file, encodeVectorCache(key, table));
}

export type CacheRead =
  | { readonly status: 'ok'; readonly table: VectorTable }
  | { readonly status: 'missing' }
  | { readonly status: 'stale'; readonly reason: string };

function view<T extends Float32Array | Int32Array>(
  Type: { new (b: ArrayBufferLike, o: number, l: number): T; new (b: ArrayBufferLike): T },
  buf: Buffer,
  offset: number,
  length: number,
): T {
  const abs = buf.byteOffset + offset;
  // Large reads get their own ArrayBuffer (offset 0); small pooled Buffers may be misaligned: copy then.
  if (abs % 4 === 0) return new Type(buf.buffer, abs, length);
  return new Type(buf.buffer.slice(abs, abs + length * 4));
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
  if (buf.toString('latin1', 0, 8) !== MAGIC)
    return { status: 'stale', reason: 'not an xtrust vector cache (bad magic)' };
  const version = buf.readUInt32LE(8);
  if (version !== CACHE_FORMAT_VERSION)
    return { status: 'stale', reason: `format version ${version}, expected ${CACHE_FORMAT_VERSION}` };
  const hlen = buf.readUInt32LE(12);
  if (16 + hlen > buf.length) return { status: 'stale', reason: 'truncated header' };
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', 16, 16 + hlen)) as Header;
  } catch {
    return { status: 'stale', reason: 'unreadable header' };
  }
  if (header.key !== key) return { status: 'stale', reason: `written for "${header.key}", expected "${key}"` };
  const { count, dim, vocabBytes, tableSize } = header;
  if (
    !Number.isInteger(count) ||
    !Number.isInteger(dim) ||
    !Number.isInteger(tableSize) ||
    count < 0 ||
    dim <= 0 ||
    tableSize < count
  ) {
    return { status: 'stale', reason: 'header with invalid sizes' };
  }
  const vocabStart = pad4(16 + hlen);
  const offStart = vocabStart + pad4(vocabBytes);
  const tableStart = offStart + (count + 1) * 4;
  const matStart = tableStart + tableSize * 4;
  const normStart = matStart + count * dim * 4;
  const expected = normStart + count * 4;
  if (buf.length !== expected)
    return { status: 'stale', reason: `${buf.length} bytes, expected ${expected} (truncated or padded)` };
  const vocab = new Uint8Array(buf.buffer, buf.byteOffset + vocabStart, vocabBytes);
  const offsets = view(Int32Array, buf, offStart, count + 1);
  if (count > 0 && (offsets[0] !== 0 || offsets[count] !== vocabBytes))
    return { status: 'stale', reason: 'word offsets do not match the vocabulary' };
  const index = new HashedVocab(vocab, offsets, view(Int32Array, buf, tableStart, tableSize));
  let words: string[] | undefined;
  const table: VectorTable = {
    get words() {
      // decoded on first use only: look-ups go through the hash table
      words ??=
        count === 0 ? [] : Buffer.from(vocab.buffer, vocab.byteOffset, vocab.byteLength).toString('utf8').split('\n');
      return words;
    },
    dim,
    matrix: view(Float32Array, buf, matStart, count * dim),
    norms: view(Float32Array, buf, normStart, count),
    index,
  };
  return { status: 'ok', table };
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
export async function loadCachedTable(
  file: string,
  key: string,
  build: () => Promise<VectorTable> | VectorTable,
  options: CachedLoadOptions = {},
): Promise<CachedLoad> {
  const warn = options.warn ?? ((m: string) => process.emitWarning(m, { code: 'XTRUST_CACHE' }));
  const tryRead = (): CacheRead => {
    try {
      return readVectorCache(file, key);
    } catch (e) {
      return { status: 'stale', reason: `unreadable: ${(e as Error).message}` };
    }
  };
  let read = tryRead();
  if (read.status === 'ok') return { table: read.table, source: 'cache', cacheFile: file };
  // Another process (a parallel test worker, a second CLI run) may be building the same cache:
  // wait for it instead of parsing 300 MB twice on a shared machine.
  const lock = await acquireLock(`${file}.lock`);
  try {
    if (lock.waited) {
      read = tryRead();
      if (read.status === 'ok') return { table: read.table, source: 'cache', cacheFile: file };
    }
    if (read.status === 'stale') warn(`xtrust: rebuilding the vector cache ${file}: ${read.reason}`);
    const table = await build();
    try {
      writeVectorCache(file, key, table);
      return { table, source: 'built', cacheFile: file };
    } catch (e) {
      warn(
        `xtrust: cannot write the vector cache ${file} (${(e as Error).message}); keeping the vectors in memory only. Set XTRUST_CACHE_DIR to a writable folder.`,
      );
      return { table, source: 'built', cacheFile: undefined };
    }
  } finally {
    if (lock.owned) rmSync(`${file}.lock`, { force: true });
  }
}

/** A lock older than this is taken to be left by a crashed process. */
const LOCK_STALE_MS = 10 * 60_000;

/**
 * Creates `lock` exclusively (`owned`: the caller removes it); while another process holds a fresh
 * one, waits until it is gone (`waited`: the cache may now exist); when the folder cannot be
 * written, goes on without a lock.
 */
async function acquireLock(lock: string): Promise<{ owned: boolean; waited: boolean }> {
  let waited = false;
  for (;;) {
    try {
      mkdirSync(dirname(lock), { recursive: true });
      closeSync(openSync(lock, 'wx'));
      return { owned: true, waited };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return { owned: false, waited };
    }
    let age: number;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released between our attempts: try again
    }
    if (age > LOCK_STALE_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    waited = true;
    await sleep(200);
    try {
      statSync(lock);
    } catch {
      return { owned: false, waited };
    }
  }
}
