import { XtrustError } from '@xtrust/core';
import { bestGMeanThreshold } from '@xtrust/metrics';

/** The model's confidence in each prediction: the largest class probability of each row of an n×k matrix. */
export function predictionConfidence(probabilities: Float32Array, k: number): Float32Array {
  if (!Number.isInteger(k) || k <= 0 || probabilities.length % k !== 0) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `predictionConfidence: ${probabilities.length} values are not rows of ${k} classes`,
    );
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
  if (!(thetaConf >= 0 && thetaConf <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `thetaConf must be in [0, 1], got ${thetaConf}`);
  const out = new Uint8Array(confidence.length);
  for (let i = 0; i < confidence.length; i++) out[i] = confidence[i] >= thetaConf ? 1 : 0;
  return out;
}

/**
 * RQ1.2: the θ_conf maximising G-mean = √(sensitivity × specificity) of Naive against ground truth
 * (trustworthy = positive class), over every distinct observed confidence; ties go to the larger
 * θ_conf — the stricter oracle (@xtrust/metrics' bestGMeanThreshold).
 */
export function chooseThetaConf(
  confidence: ArrayLike<number>,
  trustworthy: ArrayLike<number | boolean>,
): { thetaConf: number; gmean: number } {
  if (trustworthy.length !== confidence.length)
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `chooseThetaConf: ${confidence.length} confidences but ${trustworthy.length} labels`,
    );
  const truth = Uint8Array.from({ length: trustworthy.length }, (_, i) => (trustworthy[i] ? 1 : 0));
  const pos = truth.reduce((a, b) => a + b, 0);
  if (pos === 0 || pos === truth.length)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      'chooseThetaConf: ground truth needs both trustworthy and untrustworthy predictions',
    );
  const best = bestGMeanThreshold(Float64Array.from(confidence), truth);
  return { thetaConf: best.threshold, gmean: best.gmean };
}
