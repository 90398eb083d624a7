/**
 * Scores a method's sense of "this word is related to this class" against word lists a person wrote
 * (issue 29, deliverable 3): per class, the precision and recall of "related" on the words the person
 * called related and unrelated.
 *
 * Independent of the oracle: the method under test is a plain predicate `(label, word) => boolean | undefined`,
 * where `undefined` means it couldn't judge the word (e.g. the word is not in its embedding's vocabulary);
 * such words are counted apart as "not judged", never as a miss or a hit.
 *
 * The lists live in `src/oracle/word-lists/*.json` and are read from there both by the TypeScript sources
 * and by the build (`dist/oracle/…` resolves the same folder), so the build needs no copy step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Function words for the lists' rules: NLTK's English stop words (Porter et al.) without the forms with an
 * apostrophe, plus a few function words NLTK leaves out. Kept here, not taken from another package, so that
 * the rule the lists were written under can't move under them.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under ' +
    'again further then once here there when where why how all any both each few more most other some such no nor not ' +
    'only own same so than too very s t can will just don should now d ll m o re ve y ain ma ' +
    // function words NLTK leaves out
    'another upon although though whether within without among whose shall would could may might must also yet'
  ).split(' '),
);

/** The corpora with a word-list file. */
export const WORD_LIST_CORPORA = ['spam', 'sotu', 'brown'] as const;
export type WordListCorpus = (typeof WORD_LIST_CORPORA)[number];

/** One class's lists: the words a person called related to the class, and those they called unrelated. */
export interface ClassWordList {
  readonly related: readonly string[];
  readonly unrelated: readonly string[];
}

/** A corpus's lists by class label (spelt as the dataset spells it: `ham`, `Democratic`, `news`, …). */
export type WordLists = Readonly<Record<string, ClassWordList>>;

/** The folder of the JSON files (from `src/oracle/` and `dist/oracle/` alike: both sit two levels below the package root). */
export const WORD_LISTS_DIR = fileURLToPath(new URL('../../src/oracle/word-lists/', import.meta.url));

/** Reads `<dir>/<corpus>.json`, checking its shape: an object of classes, each with `related` and `unrelated` arrays of strings. */
export function loadWordLists(corpus: WordListCorpus, dir: string = WORD_LISTS_DIR): WordLists {
  const file = join(dir, `${corpus}.json`);
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`${file}: expected an object of classes`);
  const lists: Record<string, ClassWordList> = {};
  for (const [label, value] of Object.entries(raw as Record<string, unknown>)) {
    const v = value as Partial<Record<'related' | 'unrelated', unknown>> | null;
    const words = (key: 'related' | 'unrelated'): string[] => {
      const a = v?.[key];
      if (!Array.isArray(a) || !a.every((w) => typeof w === 'string'))
        throw new Error(`${file}: ${label}.${key} must be an array of strings`);
      return a as string[];
    };
    lists[label] = Object.freeze({
      related: Object.freeze(words('related')),
      unrelated: Object.freeze(words('unrelated')),
    });
  }
  return Object.freeze(lists);
}

/** What {@link wordListProblems} requires (the issue asks for ≥ 50 / ≥ 50 and function words among the unrelated). */
export interface WordListRules {
  minRelated?: number;
  minUnrelated?: number;
  /** Words of {@link FUNCTION_WORDS} among each class's unrelated words. */
  minFunctionWords?: number;
}

/** The function words ({@link FUNCTION_WORDS}) among `words`. */
export function functionWordsIn(words: readonly string[]): string[] {
  return words.filter((w) => FUNCTION_WORDS.has(w));
}

/** The two halves of the lists that keep choices apart from the figures reported (issue 29). */
export const LIST_HALVES = ['choice', 'report'] as const;
export type ListHalf = (typeof LIST_HALVES)[number];

/**
 * One half of every class's lists, split deterministically and without looking at any word: alternate
 * words in file order — the 1st, 3rd, 5th … related and unrelated words are the `choice` half (every
 * choice of a candidate reads only it), the 2nd, 4th … the `report` half.
 */
export function halfLists(lists: WordLists, half: ListHalf): WordLists {
  const keep = (words: readonly string[]) =>
    Object.freeze(words.filter((_, i) => i % 2 === (half === 'choice' ? 0 : 1)));
  const out: Record<string, ClassWordList> = {};
  for (const [label, l] of Object.entries(lists))
    out[label] = Object.freeze({ related: keep(l.related), unrelated: keep(l.unrelated) });
  return Object.freeze(out);
}

