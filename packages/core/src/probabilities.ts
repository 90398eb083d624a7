import { XtrustError } from './errors.js';

export interface ProbabilityCheckOptions {
  /** Tolerance on |Σ row − 1|. Default 1e-3. */
  tolerance?: number;
  /** Rescale rows that do not sum to 1 instead of throwing. Default false. */
  normalise?: boolean;
  /** Called once per check when a row does not sum to 1 and `normalise` is set. */
  warn?: (message: string) => void;
}

/**
 * Validates a classifier's output: exactly rows×k finite values in [0,1], each row summing to 1.
 * `source` names the model in the error. Returns the (possibly normalised) matrix.
 */
export function checkProbabilities(
  output: unknown,
  rows: number,
  k: number,
  source: string,
  options: ProbabilityCheckOptions = {},
): Float32Array {
  if (!(output instanceof Float32Array)) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${source} returned ${describe(output)}; expected a Float32Array of ${rows}×${k} probabilities`,
      { source },
    );
  }
  if (output.length !== rows * k) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${source} returned ${output.length} values; expected ${rows}×${k} = ${rows * k} (one row of ${k} class probabilities per text)`,
      { source, length: output.length, rows, k },
    );
  }
  const tol = options.tolerance ?? 1e-3;
  let warned = false;
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const v = output[r * k + c];
      // Scores above 1 are acceptable only when the caller asked for rows to be rescaled.
      if (!Number.isFinite(v) || v < -1e-6 || (!options.normalise && v > 1 + 1e-6)) {
        const expected = options.normalise ? 'a finite non-negative score' : 'a probability in [0, 1]';
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${source} returned ${v} at row ${r}, class ${c}; expected ${expected}`,
          { source, row: r, column: c },
        );
      }
      sum += v;
    }
    if (Math.abs(sum - 1) > tol) {
      if (!options.normalise) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${source}: row ${r} sums to ${sum.toFixed(6)}; expected class probabilities summing to 1 (pass normalise to rescale)`,
          { source, row: r, sum },
        );
      }
      if (!warned) {
        options.warn?.(`${source}: probabilities do not sum to 1 (row ${r}: ${sum.toFixed(6)}); rescaling rows`);
        warned = true;
      }
      if (sum <= 0)
        throw new XtrustError('BAD_MODEL_OUTPUT', `${source}: row ${r} sums to ${sum}; cannot normalise`, {
          source,
          row: r,
        });
      for (let c = 0; c < k; c++) output[r * k + c] /= sum;
    }
  }
  return output;
}

function describe(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name}`;
  if (Array.isArray(x)) return 'a plain array';
  return `a ${typeof x}`;
}

/** Index of the largest value of row r of an n×k matrix (ties: the first). */
export function argmaxRow(m: ArrayLike<number>, r: number, k: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (m[r * k + c] > m[r * k + best]) best = c;
  return best;
}

/** Index of a label in a classifier's labels, or an UNKNOWN_LABEL error naming the known ones. */
export function labelIndex(labels: readonly string[], label: string, context = 'label'): number {
  const i = labels.indexOf(label);
  if (i < 0) {
    throw new XtrustError(
      'UNKNOWN_LABEL',
      `${context} "${label}" is not one of the classifier's labels (${labels.join(', ')})`,
      { label, labels: [...labels] },
    );
  }
  return i;
}
