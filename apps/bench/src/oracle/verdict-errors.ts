/**
 * What an oracle's wrong verdicts on a token-set case rest on (issue 48's "what limits it"). The ground truth
 * of a natural case knows one token set — a phrase's words, a scattered list, a category — so a wrong verdict
 * is either a false alarm (the prediction survives the set's removal, yet the oracle found a decisive
 * unrelated reason) or a miss (removing the set changes the prediction, yet the oracle let it through). This
 * sorts each by the part of the label that decided it, so a missed target says which rule to question: the
 * meaning test (a set word judged related), the removal check, the bound, or a reason outside the set.
 */
import { tokenize } from '@xtrust/core';
import type { TokenSet } from '@xtrust/datasets';
import { normalizeWord, type TrustLabel } from '@xtrust/oracle';

/** Words and how often they were blamed, most frequent first (ties in alphabetical order). */
export type WordCounts = readonly (readonly [string, number])[];

export interface VerdictErrors {
  /** Ground truth trustworthy, labelled untrustworthy (or unknown), by what the decisive reason was. */
  readonly falseAlarms: {
    readonly count: number;
    /** The decisive reason holds a word of the case's set: the set was blamed though the prediction survives its removal. */
    readonly onSet: number;
    /** The decisive reason is another token category's words (names, numbers, a header block, …). */
    readonly onOtherCategory: number;
    /** The decisive reason is other words; `words` counts them. */
    readonly onOtherWords: number;
    /** Labelled 'unknown', or untrustworthy without a recorded decisive reason. */
    readonly noReason: number;
    /** The words of the "other words" reasons, most frequent first (at most `top`). */
    readonly words: WordCounts;
  };
  /** Ground truth untrustworthy, labelled trustworthy, by where the set's words stood in the label. */
  readonly missed: {
    readonly count: number;
    /** A word of the set was judged related to the predicted class; `related` counts them. */
    readonly setRelated: number;
    /** The set outweighed its bound, but removing the reason left the prediction standing (the removal check). */
    readonly overruled: number;
    /** The set's words were unrelated decision words whose weight stayed under the bound. */
    readonly belowBound: number;
    /** No word of the set was among the explanation's decision words. */
    readonly notDecisionWords: number;
    /** The set words judged related in the `setRelated` misses, most frequent first (at most `top`). */
    readonly related: WordCounts;
  };
}

/** The set's words in `text`, normalised as the labels' words are. */
function setWordsIn(text: string, set: TokenSet): Set<string> {
  const out = new Set<string>();
  for (const s of set.spans(text))
    for (const t of tokenize(text.slice(s.start, s.end))) {
      const w = normalizeWord(t.text);
      if (w) out.add(w);
    }
  return out;
}

/** The category whose reason covers every one of `words`, when one does. */
function categoryOf(label: TrustLabel, words: readonly string[]): string | undefined {
  return label.categories?.find((c) => words.every((w) => c.words.some((x) => normalizeWord(x) === normalizeWord(w))))
    ?.category;
}

/** Whether a reason's words touch the set: a word of the set, or (a category case) the set's own category. */
function touchesSet(label: TrustLabel, words: readonly string[], inText: Set<string>, category?: string): boolean {
  if (category !== undefined && categoryOf(label, words) === category) return true;
  return words.some((w) => inText.has(normalizeWord(w)));
}

function ranked(counts: Map<string, number>, top: number): WordCounts {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, top)
    .map(([w, n]) => [w, n] as const);
}

/**
 * Sorts the wrong verdicts of `labels` against `truth` (1 = trustworthy) on a case whose ground truth removes
 * `set`; `category` names the set when it is a token category (the labels then name it in their
 * `categories`). Labels and truth are parallel; a label counts as trustworthy only with that verdict.
 */
export function verdictErrors(
  labels: readonly TrustLabel[],
  truth: Uint8Array,
  set: TokenSet,
  options: { readonly category?: string; readonly top?: number } = {},
): VerdictErrors {
  const top = options.top ?? 8;
  const fa = { count: 0, onSet: 0, onOtherCategory: 0, onOtherWords: 0, noReason: 0 };
  const ms = { count: 0, setRelated: 0, overruled: 0, belowBound: 0, notDecisionWords: 0 };
  const blamed = new Map<string, number>();
  const related = new Map<string, number>();
  const bump = (m: Map<string, number>, w: string) => m.set(w, (m.get(w) ?? 0) + 1);
  labels.forEach((label, i) => {
    const trusted = label.verdict === 'trustworthy';
    if (truth[i] === 1 && !trusted) {
      fa.count++;
      const d = label.decisive;
      if (label.verdict !== 'untrustworthy' || !d) fa.noReason++;
      else if (touchesSet(label, d.words, setWordsIn(label.text, set), options.category)) fa.onSet++;
      else if (categoryOf(label, d.words) !== undefined) fa.onOtherCategory++;
      else {
        fa.onOtherWords++;
        for (const w of new Set(d.words.map(normalizeWord))) bump(blamed, w);
      }
    } else if (truth[i] === 0 && trusted) {
      ms.count++;
      const inText = setWordsIn(label.text, set);
      const rel = label.related.map((f) => normalizeWord(f.word)).filter((w) => inText.has(w));
      if (rel.length) {
        ms.setRelated++;
        for (const w of new Set(rel)) bump(related, w);
      } else if (label.overruled && touchesSet(label, label.overruled.words, inText, options.category)) ms.overruled++;
      else if (
        label.unrelated.some((f) => inText.has(normalizeWord(f.word))) ||
        (options.category !== undefined && label.categories?.some((c) => c.category === options.category))
      )
        ms.belowBound++;
      else ms.notDecisionWords++;
    }
  });
  return { falseAlarms: { ...fa, words: ranked(blamed, top) }, missed: { ...ms, related: ranked(related, top) } };
}
