import { tokenize, type Classifier, type TokenScorer } from '@xtrust/core';

/**
 * Multinomial naive Bayes over lower-cased token counts with add-one smoothing: a real classifier
 * small enough to build inside a test (a closure over the training counts). Unknown words are
 * ignored. Counts every predictProba call and text. Also a TokenScorer (token-mask scoring).
 */
export function naiveBayes(
  labels: readonly string[],
  rows: readonly { text: string; label: string }[],
): Classifier & TokenScorer & { calls: number; texts: number } {
  const k = labels.length;
  const counts = new Map<string, Float64Array>();
  const totals = new Float64Array(k);
  const docs = new Float64Array(k);
  for (const r of rows) {
    const c = labels.indexOf(r.label);
    docs[c]++;
    for (const t of tokenize(r.text, { lowercase: true })) {
      let v = counts.get(t.text);
      if (!v) counts.set(t.text, (v = new Float64Array(k)));
      v[c]++;
      totals[c]++;
    }
  }
  const V = counts.size;
  const logPrior = Array.from(docs, (d) => Math.log(d / rows.length));
  const logLik = new Map<string, Float64Array>();
  for (const [w, v] of counts)
    logLik.set(
      w,
      v.map((n, c) => Math.log((n + 1) / (totals[c] + V))),
    );
  // Probabilities from the log-likelihood rows of the kept tokens.
  const posterior = (kept: (Float64Array | undefined)[], out: Float32Array, row: number) => {
    const s = logPrior.slice();
    for (const l of kept) if (l) for (let c = 0; c < k; c++) s[c] += l[c];
    const max = Math.max(...s);
    let z = 0;
    for (let c = 0; c < k; c++) z += Math.exp(s[c] - max);
    for (let c = 0; c < k; c++) out[row * k + c] = Math.exp(s[c] - max) / z;
  };
  const self = {
    labels,
    calls: 0,
    texts: 0,
    async predictProba(texts: readonly string[]) {
      self.calls++;
      self.texts += texts.length;
      const out = new Float32Array(texts.length * k);
      texts.forEach((text, i) =>
        posterior(
          tokenize(text, { lowercase: true }).map((t) => logLik.get(t.text)),
          out,
          i,
        ),
      );
      return out;
    },
    /** TokenScorer: the same model on the text with the masked-out tokens removed. */
    async scoreTokenMasks(text: string, masks: Uint8Array, n: number) {
      const lik = tokenize(text, { lowercase: true }).map((t) => logLik.get(t.text));
      const out = new Float32Array(n * k);
      for (let r = 0; r < n; r++)
        posterior(
          lik.filter((_, j) => masks[r * lik.length + j] !== 0),
          out,
          r,
        );
      return out;
    },
  };
  return self;
}