/** Everything wrong with the lists, one sentence a problem; empty when they follow the rules. */
export function wordListProblems(lists: WordLists, rules: WordListRules = {}): string[] {
  const { minRelated = 50, minUnrelated = 50, minFunctionWords = 20 } = rules;
  const problems: string[] = [];
  for (const [label, { related, unrelated }] of Object.entries(lists)) {
    if (related.length < minRelated) problems.push(`${label}: ${related.length} related words (< ${minRelated})`);
    if (unrelated.length < minUnrelated)
      problems.push(`${label}: ${unrelated.length} unrelated words (< ${minUnrelated})`);
    const fw = functionWordsIn(unrelated).length;
    if (fw < minFunctionWords)
      problems.push(`${label}: ${fw} function words among the unrelated (< ${minFunctionWords})`);
    const rel = new Set(related);
    const both = unrelated.filter((w) => rel.has(w));
    if (both.length > 0) problems.push(`${label}: in both lists: ${both.join(', ')}`);
    for (const [key, words] of [
      ['related', related],
      ['unrelated', unrelated],
    ] as const) {
      const bad = words.filter((w) => w !== w.toLowerCase() || !/^[a-z]+$/.test(w));
      if (bad.length > 0) problems.push(`${label}.${key}: not a lower-case single word: ${bad.join(', ')}`);
      const dup = words.filter((w, i) => words.indexOf(w) !== i);
      if (dup.length > 0) problems.push(`${label}.${key}: repeated: ${[...new Set(dup)].join(', ')}`);
    }
  }
  return problems;
}

/** Confusion counts of "related" on one class's lists; words the method could not judge are outside tp/fp/fn/tn. */
export interface RelatednessCounts {
  /** Listed related, judged related. */
  readonly tp: number;
  /** Listed unrelated, judged related. */
  readonly fp: number;
  /** Listed related, judged unrelated. */
  readonly fn: number;
  /** Listed unrelated, judged unrelated. */
  readonly tn: number;
  /** Words the method returned `undefined` for (related + unrelated lists). */
  readonly unjudged: number;
  readonly unjudgedRelated: number;
  readonly unjudgedUnrelated: number;
}

