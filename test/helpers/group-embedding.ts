// A small hand-made embedding for the transformer attack tests: groups of interchangeable words (members
// near each other, cosine ≥ 0.9; groups far apart), and a mean-of-vectors sentence encoder over it.
import { rng, tokenize, type SentenceEncoder } from '@xtrust/core';
import { StaticEmbedding } from '@xtrust/embeddings';

/** Groups of interchangeable words of the spam/ham tests' texts, shared by the transformer attack tests. */
export const SPAM_WORD_GROUPS: readonly (readonly string[])[] = [
  ['free', 'complimentary', 'gratis'],
  ['money', 'cash', 'funds'],
  ['prize', 'award', 'reward'],
  ['win', 'earn', 'gain'],
  ['click', 'press', 'tap'],
  ['offer', 'deal', 'bargain'],
  ['meeting', 'conference', 'session'],
  ['report', 'summary', 'document'],
  ['project', 'plan', 'programme'],
  ['tomorrow', 'today', 'tonight'],
];

/** One axis per group plus two noise axes: members share their group's axis, with seeded noise elsewhere. */
export function groupEmbedding(groups: readonly (readonly string[])[], seed = 5): StaticEmbedding {
  const dim = groups.length + 2;
  const r = rng(seed);
  const words = groups.flat();
  const matrix = new Float32Array(words.length * dim);
  groups.forEach((g, gi) =>
    g.forEach((w, j) => {
      const row = words.indexOf(w) * dim;
      matrix[row + gi] = 1;
      for (let d = groups.length; d < dim; d++) matrix[row + d] = 0.15 * r.normal() + 0.05 * j;
    }),
  );
  return new StaticEmbedding('groups', { words, dim, matrix, norms: new Float32Array(0) });
}

/** Mean of the known words' vectors (a crude but real bag-of-vectors sentence encoder). */
export function meanEncoder(emb: StaticEmbedding): SentenceEncoder {
  const dim = emb.dim;
  return {
    name: 'groups-mean',
    dim,
    async encode(texts) {
      const out = new Float32Array(texts.length * dim);
      for (let i = 0; i < texts.length; i++) {
        const known = tokenize(texts[i], { lowercase: true })
          .map((t) => t.text)
          .filter((w) => emb.has(w));
        if (known.length === 0) continue;
        const v = await emb.vectors(known);
        for (let k = 0; k < known.length; k++)
          for (let d = 0; d < dim; d++) out[i * dim + d] += v[k * dim + d] / known.length;
      }
      return out;
    },
  };
}
