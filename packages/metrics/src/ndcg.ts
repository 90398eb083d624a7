import { XtrustError, words as tokenWords, type WordEmbedding } from '@xtrust/core';
import { checkFinite, checkPositiveInt, checkStringArray, invalid } from './validate.js';

/**
 * A word's relevance to the class name: a function or a precomputed table (e.g. from
 * `classNameRelevance`). For NDCG against the class name it is the cosine similarity between the
 * word's embedding and the class name's (003_0785e9c45c69d264.txt §4).
 */
export type Relevance = ((word: string) => number) | ReadonlyMap<string, number>;

/** The cut-offs of 003 §4 and §6: NDCG@1, @3, @5 and @10. */
export const NDCG_DEFAULT_KS: readonly number[] = [1, 3, 5, 10];

export interface NdcgOptions {
  /**
   * The "_unique" variant of 003 §6: repeated words are removed from the explanation (first occurrence
   * kept) before taking its top k, and the ideal ordering is built from the distinct words of the text.
   * Default false: the explanation is used as given and the ideal ordering from every token of the text
   * (with repetitions), so that a list with repeats can never beat the ideal.
   */
  unique?: boolean;
  /**
   * Negative cosines: 'clip' (default) turns them into relevance 0, so NDCG stays in [0, 1]; 'keep'
   * uses them as they are (NDCG may then be negative).
   */
  negative?: 'clip' | 'keep';
}

/**
 * DCG@k of a list of gains: Σ_{j=1}^{k} rel_j · D(j) with D(j) = 1 / log(1 + j). Gains past the end of
 * the list count 0. The log base cancels in NDCG; base 2 is used (D(1) = 1).
 * Source: 003_0785e9c45c69d264.txt §4, Eq. 5 (Järvelin & Kekäläinen 2002).
 */
export function dcg(gains: ArrayLike<number>, k: number): number {
  checkPositiveInt('k', k);
  const n = Math.min(k, gains.length);
  let s = 0;
  for (let j = 1; j <= n; j++) s += gains[j - 1] / Math.log2(1 + j);
  return s;
}

function relevanceOf(relevance: Relevance, word: string, clip: boolean): number {
  let r: unknown;
  if (typeof relevance === 'function') r = relevance(word);
  else if (relevance instanceof Map) {
    r = relevance.get(word);
    if (r === undefined)
      throw invalid('relevance', `an entry for every word of the text and the explanation`, `no entry for "${word}"`);
  } else throw invalid('relevance', 'a function (word) => number or a Map<word, number>', relevance);
  const x = checkFinite(`relevance("${word}")`, r);
  return clip && x < 0 ? 0 : x;
}

function prepareNdcg(
  explanation: readonly string[],
  textWords: readonly string[],
  relevance: Relevance,
  options: NdcgOptions,
) {
  checkStringArray('explanation', explanation);
  checkStringArray('textWords', textWords);
  const negative = options.negative ?? 'clip';
  if (negative !== 'clip' && negative !== 'keep') throw invalid('options.negative', "'clip' or 'keep'", negative);
  const clip = negative === 'clip';
  const unique = options.unique === true;
  const cache = new Map<string, number>();
  const rel = (w: string) => {
    let r = cache.get(w);
    if (r === undefined) cache.set(w, (r = relevanceOf(relevance, w, clip)));
    return r;
  };
  const list = unique ? [...new Set(explanation)] : [...explanation];
  // The ideal pool: the text's words (distinct, or with their multiplicity), widened by any explanation
  // word the text lacks, so that no explanation can score above the ideal.
  const count = new Map<string, number>();
  for (const w of textWords) count.set(w, unique ? 1 : (count.get(w) ?? 0) + 1);
  const inList = new Map<string, number>();
  for (const w of list) inList.set(w, (inList.get(w) ?? 0) + 1);
  for (const [w, c] of inList) if ((count.get(w) ?? 0) < c) count.set(w, c);
  let size = 0;
  for (const c of count.values()) size += c;
  const pool = new Float64Array(size);
  let n = 0;
  for (const [w, c] of count) for (let i = 0; i < c; i++) pool[n++] = rel(w);
  pool.sort().reverse();
  const gains = Float64Array.from(list, rel);
  return { gains, ideal: pool };
}

function ndcgFrom(gains: Float64Array, ideal: Float64Array, k: number): number {
  const best = dcg(ideal, k);
  if (!(best > 0)) return 0;
  return Math.min(1, dcg(gains, k) / best);
}

