import { XtrustError, type WordEmbedding } from '@xtrust/core';

/** The vectors an embedding knows for a word list: `index[i]` is the row of word i in `vectors`, or -1 when it is out of vocabulary. */
export interface KnownVectors {
  readonly dim: number;
  /** Rows for the known words only, in the order of the input list. */
  readonly vectors: Float32Array;
  /** Per input word: its row in `vectors`, or -1 (the embedding abstains on it). */
  readonly index: Int32Array;
  /** The input positions of the known words, in row order. */
  readonly known: Int32Array;
}

/**
 * Looks up many words in one `vectors` call. Words the embedding lacks are never given a stand-in vector
 * (WordEmbedding's contract): they are marked -1 so that the method abstains on them.
 */
export async function knownVectors(embedding: WordEmbedding, words: readonly string[]): Promise<KnownVectors> {
  const index = new Int32Array(words.length).fill(-1);
  const knownWords: string[] = [];
  const known: number[] = [];
  for (let i = 0; i < words.length; i++) {
    if (embedding.has(words[i])) {
      index[i] = knownWords.length;
      knownWords.push(words[i]);
      known.push(i);
    }
  }
  const vectors = knownWords.length > 0 ? await embedding.vectors(knownWords) : new Float32Array(0);
  if (vectors.length !== knownWords.length * embedding.dim) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `embedding ${embedding.name} returned ${vectors.length} values for ${knownWords.length} words of dimension ${embedding.dim}`,
      { embedding: embedding.name },
    );
  }
  return { dim: embedding.dim, vectors, index, known: Int32Array.from(known) };
}

/** Splits a class name into the words whose vectors are averaged: "science_fiction", "belles-lettres", "legitimate mail". */
export function classNameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[\s_\-/]+/u)
    .filter((w) => w.length > 0);
}

/**
 * The vector of a class name under one embedding: the mean of its known words' vectors (multi-word
 * names averaged, §3.1 Step 4). `null` when the embedding knows none of the words: the method abstains.
 */
export async function classNameVector(embedding: WordEmbedding, name: string): Promise<Float32Array | null> {
  const parts = classNameWords(name);
  const kv = await knownVectors(embedding, parts);
  const k = kv.known.length;
  if (k === 0) return null;
  const dim = embedding.dim;
  const mean = new Float32Array(dim);
  for (let r = 0; r < k; r++) for (let d = 0; d < dim; d++) mean[d] += kv.vectors[r * dim + d] / k;
  return mean;
}
