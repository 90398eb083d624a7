import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { StaticEmbedding } from '@xtrust/embeddings';
import { CosineIndex } from '@xtrust/native';

/** A neighbour of a word with its cosine similarity. */
export interface WordNeighbour {
  readonly word: string;
  readonly score: number;
}

/**
 * Nearest-neighbour search over a fixed word list, for attacks that ask the same question many times:
 * the corpus is validated and normalised once (@xtrust/native's CosineIndex), and each word's answer is
 * remembered, so a word met again in another position or another text costs nothing. Queries for several
 * words go through one batched top-k call.
 */
export class WordNeighbours {
  private readonly memo = new Map<string, { k: number; row: WordNeighbour[] }>();

  private constructor(
    readonly embedding: WordEmbedding,
    private readonly wordAt: (row: number) => string,
    private readonly index: CosineIndex | null,
    readonly size: number,
  ) {}

  /** Over `vocabulary` (words the embedding lacks are skipped), or the whole vocabulary of a static embedding. */
  static async build(embedding: WordEmbedding, vocabulary?: readonly string[]): Promise<WordNeighbours> {
    if (vocabulary === undefined) {
      if (!(embedding instanceof StaticEmbedding)) {
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `neighbours: ${embedding.name} has no enumerable vocabulary; pass a vocabulary`,
          { embedding: embedding.name },
        );
      }
      return new WordNeighbours(
        embedding,
        (r) => embedding.wordAt(r),
        embedding.size > 0 ? new CosineIndex(embedding.matrix, embedding.dim) : null,
        embedding.size,
      );
    }
    const known = [...new Set(vocabulary)].filter((w) => typeof w === 'string' && w.length > 0 && embedding.has(w));
    if (known.length === 0) return new WordNeighbours(embedding, () => '', null, 0);
    return new WordNeighbours(
      embedding,
      (r) => known[r],
      new CosineIndex(await embedding.vectors(known), embedding.dim),
      known.length,
    );
  }

  /** The k nearest words of each query word (the word itself excluded unless `includeSelf`), best first; [] for a word the embedding lacks. */
  async query(
    words: readonly string[],
    k: number,
    options: { includeSelf?: boolean } = {},
  ): Promise<WordNeighbour[][]> {
    const self = options.includeSelf === true;
    const key = (w: string) => `${self ? 1 : 0}\u0000${w}`;
    const todo = [...new Set(words.filter((w) => (this.memo.get(key(w))?.k ?? -1) < k && this.embedding.has(w)))];
    if (todo.length > 0 && this.index) {
      const kk = Math.min(k + (self ? 0 : 1), this.size);
      const res = this.index.topK(await this.embedding.vectors(todo), kk);
      todo.forEach((w, i) => {
        const fold = w.toLowerCase();
        const row: WordNeighbour[] = [];
        for (let j = 0; j < res.k && row.length < k; j++) {
          const word = this.wordAt(res.indices[i * res.k + j]);
          if (!self && word.toLowerCase() === fold) continue;
          row.push({ word, score: res.scores[i * res.k + j] });
        }
        this.memo.set(key(w), { k, row });
      });
      if (this.memo.size > 100_000) this.memo.clear();
    }
    return words.map((w) => (this.memo.get(key(w))?.row ?? []).slice(0, k));
  }
}
