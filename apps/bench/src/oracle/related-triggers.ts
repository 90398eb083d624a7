/**
 * Which planted words are *related* to a target class (issue 47): the words of the related-trigger control
 * family, and the words the unrelated families must never plant. Decided by meaning — the person-written
 * word lists (word-lists/*.json) read by the rubric (relatedness-rubric.md) — never by corpus frequency.
 *
 * - {@link relatedTo}: a word is related to a class when it, or the base of a regular inflection of it
 *   (rubric rule 6: *reporters, reported, reporting* follow *report*), is on the class's related list (both
 *   halves) or labelled related in the corpus's annotated pools (annotated-pools/, by the same rubric). The
 *   unrelated families skip such words when they draw a trigger.
 * - {@link heldOutRelated}: the control family's candidates — the lists' `report` half (`halfLists`: the 2nd,
 *   4th, … related words in file order, a split that looks at no word; every choice of the oracle read only
 *   the `choice` half), less any word that shares its inflection base with a choice-half word, so the
 *   oracle's tuning saw neither the word nor its inflection.
 */
import type { CorpusName } from './family.js';
import { halfLists, loadWordLists, WORD_LIST_CORPORA, type WordListCorpus } from './relatedness-lists.js';
import { loadAnnotatedPools } from './annotated-pool-labels.js';

/** The word-list file of a corpus of the family: SpamAssassin with headers shares the spam lists. */
export function listCorpus(corpus: CorpusName): WordListCorpus {
  const c = corpus === 'headers' ? 'spam' : corpus;
  if (!(WORD_LIST_CORPORA as readonly string[]).includes(c)) throw new Error(`no word lists for corpus ${corpus}`);
  return c as WordListCorpus;
}

/**
 * The word and the bases it may be a regular inflection of (plural, past, gerund, agent: -s, -es, -ies,
 * -ed, -ing, -er, -ers; with a restored final e), each of at least three letters.
 */
export function inflectionBases(word: string): string[] {
  const w = word.toLowerCase();
  const out = new Set([w]);
  const strip = (suffix: string, add = '') => {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) out.add(w.slice(0, w.length - suffix.length) + add);
  };
  strip('s');
  strip('es');
  strip('ies', 'y');
  for (const s of ['ed', 'ing', 'er', 'ers']) {
    strip(s);
    strip(s, 'e');
    // a doubled final consonant (stopped, planning)
    if (w.endsWith(s) && w.length - s.length >= 4) {
      const stem = w.slice(0, w.length - s.length);
      if (stem.at(-1) === stem.at(-2)) out.add(stem.slice(0, -1));
    }
  }
  return [...out];
}

/** True when the two words share an inflection base (one is an inflection of the other, or both of a third). */
export function sameBase(a: string, b: string): boolean {
  const x = new Set(inflectionBases(a));
  return inflectionBases(b).some((w) => x.has(w));
}

/**
 * `relatedTo(word)` for one class: the word (every word of a phrase) or an inflection base of it is on the
 * class's related list. A class without a list (not a class of the committed corpora) has no related word.
 */
export function relatedTo(corpus: CorpusName, target: string): (word: string) => boolean {
  const lists = loadWordLists(listCorpus(corpus));
  const list = lists[target];
  const pooled = poolRelated(corpus, target);
  if (!list && pooled.length === 0) return () => false;
  const bases = new Set([...(list?.related ?? []), ...pooled].flatMap((w) => inflectionBases(w)));
  return (word: string) => word.split(/\s+/).some((w) => inflectionBases(w).some((b) => bases.has(b)));
}

/** The words labelled related to a class in the annotated pools of the corpus (SpamAssassin bodies and headers for spam). */
export function poolRelated(corpus: CorpusName, target: string): string[] {
  const c = listCorpus(corpus);
  const out: string[] = [];
  for (const p of loadAnnotatedPools())
    if (listCorpus(p.settings.corpus as CorpusName) === c)
      for (const w of p.classes[target] ?? []) if (w.label === 'related') out.push(w.word);
  return out;
}

/** The control family's related words for a class, in file order: the report half less the inflections of choice-half words. */
export function heldOutRelated(corpus: CorpusName, target: string): string[] {
  const lists = loadWordLists(listCorpus(corpus));
  const choice = halfLists(lists, 'choice')[target];
  const report = halfLists(lists, 'report')[target];
  if (!choice || !report) throw new Error(`no word list for class ${target} of ${corpus}`);
  return report.related.filter((w) => !choice.related.some((c) => sameBase(c, w)));
}
