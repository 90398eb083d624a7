import { XtrustError } from '@xtrust/core';
import { NON_CONTENT_WORDS } from '@xtrust/datasets';
import type { AttackedText } from '../text.js';
import type { PreTransformationConstraint } from './types.js';

export interface MaxModificationRateOptions {
  /** Largest share of the words that may change. */
  maxRate: number;
  /** At least this many words may change whatever the rate (TextAttack's `min_threshold`). Default 1. */
  minThreshold?: number;
  /** `ceil` (TextAttack, A2T) or `floor` (CEA: at most ⌊|s|·ρ_max⌋ words, 002 §4.3). Default `ceil`. */
  rounding?: 'ceil' | 'floor';
}

/** The number of words a text of `n` words may have changed: max(round(n·rate), minThreshold). */
export function modificationBudget(n: number, options: MaxModificationRateOptions): number {
  const round = (options.rounding ?? 'ceil') === 'ceil' ? Math.ceil : Math.floor;
  return Math.max(round(n * options.maxRate - 1e-9), options.minThreshold ?? 1);
}

/**
 * Maximum modification rate (A2T: 10 % of the words with a minimum of 4, Yoo & Qi 2021; CEA's ρ_max,
 * 002 Algorithm 1 line 19): once the budget of changed positions is spent, nothing more may change.
 */
export function maxModificationRate(options: MaxModificationRateOptions): PreTransformationConstraint {
  if (!(options.maxRate >= 0 && options.maxRate <= 1))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `maxModificationRate: maxRate must be in [0, 1], got ${options.maxRate}`,
      { argument: 'maxRate' },
    );
  const min = options.minThreshold ?? 1;
  if (!Number.isInteger(min) || min < 0)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `maxModificationRate: minThreshold must be a non-negative integer, got ${min}`,
      { argument: 'minThreshold' },
    );
  return {
    kind: 'pre',
    name: 'max-modification-rate',
    params: { maxRate: options.maxRate, minThreshold: min, rounding: options.rounding ?? 'ceil' },
    modifiable(current, original) {
      const open = current.modified.size < modificationBudget(original.length, options);
      return () => open;
    },
  };
}

/** A position already changed is not changed again (TextAttack's `RepeatModification`). */
export function repeatModification(): PreTransformationConstraint {
  return {
    kind: 'pre',
    name: 'repeat-modification',
    params: {},
    modifiable: (current) => (i) => !current.modified.has(i),
  };
}

/**
 * The default stopwords: @xtrust/datasets' NON_CONTENT_WORDS (NLTK's list without apostrophe forms)
 * plus the negations and negative-contraction stems it leaves out — an attack must not flip a negation.
 */
export const DEFAULT_STOPWORDS: ReadonlySet<string> = new Set([
  ...NON_CONTENT_WORDS,
  ...'no nor not don didn doesn hadn hasn haven isn aren wasn weren won wouldn shouldn couldn mustn needn shan mightn ain'.split(
    ' ',
  ),
]);

/** Stopwords are never replaced (TextAttack's `StopwordModification`; CEA Algorithm 1 lines 8–9). Case-insensitive. */
export function stopwordModification(stopwords: ReadonlySet<string> = DEFAULT_STOPWORDS): PreTransformationConstraint {
  return {
    kind: 'pre',
    name: 'stopword-modification',
    params: { stopwords: stopwords === DEFAULT_STOPWORDS ? 'default' : stopwords.size },
    modifiable: (current: AttackedText) => (i) =>
      !stopwords.has((current.modified.get(i) ?? current.word(i)).toLowerCase()),
  };
}
