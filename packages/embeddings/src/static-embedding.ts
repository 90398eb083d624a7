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
  readonly matrix: Float32Array;
  readonly norms: Float32Array;
  readonly caseFolding: CaseFolding;
  private readonly vectorTable: VectorTable;
  private readonly count: number;
  private map: Map<string, number> | undefined;
  private unit: Float32Array | undefined;

  constructor(name: string, table: VectorTable, options: StaticEmbeddingOptions = {}) {
    const { dim, matrix } = table;
    if (!Number.isInteger(dim) || dim <= 0)
      throw new XtrustError('INVALID_ARGUMENT', `${name}: dim must be a positive integer, got ${dim}`);
    // A cached table's words are decoded lazily: count it through its index, not `words`.
    const count = table.index ? table.index.count : table.words.length;
    if (matrix.length !== count * dim) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `${name}: ${count} words × ${dim} needs ${count * dim} values, got ${matrix.length}`,
      );
    }
    this.name = name;
    this.dim = dim;
    this.vectorTable = table;
    this.count = count;
    this.matrix = matrix;
    this.norms = table.norms.length === count ? table.norms : rowNorms(matrix, dim);
    this.caseFolding = options.caseFolding ?? 'lower';
  }

  /** The vocabulary in row order (decoded on first use for a table read from the cache). */
  get words(): readonly string[] {
    return this.vectorTable.words;
  }

  /** The word of one row. */
  wordAt(row: number): string {
    return this.vectorTable.index ? this.vectorTable.index.wordAt(row) : this.vectorTable.words[row];
  }

  /** Vocabulary size. */
  get size(): number {
    return this.count;
  }

  private find(word: string): number {
    if (this.vectorTable.index) return this.vectorTable.index.find(word);
    if (!this.map) {
      // First occurrence wins: some released files repeat a word; the first row is the frequent one.
      const words = this.vectorTable.words;
      this.map = new Map();
      for (let i = 0; i < words.length; i++) if (!this.map.has(words[i])) this.map.set(words[i], i);
    }
    return this.map.get(word) ?? -1;
  }

  /** Row of a word after case folding, or −1 when it is out of vocabulary. */
  indexOf(word: string): number {
    checkWord(word, `${this.name}.indexOf`);
    if (this.caseFolding === 'lower') return this.find(word.toLowerCase());
    const exact = this.find(word);
    if (exact >= 0 || this.caseFolding !== 'fallback') return exact;
    return this.find(word.toLowerCase());
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
      const shown = missing
        .slice(0, 10)
        .map((w) => JSON.stringify(w))
        .join(', ');
      throw new XtrustError(
        'OUT_OF_VOCABULARY',
        `${this.name} has no vector for ${missing.length} word(s): ${shown}${missing.length > 10 ? ', …' : ''}`,
        {
          embedding: this.name,
          missing,
        },
      );
    }
    return rows;
  }

  /** The n×dim matrix of the rows of `rows` (no checks: internal). */
  gather(rows: Int32Array): Float32Array {
    const out = new Float32Array(rows.length * this.dim);
    for (let i = 0; i < rows.length; i++)
      out.set(this.matrix.subarray(rows[i] * this.dim, (rows[i] + 1) * this.dim), i * this.dim);
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
      for (let r = 0; r < this.count; r++) {
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
    return this.vectorTable.norms === this.norms
      ? this.vectorTable
      : { words: this.vectorTable.words, dim: this.dim, matrix: this.matrix, norms: this.norms };
  }
}
