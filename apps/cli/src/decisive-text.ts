// The decisive reason of TOKI's decisive-word verdicts in words, for the terminal summary and the report.
import type { DecisiveReason } from '@xtrust/oracle';

/** "2 with an unrelated reason above half the margin, 40 with one carrying half the explanation's weight". */
export function boundSentence(bound: Readonly<Record<DecisiveReason['by'], number>>): string {
  return `${bound.margin} with an unrelated reason above half the margin, ${bound.share} with one carrying half the explanation's weight`;
}

/**
 * "decisive: calm, carry, keep weigh 0.356 > 0.190, half the explanation's weight": an untrustworthy
 * prediction's decisive reason, its weight and the bound it exceeded (the CLI's oracles share at one half).
 */
export function decisiveSentence(d: DecisiveReason): string {
  const what = d.by === 'margin' ? 'half the margin to the runner-up' : "half the explanation's weight";
  return `decisive: ${d.words.join(', ')} ${d.words.length === 1 ? 'weighs' : 'weigh'} ${d.weight.toFixed(3)} > ${d.bound.toFixed(3)}, ${what}`;
}
