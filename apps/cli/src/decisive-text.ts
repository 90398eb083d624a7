// The decisive reason of TOKI's decisive-word verdicts in words, for the terminal summary and the report.
import type { DecisiveReason } from '@xtrust/oracle';
import type { DecisiveCounts } from './audit-records.js';

/** "2 with an unrelated reason above half the margin, 40 with one carrying half the explanation's weight". */
export function boundSentence(bound: DecisiveCounts): string {
  const related = bound.related ? `, ${bound.related} with one outweighing the related words` : '';
  return `${bound.margin} with an unrelated reason above half the margin, ${bound.share} with one carrying half the explanation's weight${related}`;
}

/** How many untrustworthy predictions named the bound their decisive reason exceeded. */
export function decisiveTotal(bound: DecisiveCounts): number {
  return bound.margin + bound.share + (bound.related ?? 0);
}

/**
 * "decisive: calm, carry, keep weigh 0.356 > 0.190, half the explanation's weight": an untrustworthy
 * prediction's decisive reason, its weight and the bound it exceeded (the CLI's oracles share at one half).
 */
export function decisiveSentence(d: DecisiveReason): string {
  return `decisive: ${weighSentence(d)}${withoutClause(d)}`;
}

/**
 * "survives removal: header, received weigh 0.402 > 0.210, half the explanation's weight; without them:
 * ham (0.97)": a trustworthy prediction whose unrelated reason outweighed the bound but whose removal from the
 * text left the prediction standing (TOKI's removal check).
 */
export function overruledSentence(d: DecisiveReason): string {
  return `survives removal: ${weighSentence(d)}${withoutClause(d)}`;
}

/** How many trustworthy predictions the removal check kept (none: no line). */
export function overruledLine(n: number | undefined): string | null {
  if (!n) return null;
  return `${n} leaned on unrelated words above the bound but keep their class once those words are removed: trustworthy (removal check)`;
}

function weighSentence(d: DecisiveReason): string {
  const what =
    d.by === 'margin'
      ? 'half the margin to the runner-up'
      : d.by === 'related'
        ? "the related words' weight"
        : "half the explanation's weight";
  return `${d.words.join(', ')} ${d.words.length === 1 ? 'weighs' : 'weigh'} ${d.weight.toFixed(3)} > ${d.bound.toFixed(3)}, ${what}`;
}

function withoutClause(d: DecisiveReason): string {
  const w = d.without;
  return w ? `; without ${d.words.length === 1 ? 'it' : 'them'}: ${w.predicted} (${w.probability.toFixed(2)})` : '';
}
