import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { rowNorms, type VectorTable } from './binary-cache.js';
import { checkWord, checkWords } from './words.js';

/**
 * How a word is matched against the vocabulary:
 * - `lower`: fold to lower case first (GloVe 6B and most released vectors are lower-cased);
 * - `none`: exact match only (cased vectors such as fastText crawl);
 * - `fallback`: exact match, else the lower-cased word.
 */
export type CaseFolding = 'lower' | 'none' | 'fallback';

export interface StaticEmbeddingOptions {
  caseFolding?: CaseFolding;
}

/**
 * A static (context-free) word embedding held as one row-major Float32 matrix with its vocabulary
 * and row norms. Implements core's `WordEmbedding`: a missing word throws OUT_OF_VOCABULARY, never
 * a zero vector. The matrix is shared, never copied per call.
 */
export class StaticEmbedding implements WordEmbedding {
  readonly name: string;
  readonly dim: number;
  readonly words: readonly string[];
  readonly matrix: Float32Array;
  readonly norms: Float32Array;
  readonly caseFolding: CaseFolding;
  private readonly index: Map<string, number>;
  private unit: Float32Array | undefined;

  constructor(name: string, table: VectorTable, options: StaticEmbeddingOptions = {}) {
    const { words, dim, matrix } = table;
    if (!Number.isInteger(dim) || dim <= 0) throw new XtrustError('INVALID_ARGUMENT', `${name}: dim must be a positive integer, got ${dim}`);
    if (matrix.length !== words.length * dim) {
      throw new XtrustError('DIMENSION_MISMATCH', `${name}: ${words.length} words × ${dim} needs ${words.length * dim} values, got ${matrix.length}`);
    }
    this.name = name;
    this.dim = dim;
    this.words = words;
    this.matrix = matrix;
    this.norms = table.norms.length === words.length ? table.norms : rowNorms(matrix, dim);
    this.caseFolding = options.caseFolding ?? 'lower';
    this.index = new Map();
    // First occurrence wins: some released files repeat a word; the first row is the frequent one.
    for (let i = 0; i < words.length; i++) if (!this.index.has(words[i])) this.index.set(words[i], i);
  }

  /** Vocabulary size. */
  get size(): number {
    return this.words.length;
  }

  /** Row of a word after case folding, or −1 when it is out of vocabulary. */
  indexOf(word: string): number {
    checkWord(word, `${this.name}.indexOf`);
    if (this.caseFolding === 'lower') return this.index.get(word.toLowerCase()) ?? -1;
    const exact = this.index.get(word);
    if (exact !== undefined) return exact;
    if (this.caseFolding === 'fallback') return this.index.get(word.toLowerCase()) ?? -1;
    return -1;
  }

  has(word: string): boolean {
    return this.indexOf(word) >= 0;
  }

  /** Rows of `words`; throws OUT_OF_VOCABULARY naming every missing word. */
  indicesOf(words: readonly string[]): Int32Array {
    checkWords(words, `${this.name}.vectors`);
    const rows = new Int32Array(words.length);
    const missing: string[] = [];
    for (let i = 0; i < words.length; i++) {
      rows[i] = this.indexOf(words[i]);
      if (rows[i] < 0) missing.push(words[i]);
    }
    if (missing.length > 0) {
      const shown = missing.slice(0, 10).map((w) => JSON.stringify(w)).join(', ');
      throw new XtrustError('OUT_OF_VOCABULARY', `${this.name} has no vector for ${missing.length} word(s): ${shown}${missing.length > 10 ? ', …' : ''}`, {
        embedding: this.name,
        missing,
      });
    }
    return rows;
  }

  /** The n×dim matrix of the rows of `rows` (no checks: internal). */
  gather(rows: Int32Array): Float32Array {
    const out = new Float32Array(rows.length * this.dim);
    for (let i = 0; i < rows.length; i++) out.set(this.matrix.subarray(rows[i] * this.dim, (rows[i] + 1) * this.dim), i * this.dim);
    return out;
  }

  async vectors(words: readonly string[]): Promise<Float32Array> {
    return this.gather(this.indicesOf(words));
  }

  /** Synchronous `vectors` (the matrix is in memory). */
  vectorsSync(words: readonly string[]): Float32Array {
    return this.gather(this.indicesOf(words));
  }

  /** The unit-length rows, computed once on first use (for top-k search with a pre-normalised corpus). */
  unitMatrix(): Float32Array {
    if (!this.unit) {
      const u = new Float32Array(this.matrix.length);
      const d = this.dim;
      for (let r = 0; r < this.words.length; r++) {
        const n = this.norms[r];
        if (n === 0) continue;
        const inv = 1 / n;
        for (let j = r * d; j < (r + 1) * d; j++) u[j] = this.matrix[j] * inv;
      }
      this.unit = u;
    }
    return this.unit;
  }

  /** A table view of this embedding (for caching or building derived vectors). */
  table(): VectorTable {
    return { words: this.words, dim: this.dim, matrix: this.matrix, norms: this.norms };
  }
}
