/**
 * Agreement measures of two word-weight explanations (the parity table of packages/explainers/README.md):
 * @xtrust/metrics' `jaccard` and `pearson` applied to explanations given as [word, weight] lists.
 */
import { jaccard, pearson } from '@xtrust/metrics';

export type WordWeights = readonly (readonly [string, number])[];

/** The words of an explanation by |weight|, largest first (ties in the given order). */
const byMagnitude = (x: WordWeights): string[] =>
  [...x].sort((p, q) => Math.abs(q[1]) - Math.abs(p[1])).map((p) => p[0]);

/** Jaccard overlap of the first k words by |weight| of two explanations (1 when both are empty). */
export function topKJaccard(a: WordWeights, b: WordWeights, k: number): number {
  return jaccard(byMagnitude(a), byMagnitude(b), { k, duplicates: 'dedupe' });
}

/**
 * Pearson correlation of the weights of the words both explanations weigh, paired by word. NaN (left
 * out of `mean`) when fewer than 2 words are shared or one side's shared weights are all equal, where
 * the correlation is undefined.
 */
export function sharedWordPearson(a: WordWeights, b: WordWeights): number {
  const mb = new Map(b);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [w, v] of a) {
    const u = mb.get(w);
    if (u !== undefined) {
      xs.push(v);
      ys.push(u);
    }
  }
  if (xs.length < 2 || xs.every((x) => x === xs[0]) || ys.every((y) => y === ys[0])) return Number.NaN;
  return pearson(xs, ys);
}

/** The mean of the finite values (NaN when there are none). */
export function mean(xs: readonly number[]): number {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.reduce((s, v) => s + v, 0) / ok.length;
}
