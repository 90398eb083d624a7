import { XtrustError, normalizeRows, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';
import { CosineIndex, cosineMatrix } from '@xtrust/native';
import { StaticEmbedding } from './static-embedding.js';
import type { Synonymity } from './thesaurus.js';
import { checkWords } from './words.js';

/** A neighbour of a query word with its cosine similarity. */
export interface Neighbour {
  readonly word: string;
  readonly score: number;
}

export interface NearestOptions {
  /**
   * Search only among these words (e.g. a word pool, or the 50k most frequent words). Words of the
   * list that the embedding lacks are skipped (they have no vector to compare); the query words
   * themselves must all be known (OUT_OF_VOCABULARY otherwise). Default: the whole vocabulary of a
   * static embedding; required for any other embedding (it has no enumerable vocabulary).
   */
  vocabulary?: readonly string[];
  /** Keep the query word itself among its neighbours. Default false. */
  includeSelf?: boolean;
}

/**
 * A search corpus prepared once: the candidate words and their unit-length vectors. Repeated
 * `nearest` queries against the same pool (an attack's candidate set, TOKI's word pool) reuse it.
 */
export class NeighbourIndex {
  readonly embedding: WordEmbedding;
  readonly size: number;
  readonly unit: Float32Array;
  /** Candidate words of the requested vocabulary that the embedding lacks (skipped). */
  readonly skipped: readonly string[];
  /** The candidate word of a corpus row. */
  readonly wordAt: (row: number) => string;
  /** Built on the first query: the corpus is validated once, not on every search (attacks query per word). */
  #index: CosineIndex | undefined;

  private constructor(
    embedding: WordEmbedding,
    size: number,
    wordAt: (row: number) => string,
    unit: Float32Array,
    skipped: readonly string[],
  ) {
    this.embedding = embedding;
    this.size = size;
    this.wordAt = wordAt;
    this.unit = unit;
    this.skipped = skipped;
  }

  /** Builds the index over `vocabulary` (default: all words of a static embedding). */
  static async build(embedding: WordEmbedding, vocabulary?: readonly string[]): Promise<NeighbourIndex> {
    if (vocabulary === undefined) {
      if (!(embedding instanceof StaticEmbedding)) {
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `nearest: ${embedding.name} has no enumerable vocabulary; pass options.vocabulary`,
          { embedding: embedding.name },
        );
      }
      return new NeighbourIndex(embedding, embedding.size, (r) => embedding.wordAt(r), embedding.unitMatrix(), []);
    }
    checkWords(vocabulary, 'nearest: vocabulary');
    const seen = new Set<string>();
    const known: string[] = [];
    const skipped: string[] = [];
    for (const w of vocabulary) {
      if (seen.has(w)) continue;
      seen.add(w);
      if (embedding.has(w)) known.push(w);
      else skipped.push(w);
    }
    const vecs = known.length > 0 ? await embedding.vectors(known) : new Float32Array(0);
    return new NeighbourIndex(embedding, known.length, (r) => known[r], normalizeRows(vecs, embedding.dim), skipped);
  }

  /** The k nearest candidates of each query word by cosine similarity, best first (through @xtrust/native's topK). */
  async query(words: readonly string[], k: number, options: { includeSelf?: boolean } = {}): Promise<Neighbour[][]> {
    checkWords(words, 'nearest: words');
    if (!Number.isInteger(k) || k <= 0)
      throw new XtrustError('INVALID_ARGUMENT', `nearest: k must be a positive integer, got ${k}`, { argument: 'k' });
    if (words.length === 0 || this.size === 0) return words.map(() => []);
    const dim = this.embedding.dim;
    const q = await this.embedding.vectors(words);
    const extra = options.includeSelf ? 0 : 1;
    this.#index ??= new CosineIndex(this.unit, dim);
    const res = this.#index.topK(q, Math.min(k + extra, this.size));
    const out: Neighbour[][] = [];
    const fold = (w: string) => w.toLowerCase();
    for (let i = 0; i < words.length; i++) {
      const self = fold(words[i]);
      const row: Neighbour[] = [];
      for (let j = 0; j < res.k && row.length < k; j++) {
        const w = this.wordAt(res.indices[i * res.k + j]);
        if (!options.includeSelf && fold(w) === self) continue;
        row.push({ word: w, score: res.scores[i * res.k + j] });
      }
      out.push(row);
    }
    return out;
  }
}

/**
 * The k nearest neighbours of each word by cosine similarity (batched top-k through @xtrust/native),
 * over the embedding's whole vocabulary or `options.vocabulary`. Used by A2T-style synonym search
 * (001 §4: substitutes within the embedding neighbourhood) and TOKI's word pools (000 §3).
 */
export async function nearest(
  embedding: WordEmbedding,
  words: readonly string[],
  k: number,
  options: NearestOptions = {},
): Promise<Neighbour[][]> {
  const index = await NeighbourIndex.build(embedding, options.vocabulary);
  return index.query(words, k, { includeSelf: options.includeSelf });
}

/** The |a|×|b| row-major matrix of cosine similarities between two word lists (@xtrust/native cosineMatrix). Throws OUT_OF_VOCABULARY for any unknown word. */
export async function similarityMatrix(
  embedding: WordEmbedding,
  a: readonly string[],
  b: readonly string[],
): Promise<Float32Array> {
  checkWords(a, 'similarityMatrix: a');
  checkWords(b, 'similarityMatrix: b');
  if (a.length === 0 || b.length === 0) return new Float32Array(0);
  const [va, vb] = await Promise.all([embedding.vectors(a), embedding.vectors(b)]);
  return cosineMatrix(va, vb, embedding.dim);
}

