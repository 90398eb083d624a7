// Reliance confirmed by intervention (issue 48's seventh round): a reason LIME's weights call decisive is
// decisive only when the model's prediction changes once the reason's words are gone. LIME's weights are
// slopes of a linear fit where about half the words are missing; on a saturated prediction a reason can
// carry most of that fit (or more than half the margin) and still leave the prediction standing when it is
// removed from the whole text — the rest of the text decides it too (a mail's header block and its body).
import { argmaxRow, checkProbabilities, tokenize, type Classifier } from '@xtrust/core';
import { PerturbedTexts, textFeatures } from '@xtrust/explainers';
import { tokensInSpans } from './unrelated-categories.js';
import { marginOf } from './verdict-sampling.js';
import { normalizeWord } from './word-pool.js';

/** A character span of a text (an unrelated category's occurrence). */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * `text` with every occurrence of `words` removed (compared as decisionWords compares them, lower-cased)
 * and every token overlapping one of `spans` (a category's occurrences: a header block, a URL), the
 * separators around them kept — built by LIME's own perturbation builder (@xtrust/explainers
 * PerturbedTexts, the reference's `inverse_removing`), so a removal here is one LIME's rows make.
 */
export function textWithout(text: string, words: ReadonlySet<string>, spans: readonly TextSpan[] = []): string {
  const tokens = tokenize(text);
  if (tokens.length === 0) return text;
  const keep = tokensInSpans(tokens, spans);
  for (let t = 0; t < tokens.length; t++) keep[t] = keep[t] || words.has(normalizeWord(tokens[t].text)) ? 0 : 1;
  return new PerturbedTexts(textFeatures(text, false), null).build(keep, 0);
}

/** One prediction whose candidate reasons are to be removed, each alone, heaviest first. */
export interface RemovalCase {
  readonly text: string;
  /** Index of the predicted class in the classifier's labels. */
  readonly predicted: number;
  /** The candidate reasons' words. */
  readonly reasons: readonly (readonly string[])[];
  /** Per reason, spans removed with its words (the occurrences of the categories it holds); none when absent. */
  readonly spans?: readonly (readonly TextSpan[])[];
}

/** What the model says once one reason's words are removed. */
export interface RemovalOutcome {
  /** Index of the predicted class without the words. */
  readonly predicted: number;
  /** Its probability. */
  readonly probability: number;
  /** Whether the prediction changed (the reason was needed). */
  readonly flipped: boolean;
  /** The originally predicted class's margin without the words: its probability less the largest other (negative once flipped). */
  readonly margin: number;
}

/**
 * Removes each case's reasons one at a time (with their spans) and asks the model once, in batches, for every resulting text:
 * outcome[i][j] is case i without reason j. A reason whose words do not occur in the text (an explanation
 * of another text) leaves it unchanged and so never flips.
 */
export async function removalOutcomes(
  classifier: Classifier,
  cases: readonly RemovalCase[],
  batchSize = 256,
): Promise<RemovalOutcome[][]> {
  const texts: string[] = [];
  const owner: { i: number; j: number }[] = [];
  cases.forEach((c, i) =>
    c.reasons.forEach((words, j) => {
      texts.push(textWithout(c.text, new Set(words.map(normalizeWord)), c.spans?.[j]));
      owner.push({ i, j });
    }),
  );
  const out: RemovalOutcome[][] = cases.map((c) => new Array(c.reasons.length));
  const k = classifier.labels.length;
  for (let b = 0; b < texts.length; b += batchSize) {
    const part = texts.slice(b, b + batchSize);
    const p = checkProbabilities(await classifier.predictProba(part), part.length, k, 'classifier.predictProba');
    for (let r = 0; r < part.length; r++) {
      const { i, j } = owner[b + r];
      const top = argmaxRow(p, r, k);
      const c = cases[i].predicted;
      out[i][j] = {
        predicted: top,
        probability: p[r * k + top],
        flipped: top !== c,
        margin: marginOf(p.subarray(r * k, (r + 1) * k), c),
      };
    }
  }
  return out;
}

/**
 * Whether a removal confirms its reason under OracleConfig.removalCheck = `loss`: the prediction changed, or
 * the removal cost more than `loss` of the original margin `margin` (p_c − p_2 of the unperturbed text).
 * With loss 1 only a changed prediction confirms.
 */
export function removalConfirms(o: RemovalOutcome, margin: number, loss: number): boolean {
  return o.flipped || o.margin < (1 - loss) * margin;
}
