/**
 * Adaptive stopping rules as the transformer-lime scripts take and key them: `STEP,PATIENCE,J` on the command
 * line, and in a stored block's key only when the rule is not the one blocks ran before rules were keyed.
 */
import { previousAdaptiveDefault, type AdaptiveRule } from '@xtrust/explainers';

/** `250,4,1`: one rule (step and patience positive integers, minJaccard in (0, 1]). */
export function parseAdaptiveRule(raw: string): AdaptiveRule {
  const [step, patience, minJaccard, ...rest] = raw.split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
  if (
    rest.length ||
    !Number.isInteger(step) ||
    step < 1 ||
    !Number.isInteger(patience) ||
    patience < 1 ||
    !(minJaccard > 0 && minJaccard <= 1)
  ) {
    throw new Error(
      `expected STEP,PATIENCE,MIN_JACCARD such as 250,4,1 (positive integers, then a number in (0, 1]), got ${JSON.stringify(raw)}`,
    );
  }
  return { step, patience, minJaccard };
}

/** `250,4,1;250,2,1`: rules separated by semicolons. */
export function parseAdaptiveRules(raw: string): AdaptiveRule[] {
  return raw.split(';').map(parseAdaptiveRule);
}

/** `step 250, patience 4, J ≥ 1`. */
export const adaptiveRuleText = (r: AdaptiveRule): string =>
  `step ${r.step}, patience ${r.patience}, J ≥ ${r.minJaccard}`;

/**
 * Whether a stored measurement of an adaptive mode must be keyed by its stopping rule: the blocks and runs stored
 * before rules were keyed ran 2026-11-24's (step budget / 20, patience 2, minJaccard 1), so only another rule —
 * asked for, or a later default of LimeOptions.adaptive — enters a key, and a stored result is never read as
 * another rule's.
 */
export function ruleNeedsKey(rule: AdaptiveRule, budget: number): boolean {
  const previous = previousAdaptiveDefault(budget);
  return rule.step !== previous.step || rule.patience !== previous.patience || rule.minJaccard !== previous.minJaccard;
}
