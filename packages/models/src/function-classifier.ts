import { checkProbabilities, XtrustError, type Classifier } from '@xtrust/core';
import { requireTexts } from './inputs.js';

/** A model as a function: n texts → n×k probabilities (a Float32Array, or n rows of k numbers). */
export type ProbabilityFunction = (
  texts: readonly string[],
) => Float32Array | ArrayLike<number>[] | Promise<Float32Array | ArrayLike<number>[]>;

export interface FunctionClassifierOptions {
  /** Name used in error messages. Default `function classifier`. */
  name?: string;
  /** Texts per call of the function. Default: all texts in one call. */
  batchSize?: number;
}

/**
 * Wraps any `(texts) => probabilities` function as a Classifier. Every output is checked (shape,
 * NaN, range, rows summing to 1); a bad one is a BAD_MODEL_OUTPUT naming the classifier.
 */
export class FunctionClassifier implements Classifier {
  readonly labels: readonly string[];
  readonly name: string;
  private readonly batchSize: number;

  constructor(
    labels: readonly string[],
    private readonly fn: ProbabilityFunction,
    options: FunctionClassifierOptions = {},
  ) {
    if (!Array.isArray(labels) || labels.length === 0 || labels.some((l) => typeof l !== 'string')) {
      throw new XtrustError('INVALID_ARGUMENT', 'FunctionClassifier: labels must be a non-empty array of strings', {
        argument: 'labels',
      });
    }
    if (new Set(labels).size !== labels.length)
      throw new XtrustError('INVALID_ARGUMENT', `FunctionClassifier: labels must be distinct (${labels.join(', ')})`, {
        argument: 'labels',
      });
    if (typeof fn !== 'function')
      throw new XtrustError('INVALID_ARGUMENT', 'FunctionClassifier: fn must be a function (texts) => probabilities', {
        argument: 'fn',
      });
    this.labels = [...labels];
    this.name = options.name ?? 'function classifier';
    this.batchSize = options.batchSize ?? Infinity;
    if (!(this.batchSize >= 1))
      throw new XtrustError('INVALID_ARGUMENT', `FunctionClassifier: batchSize must be ≥ 1, got ${options.batchSize}`, {
        argument: 'batchSize',
      });
  }

  /** n×k probabilities from the wrapped function, validated. */
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    requireTexts(texts, this.name);
    const k = this.labels.length;
    const out = new Float32Array(texts.length * k);
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, Math.min(texts.length, s + this.batchSize));
      const raw = await this.fn(batch);
      out.set(checkProbabilities(this.toFlat(raw, batch.length, k), batch.length, k, this.name), s * k);
    }
    return out;
  }

  private toFlat(raw: unknown, n: number, k: number): unknown {
    if (raw instanceof Float32Array || !Array.isArray(raw)) return raw;
    if (raw.length !== n)
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.name} returned ${raw.length} rows for ${n} texts; expected one row of ${k} probabilities per text`,
        { source: this.name },
      );
    const flat = new Float32Array(n * k);
    raw.forEach((row, r) => {
      if (
        row === null ||
        typeof row !== 'object' ||
        typeof (row as ArrayLike<number>).length !== 'number' ||
        (row as ArrayLike<number>).length !== k
      ) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${this.name} returned a row ${r} of ${(row as ArrayLike<number>)?.length ?? typeof row} values; expected ${k} (${this.labels.join(', ')})`,
          { source: this.name, row: r },
        );
      }
      for (let c = 0; c < k; c++) flat[r * k + c] = Number((row as ArrayLike<number>)[c]);
    });
    return flat;
  }
}
