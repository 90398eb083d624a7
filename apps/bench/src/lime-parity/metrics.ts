/** Agreement measures of two word-weight explanations (the parity table of packages/explainers/README.md). */

export type WordWeights = readonly (readonly [string, number])[];

/** Jaccard overlap of the first k words by |weight| of two explanations. */
export function topKJaccard(a: WordWeights, b: WordWeights, k: number): number {
  const top = (x: WordWeights) =>
    new Set(
      [...x]
        .sort((p, q) => Math.abs(q[1]) - Math.abs(p[1]))
        .slice(0, k)
        .map((p) => p[0]),
    );
  const sa = top(a);
  const sb = top(b);
  let inter = 0;
  for (const w of sa) if (sb.has(w)) inter++;
  const union = sa.size + sb.size - inter;
  return union === 0 ? 1 : inter / union;
}

/** Pearson correlation of the weights of the words both explanations weigh (NaN when fewer than 2). */
export function pearson(a: WordWeights, b: WordWeights): number {
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
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

export function mean(xs: readonly number[]): number {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.reduce((s, v) => s + v, 0) / ok.length;
}
