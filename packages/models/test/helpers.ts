import { rng } from '@xtrust/core';
import { trainClassifier, type BuiltinKind, type TextRow, type WordVectors } from '../src/index.js';

const POS = ['good', 'great', 'fun', 'nice', 'lovely', 'superb'];
const NEG = ['bad', 'awful', 'dull', 'boring', 'poor', 'terrible'];
const NEUTRAL = ['film', 'the', 'a', 'plot', 'actor', 'scene', 'and', 'was'];

/** A seeded toy sentiment corpus: positive and negative words mixed with neutral ones. */
export function toyRows(n = 300, seed = 7): TextRow[] {
  const r = rng(seed);
  const rows: TextRow[] = [];
  for (let i = 0; i < n; i++) {
    const pos = i % 2 === 0;
    const words: string[] = [];
    const len = 4 + r.int(6);
    for (let j = 0; j < len; j++) {
      const pool = r.float() < 0.4 ? (pos ? POS : NEG) : NEUTRAL;
      words.push(pool[r.int(pool.length)]);
    }
    // A little label noise so the models are not saturated and gradients are informative.
    if (r.float() < 0.1) words.push((pos ? NEG : POS)[r.int(6)]);
    rows.push({
      text: words.join(r.float() < 0.5 ? ' ' : ', ') + (r.float() < 0.3 ? '!' : '.'),
      label: pos ? 'pos' : 'neg',
    });
  }
  return rows;
}

/** Seeded 8-d word vectors for the toy vocabulary; positive words share a direction. */
export function toyVectors(dim = 8, seed = 3): WordVectors {
  const r = rng(seed);
  const words = [...POS, ...NEG, ...NEUTRAL];
  const vectors = new Float32Array(words.length * dim);
  words.forEach((w, i) => {
    for (let d = 0; d < dim; d++)
      vectors[i * dim + d] = 0.5 * r.normal() + (d === 0 ? (POS.includes(w) ? 1 : NEG.includes(w) ? -1 : 0) : 0);
  });
  return { words, vectors, dim };
}

export function trainToy(kind: BuiltinKind, extra: Parameters<typeof trainClassifier>[2] = {}) {
  return trainClassifier(kind, toyRows(), {
    seed: 1,
    maxEpochs: 8,
    hidden: 16,
    minCount: 1,
    vectors: toyVectors(),
    ...extra,
  });
}

export const KINDS: BuiltinKind[] = ['bow-logistic', 'bow-mlp', 'embedding-mlp'];

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}
