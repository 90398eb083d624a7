// The reasons TOKI's decisive-word verdict weighs: a prediction's unrelated words grouped into the
// reasons they form together (issue 48) — shared by the labelling and by verdict-aware sampling's statistic.
import { isFunctionWord } from './function-words.js';
import type { WordCooccurrence } from './word-cooccurrence.js';

/**
 * The unrelated words as the reasons `decisive-word` weighs: each word alone, or — with the store's word
 * co-occurrence (OracleConfig.cooccurrence) and with `ofCategory` (a word → its unrelated category,
 * categoryWords) — the connected components of both relations together: words that travel together are
 * one reason, and so are all words of one category, their weights summed. Because categories only join
 * reasons, a reason with them is never lighter than without. Reasons holding a category word come first.
 */
export function groupedWeights(
  fs: readonly { readonly word: string; readonly weight: number }[],
  cooccurrence: WordCooccurrence | null,
  ofCategory?: ReadonlyMap<string, number> | null,
): { words: string[]; weight: number }[] {
  const parent = Int32Array.from(fs, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const join = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const firstOfCategory = new Map<number, number>();
  fs.forEach((f, i) => {
    const k = ofCategory?.get(f.word);
    if (k === undefined) return;
    const first = firstOfCategory.get(k);
    if (first === undefined) firstOfCategory.set(k, i);
    else join(first, i);
  });
  if (cooccurrence && fs.length >= 2)
    for (const g of cooccurrence.groups(fs.map((f) => f.word))) for (const i of g) join(g[0], i);
  const byRoot = new Map<number, { words: string[]; weight: number; category: boolean }>();
  fs.forEach((f, i) => {
    const r = find(i);
    let g = byRoot.get(r);
    if (!g) byRoot.set(r, (g = { words: [], weight: 0, category: false }));
    g.words.push(f.word);
    g.weight += f.weight;
    g.category ||= ofCategory?.has(f.word) === true;
  });
  const groups = [...byRoot.values()];
  return [...groups.filter((g) => g.category), ...groups.filter((g) => !g.category)].map(({ words, weight }) => ({
    words,
    weight,
  }));
}

/** Whether a reason's words can hold phrase function words: one of them is not a function word (a phrase's anchor). */
export function anchorsPhrase(words: readonly string[]): boolean {
  return words.some((w) => !isFunctionWord(w));
}

/**
 * groupedWeights over the prediction's unrelated words `fs` and its phrase function words `inPhrase`
 * (KeywordStore.phraseFunctionWords) together, each phrase function word kept only in a group that holds a
 * word other than a function word: a planted *as a matter of* weighs whole, *you, your* alone weigh nothing.
 * `kept` lists the phrase function words that stayed, for the verdict's unrelated words.
 */
export function groupedWithPhraseWords<F extends { readonly word: string; readonly weight: number }>(
  fs: readonly F[],
  inPhrase: readonly F[],
  cooccurrence: WordCooccurrence | null,
  ofCategory?: ReadonlyMap<string, number> | null,
): { groups: { words: string[]; weight: number }[]; kept: F[] } {
  if (inPhrase.length === 0) return { groups: groupedWeights(fs, cooccurrence, ofCategory), kept: [] };
  const phrase = new Map(inPhrase.map((f) => [f.word, f]));
  const weightOf = new Map(fs.map((f) => [f.word, f.weight]));
  const kept: F[] = [];
  const groups: { words: string[]; weight: number }[] = [];
  for (const g of groupedWeights([...fs, ...inPhrase], cooccurrence, ofCategory)) {
    if (anchorsPhrase(g.words)) {
      for (const w of g.words) {
        const f = phrase.get(w);
        if (f) kept.push(f);
      }
      groups.push(g);
      continue;
    }
    const words = g.words.filter((w) => !phrase.has(w));
    if (words.length > 0) groups.push({ words, weight: words.reduce((a, w) => a + weightOf.get(w)!, 0) });
  }
  return { groups, kept };
}
