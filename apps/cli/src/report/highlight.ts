import { tokenize, type FeatureWeight } from '@xtrust/core';
import { escapeHtml } from './escape.js';

/** An RGB colour per class label, stable by label order. */
export const CLASS_COLOURS = [
  '31, 119, 180',
  '214, 39, 40',
  '44, 160, 44',
  '255, 127, 14',
  '148, 103, 189',
  '140, 86, 75',
  '227, 119, 194',
  '127, 127, 127',
  '188, 189, 34',
  '23, 190, 207',
];

/** The colour of label `i` of the model's labels (cycling past ten). */
export function classColour(i: number): string {
  return CLASS_COLOURS[i % CLASS_COLOURS.length];
}

/** Characters of a text shown in the report; longer texts are cut with a note (the JSONL keeps them whole). */
export const MAX_SHOWN_CHARS = 6000;

/**
 * A text as HTML with the explanation's words highlighted, as LIME's visualisation does: a word
 * that pushes towards the predicted label takes that label's colour, one that pushes against it the
 * other label's (for two classes) or grey; the shade grows with |weight|. Every piece of the text is
 * escaped, so HTML or script in user data shows as text.
 */
export function highlightText(
  text: string,
  features: readonly FeatureWeight[],
  predictedIndex: number,
  labels: readonly string[],
): string {
  const exact = new Map<string, number>();
  const folded = new Map<string, number>();
  let max = 0;
  for (const f of features) {
    exact.set(f.word, f.weight);
    if (!folded.has(f.word.toLowerCase())) folded.set(f.word.toLowerCase(), f.weight);
    max = Math.max(max, Math.abs(f.weight));
  }
  const shown = text.length > MAX_SHOWN_CHARS ? text.slice(0, MAX_SHOWN_CHARS) : text;
  const against = labels.length === 2 ? classColour(1 - predictedIndex) : '127, 127, 127';
  const againstName = labels.length === 2 ? labels[1 - predictedIndex] : `not ${labels[predictedIndex]}`;
  const parts: string[] = [];
  let last = 0;
  for (const t of tokenize(shown)) {
    const w = exact.get(t.text) ?? folded.get(t.text.toLowerCase());
    if (w === undefined || w === 0 || max === 0) continue;
    parts.push(escapeHtml(shown.slice(last, t.start)));
    const colour = w > 0 ? classColour(predictedIndex) : against;
    const alpha = (0.15 + 0.75 * (Math.abs(w) / max)).toFixed(2);
    const towards = w > 0 ? labels[predictedIndex] : againstName;
    parts.push(
      `<mark class="w" style="background:rgba(${colour},${alpha})" title="${escapeHtml(`${t.text}: ${w > 0 ? '+' : ''}${w.toFixed(4)} towards ${towards}`)}">${escapeHtml(t.text)}</mark>`,
    );
    last = t.end;
  }
  parts.push(escapeHtml(shown.slice(last)));
  if (shown.length < text.length)
    parts.push(`<span class="cut">… (${text.length - shown.length} more characters)</span>`);
  return parts.join('');
}

/** Word-level substitutions between an original and a perturbed text (same token count: position by position). */
export function markSubstitutions(
  original: string,
  perturbed: string,
): { original: string; perturbed: string; changed: number } {
  const a = tokenize(original);
  const b = tokenize(perturbed);
  if (a.length !== b.length) return { original: escapeHtml(original), perturbed: escapeHtml(perturbed), changed: -1 };
  const render = (text: string, tokens: typeof a, other: typeof a, tag: 'del' | 'ins') => {
    const out: string[] = [];
    let last = 0;
    tokens.forEach((t, i) => {
      if (t.text === other[i].text) return;
      out.push(escapeHtml(text.slice(last, t.start)), `<${tag}>${escapeHtml(t.text)}</${tag}>`);
      last = t.end;
    });
    out.push(escapeHtml(text.slice(last)));
    return out.join('');
  };
  return {
    original: render(original, a, b, 'del'),
    perturbed: render(perturbed, b, a, 'ins'),
    changed: a.filter((t, i) => t.text !== b[i].text).length,
  };
}