/**
 * NDCG@k of an explanation against the class name: DCG@k of the explanation's top k words, with the
 * relevance of a word its cosine similarity to the class name, divided by the DCG@k of the ideal
 * ordering — all words of the text sorted by that relevance.
 * Source: 003_0785e9c45c69d264.txt §4 (Eq. 5 and the text after it); unique-word variant §6.
 * @param explanation the explanation's words, most important first (repeats allowed unless `unique`).
 * @param textWords every word (token) of the explained text.
 * Edge cases: k larger than the explanation → missing ranks gain 0, the ideal still has k (or all of
 * the text's) words; an empty explanation → 0; no word of the text relevant (ideal DCG 0) → 0.
 */
export function ndcgAtK(
  explanation: readonly string[],
  textWords: readonly string[],
  relevance: Relevance,
  k: number,
  options: NdcgOptions = {},
): number {
  checkPositiveInt('k', k);
  const { gains, ideal } = prepareNdcg(explanation, textWords, relevance, options);
  return ndcgFrom(gains, ideal, k);
}

/** NDCG@k for several k at once (default 1, 3, 5, 10), keyed by k. Same conventions as `ndcgAtK`. */
export function ndcgAtKs(
  explanation: readonly string[],
  textWords: readonly string[],
  relevance: Relevance,
  ks: readonly number[] = NDCG_DEFAULT_KS,
  options: NdcgOptions = {},
): Record<number, number> {
  if (!Array.isArray(ks) || ks.length === 0) throw invalid('ks', 'a non-empty array of positive integers', ks);
  ks.forEach((k, i) => checkPositiveInt(`ks[${i}]`, k));
  const { gains, ideal } = prepareNdcg(explanation, textWords, relevance, options);
  const out: Record<number, number> = {};
  for (const k of ks) out[k] = ndcgFrom(gains, ideal, k);
  return out;
}

/**
 * The relevance table for NDCG against a class name: cosine similarity between each word's vector and
 * the class name's vector — the mean of its words' vectors for a multi-word name (003 §5, "Machine
 * learning"). One batched `vectors` call for all words.
 * @param className a label (split into lower-case words by core's tokenizer) or its words.
 * Edge cases: a word the embedding lacks gets relevance 0; a class name none of whose words the
 * embedding knows → NO_KNOWN_WORDS; a zero vector has cosine 0 with everything.
 */
export async function classNameRelevance(
  embedding: WordEmbedding,
  className: string | readonly string[],
  words: readonly string[],
): Promise<Map<string, number>> {
  if (!embedding || typeof embedding.vectors !== 'function' || typeof embedding.has !== 'function') {
    throw invalid('embedding', 'a WordEmbedding', embedding);
  }
  checkStringArray('words', words);
  const classWords =
    typeof className === 'string'
      ? tokenWords(className, { lowercase: true })
      : checkStringArray('className', className);
  if (classWords.length === 0) throw invalid('className', 'a class name with at least one word', className);
  const knownClass = classWords.filter((w) => embedding.has(w));
  if (knownClass.length === 0) {
    throw new XtrustError(
      'NO_KNOWN_WORDS',
      `className: none of the words ${JSON.stringify(classWords)} is in embedding "${embedding.name}"`,
      {
        argument: 'className',
        words: classWords,
        embedding: embedding.name,
      },
    );
  }
  const distinct = [...new Set(words)];
  const known = distinct.filter((w) => embedding.has(w));
  const dim = embedding.dim;
  const all = await embedding.vectors([...knownClass, ...known]);
  if (all.length !== (knownClass.length + known.length) * dim) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `embedding "${embedding.name}" returned ${all.length} numbers for ${knownClass.length + known.length} words of dimension ${dim}`,
    );
  }
  const c = new Float64Array(dim);
  for (let r = 0; r < knownClass.length; r++)
    for (let d = 0; d < dim; d++) c[d] += all[r * dim + d] / knownClass.length;
  let cn = 0;
  for (let d = 0; d < dim; d++) cn += c[d] * c[d];
  cn = Math.sqrt(cn);
  const out = new Map<string, number>();
  for (const w of distinct) out.set(w, 0);
  known.forEach((w, r) => {
    const off = (knownClass.length + r) * dim;
    let dot = 0;
    let n = 0;
    for (let d = 0; d < dim; d++) {
      const v = all[off + d];
      dot += v * c[d];
      n += v * v;
    }
    const denom = Math.sqrt(n) * cn;
    out.set(w, denom > 0 ? dot / denom : 0);
  });
  return out;
}
