import { tokenize, XtrustError } from '@xtrust/core';

export interface VocabularyOptions {
  /** Keep words seen at least this many times in the training texts. Default 2. */
  minCount?: number;
  /** Keep at most this many words (the most frequent; ties broken by code-point order). Default 20,000. */
  maxSize?: number;
  /** Only words this predicate accepts can enter (e.g. words that have a word vector). */
  accept?: (word: string) => boolean;
}

/**
 * A word vocabulary: id i is `words[i]`. Words are xtrust tokens folded to lower case, so a text's
 * ids line up one-to-one with the tokens of core's `tokenize(text)`.
 */
export class Vocabulary {
  readonly words: readonly string[];
  private readonly index: Map<string, number>;

  constructor(words: readonly string[]) {
    this.words = [...words];
    this.index = new Map();
    this.words.forEach((w, i) => {
      if (this.index.has(w))
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `vocabulary: word "${w}" appears twice (ids ${this.index.get(w)} and ${i})`,
          { word: w },
        );
      this.index.set(w, i);
    });
  }

  get size(): number {
    return this.words.length;
  }

  /** Id of a (lower-case) word, or −1 when it is not in the vocabulary. */
  id(word: string): number {
    return this.index.get(word) ?? -1;
  }

  /** Vocabulary id of each token of `tokenize(text)` (−1: unknown). */
  tokenIds(text: string): Int32Array {
    const tokens = tokenize(text, { lowercase: true });
    const ids = new Int32Array(tokens.length);
    for (let t = 0; t < tokens.length; t++) ids[t] = this.index.get(tokens[t].text) ?? -1;
    return ids;
  }

  /** Builds a vocabulary from training texts (lower-cased xtrust tokens), most frequent first. */
  static build(texts: readonly string[], options: VocabularyOptions = {}): Vocabulary {
    const minCount = options.minCount ?? 2;
    const maxSize = options.maxSize ?? 20_000;
    if (!Number.isInteger(minCount) || minCount < 1)
      throw new XtrustError('INVALID_ARGUMENT', `vocabulary minCount must be an integer ≥ 1, got ${minCount}`, {
        argument: 'minCount',
      });
    if (!Number.isInteger(maxSize) || maxSize < 1)
      throw new XtrustError('INVALID_ARGUMENT', `vocabulary maxSize must be an integer ≥ 1, got ${maxSize}`, {
        argument: 'maxSize',
      });
    const counts = new Map<string, number>();
    for (const text of texts) {
      for (const t of tokenize(text, { lowercase: true })) counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
    }
    const kept: [string, number][] = [];
    for (const [w, c] of counts)
      if (c >= minCount && (options.accept === undefined || options.accept(w))) kept.push([w, c]);
    // Deterministic order: count descending, then code-point order (not locale-dependent).
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Vocabulary(kept.slice(0, maxSize).map(([w]) => w));
  }
}
