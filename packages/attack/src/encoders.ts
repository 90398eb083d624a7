import { tokenize, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';

/**
 * A sentence encoder that averages the word vectors of a text's known (lower-cased) words — the classic
 * bag-of-embeddings sentence representation. Much cheaper than USE (which costs ~60 ms a text on this
 * machine's WebAssembly backend), so the bulk runs use it for the semantic constraint and keep USE for
 * the reported similarity scores. It is named `mean-<embedding>` wherever it appears. A text with no known
 * word encodes to the zero vector (cosine 0 with anything).
 */
export class MeanVectorEncoder implements SentenceEncoder {
  readonly name: string;
  readonly dim: number;
  private readonly memo = new Map<string, Float32Array | null>();

  constructor(private readonly embedding: WordEmbedding) {
    this.name = `mean-${embedding.name}`;
    this.dim = embedding.dim;
  }

  async encode(texts: readonly string[]): Promise<Float32Array> {
    const dim = this.dim;
    const missing = new Set<string>();
    const toks = texts.map((t) => tokenize(t, { lowercase: true }).map((x) => x.text));
    for (const ws of toks) for (const w of ws) if (!this.memo.has(w)) missing.add(w);
    const known = [...missing].filter((w) => this.embedding.has(w));
    for (const w of missing) if (!this.embedding.has(w)) this.memo.set(w, null);
    if (known.length > 0) {
      const v = await this.embedding.vectors(known);
      known.forEach((w, i) => this.memo.set(w, v.slice(i * dim, (i + 1) * dim)));
    }
    if (this.memo.size > 200_000) this.memo.clear();
    const out = new Float32Array(texts.length * dim);
    toks.forEach((ws, i) => {
      let n = 0;
      for (const w of ws) {
        const v = this.memo.get(w);
        if (!v) continue;
        n++;
        for (let d = 0; d < dim; d++) out[i * dim + d] += v[d];
      }
      if (n > 0) for (let d = 0; d < dim; d++) out[i * dim + d] /= n;
    });
    return out;
  }
}
