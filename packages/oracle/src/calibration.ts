import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { XtrustError, rng, type WordEmbedding } from '@xtrust/core';
import { knownVectors } from './word-vectors.js';
import { lowerBound } from './lower-bound.js';

/** What calibration needs from a lexicon — @xtrust/embeddings' `WordNet` has both methods. */
export interface CalibrationLexicon {
  /** Lemmas by decreasing corpus frequency (WordNet: sense tag counts of index.sense). */
  mostFrequent(n: number, options?: { singleWord?: boolean }): readonly { readonly lemma: string }[];
  /** Synonyms of a word (other lemmas of its synsets). */
  synonyms(word: string): readonly string[];
}

/** A word pair. */
export type WordPair = readonly [string, string];

/** Precision and recall of both classes (related, unrelated) at one threshold. */
export interface PairClassification {
  readonly relatedPrecision: number;
  readonly relatedRecall: number;
  readonly unrelatedPrecision: number;
  readonly unrelatedRecall: number;
}

export interface CalibrationResult extends PairClassification {
  readonly embedding: string;
  readonly thetaRelate: number;
  /** Pairs used after dropping those with a word the embedding lacks. */
  readonly relatedPairs: number;
  readonly unrelatedPairs: number;
  readonly droppedOutOfVocabulary: number;
  readonly iterations: number;
  readonly seed: number;
  readonly frequentWords: number;
}

/**
 * The related pairs of §3.1's calibration: the `words` most frequent English words (distinct lemmas
 * by WordNet sense tag counts, single words only), each paired with each of its single-word synonyms.
 * The paper took synonyms from Merriam-Webster; offline, WordNet's synsets stand in. Pairs are
 * unordered and deduplicated.
 */
export function relatedPairs(lexicon: CalibrationLexicon, words = 1000): WordPair[] {
  const frequent: string[] = [];
  const seen = new Set<string>();
  // mostFrequent ranks (lemma, part of speech) rows: ask for more rows and keep distinct lemmas
  for (let ask = words * 3; frequent.length < words; ask *= 2) {
    const rows = lexicon.mostFrequent(ask, { singleWord: true });
    for (const r of rows) {
      const w = r.lemma.toLowerCase();
      if (frequent.length >= words) break;
      if (!seen.has(w) && /^[\p{L}]+$/u.test(w)) {
        seen.add(w);
        frequent.push(w);
      }
    }
    if (rows.length < ask) break; // the lexicon has no more
  }
  const pairs: WordPair[] = [];
  const key = new Set<string>();
  for (const w of frequent) {
    for (const s0 of lexicon.synonyms(w)) {
      const s = s0.toLowerCase();
      if (s === w || !/^[\p{L}]+$/u.test(s)) continue; // single words only
      const k = w < s ? `${w} ${s}` : `${s} ${w}`;
      if (key.has(k)) continue;
      key.add(k);
      pairs.push([w, s]);
    }
  }
  return pairs;
}

/**
 * `count` random unordered pairs of distinct words from `vocabulary`, none of which is in `exclude`
 * (the related pairs), drawn with a seeded generator — the unrelated class of the calibration.
 */
export function randomPairs(
  vocabulary: readonly string[],
  count: number,
  exclude: readonly WordPair[],
  seed: number,
): WordPair[] {
  if (vocabulary.length < 2) throw new XtrustError('INVALID_ARGUMENT', 'randomPairs: need at least two words');
  const banned = new Set(exclude.map(([a, b]) => (a < b ? `${a} ${b}` : `${b} ${a}`)));
  const g = rng(seed);
  const out: WordPair[] = [];
  const taken = new Set<string>();
  const maxTries = count * 50 + 1000;
  for (let t = 0; out.length < count && t < maxTries; t++) {
    const a = vocabulary[g.int(vocabulary.length)];
    const b = vocabulary[g.int(vocabulary.length)];
    if (a === b) continue;
    const k = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (banned.has(k) || taken.has(k)) continue;
    taken.add(k);
    out.push([a, b]);
  }
  return out;
}

/** Precision/recall of both classes when "related ⇔ similarity ≥ θ"; `rel` and `unr` sorted ascending. */
export function classifyPairs(rel: Float64Array, unr: Float64Array, theta: number): PairClassification {
  const tp = rel.length - lowerBound(rel, theta); // related with sim ≥ θ
  const fp = unr.length - lowerBound(unr, theta);
  const fn = rel.length - tp;
  const tn = unr.length - fp;
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  return {
    relatedPrecision: ratio(tp, tp + fp),
    relatedRecall: ratio(tp, tp + fn),
    unrelatedPrecision: ratio(tn, tn + fn),
    unrelatedRecall: ratio(tn, tn + fp),
  };
}

/** Cosine similarity of each pair, from one `vectors` call over the distinct words. */
async function pairSimilarities(embedding: WordEmbedding, pairs: readonly WordPair[]): Promise<Float64Array> {
  const words = [...new Set(pairs.flat())];
  const kv = await knownVectors(embedding, words);
  const row = new Map<string, number>();
  words.forEach((w, i) => {
    if (kv.index[i] < 0)
      throw new XtrustError('OUT_OF_VOCABULARY', `"${w}" is not in embedding ${embedding.name}`, { word: w });
    row.set(w, kv.index[i]);
  });
  const dim = embedding.dim;
  const norms = new Float64Array(kv.known.length);
  for (let r = 0; r < norms.length; r++) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += kv.vectors[r * dim + d] ** 2;
    norms[r] = Math.sqrt(s);
  }
  const out = new Float64Array(pairs.length);
  pairs.forEach(([a, b], p) => {
    const i = row.get(a)!;
    const j = row.get(b)!;
    let s = 0;
    for (let d = 0; d < dim; d++) s += kv.vectors[i * dim + d] * kv.vectors[j * dim + d];
    out[p] = norms[i] === 0 || norms[j] === 0 ? 0 : s / (norms[i] * norms[j]);
  });
  return out;
}

