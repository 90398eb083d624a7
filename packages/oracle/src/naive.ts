import { XtrustError } from '@xtrust/core';

/** The model's confidence in each prediction: the largest class probability of each row of an n×k matrix. */
export function predictionConfidence(probabilities: Float32Array, k: number): Float32Array {
  if (!Number.isInteger(k) || k <= 0 || probabilities.length % k !== 0) {
    throw new XtrustError('DIMENSION_MISMATCH', `predictionConfidence: ${probabilities.length} values are not rows of ${k} classes`);
  }
  const n = probabilities.length / k;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let m = -Infinity;
    for (let j = 0; j < k; j++) m = Math.max(m, probabilities[i * k + j]);
    out[i] = m;
  }
  return out;
}

/**
 * Naive (§6.1): a prediction is trustworthy iff the model's confidence is ≥ θ_conf (paper: 0.9, the
 * G-mean-maximising value on its benchmark). Returns 1 (trustworthy) or 0 per prediction.
 */
export function naiveOracle(confidence: ArrayLike<number>, thetaConf = 0.9): Uint8Array {
  if (!(thetaConf >= 0 && thetaConf <= 1)) throw new XtrustError('INVALID_ARGUMENT', `thetaConf must be in [0, 1], got ${thetaConf}`);
  const out = new Uint8Array(confidence.length);
  for (let i = 0; i < confidence.length; i++) out[i] = confidence[i] >= thetaConf ? 1 : 0;
  return out;
}

/**
 * RQ1.2: the θ_conf maximising G-mean = √(sensitivity × specificity) of Naive against ground truth
 * (trustworthy = positive class). Candidates are the observed confidences (every distinct cut); ties
 * go to the larger θ_conf — the stricter oracle. Returns the threshold and its G-mean.
 */
export function chooseThetaConf(confidence: ArrayLike<number>, trustworthy: ArrayLike<number | boolean>): { thetaConf: number; gmean: number } {
  const n = confidence.length;
  if (trustworthy.length !== n) throw new XtrustError('DIMENSION_MISMATCH', `chooseThetaConf: ${n} confidences but ${trustworthy.length} labels`);
  let pos = 0;
  for (let i = 0; i < n; i++) if (trustworthy[i]) pos++;
  const neg = n - pos;
  if (pos === 0 || neg === 0) throw new XtrustError('INVALID_ARGUMENT', 'chooseThetaConf: ground truth needs both trustworthy and untrustworthy predictions');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => confidence[a] - confidence[b]);
  // θ = order[t]'s confidence labels rows t…n−1 trustworthy (rows with equal confidence move together)
  let best = { thetaConf: 1, gmean: -1 };
  let fnBelow = 0; // trustworthy rows below the cut
  let tnBelow = 0;
  for (let t = 0; t <= n; t++) {
    if (t === n || t === 0 || confidence[order[t]] !== confidence[order[t - 1]]) {
      const sen = (pos - fnBelow) / pos;
      const spec = tnBelow / neg;
      const g = Math.sqrt(sen * spec);
      const theta = t === n ? Math.min(1, confidence[order[n - 1]] + 1e-6) : confidence[order[t]];
      if (g >= best.gmean) best = { thetaConf: theta, gmean: g };
    }
    if (t < n) {
      if (trustworthy[order[t]]) fnBelow++;
      else tnBelow++;
    }
  }
  return best;
}
