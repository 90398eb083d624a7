import { rng, tokenize, type SentenceEncoder } from '@xtrust/core';
import { StaticEmbedding } from '@xtrust/embeddings';
import { FunctionClassifier, trainClassifier, type TextRow } from '@xtrust/models';

/** A hand-made 4-d embedding: positive words near each other, "poor" close to "good", nouns apart. */
export const VECTORS: Record<string, number[]> = {
  good: [1, 0.1, 0, 0],
  great: [0.95, 0.2, 0.05, 0],
  fine: [0.9, 0, 0.3, 0],
  poor: [0.85, -0.1, 0, 0.45],
  bad: [0.2, -1, 0, 0.2],
  awful: [0.1, -0.95, 0.1, 0.2],
  terrible: [0.15, -0.9, 0, 0.3],
  film: [0, 0, 1, 0.1],
  movie: [0, 0.05, 0.95, 0.15],
  picture: [0.05, 0, 0.9, 0.3],
  plot: [0, 0.1, 0.3, 1],
  story: [0.05, 0.1, 0.35, 0.95],
  quickly: [-1, 0, 0, -0.3],
  rapidly: [-0.95, 0.05, 0, -0.35],
};

export function handEmbedding(): StaticEmbedding {
  const words = Object.keys(VECTORS);
  const dim = 4;
  const matrix = new Float32Array(words.length * dim);
  words.forEach((w, i) => matrix.set(VECTORS[w], i * dim));
  return new StaticEmbedding('hand-4d', { words, dim, matrix, norms: new Float32Array(0) });
}

/** A sentence encoder for tests: the mean of the hand vectors of the known words (a real, if crude, bag-of-vectors encoder). */
export function handEncoder(): SentenceEncoder {
  return {
    name: 'hand-bow-encoder',
    dim: 4,
    async encode(texts) {
      const out = new Float32Array(texts.length * 4);
      texts.forEach((t, i) => {
        let n = 0;
        for (const tok of tokenize(t, { lowercase: true })) {
          const v = VECTORS[tok.text];
          if (!v) continue;
          n++;
          for (let d = 0; d < 4; d++) out[i * 4 + d] += v[d];
        }
        if (n > 0) for (let d = 0; d < 4; d++) out[i * 4 + d] /= n;
      });
      return out;
    },
  };
}

/** Known weights towards "pos" of a two-class linear model: p(pos) = σ(Σ w). */
export const WEIGHTS: Record<string, number> = {
  good: 2,
  great: 2.5,
  fine: 0.8,
  poor: -1.5,
  bad: -2,
  awful: -2.5,
  terrible: -2.2,
};

/** A linear bag-of-words classifier with the weights above (labels neg, pos); counts its calls. */
export function linearClassifier() {
  const calls: number[] = [];
  const c = new FunctionClassifier(['neg', 'pos'], (texts) => {
    calls.push(texts.length);
    return texts.map((t) => {
      let z = 0;
      for (const tok of tokenize(t, { lowercase: true })) z += WEIGHTS[tok.text] ?? 0;
      const p = 1 / (1 + Math.exp(-z));
      return [1 - p, p];
    });
  });
  return Object.assign(c, { calls });
}

const POS = ['good', 'great', 'fine'];
const NEG = ['bad', 'awful', 'terrible', 'poor'];
const NOUNS = ['film', 'movie', 'plot', 'story', 'picture'];
const FILL = ['the', 'a', 'was', 'and', 'this', 'it', 'is', 'very'];

/** A seeded toy review corpus over the hand vocabulary. */
export function toyRows(n = 300, seed = 11): TextRow[] {
  const r = rng(seed);
  const rows: TextRow[] = [];
  for (let i = 0; i < n; i++) {
    const pos = i % 2 === 0;
    const words: string[] = [];
    const len = 5 + r.int(5);
    for (let j = 0; j < len; j++) {
      const u = r.float();
      const pool = u < 0.3 ? (pos ? POS : NEG) : u < 0.6 ? NOUNS : FILL;
      words.push(pool[r.int(pool.length)]);
    }
    rows.push({ text: words.join(' '), label: pos ? 'pos' : 'neg' });
  }
  return rows;
}

export function trainToy() {
  return trainClassifier('bow-logistic', toyRows(), { seed: 1, maxEpochs: 15, minCount: 1 });
}
