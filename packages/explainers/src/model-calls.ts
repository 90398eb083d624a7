import { XtrustError, checkProbabilities, isTextLimit, isTokenScorer, type Classifier } from '@xtrust/core';
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
  tokenScorer?: boolean | 'auto';
};

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
            (this.options.normalise
              ? 'rescaling every such row (normalise: true)'
              : 'explaining the scores as they are (pass normalise: true to rescale)'),
        );
      }
      if (this.options.normalise) {
        if (!(sum > 0))
          throw new XtrustError('BAD_MODEL_OUTPUT', `${this.source}: row ${r} sums to ${sum}; cannot normalise`, {
            source: this.source,
            row: r,
          });
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
  /** Rows asked of `score` so far, and rows the model was actually sent (fewer when duplicates were scored once). */
  readonly counts: { asked: number; sent: number };
}

/** A key for one mask row of d bytes: 16 mask bits per UTF-16 unit. */
function maskKey(masks: Uint8Array, base: number, d: number): string {
  const units = new Array<number>(Math.ceil(d / 16));
  for (let u = 0, c = 0; c < d; u++, c += 16) {
    let v = 0;
    const end = Math.min(d, c + 16);
    for (let j = c; j < end; j++) if (masks[base + j] !== 0) v |= 1 << (j - c);
    units[u] = v;
  }
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode.apply(null, units.slice(i, i + 4096));
  return s;
}

/**
 * Computed once (issue 30): a scorer for one text that sends each distinct feature mask to the model
 * once, over all its calls — a LIME neighbourhood's duplicate rows (with few distinct words most rows
 * repeat, and every row removing all d words is the same all-absent row), the rows of later rounds of an
 * adaptive or verdict-driven run that an earlier round already scored, Kernel SHAP's repeated
 * coalitions. A model's scores of equal masks are equal, so the output is unchanged; only the rows sent shrink.
 */
function scoredOnce(
  send: (featureMasks: Uint8Array, rows: number) => Promise<Float32Array>,
  d: number,
  k: number,
): Pick<Scorer, 'score' | 'counts'> {
  const seen = new Map<string, number>();
  let store = new Float32Array(0);
  let stored = 0;
  const counts = { asked: 0, sent: 0 };
  return {
    counts,
    async score(featureMasks, rows) {
      counts.asked += rows;
      const slot = new Int32Array(rows);
      const fresh: number[] = [];
      const pending = new Map<string, number>();
      for (let r = 0; r < rows; r++) {
        const key = maskKey(featureMasks, r * d, d);
        const s = seen.get(key);
        if (s !== undefined) {
          slot[r] = s;
          continue;
        }
        let p = pending.get(key);
        if (p === undefined) {
          p = stored + fresh.length;
          pending.set(key, p);
          fresh.push(r);
        }
        slot[r] = p;
      }
      if (fresh.length > 0) {
        const n = fresh.length;
        const masks = fresh.length === rows ? featureMasks.subarray(0, rows * d) : new Uint8Array(n * d);
        if (fresh.length !== rows) fresh.forEach((r, i) => masks.set(featureMasks.subarray(r * d, (r + 1) * d), i * d));
        const probs = await send(masks, n);
        counts.sent += n;
        if (store.length < (stored + n) * k) {
          const grown = new Float32Array(Math.max((stored + n) * k, 2 * store.length));
          grown.set(store.subarray(0, stored * k));
          store = grown;
        }
        store.set(probs.subarray(0, n * k), stored * k);
        for (const [key, p] of pending) seen.set(key, p);
        stored += n;
      }
      const out = new Float32Array(rows * k);
      for (let r = 0; r < rows; r++) out.set(store.subarray(slot[r] * k, slot[r] * k + k), r * k);
      return out;
    },
  };
}

/**
 * A scorer for the perturbations of one text: one `scoreTokenMasks` call when the classifier is a
 * `TokenScorer` (no strings built; each distinct mask once, whatever the calls it comes in), otherwise perturbed strings built and sent to `predictProba` in
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
    // each distinct mask once (scoredOnce); the string path below sends every row, as the reference does
    return {
      kind: 'token-scorer',
      ...scoredOnce(
        async (featureMasks, rows) => {
          const masks = tokenMasks(tf, featureMasks, rows);
          const out = await classifier.scoreTokenMasks(tf.text, masks, rows);
          return guard.check(out, rows);
        },
        tf.count,
        k,
      ),
    };
  }
  const batch = options.batchSize ?? 2048;
  if (!Number.isInteger(batch) || batch < 1) {
    throw new XtrustError('INVALID_ARGUMENT', `batchSize must be a positive integer, got ${String(batch)}`, {
      argument: 'batchSize',
    });
  }
  const builder = new PerturbedTexts(tf, maskString);
  const counts = { asked: 0, sent: 0 };
  return {
    kind: 'strings',
    counts,
    async score(featureMasks, rows) {
      counts.asked += rows;
      counts.sent += rows;
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

/**
 * How much of a text the model saw, when it has a position limit (TextLimit) that cut this text: the
 * first `words` of its `of` words (core's `tokenize`). Null when the model saw it all or cannot say.
 */
export function textSeen(classifier: Classifier, tf: TextFeatures): { words: number; of: number } | null {
  if (!isTextLimit(classifier)) return null;
  const of = tf.tokens.length;
  const words = classifier.seenWords(tf.text);
  if (!Number.isInteger(words) || words < 0 || words > of) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `seenWords returned ${String(words)} for a text of ${of} words; expected an integer in [0, ${of}]`,
      { source: 'seenWords' },
    );
  }
  return words < of ? { words, of } : null;
}

/** Class probabilities of the texts themselves, in batches of `batchSize`. */
export async function predictAll(
  classifier: Classifier,
  texts: readonly string[],
  guard: ProbabilityGuard,
  batchSize = 2048,
): Promise<Float32Array> {
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
  if (
    classifier === null ||
    typeof classifier !== 'object' ||
    typeof classifier.predictProba !== 'function' ||
    !Array.isArray(classifier.labels)
  ) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${method}: classifier must implement Classifier (labels and predictProba)`,
      { argument: 'classifier' },
    );
  }
  if (classifier.labels.length < 1) {
    throw new XtrustError('INVALID_ARGUMENT', `${method}: the classifier has no labels`, { argument: 'classifier' });
  }
  if (!Array.isArray(texts)) {
    throw new XtrustError('INVALID_ARGUMENT', `${method}: texts must be an array of strings`, { argument: 'texts' });
  }
  texts.forEach((t, i) => {
    if (typeof t !== 'string')
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${method}: texts[${i}] must be a string, got ${t === null ? 'null' : typeof t}`,
        { argument: `texts[${i}]` },
      );
  });
}
