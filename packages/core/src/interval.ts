import { XtrustError } from './errors.js';

/** A proportion with its confidence interval. */
export interface ProportionInterval {
  /** successes ÷ trials (NaN for 0 trials). */
  readonly rate: number;
  readonly lo: number;
  readonly hi: number;
}

/**
 * The Wilson score interval of a binomial proportion (E. B. Wilson, "Probable inference, the law of
 * succession, and statistical inference", JASA 1927): the rates p whose normal test against the observed
 * rate does not reject at level z, p ∈ [(p̂ + z²/2n ∓ z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)]. Unlike the
 * Wald interval it stays inside [0, 1] and is not empty at 0 or n successes. `z` defaults to 1.959964
 * (95 %). With 0 trials the rate is NaN and the interval the whole [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z = 1.959963984540054): ProportionInterval {
  if (!Number.isInteger(trials) || trials < 0)
    throw new XtrustError('INVALID_ARGUMENT', `wilsonInterval: trials must be an integer ≥ 0, got ${String(trials)}`, {
      argument: 'trials',
    });
  if (!Number.isInteger(successes) || successes < 0 || successes > trials)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `wilsonInterval: successes must be an integer in [0, ${trials}], got ${String(successes)}`,
      { argument: 'successes' },
    );
  if (!(Number.isFinite(z) && z > 0))
    throw new XtrustError('INVALID_ARGUMENT', `wilsonInterval: z must be a positive number, got ${String(z)}`, {
      argument: 'z',
    });
  if (trials === 0) return { rate: Number.NaN, lo: 0, hi: 1 };
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // exact ends at 0 and n successes (the formula gives them up to rounding)
  return {
    rate: p,
    lo: successes === 0 ? 0 : Math.max(0, centre - half),
    hi: successes === n ? 1 : Math.min(1, centre + half),
  };
}
