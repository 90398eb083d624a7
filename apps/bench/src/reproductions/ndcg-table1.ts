/**
 * The pure parts of 003 Table 1 on a transformer (apps/bench/src/reproductions/ndcg.ts --model): the
 * explainers compared, the per-passage explanation store a long run resumes from, the work left on a
 * rerun, NDCG of one passage under each relevance variant (negatives clipped or kept; the ideal ranking
 * from the text's words or from the top k words of a vocabulary), mean NDCG with a bootstrap interval,
 * the seeded random-ranking floor, and the class-name wordings of the sensitivity table.
 *
 * Source: 003_0785e9c45c69d264.txt §4 (NDCG against the class name, ideal ordering from all words of the
 * text, relevance = cosine of word and class-name embeddings), §6 (the "_unique" variant).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlWriter, readJsonl, rng, writeJsonl } from '@xtrust/core';
import { meanInterval, ndcgAtKs, type MeanInterval } from '@xtrust/metrics';

/** The explainers of the table, in the order they are shown. */
export const TABLE1_METHODS = [
  'attention-last',
  'attention-mean',
  'lime',
  'kernel-shap',
  'omission',
  'gradient',
  'ig',
] as const;
export type Table1Method = (typeof TABLE1_METHODS)[number];

/** The explainers that query the model thousands of times per passage: run last, one passage at a time. */
export const SAMPLED_METHODS: ReadonlySet<string> = new Set(['lime', 'kernel-shap']);

/** A row's name in the tables. */
export function methodLabel(method: string, samples: number, igSteps: number): string {
  switch (method) {
    case 'attention-last':
      return 'self-attention (last layer, heads averaged)';
    case 'attention-mean':
      return 'self-attention (mean over layers and heads)';
    case 'lime':
      return `LIME (${samples.toLocaleString('en-US')} samples)`;
    case 'kernel-shap':
      return `KernelSHAP (${samples.toLocaleString('en-US')} samples)`;
    case 'omission':
      return 'omission';
    case 'gradient':
      return 'gradient × input';
    case 'ig':
      return `integrated gradients (${igSteps} steps)`;
    case 'random':
      return 'random ranking (floor)';
    default:
      return method;
  }
}

/** One explained passage as stored: its words sorted by weight towards the explained (= predicted = true) class. */
export interface PassageRecord {
  /** Index of the passage in the run's passage list. */
  readonly id: number;
  readonly method: string;
  /** Wall seconds of this explanation (a batched method's batch time divided by its passages). */
  readonly seconds: number;
  readonly explained: string;
  /** [word, weight], highest weight first. */
  readonly features: readonly (readonly [string, number])[];
}

/**
 * The explanation store of one run: `explanations.jsonl` in the run folder, one PassageRecord a line,
 * appended (and flushed) as each explanation is made, so a run that is killed keeps every finished
 * explanation and a rerun skips them. A torn last line (killed mid-write) is dropped on opening: the
 * file is rewritten without it, so appended records never follow a broken line.
 */
export class ExplanationStore {
  private readonly byKey = new Map<string, PassageRecord>();
  private writer: JsonlWriter | null = null;
  /** A torn last line was found (and will be overwritten on a fresh line). */
  truncated = false;

  private constructor(readonly file: string) {}

  /** Opens (or starts) the store in `dir`. */
  static async open(dir: string): Promise<ExplanationStore> {
    mkdirSync(dir, { recursive: true });
    const s = new ExplanationStore(join(dir, 'explanations.jsonl'));
    if (existsSync(s.file)) {
      for await (const r of readJsonl<PassageRecord>(s.file, {
        tolerateTruncatedTail: true,
        onTruncated: () => (s.truncated = true),
      })) {
        s.byKey.set(storeKey(r.value.id, r.value.method), r.value);
      }
      // the torn line would sit mid-file once appended after: rewrite the file without it (atomically)
      if (s.truncated) await writeJsonl(s.file, s.byKey.values());
    }
    return s;
  }

  has(id: number, method: string): boolean {
    return this.byKey.has(storeKey(id, method));
  }

  get(id: number, method: string): PassageRecord | undefined {
    return this.byKey.get(storeKey(id, method));
  }

  /** Appends one record (a later record of the same passage and method replaces the earlier one). */
  add(record: PassageRecord): void {
    this.writer ??= new JsonlWriter(this.file);
    this.writer.write(record);
    this.byKey.set(storeKey(record.id, record.method), record);
  }

  get size(): number {
    return this.byKey.size;
  }

  records(): PassageRecord[] {
    return [...this.byKey.values()];
  }

  close(): void {
    this.writer?.close();
    this.writer = null;
  }
}

const storeKey = (id: number, method: string) => `${id}\t${method}`;

/**
 * The work a (re)run still has to do, in the order it is done: first every cheap method over all
 * passages (method by method), then the sampled methods (LIME, KernelSHAP) passage by passage, so that
 * an interrupted run has every method on a prefix of the passages. Pairs for which `done` holds are skipped.
 */