/**
 * θ_relate for one embedding from related and unrelated pairs (§3.1): binary search on the cosine
 * threshold until the related class's recall equals the unrelated class's recall (within one pair).
 * With as many unrelated as related pairs, equal recalls make all four of precision and recall of both
 * classes equal — the paper's "balanced". Pairs with a word the embedding lacks are dropped first.
 */
export async function thresholdFromPairs(
  embedding: WordEmbedding,
  related: readonly WordPair[],
  unrelated: readonly WordPair[],
): Promise<Omit<CalibrationResult, 'seed' | 'frequentWords'>> {
  const keep = (ps: readonly WordPair[]) => ps.filter(([a, b]) => embedding.has(a) && embedding.has(b));
  const r = keep(related);
  const u = keep(unrelated);
  const dropped = related.length - r.length + unrelated.length - u.length;
  if (r.length === 0 || u.length === 0) {
    throw new XtrustError(
      'OUT_OF_VOCABULARY',
      `embedding ${embedding.name} knows no word pair of the calibration lists (${related.length} related, ${unrelated.length} unrelated)`,
      { embedding: embedding.name },
    );
  }
  const rel = (await pairSimilarities(embedding, r)).sort();
  const unr = (await pairSimilarities(embedding, u)).sort();
  let lo = -1;
  let hi = 1;
  let iterations = 0;
  const tolerance = 1 / Math.max(r.length, u.length);
  let theta = 0;
  while (iterations < 60) {
    iterations++;
    theta = (lo + hi) / 2;
    const c = classifyPairs(rel, unr, theta);
    const gap = c.relatedRecall - c.unrelatedRecall; // decreasing in θ
    if (Math.abs(gap) <= tolerance) break;
    if (gap > 0) lo = theta;
    else hi = theta;
    if (hi - lo < 1e-9) break;
  }
  return {
    embedding: embedding.name,
    thetaRelate: theta,
    relatedPairs: r.length,
    unrelatedPairs: u.length,
    droppedOutOfVocabulary: dropped,
    iterations,
    ...classifyPairs(rel, unr, theta),
  };
}

/** The xtrust cache folder: `$XTRUST_CACHE_DIR`, else `$XDG_CACHE_HOME/xtrust`, else `~/.cache/xtrust` (read at each call). */
export function xtrustCacheDir(): string {
  const own = process.env.XTRUST_CACHE_DIR;
  if (own && own.trim() !== '') return own;
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && xdg.trim() !== '') return join(xdg, 'xtrust');
  return join(homedir(), '.cache', 'xtrust');
}

export interface CalibrateOptions {
  readonly seed?: number;
  /** Most frequent words taken (default 1,000, as the paper). */
  readonly frequentWords?: number;
  /** Read and write the cached result (default true). */
  readonly cache?: boolean;
}

/**
 * θ_relate of one embedding method (§3.1): related pairs from WordNet synonyms of the most frequent
 * words, as many seeded random pairs from the same vocabulary, binary search to the balance point.
 * The result is cached per embedding (name, dimension and the vectors of a few common words), seed
 * and word count under `<cache>/oracle/`, so each method is calibrated once per machine.
 */
export async function calibrateThetaRelate(
  embedding: WordEmbedding,
  lexicon: CalibrationLexicon,
  options: CalibrateOptions = {},
): Promise<CalibrationResult> {
  const seed = options.seed ?? 0;
  const frequentWords = options.frequentWords ?? 1000;
  const safe = embedding.name.replace(/[^A-Za-z0-9._-]+/g, '_');
  // the vectors of a few common words key the cache too: a rebuilt or retrained embedding of the same name recalibrates
  const probe = ['the', 'time', 'good', 'house', 'run'].filter((w) => embedding.has(w));
  const probeVectors = probe.length ? await embedding.vectors(probe) : new Float32Array(0);
  const digest = createHash('sha256')
    .update(probe.join(' '))
    .update(Buffer.from(probeVectors.buffer, probeVectors.byteOffset, probeVectors.byteLength))
    .digest('hex')
    .slice(0, 12);
  const file = join(
    xtrustCacheDir(),
    'oracle',
    `theta-relate-${safe}-d${embedding.dim}-w${frequentWords}-s${seed}-${digest}.json`,
  );
  if (options.cache !== false) {
    try {
      const cached = JSON.parse(await readFile(file, 'utf8')) as CalibrationResult;
      if (cached.embedding === embedding.name && typeof cached.thetaRelate === 'number') return cached;
    } catch {
      // no cache yet, or unreadable: calibrate and (re)write it
    }
  }
  const allRelated = relatedPairs(lexicon, frequentWords);
  const related = allRelated.filter(([a, b]) => embedding.has(a) && embedding.has(b));
  const vocabulary = [...new Set(related.flat())].sort();
  const unrelated = randomPairs(vocabulary, related.length, related, seed);
  const fit = await thresholdFromPairs(embedding, related, unrelated);
  const result: CalibrationResult = {
    ...fit,
    droppedOutOfVocabulary: allRelated.length - related.length,
    seed,
    frequentWords,
  };
  if (options.cache !== false) {
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(result, null, 2));
    await rename(tmp, file);
  }
  return result;
}
