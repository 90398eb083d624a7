/**
 * The ground truth of issue 14 in words a user understands, for the terminal summary and the HTML
 * report alike (one wording, two renderings).
 */
import type { GroundTruthCounts, OracleComparison } from './audit-records.js';

const n = (x: number) => x.toLocaleString('en-US');

/** The over-determined count: predictions for which the spurious part alone and the rest alone each give the class. */
export function overDeterminedSentence(g: GroundTruthCounts): string | null {
  const over = g.ambiguous['survives-but-spurious-alone-suffices'] ?? 0;
  if (over === 0) return null;
  const [part, rest] = g.spurious === 'the headers' ? ['the headers', 'the body'] : [g.spurious, 'the text without it'];
  return `For ${n(over)} of ${n(g.correct)} correct predictions, ${part} alone and ${rest} alone each give the same class: these cannot tell whether the model is right for the right reasons.`;
}

/** What the ground truth decided: how many correct predictions are trustworthy, untrustworthy, or left undecided (and why). */
export function decidedSentence(g: GroundTruthCounts): string {
  const other = Object.entries(g.ambiguous).filter(([r]) => r !== 'survives-but-spurious-alone-suffices');
  const rest = other.length ? `; ${other.map(([r, v]) => `${n(v)} ${r}`).join(', ')}` : '';
  const headers = g.spurious === 'the headers';
  return `Removing ${g.spurious} decides ${n(g.trustworthy)} trustworthy (the prediction survives, and ${g.spurious} alone ${headers ? 'give' : 'gives'} another class${headers ? '' : ', or the text has none'}) and ${n(g.untrustworthy)} untrustworthy (the prediction flips) of ${n(g.correct)} correct predictions${rest}.`;
}

/** Why no accuracy or G-mean is given. */
export function tooSmallSentence(trustworthy: number, untrustworthy: number, minPerSide: number): string {
  return `Too small to score an oracle: ${n(trustworthy)} trustworthy and ${n(untrustworthy)} untrustworthy predictions with a ground truth; an accuracy or G-mean needs at least ${minPerSide} of each, so none is given.`;
}

/** tooSmallSentence for a comparison. */
export function comparisonTooSmall(c: OracleComparison): string {
  return tooSmallSentence(c.trustworthy, c.untrustworthy, c.minPerSide);
}
