import { XtrustError, checkProbabilities, isTokenScorer, type Classifier } from '@xtrust/core';
import { PerturbedTexts, tokenMasks, type TextFeatures } from './text-features.js';

/** Options every explainer shares for talking to the classifier. */
export type ModelCallOptions = {
  /**
   * Rescale probability rows that do not sum to 1. Without it such rows are explained as they are
   * (after one warning per `explain` call): a multi-label model's sigmoid scores are legitimate.
   */
  normalise?: boolean;
  /** Where the one warning goes. Default: `process.emitWarning`. */
  warn?: (message: string) => void;
  /** Perturbed texts per `predictProba` call when strings must be built. Default 2,048. */
  batchSize?: number;
  /**
   * Use the classifier's `TokenScorer` capability when it has one (no strings built). `auto`
   * (default): whenever a perturbation removes words — bag-of-words mode, or position mode with an
   * empty mask string — since a TokenScorer scores exactly the text with the masked tokens removed
   * (for OnnxClassifier, tests prove its ids equal those of the rebuilt strings). A non-empty mask
   * string (LIME's `UNKWORDZ`) puts a word in, which token removal reproduces only for models that
   * ignore unknown words: strings are built then.
   */
  tokenScorer?: boolean | 'auto';};

const defaultWarn = (message: string): void => {
  process.emitWarning(message, { code: 'XTRUST_PROBABILITIES' });
};

/**
 * Validates every model output of one `explain` call: shape, finiteness and range are errors
 * (BAD_MODEL_OUTPUT); rows not summing to 1 warn once and are rescaled only when `normalise` is set.
 */
export class ProbabilityGuard {
  private warned = false;
  constructor(
    private readonly source: string,
    private readonly k: number,
    private readonly options: ModelCallOptions,
  ) {}

  check(output: unknown, rows: number): Float32Array {
    // Shape, NaN and range checks only (tolerance ∞): the sum is handled below.
    const p = checkProbabilities(output, rows, this.k, this.source, { tolerance: Number.POSITIVE_INFINITY });
    const k = this.k;
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let c = 0; c < k; c++) sum += p[r * k + c];
      if (Math.abs(sum - 1) <= 1e-3) continue;
      if (!this.warned) {
        this.warned = true;
        (this.options.warn ?? defaultWarn)(
          `${this.source}: class probabilities do not sum to 1 (row ${r} sums to ${sum.toFixed(6)}); ` +
            (this.options.normalise ? 'rescaling every such row (normalise: true)' : 'explaining the scores as they are (pass normalise: true to rescale)'),
        );
      }
      if (this.options.normalise) {
        if (!(sum > 0)) throw new XtrustError('BAD_MODEL_OUTPUT', `${this.source}: row ${r} sums to ${sum}; cannot normalise`, { source: this.source, row: r });
        for (let c = 0; c < k; c++) p[r * k + c] /= sum;
      }
    }
    return p;
  }
}

/** How one explanation's perturbations reach the model. */
export interface Scorer {
  readonly kind: 'token-scorer' | 'strings';
  /** rows×k class probabilities for rows×d feature masks (1 = kept) of the text. */
  score(featureMasks: Uint8Array, rows: number): Promise<Float32Array>;
}

/**
 * A scorer for the perturbations of one text: one `scoreTokenMasks` call when the classifier is a
 * `TokenScorer` (no strings built), otherwise perturbed strings built and sent to `predictProba` in
 * batches of `batchSize`.
 */
export function makeScorer(
  classifier: Classifier,
  tf: TextFeatures,
  guard: ProbabilityGuard,
  options: ModelCallOptions,
  maskString: string | null,
): Scorer {
  const k = classifier.labels.length;
  const pref = options.tokenScorer ?? 'auto';
  const removes = tf.bow || maskString === null || maskString === '';
  const useTokens = isTokenScorer(classifier) && (pref === true || (pref === 'auto' && removes));
  if (useTokens) {
    return {
      kind: 'token-scorer',
      async score(featureMasks, rows) {
        const masks = tokenMasks(tf, featureMasks, rows);
        const out = await classifier.scoreTokenMasks(tf.text, masks, rows);
        return guard.check(out, rows);
      },
    };
  }
  const batch = options.batchSize ?? 2048;
  if (!Number.isInteger(batch) || batch < 1) {
    throw new XtrustError('INVALID_ARGUMENT', `batchSize must be a positive integer, got ${String(batch)}`, { argument: 'batchSize' });
  }
  const builder = new PerturbedTexts(tf, maskString);
  return {
    kind: 'strings',
    async score(featureMasks, rows) {
      const out = new Float32Array(rows * k);
      for (let start = 0; start < rows; start += batch) {
        const end = Math.min(rows, start + batch);
        const texts: string[] = new Array(end - start);
        for (let r = start; r < end; r++) texts[r - start] = builder.build(featureMasks, r);
        const p = guard.check(await classifier.predictProba(texts), end - start);
        out.set(p, start * k);
      }
      return out;
    },
  };
}

/** Class probabilities of the texts themselves, in batches of `batchSize`. */
export async function predictAll(classifier: Classifier, texts: readonly string[], guard: ProbabilityGuard, batchSize = 2048): Promise<Float32Array> {
  const k = classifier.labels.length;
  const out = new Float32Array(texts.length * k);
  for (let start = 0; start < texts.length; start += batchSize) {
    const chunk = texts.slice(start, start + batchSize);
    out.set(guard.check(await classifier.predictProba(chunk), chunk.length), start * k);
  }
  return out;
}

/** Checks the classifier and the list of texts every explainer receives. */
export function checkInputs(classifier: Classifier, texts: readonly string[], method: string): void {
  if (classifier === null || typeof classifier !== 'object' || typeof classifier.predictProba !== 'function' || !Array.isArray(classifier.labels)) {
    throw new XtrustError('INVALID_ARGUMENT', `${method}: classifier must implement Classifier (labels and predictProba)`, { argument: 'classifier' });
  }
  if (classifier.labels.length < 1) {
    throw new XtrustError('INVALID_ARGUMENT', `${method}: the classifier has no labels`, { argument: 'classifier' });
  }
  if (!Array.isArray(texts)) {
    throw new XtrustError('INVALID_ARGUMENT', `${method}: texts must be an array of strings`, { argument: 'texts' });
  }
  texts.forEach((t, i) => {
    if (typeof t !== 'string') throw new XtrustError('INVALID_ARGUMENT', `${method}: texts[${i}] must be a string, got ${t === null ? 'null' : typeof t}`, { argument: `texts[${i}]` });
  });
}
