/**
 * The rubric-labelled pools (issue 47, deliverable 2): per model and corpus, each class's 100 most important
 * pool words with a person's label — related, unrelated or unsure (relatedness-rubric.md; unsure words are
 * scored by nothing). Files live in `src/oracle/annotated-pools/` and are read from there by sources and
 * build alike (both sit two levels below the package root), so the build needs no copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ANNOTATED_POOLS_DIR = fileURLToPath(new URL('../../src/oracle/annotated-pools/', import.meta.url));

export const POOL_LABELS = ['related', 'unrelated', 'unsure'] as const;
export type PoolLabel = (typeof POOL_LABELS)[number];

/** One labelled pool word: its averaged importance s̄_w and explanation count when the pool was taken. */
export interface LabelledWord {
  readonly word: string;
  readonly importance: number;
  readonly count: number;
  readonly label: PoolLabel;
}

/** One file: how the pool was taken, who labelled it, and each class's labelled words in pool order. */
export interface AnnotatedPool {
  readonly file: string;
  readonly settings: {
    readonly corpus: string;
    readonly model: string;
    readonly words: number;
    readonly seed: number;
    readonly train: number;
    readonly samples: number;
    readonly topK: number;
    readonly perClass: number;
  };
  readonly classNames: Readonly<Record<string, string>>;
  readonly annotation: { readonly rubric: string; readonly annotator: string; readonly relatednessRun: boolean };
  readonly classes: Readonly<Record<string, readonly LabelledWord[]>>;
}

/** Reads and checks one file: settings, an annotation that says no relatedness ran first, labelled unique words. */
export function loadAnnotatedPool(file: string): AnnotatedPool {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<AnnotatedPool> | null;
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('expected an object');
  const s = raw.settings;
  if (!s || typeof s.corpus !== 'string' || typeof s.model !== 'string' || !Number.isInteger(s.perClass))
    fail('settings must name the corpus, the model and perClass');
  const a = raw.annotation;
  if (!a || typeof a.rubric !== 'string' || typeof a.annotator !== 'string')
    fail('annotation must name the rubric and the annotator');
  if (a!.relatednessRun !== false) fail('annotation.relatednessRun must be false: labels come before any oracle run');
  if (!raw.classes || typeof raw.classes !== 'object' || Object.keys(raw.classes).length < 2)
    fail('classes must hold at least two classes');
  for (const [label, words] of Object.entries(raw.classes!)) {
    if (!Array.isArray(words) || words.length === 0) fail(`${label}: expected a non-empty array of words`);
    if (words.length > s!.perClass) fail(`${label}: ${words.length} words, more than perClass ${s!.perClass}`);
    const seen = new Set<string>();
    for (const w of words) {
      if (typeof w?.word !== 'string' || w.word === '') fail(`${label}: a word without its text`);
      if (!(POOL_LABELS as readonly string[]).includes(w.label))
        fail(`${label}.${w.word}: label ${JSON.stringify(w.label)} is not one of ${POOL_LABELS.join(', ')}`);
      if (!Number.isFinite(w.importance) || !Number.isInteger(w.count))
        fail(`${label}.${w.word}: importance and count must be numbers`);
      if (seen.has(w.word)) fail(`${label}: ${w.word} appears twice`);
      seen.add(w.word);
    }
  }
  return { file, classNames: raw.classNames ?? {}, ...(raw as Omit<AnnotatedPool, 'file' | 'classNames'>) };
}

/** Every `*.json` of the folder, by file name. */
export function loadAnnotatedPools(dir: string = ANNOTATED_POOLS_DIR): AnnotatedPool[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadAnnotatedPool(join(dir, f)));
}

/** Per label, how many of a class's words carry it. */
export function labelCounts(words: readonly LabelledWord[]): Record<PoolLabel, number> {
  const out: Record<PoolLabel, number> = { related: 0, unrelated: 0, unsure: 0 };
  for (const w of words) out[w.label]++;
  return out;
}

/** Precision and recall of "related" of a method's verdicts on the labelled words (unsure and unjudged words left out). */
export function scoreRelated(
  words: readonly LabelledWord[],
  judge: (word: string) => boolean | undefined,
): {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  unjudged: number;
  precision: number;
  recall: number;
  falsePositives: string[];
  misses: string[];
} {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  let unjudged = 0;
  const falsePositives: string[] = [];
  const misses: string[] = [];
  for (const w of words) {
    if (w.label === 'unsure') continue;
    const v = judge(w.word);
    if (v === undefined) {
      unjudged++;
      continue;
    }
    if (w.label === 'related') {
      if (v) tp++;
      else {
        fn++;
        misses.push(w.word);
      }
    } else if (v) {
      fp++;
      falsePositives.push(w.word);
    } else tn++;
  }
  return {
    tp,
    fp,
    fn,
    tn,
    unjudged,
    precision: tp + fp > 0 ? tp / (tp + fp) : Number.NaN,
    recall: tp + fn > 0 ? tp / (tp + fn) : Number.NaN,
    falsePositives,
    misses,
  };
}