export interface EmbeddingSynonymityOptions {
  /**
   * What a pair with an out-of-vocabulary word scores: `throw` (default) raises OUT_OF_VOCABULARY;
   * `zero` scores it 0 (no evidence of synonymity) — an explicit choice, never a zero vector compared.
   * A word and itself always score 1, known or not.
   */
  oov?: 'throw' | 'zero';
}

/**
 * Interval synonymity from an embedding (004_87dc91cae9faa268.txt §4): Syn(a, b) = cos(v_a, v_b)
 * clipped to [0, 1], with Syn(x, x) = 1 exactly (the only condition the paper imposes).
 */
export class EmbeddingSynonymity implements Synonymity {
  readonly name: string;
  readonly embedding: WordEmbedding;
  readonly oov: 'throw' | 'zero';

  constructor(embedding: WordEmbedding, options: EmbeddingSynonymityOptions = {}) {
    this.embedding = embedding;
    this.oov = options.oov ?? 'throw';
    this.name = `syn-${embedding.name}`;
  }

  async syn(a: string, b: string): Promise<number> {
    return (await this.synPairs([a], [b]))[0];
  }

  /** Syn(a[i], b[i]) for aligned lists; one `vectors` call for all distinct words. */
  async synPairs(a: readonly string[], b: readonly string[]): Promise<Float32Array> {
    checkWords(a, 'Syn: a');
    checkWords(b, 'Syn: b');
    if (a.length !== b.length)
      throw new XtrustError('DIMENSION_MISMATCH', `Syn: ${a.length} words vs ${b.length} words`, {
        a: a.length,
        b: b.length,
      });
    const out = new Float32Array(a.length);
    const distinct = new Map<string, number>();
    const need = (w: string) => {
      if (!distinct.has(w) && (this.oov === 'throw' || this.embedding.has(w))) distinct.set(w, distinct.size);
    };
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      need(a[i]);
      need(b[i]);
    }
    const list = [...distinct.keys()];
    const dim = this.embedding.dim;
    const unit = list.length > 0 ? normalizeRows(await this.embedding.vectors(list), dim) : new Float32Array(0);
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) {
        out[i] = 1;
        continue;
      }
      const x = distinct.get(a[i]);
      const y = distinct.get(b[i]);
      if (x === undefined || y === undefined) continue; // oov: 'zero'
      let s = 0;
      for (let d = 0; d < dim; d++) s += unit[x * dim + d] * unit[y * dim + d];
      out[i] = Math.min(1, Math.max(0, s));
    }
    return out;
  }

  /** The |a|×|b| matrix of Syn values (cosines through @xtrust/native, clipped to [0, 1]). */
  async synMatrix(a: readonly string[], b: readonly string[]): Promise<Float32Array> {
    const keepA = this.oov === 'zero' ? a.map((w) => this.embedding.has(w)) : a.map(() => true);
    const keepB = this.oov === 'zero' ? b.map((w) => this.embedding.has(w)) : b.map(() => true);
    const ka = a.filter((_, i) => keepA[i]);
    const kb = b.filter((_, i) => keepB[i]);
    const m = await similarityMatrix(this.embedding, ka, kb);
    const out = new Float32Array(a.length * b.length);
    for (let i = 0, ii = 0; i < a.length; i++) {
      for (let j = 0, jj = 0; j < b.length; j++) {
        if (a[i] === b[j]) out[i * b.length + j] = 1;
        else if (keepA[i] && keepB[j]) out[i * b.length + j] = Math.min(1, Math.max(0, m[ii * kb.length + jj]));
        if (keepB[j]) jj++;
      }
      if (keepA[i]) ii++;
    }
    return out;
  }
}

/**
 * Syn(a, b) in the interval form of 004_87dc91cae9faa268.txt §4: the cosine similarity of the two
 * words' vectors clipped to [0, 1], 1 for a word and itself. Throws OUT_OF_VOCABULARY unless
 * `options.oov` is `zero`. For many pairs use `EmbeddingSynonymity.synPairs` (one batched look-up).
 */
export async function syn(
  embedding: WordEmbedding,
  a: string,
  b: string,
  options: EmbeddingSynonymityOptions = {},
): Promise<number> {
  return new EmbeddingSynonymity(embedding, options).syn(a, b);
}

/**
 * Semantic textual similarity of aligned text pairs (002_20470d3eef4d9d3e.txt §4.2, s_cos(E_s(s̃), E_s(s))):
 * the cosine of the two sentence embeddings, for USE or MiniLM-style encoders. Every distinct text
 * is encoded once, in one batched `encode` call.
 */
export async function sentenceSimilarity(
  encoder: SentenceEncoder,
  a: readonly string[],
  b: readonly string[],
): Promise<Float32Array> {
  checkWords(a, 'sentenceSimilarity: a');
  checkWords(b, 'sentenceSimilarity: b');
  if (a.length !== b.length)
    throw new XtrustError('DIMENSION_MISMATCH', `sentenceSimilarity: ${a.length} texts vs ${b.length} texts`, {
      a: a.length,
      b: b.length,
    });
  const ids = new Map<string, number>();
  for (const t of [...a, ...b]) if (!ids.has(t)) ids.set(t, ids.size);
  const texts = [...ids.keys()];
  const dim = encoder.dim;
  const unit = texts.length > 0 ? normalizeRows(await encoder.encode(texts), dim) : new Float32Array(0);
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = ids.get(a[i])!;
    const y = ids.get(b[i])!;
    let s = 0;
    for (let d = 0; d < dim; d++) s += unit[x * dim + d] * unit[y * dim + d];
    out[i] = s;
  }
  return out;
}