export function pendingWork(
  ids: readonly number[],
  methods: readonly string[],
  done: (id: number, method: string) => boolean,
): { id: number; method: string }[] {
  const out: { id: number; method: string }[] = [];
  for (const m of methods)
    if (!SAMPLED_METHODS.has(m)) for (const id of ids) if (!done(id, m)) out.push({ id, method: m });
  const sampled = methods.filter((m) => SAMPLED_METHODS.has(m));
  for (const id of ids) for (const m of sampled) if (!done(id, m)) out.push({ id, method: m });
  return out;
}

/** Passages (ids) for which every one of `methods` is stored: the set every row of a table is computed on. */
export function completePassages(
  ids: readonly number[],
  methods: readonly string[],
  has: (id: number, method: string) => boolean,
): number[] {
  return ids.filter((id) => methods.every((m) => has(id, m)));
}

/** The seeded random ranking of a passage: its distinct words shuffled by rng(seed, passage id). */
export function randomRanking(textWords: readonly string[], seed: number, id: number): string[] {
  return rng(seed * 7919 + id).shuffle([...new Set(textWords)]);
}

/**
 * The `k` distinct words of a vocabulary with the highest relevance (ties broken by the word), for the
 * "ideal from the vocabulary" variant: the ideal DCG is then that of the class's best words anywhere,
 * not of the best words the passage happens to contain.
 */
export function vocabularyIdeal(relevance: ReadonlyMap<string, number>, k: number): string[] {
  return [...relevance.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, k)
    .map(([w]) => w);
}

/**
 * A relevance table in which the given function words count 0 (the rest unchanged): with the 100-d
 * GloVe vectors used here, function words sit close to some genre names ("the" 0.66 and "to" 0.67 with
 * "government"), so a ranking that puts them first scores high without naming anything about the genre.
 */
export function zeroFunctionWords(
  relevance: ReadonlyMap<string, number>,
  functionWords: ReadonlySet<string>,
): Map<string, number> {
  const out = new Map(relevance);
  for (const w of out.keys()) if (functionWords.has(w)) out.set(w, 0);
  return out;
}

/** How relevance and the ideal ranking are defined (003 §4 is `{ negative: 'clip', ideal: 'text' }`, with the text's words). */
export interface RelevanceVariant {
  /** Negative cosines count 0 (`clip`) or as they are (`keep`). */
  readonly negative: 'clip' | 'keep';
  /** The ideal ranking: the text's words (003 §4), or the given top words of a vocabulary. */
  readonly idealWords?: readonly string[];
  /** 003 §6's "_unique" variant. */
  readonly unique?: boolean;
}

/**
 * NDCG@k of one passage: `ranked` (the explanation's words, best first; words without a relevance entry
 * are dropped) against the ideal of `textWords` or of `variant.idealWords`, with `relevance` the cosine of
 * each word with the class name (it must cover the text's words and the ideal words).
 */
export function passageNdcg(
  ranked: readonly string[],
  textWords: readonly string[],
  relevance: ReadonlyMap<string, number>,
  ks: readonly number[],
  variant: RelevanceVariant,
): Record<number, number> {
  const list = ranked.filter((w) => relevance.has(w));
  return ndcgAtKs(list, variant.idealWords ?? textWords, relevance, ks, {
    unique: variant.unique ?? false,
    negative: variant.negative,
  });
}

/** Paired difference a − b over the same passages, with its bootstrap interval (passages resampled together). */
export function pairedDifference(a: ArrayLike<number>, b: ArrayLike<number>, seed: number): MeanInterval {
  if (a.length !== b.length)
    throw new Error(`pairedDifference: ${a.length} vs ${b.length} values; expected the same passages`);
  return meanInterval(
    Float64Array.from({ length: a.length }, (_, i) => a[i] - b[i]),
    { seed },
  );
}

/**
 * Class-name wordings of the sensitivity table, fixed before any result was seen (issue 32): the genre
 * label itself (003 §4), a singular or near form, a near synonym, and the title of the Brown category
 * (Francis & Kučera's manual: A "Press: reportage", D "Religion", E "Skills and hobbies", H "Miscellaneous:
 * government documents, …", P "Romance and love story"; content words only). A multi-word name is the
 * mean of its words' vectors (003 §5).
 */
export const CLASS_WORDINGS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'genre label': {
    news: ['news'],
    religion: ['religion'],
    hobbies: ['hobbies'],
    government: ['government'],
    romance: ['romance'],
  },
  'singular / near form': {
    news: ['newspaper'],
    religion: ['religious'],
    hobbies: ['hobby'],
    government: ['governmental'],
    romance: ['romantic'],
  },
  'near synonym': {
    news: ['journalism'],
    religion: ['faith'],
    hobbies: ['crafts'],
    government: ['administration'],
    romance: ['love'],
  },
  'Brown category title': {
    news: ['press', 'reportage'],
    religion: ['religion'],
    hobbies: ['skills', 'hobbies'],
    government: ['government', 'documents'],
    romance: ['romance', 'love', 'story'],
  },
};
