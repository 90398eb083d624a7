import { tokenize, XtrustError } from '@xtrust/core';
import { normalizeWord } from './word-pool.js';

/**
 * A kind of token that is no reason for a class unless the class is about it (issue 47's rubric: names of
 * people, numbers and dates, URLs and e-mail addresses, markup, mail header fields), found in a text by
 * where its occurrences are. Structurally @xtrust/datasets' `TokenSet`, so its `TOKEN_CATEGORIES` can be
 * passed as they are; the oracle itself names no category.
 */
export interface UnrelatedCategory {
  /** A short name for labels and reports ("years", "urls", …). */
  readonly name: string;
  /** The category's occurrences in `text`, as character spans, any order, possibly overlapping. */
  spans(text: string): readonly { readonly start: number; readonly end: number }[];
  /** Classes this category is a right reason for (a "sports results" class and numbers): not applied to them. */
  readonly relatedClasses?: readonly string[];
}

/**
 * Which category names a token that spans of several categories cover (OracleConfig.categoryNesting):
 * the first listed, or the one whose covering span is longest.
 */
export type CategoryNesting = 'first' | 'outermost';

/** The words of one category an explanation's prediction rested on, and their summed weight. */
export interface CategoryReason {
  readonly category: string;
  readonly words: readonly string[];
  readonly weight: number;
}

/** Refuses a list that is not of categories (a name and a `spans` function each). */
export function checkUnrelatedCategories(cs: readonly UnrelatedCategory[], where: string): void {
  if (!Array.isArray(cs))
    throw new XtrustError('INVALID_ARGUMENT', `${where}: unrelatedCategories must be a list of categories`, {
      argument: 'unrelatedCategories',
    });
  for (const c of cs)
    if (!c || typeof c.name !== 'string' || typeof c.spans !== 'function')
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${where}: each unrelated category needs a name and a spans(text) function, got ${JSON.stringify(c)}`,
        { argument: 'unrelatedCategories' },
      );
}

/**
 * For one text and the class it was predicted as, the category of each word that is a category token
 * **wherever it occurs in the text** (index into `categories`). A token belongs to a category when it
 * overlaps one of the category's spans; when spans of two categories cover the same token, `nesting` says
 * which names it: `first`, the first listed; `outermost`, the one whose covering span is longest (the
 * header block around a date's numbers, the URL around its digits; ties to the first listed) — so that
 * what is weighed as one reason is what its removal takes (OracleConfig.categoryNesting). A word with one
 * occurrence outside every span ("com" in a sentence as well as in a URL) carries its own meaning there and
 * is left to relatedness. Words are lower-cased as decisionWords lower-cases them.
 */
export function categoryWords(
  text: string,
  predictedClass: string,
  categories: readonly UnrelatedCategory[],
  nesting: CategoryNesting = 'first',
): Map<string, number> {
  const out = new Map<string, number>();
  const applied = categories.map((c, k) => ({ c, k })).filter(({ c }) => !c.relatedClasses?.includes(predictedClass));
  if (applied.length === 0) return out;
  const tokens = tokenize(text);
  if (tokens.length === 0) return out;
  // category of each token (−1 none): the first listed, or the one whose covering span is longest
  const of = new Int32Array(tokens.length).fill(-1);
  if (nesting === 'outermost') {
    const longest = new Int32Array(tokens.length);
    for (const { c, k } of applied) {
      const cover = longestCover(tokens, c.spans(text));
      for (let t = 0; t < tokens.length; t++)
        if (cover[t] > longest[t]) {
          longest[t] = cover[t];
          of[t] = k;
        }
    }
  } else
    for (const { c, k } of applied) {
      const inside = tokensInSpans(tokens, c.spans(text));
      for (let t = 0; t < tokens.length; t++) if (inside[t] && of[t] < 0) of[t] = k;
    }
  const outside = new Set<string>();
  tokens.forEach((tok, t) => {
    const w = normalizeWord(tok.text);
    if (of[t] < 0) outside.add(w);
    else if (!out.has(w)) out.set(w, of[t]);
  });
  for (const w of outside) out.delete(w);
  return out;
}

/**
 * The spans of every category (not one of the predicted class's related ones) that covers an occurrence of
 * one of `words` in `text` — what removing those words as a category reason takes with them. A token can
 * lie in several categories (an e-mail address inside a mail's header block, a year among the numbers);
 * categoryWords names only the first, but the reason's removal must take each kind whole, as the header
 * block goes whole when one of its words is the reason.
 */
export function coveringSpans(
  text: string,
  predictedClass: string,
  words: ReadonlySet<string>,
  categories: readonly UnrelatedCategory[],
): { readonly start: number; readonly end: number }[] {
  const tokens = tokenize(text);
  const at = tokens.flatMap((t, i) => (words.has(normalizeWord(t.text)) ? [i] : []));
  if (at.length === 0) return [];
  const out: { start: number; end: number }[] = [];
  for (const c of categories) {
    if (c.relatedClasses?.includes(predictedClass)) continue;
    const spans = c.spans(text);
    const inside = tokensInSpans(tokens, spans);
    if (at.some((i) => inside[i])) out.push(...spans);
  }
  return out;
}

/**
 * The spans a category reason's removal takes (the removal check): under `first` nesting, every category
 * covering an occurrence of one of `words` (coveringSpans); under `outermost`, the categories `ofCategory`
 * (categoryWords with the same nesting) names for them — the reason weighed is the reason removed.
 */
export function reasonSpans(
  text: string,
  predictedClass: string,
  words: readonly string[],
  ofCategory: ReadonlyMap<string, number>,
  categories: readonly UnrelatedCategory[],
  nesting: CategoryNesting = 'first',
): { readonly start: number; readonly end: number }[] {
  if (nesting === 'first') return coveringSpans(text, predictedClass, new Set(words), categories);
  const named = new Set(words.flatMap((w) => (ofCategory.has(w) ? [ofCategory.get(w)!] : [])));
  return [...named].sort((a, b) => a - b).flatMap((k) => [...categories[k].spans(text)]);
}

/**
 * For tokens in text order, the length of the longest of `spans` overlapping the token (0: none; spans in any
 * order, possibly overlapping): one pass over the tokens against the spans sorted by start.
 */
function longestCover(
  tokens: readonly { readonly start: number; readonly end: number }[],
  spans: readonly { readonly start: number; readonly end: number }[],
): Int32Array {
  const out = new Int32Array(tokens.length);
  if (spans.length === 0) return out;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let s = 0;
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t];
    while (s < sorted.length && sorted[s].end <= tok.start) s++;
    // a later span may still start before this token ends when spans overlap: scan them
    for (let u = s; u < sorted.length && sorted[u].start < tok.end; u++)
      if (sorted[u].end > tok.start) out[t] = Math.max(out[t], sorted[u].end - sorted[u].start);
  }
  return out;
}

/** For tokens in text order, 1 where the token overlaps one of `spans` (any order, possibly overlapping). */
export function tokensInSpans(
  tokens: readonly { readonly start: number; readonly end: number }[],
  spans: readonly { readonly start: number; readonly end: number }[],
): Uint8Array {
  return Uint8Array.from(longestCover(tokens, spans), (n) => (n > 0 ? 1 : 0));
}