export interface ClassRelatedness {
  readonly label: string;
  readonly related: number;
  readonly unrelated: number;
  readonly counts: RelatednessCounts;
  /** tp / (tp + fp); null when the method called no judged word related. */
  readonly precision: number | null;
  /** tp / (tp + fn), over the related words it judged; null when it judged none. */
  readonly recall: number | null;
  /** tp / all listed related words (a word not judged counts as missed); null when the list is empty. */
  readonly recallOfAll: number | null;
  /** Unrelated words it called related (the false positives), in list order. */
  readonly falsePositives: readonly string[];
  /** The function words among the false positives. */
  readonly functionWordsCalledRelated: readonly string[];
  /** Related words it called unrelated (the false negatives), in list order. */
  readonly falseNegatives: readonly string[];
  /** Words it couldn't judge, in list order (related first). */
  readonly unjudgedWords: readonly string[];
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** Scores `isRelated` on every class of `lists`, in the lists' order. */
export function relatednessAgainstLists(
  lists: WordLists,
  isRelated: (label: string, word: string) => boolean | undefined,
): ClassRelatedness[] {
  return Object.entries(lists).map(([label, { related, unrelated }]) => {
    let tp = 0,
      fp = 0,
      fn = 0,
      tn = 0,
      unjudgedRelated = 0,
      unjudgedUnrelated = 0;
    const falsePositives: string[] = [],
      falseNegatives: string[] = [],
      unjudgedWords: string[] = [];
    for (const w of related) {
      const v = isRelated(label, w);
      if (v === undefined) {
        unjudgedRelated++;
        unjudgedWords.push(w);
      } else if (v) tp++;
      else {
        fn++;
        falseNegatives.push(w);
      }
    }
    for (const w of unrelated) {
      const v = isRelated(label, w);
      if (v === undefined) {
        unjudgedUnrelated++;
        unjudgedWords.push(w);
      } else if (v) {
        fp++;
        falsePositives.push(w);
      } else tn++;
    }
    return {
      label,
      related: related.length,
      unrelated: unrelated.length,
      counts: { tp, fp, fn, tn, unjudged: unjudgedRelated + unjudgedUnrelated, unjudgedRelated, unjudgedUnrelated },
      precision: ratio(tp, tp + fp),
      recall: ratio(tp, tp + fn),
      recallOfAll: ratio(tp, related.length),
      falsePositives,
      functionWordsCalledRelated: functionWordsIn(falsePositives),
      falseNegatives,
      unjudgedWords,
    };
  });
}

/** The counts of all classes added up, scored as one (micro average); label `all`. */
export function pooledRelatedness(results: readonly ClassRelatedness[]): ClassRelatedness {
  const sum = (f: (r: ClassRelatedness) => number): number => results.reduce((s, r) => s + f(r), 0);
  const tp = sum((r) => r.counts.tp),
    fp = sum((r) => r.counts.fp),
    fn = sum((r) => r.counts.fn),
    tn = sum((r) => r.counts.tn);
  const unjudgedRelated = sum((r) => r.counts.unjudgedRelated),
    unjudgedUnrelated = sum((r) => r.counts.unjudgedUnrelated);
  const related = sum((r) => r.related);
  const falsePositives = results.flatMap((r) => r.falsePositives);
  return {
    label: 'all',
    related,
    unrelated: sum((r) => r.unrelated),
    counts: { tp, fp, fn, tn, unjudged: unjudgedRelated + unjudgedUnrelated, unjudgedRelated, unjudgedUnrelated },
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    recallOfAll: ratio(tp, related),
    falsePositives,
    functionWordsCalledRelated: results.flatMap((r) => r.functionWordsCalledRelated),
    falseNegatives: results.flatMap((r) => r.falseNegatives),
    unjudgedWords: results.flatMap((r) => r.unjudgedWords),
  };
}

const fmt = (x: number | null): string => (x === null ? '–' : x.toFixed(3));

export interface RelatednessTableOptions {
  /** Shown before each label (e.g. `spam / `). */
  prefix?: string;
  /** Add a pooled `all` row (default true when there is more than one class). */
  pooled?: boolean;
  /** How many false positives to name per row (default 8; 0 leaves the column out). */
  showFalsePositives?: number;
}

/**
 * A Markdown table, one row per class: list sizes, judged / not judged, tp fp fn tn, precision and recall
 * of "related" (recall over the judged words, and over all listed related words), the function words called
 * related, and the first false positives.
 */
export function relatednessTable(results: readonly ClassRelatedness[], options: RelatednessTableOptions = {}): string {
  const { prefix = '', showFalsePositives = 8 } = options;
  const pooled = options.pooled ?? results.length > 1;
  const rows = pooled ? [...results, pooledRelatedness(results)] : [...results];
  const head = [
    'class',
    'related / unrelated listed',
    'not judged',
    'tp',
    'fp',
    'fn',
    'tn',
    'precision',
    'recall',
    'recall (not judged = missed)',
    'function words called related',
  ];
  if (showFalsePositives > 0) head.push('false positives (first)');
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 || i >= 10 ? '---' : '---:')).join('|')}|`];
  rows.forEach((r, i) => {
    const c = r.counts;
    const cells = [
      pooled && i === rows.length - 1 ? '**all**' : `${prefix}${r.label}`,
      `${r.related} / ${r.unrelated}`,
      String(c.unjudged),
      String(c.tp),
      String(c.fp),
      String(c.fn),
      String(c.tn),
      fmt(r.precision),
      fmt(r.recall),
      fmt(r.recallOfAll),
      r.functionWordsCalledRelated.length === 0
        ? '0'
        : `${r.functionWordsCalledRelated.length}: ${r.functionWordsCalledRelated.join(', ')}`,
    ];
    if (showFalsePositives > 0) {
      const fpw = r.falsePositives.slice(0, showFalsePositives).join(', ');
      cells.push(r.falsePositives.length > showFalsePositives ? `${fpw}, …` : fpw);
    }
    lines.push(`| ${cells.join(' | ')} |`);
  });
  return lines.join('\n');
}

/** How many of a class's listed words occur in its pool (e.g. the words of the class's texts). */
export interface ClassCoverage {
  readonly label: string;
  readonly related: number;
  readonly relatedInPool: number;
  readonly unrelated: number;
  readonly unrelatedInPool: number;
  /** Listed related words absent from the pool, in list order. */
  readonly relatedMissing: readonly string[];
  /** Listed unrelated words absent from the pool, in list order. */
  readonly unrelatedMissing: readonly string[];
}

/** For each class, how many of its listed words occur in `pool(label)` (compared in lower case). */
export function listsCoverage(lists: WordLists, pool: (label: string) => Iterable<string>): ClassCoverage[] {
  return Object.entries(lists).map(([label, { related, unrelated }]) => {
    const words = new Set<string>();
    for (const w of pool(label)) words.add(w.toLowerCase());
    const relatedMissing = related.filter((w) => !words.has(w));
    const unrelatedMissing = unrelated.filter((w) => !words.has(w));
    return {
      label,
      related: related.length,
      relatedInPool: related.length - relatedMissing.length,
      unrelated: unrelated.length,
      unrelatedInPool: unrelated.length - unrelatedMissing.length,
      relatedMissing,
      unrelatedMissing,
    };
  });
}

/** A Markdown table of {@link listsCoverage}: per class, listed words found in the pool. */
export function coverageTable(coverage: readonly ClassCoverage[], prefix = ''): string {
  const lines = ['| class | related in pool | unrelated in pool |', '|---|---:|---:|'];
  for (const c of coverage)
    lines.push(`| ${prefix}${c.label} | ${c.relatedInPool} / ${c.related} | ${c.unrelatedInPool} / ${c.unrelated} |`);
  return lines.join('\n');
}
