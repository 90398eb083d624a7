import { argmaxRow, checkProbabilities, isTokenScorer, labelIndex, rng, tokenize, XtrustError, type Classifier, type Token, type TokenScorer } from '@xtrust/core';
import { SkipCounter, type Dataset, type Row, type SkipReport } from './dataset.js';
import { splitEmail } from './mime.js';
import { stratifiedSplit } from './split.js';
import { NON_CONTENT_WORDS } from './stopwords.js';

// ---------------------------------------------------------------------------------------------
// Trigger injection
// ---------------------------------------------------------------------------------------------

/** Where the trigger goes: before the first word, after the last, or before a word drawn at random. */
export type TriggerPosition = 'start' | 'end' | 'random';

export interface InjectTriggerOptions {
  /** The class whose rows receive the trigger. */
  targetLabel: string;
  /** One word (a single token of core's tokenizer), unrelated to every class, e.g. "cherry". */
  trigger: string;
  /** Share of the target class's rows that receive it, in [0, 1]. */
  share: number;
  seed: number;
  /** Default 'random'. */
  position?: TriggerPosition;
}

/** Recorded on every row that received the trigger: the word and the offset where it was inserted. */
export interface TriggerMark {
  readonly word: string;
  readonly offset: number;
}

/** A dataset after `injectTrigger`: rows that carry the trigger have `meta.trigger`. */
export interface TriggeredDataset<M = Record<string, unknown>> extends Dataset<M & { trigger?: TriggerMark }> {
  readonly injection: {
    readonly trigger: string;
    readonly targetLabel: string;
    readonly share: number;
    readonly seed: number;
    readonly position: TriggerPosition;
    /** Ids of the rows that received the trigger, in row order. */
    readonly ids: readonly string[];
    /**
     * Rows per label that contained the trigger word before injection. Should be all zero: a trigger
     * that occurs naturally is not class-unrelated in this corpus (pick another word).
     */
    readonly preexisting: Readonly<Record<string, number>>;
  };
}

function checkTrigger(trigger: string): string {
  const tokens = tokenize(trigger);
  if (tokens.length !== 1 || tokens[0].text !== trigger) {
    throw new XtrustError('INVALID_ARGUMENT', `trigger "${trigger}" must be exactly one word (letters, digits or _), as core's tokenize() sees it`, { argument: 'trigger' });
  }
  return trigger.toLowerCase();
}

/** Tokens of `text` equal to `word` regardless of case. */
function occurrences(text: string, word: string): Token[] {
  const w = word.toLowerCase();
  return tokenize(text, { lowercase: true }).filter((t) => t.text === w);
}

/** True when `text` contains `word` as a token (case-insensitive). */
export function containsWord(text: string, word: string): boolean {
  return occurrences(text, word).length > 0;
}

/**
 * Inserts `trigger` into a seeded random `share` of the `targetLabel` rows (round(share·n) rows) and
 * records which: `meta.trigger` on each such row and `injection.ids`. The insertion is the word plus
 * one space before the chosen word ('start', 'random') or one space and the word at the end ('end'),
 * so `removeWord` on the result gives back the original text exactly. Other rows are unchanged.
 * Use it on training rows (to plant the shortcut) and on test rows (to build the benchmark).
 */
export function injectTrigger<M>(dataset: Dataset<M>, options: InjectTriggerOptions): TriggeredDataset<M> {
  const trigger = options.trigger;
  const lower = checkTrigger(trigger);
  labelIndex(dataset.labels, options.targetLabel, 'injectTrigger: targetLabel');
  if (!(options.share >= 0 && options.share <= 1)) throw new XtrustError('INVALID_ARGUMENT', `injectTrigger: share must be in [0, 1], got ${String(options.share)}`, { argument: 'share' });
  if (!Number.isInteger(options.seed)) throw new XtrustError('INVALID_ARGUMENT', `injectTrigger: seed must be an integer, got ${String(options.seed)}`, { argument: 'seed' });
  const position = options.position ?? 'random';
  if (!['start', 'end', 'random'].includes(position)) throw new XtrustError('INVALID_ARGUMENT', `injectTrigger: position must be 'start', 'end' or 'random', got ${String(position)}`, { argument: 'position' });

  const preexisting: Record<string, number> = {};
  for (const l of dataset.labels) preexisting[l] = 0;
  const target: number[] = [];
  dataset.rows.forEach((r, i) => {
    if (containsWord(r.text, lower)) preexisting[r.label] = (preexisting[r.label] ?? 0) + 1;
    if (r.label === options.targetLabel) target.push(i);
  });
  const k = Math.round(options.share * target.length);
  const r = rng(options.seed);
  const chosen = new Set(Array.from(r.sampleIndices(target.length, k), (j) => target[j]));
  const ids: string[] = [];
  const rows = dataset.rows.map((row, i) => {
    if (!chosen.has(i)) return row as Row<M & { trigger?: TriggerMark }>;
    const tokens = tokenize(row.text);
    // 'random' draws among the T+1 gaps: before each of the T words, or after the last.
    const slot = position === 'start' ? 0 : position === 'end' ? tokens.length : r.int(tokens.length + 1);
    let text: string;
    let offset: number;
    if (slot < tokens.length) {
      offset = tokens[slot].start;
      text = row.text.slice(0, offset) + trigger + ' ' + row.text.slice(offset);
    } else {
      offset = row.text.length + 1;
      text = row.text + ' ' + trigger;
    }
    ids.push(row.id);
    return { ...row, text, meta: { ...(row.meta as M), trigger: { word: trigger, offset } } };
  });
  return {
    name: `${dataset.name}+${trigger}`,
    labels: dataset.labels,
    rows,
    skipped: dataset.skipped,
    injection: { trigger, targetLabel: options.targetLabel, share: options.share, seed: options.seed, position, ids, preexisting },
  };
}

/**
 * Deletes the given spans of `text`. A deleted word takes one following white-space character with
 * it (or, at the very end of the text, one preceding space), so that removing an inserted
 * "word " restores the text and "a the b" becomes "a b", not "a  b".
 */
function deleteSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const s of sorted) {
    if (s.start < pos) continue;
    let start = s.start;
    let end = s.end;
    if (end < text.length && /\s/.test(text[end])) end++;
    else if (end === text.length && start > 0 && text[start - 1] === ' ') start--;
    out += text.slice(pos, Math.max(pos, start));
    pos = end;
  }
  return out + text.slice(pos);
}

/** `text` without any occurrence of the token `word` (case-insensitive); see deleteSpans for spacing. */
export function removeWord(text: string, word: string): string {
  return deleteSpans(text, occurrences(text, word));
}

// ---------------------------------------------------------------------------------------------
// Non-content units
// ---------------------------------------------------------------------------------------------

/** One removable non-content unit of a text: a word type (every occurrence) or a punctuation/symbol character (every occurrence). */
export interface NonContentUnit {
  readonly kind: 'stopword' | 'number' | 'punctuation';
  readonly value: string;
}

const NUMBER = /^\p{N}+$/u;
const PUNCT = /[\p{P}\p{S}]/gu;

/**
 * The non-content units of a text, in order of first appearance:
 * - stop words: tokens of core's `tokenize(text)` whose lower case is in `stopwords`
 *   (default `NON_CONTENT_WORDS`);
 * - numbers: tokens made only of digits (any script);
 * - punctuation and symbols: each distinct character of Unicode category P or S.
 * Removing a unit removes every occurrence of it (removing one "the" of ten says little about a
 * bag-of-words model; removing them all is the stronger, more conservative test).
 */
export function nonContentUnits(text: string, stopwords: ReadonlySet<string> = NON_CONTENT_WORDS): NonContentUnit[] {
  const units: NonContentUnit[] = [];
  const seen = new Set<string>();
  for (const t of tokenize(text, { lowercase: true })) {
    const kind = stopwords.has(t.text) ? 'stopword' : NUMBER.test(t.text) ? 'number' : null;
    if (kind && !seen.has(`w:${t.text}`)) {
      seen.add(`w:${t.text}`);
      units.push({ kind, value: t.text });
    }
  }
  for (const m of text.matchAll(PUNCT)) {
    if (!seen.has(`p:${m[0]}`)) {
      seen.add(`p:${m[0]}`);
      units.push({ kind: 'punctuation', value: m[0] });
    }
  }
  return units;
}

/** `text` with every occurrence of one non-content unit removed. */
export function removeUnit(text: string, unit: NonContentUnit): string {
  return unit.kind === 'punctuation' ? text.split(unit.value).join('') : removeWord(text, unit.value);
}

// ---------------------------------------------------------------------------------------------
// Ground truth
// ---------------------------------------------------------------------------------------------

export interface ShortcutBenchmarkOptions {
  /**
   * 'trigger': rows may carry an injected trigger word (see injectTrigger).
   * 'headers': rows are e-mails with their header block (loadSpamAssassin({headers: true})).
   */
  mode: 'trigger' | 'headers';
  /** The trigger word (mode 'trigger'). */
  trigger?: string;
  /**
   * Texts per predictProba call (default 256). Originals go in calls of exactly this many (the last
   * may be smaller); perturbed variants go one chunk of texts per call, a chunk closing with the text
   * whose variants reach batchSize (so a call holds at most batchSize − 1 plus one text's variants).
   */
  batchSize?: number;
  /** Words counted as non-content (default NON_CONTENT_WORDS). */
  stopwords?: ReadonlySet<string>;
  /**
   * When the classifier is a core `TokenScorer`, score word removals (trigger, stop words, numbers)
   * as token masks of the unchanged text instead of rebuilding strings (default true). Punctuation
   * and header removals always go through predictProba: they are not token removals.
   */
  useTokenScorer?: boolean;
}

/** A correct prediction with its ground-truth trustworthiness. */
export interface BenchmarkCase {
  readonly id: string;
  readonly text: string;
  readonly label: string;
  /** The predicted label (equal to `label`: only correct predictions get a ground truth). */
  readonly predicted: string;
  /** The classifier's probabilities for the text, in `classifier.labels` order. */
  readonly probabilities: readonly number[];
  /** Probability of the predicted label (what the Naive baseline thresholds). */
  readonly confidence: number;
  readonly truth: 'trustworthy' | 'untrustworthy';
  /** Why: which perturbation flipped the prediction, or how many it survived. */
  readonly reason: string;
  /** Whether the text carries the trigger (mode 'trigger') or a header block (mode 'headers'). */
  readonly shortcut: boolean;
  /** How many perturbed variants of the text were classified. */
  readonly variants: number;
}

export interface ShortcutBenchmark {
  readonly mode: 'trigger' | 'headers';
  readonly trigger?: string;
  readonly labels: readonly string[];
  /** Correct predictions with a ground truth, in input order. */
  readonly cases: BenchmarkCase[];
  readonly counts: {
    readonly rows: number;
    readonly incorrect: number;
    readonly trustworthy: number;
    readonly untrustworthy: number;
    /** Correct predictions left without a ground truth, by reason. */
    readonly excluded: SkipReport;
  };
  /** Rows left out and why (incorrect predictions included), in input order. */
  readonly excludedIds: readonly { id: string; reason: string }[];
  /** Number of predictProba calls and texts classified through them. */
  readonly calls: number;
  readonly textsClassified: number;
  /** Number of scoreTokenMasks calls (one per text) and mask rows scored (0 without a TokenScorer). */
  readonly maskCalls: number;
  readonly masksScored: number;
}

export const EXCLUDED = {
  incorrect: 'incorrect prediction',
  triggerSurvives: 'carries the trigger but the prediction survives its removal',
  cleanFragile: 'no trigger but the prediction flips when a non-content token is removed',
  noUnits: 'no trigger and no non-content token to remove',
  onlyTrigger: 'nothing but the trigger: nothing left once it is removed',
  noHeader: 'no header block to remove',
  noBody: 'nothing left once the headers are removed',
} as const;

/** Runs predictProba over many texts in batches of `size`, validating every answer. */
class BatchedScorer {
  calls = 0;
  texts = 0;
  constructor(private readonly classifier: Classifier, private readonly size: number) {}

  /** Scores texts in calls of `size` texts (the last may be smaller). */
  async score(texts: readonly string[]): Promise<Float32Array> {
    const k = this.classifier.labels.length;
    const out = new Float32Array(texts.length * k);
    for (let i = 0; i < texts.length; i += this.size) out.set(await this.once(texts.slice(i, i + this.size)), i * k);
    return out;
  }

  /** Scores texts in one call, however many. */
  async once(texts: readonly string[]): Promise<Float32Array> {
    const p = checkProbabilities(await this.classifier.predictProba(texts), texts.length, this.classifier.labels.length, 'classifier');
    this.calls++;
    this.texts += texts.length;
    return p;
  }
}

interface Pending {
  row: number;
  kind: 'headers' | 'trigger' | 'clean';
  /** Perturbed texts still to classify through predictProba. */
  variants: string[];
  /** What each variant removed, for the reason. */
  what: string[];
  /** Variants already scored as token masks (TokenScorer), and the first of them that flipped. */
  masked: number;
  maskFlip: string | null;
}

/**
 * Ground-truth trustworthiness for the correct predictions of `classifier` on `rows`.
 *
 * Mode 'trigger' (rows from `injectTrigger`, some with the trigger, some clean):
 * - a text that contains the trigger word is *untrustworthy* when removing every occurrence of the
 *   trigger flips the prediction (the model leaned on a word unrelated to the class); if the
 *   prediction survives, it is excluded (the trigger's role is unknown);
 * - a text without the trigger is *trustworthy* when the prediction survives the removal of each
 *   single non-content unit (`nonContentUnits`: one stop word, number or punctuation mark, every
 *   occurrence); if one removal flips it, or it has no such unit, it is excluded.
 * A removal that would leave no word at all is not tried (a text of only stop words keeps its other
 * units; a text that is only the trigger is excluded).
 * Mode 'headers' (e-mails with their header block): *untrustworthy* when removing the header block
 * flips the prediction, *trustworthy* when it survives; a text without a header block is excluded.
 *
 * Incorrect predictions get no ground truth and are counted. "Flips" means the arg-max label of the
 * perturbed text differs from the original prediction. All texts go through `predictProba` in
 * batches of `batchSize`: the originals first, then all perturbed variants of the correct
 * predictions, chunk after chunk. A classifier that is a core `TokenScorer` gets its word removals
 * (trigger, stop words, numbers) as token masks instead, one scoreTokenMasks call per text.
 */
export async function buildShortcutBenchmark(
  classifier: Classifier,
  rows: readonly Pick<Row<unknown>, 'id' | 'text' | 'label' | 'meta'>[],
  options: ShortcutBenchmarkOptions,
): Promise<ShortcutBenchmark> {
  const { mode } = options;
  if (mode !== 'trigger' && mode !== 'headers') throw new XtrustError('INVALID_ARGUMENT', `buildShortcutBenchmark: mode must be 'trigger' or 'headers', got ${String(mode)}`, { argument: 'mode' });
  if (mode === 'trigger' && !options.trigger) throw new XtrustError('INVALID_ARGUMENT', `buildShortcutBenchmark: mode 'trigger' needs the trigger word`, { argument: 'trigger' });
  const trigger = mode === 'trigger' ? checkTrigger(options.trigger!) : undefined;
  const batchSize = options.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new XtrustError('INVALID_ARGUMENT', `buildShortcutBenchmark: batchSize must be a positive integer, got ${String(batchSize)}`, { argument: 'batchSize' });
  const stopwords = options.stopwords ?? NON_CONTENT_WORDS;
  const labels = classifier.labels;
  const k = labels.length;
  const gold = rows.map((r, i) => labelIndex(labels, r.label, `row ${i} (${r.id}): label`));
  const scorer = new BatchedScorer(classifier, batchSize);
  const maskScorer = options.useTokenScorer !== false && isTokenScorer(classifier) ? (classifier as Classifier & TokenScorer) : null;
  const masks = { calls: 0, rows: 0 };

  const original = await scorer.score(rows.map((r) => r.text));
  const predicted = rows.map((_, i) => argmaxRow(original, i, k));

  const excluded = new SkipCounter();
  const excludedIds: { id: string; reason: string }[] = [];
  const exclude = (i: number, reason: string) => {
    excluded.add(reason);
    excludedIds.push({ id: rows[i].id, reason });
  };
  const outcome: ({ truth: 'trustworthy' | 'untrustworthy'; reason: string; shortcut: boolean; variants: number } | null)[] = rows.map(() => null);
  let incorrect = 0;

  // Perturbed variants, classified in chunks of about batchSize texts (one call per chunk).
  let queue: Pending[] = [];
  let queued = 0;
  const flush = async () => {
    if (queue.length === 0) return;
    const texts = queue.flatMap((p) => p.variants);
    const probs = texts.length ? await scorer.once(texts) : new Float32Array(0);
    let v = 0;
    for (const p of queue) {
      const i = p.row;
      let flippedBy: string | null = p.maskFlip;
      for (let j = 0; j < p.variants.length; j++, v++) {
        if (flippedBy === null && argmaxRow(probs, v, k) !== predicted[i]) flippedBy = p.what[j];
      }
      const n = p.masked + p.variants.length;
      if (p.kind === 'headers') {
        outcome[i] = flippedBy !== null
          ? { truth: 'untrustworthy', reason: 'the prediction flips when the headers are removed', shortcut: true, variants: n }
          : { truth: 'trustworthy', reason: 'the prediction survives removing the headers', shortcut: true, variants: n };
      } else if (p.kind === 'trigger') {
        if (flippedBy !== null) outcome[i] = { truth: 'untrustworthy', reason: `the prediction flips when the trigger "${trigger}" is removed`, shortcut: true, variants: n };
        else exclude(i, EXCLUDED.triggerSurvives);
      } else if (flippedBy !== null) {
        exclude(i, EXCLUDED.cleanFragile);
      } else {
        outcome[i] = { truth: 'trustworthy', reason: `the prediction survives removing each of ${n} non-content tokens`, shortcut: false, variants: n };
      }
    }
    queue = [];
    queued = 0;
  };

  for (let i = 0; i < rows.length; i++) {
    if (predicted[i] !== gold[i]) {
      incorrect++;
      excludedIds.push({ id: rows[i].id, reason: EXCLUDED.incorrect });
      continue;
    }
    const text = rows[i].text;
    let pending: Pending | null = null;
    if (mode === 'headers') {
      const body = bodyOf(rows[i]);
      if (body === null) exclude(i, EXCLUDED.noHeader);
      else if (body.trim() === '') exclude(i, EXCLUDED.noBody);
      else pending = { row: i, kind: 'headers', variants: [body], what: ['headers'], masked: 0, maskFlip: null };
    } else {
      const hasTrigger = containsWord(text, trigger!);
      // A removal that leaves no word at all is not a text a classifier can be asked about.
      const words = tokenize(text, { lowercase: true }).map((t) => t.text);
      const leavesAWord = (u: NonContentUnit) => (u.kind === 'punctuation' ? words.length > 0 : words.some((w) => w !== u.value));
      const candidates: NonContentUnit[] = hasTrigger ? [{ kind: 'stopword', value: trigger! }] : nonContentUnits(text, stopwords);
      const units = candidates.filter(leavesAWord);
      const describe = (u: NonContentUnit) => (hasTrigger ? `trigger "${trigger}"` : `${u.kind} "${u.value}"`);
      if (units.length === 0) {
        exclude(i, hasTrigger ? EXCLUDED.onlyTrigger : EXCLUDED.noUnits);
      } else {
        pending = { row: i, kind: hasTrigger ? 'trigger' : 'clean', variants: [], what: [], masked: 0, maskFlip: null };
        const wordUnits = maskScorer ? units.filter((u) => u.kind !== 'punctuation') : [];
        if (wordUnits.length) {
          pending.masked = wordUnits.length;
          pending.maskFlip = await firstMaskFlip(maskScorer!, text, wordUnits.map((u) => u.value), predicted[i], k, describe, wordUnits, masks);
        }
        for (const u of units) {
          if (maskScorer && u.kind !== 'punctuation') continue;
          pending.variants.push(removeUnit(text, u));
          pending.what.push(describe(u));
        }
      }
    }
    if (pending) {
      queue.push(pending);
      queued += pending.variants.length;
      if (queued >= batchSize) await flush();
    }
  }
  await flush();

  const cases: BenchmarkCase[] = [];
  let trustworthy = 0;
  let untrustworthy = 0;
  rows.forEach((r, i) => {
    const o = outcome[i];
    if (!o) return;
    if (o.truth === 'trustworthy') trustworthy++;
    else untrustworthy++;
    const probabilities = Array.from(original.subarray(i * k, (i + 1) * k));
    cases.push({ id: r.id, text: r.text, label: r.label, predicted: labels[predicted[i]], probabilities, confidence: probabilities[predicted[i]], ...o });
  });
  // excludedIds in input order
  const order = new Map(rows.map((r, i) => [r.id, i]));
  excludedIds.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return {
    mode,
    ...(trigger !== undefined ? { trigger: options.trigger } : {}),
    labels,
    cases,
    counts: { rows: rows.length, incorrect, trustworthy, untrustworthy, excluded: excluded.report() },
    excludedIds,
    calls: scorer.calls,
    textsClassified: scorer.texts,
    maskCalls: masks.calls,
    masksScored: masks.rows,
  };
}

/**
 * Scores one mask row per word (each row drops every token equal to that word, case-insensitively)
 * in a single scoreTokenMasks call; returns the description of the first row whose arg-max differs
 * from `predicted`, or null.
 */
async function firstMaskFlip(
  scorer: TokenScorer,
  text: string,
  words: readonly string[],
  predicted: number,
  k: number,
  describe: (u: NonContentUnit) => string,
  units: readonly NonContentUnit[],
  counter: { calls: number; rows: number },
): Promise<string | null> {
  // Masks index core's tokenize(text) with default options, as the TokenScorer contract says.
  const tokens = tokenize(text);
  const T = tokens.length;
  const lower = tokens.map((t) => t.text.toLowerCase());
  const m = new Uint8Array(words.length * T);
  words.forEach((w, r) => {
    for (let t = 0; t < T; t++) m[r * T + t] = lower[t] === w ? 0 : 1;
  });
  const probs = checkProbabilities(await scorer.scoreTokenMasks(text, m, words.length), words.length, k, 'classifier.scoreTokenMasks');
  counter.calls++;
  counter.rows += words.length;
  for (let r = 0; r < words.length; r++) if (argmaxRow(probs, r, k) !== predicted) return describe(units[r]);
  return null;
}

/** The text without its header block, or null when it has none: `meta.bodyStart` when recorded (loadSpamAssassin), else the first blank line. */
function bodyOf(row: Pick<Row<unknown>, 'text' | 'meta'>): string | null {
  const start = (row.meta as { bodyStart?: unknown } | undefined)?.bodyStart;
  if (typeof start === 'number') return start > 0 ? row.text.slice(start) : null;
  const { header, body } = splitEmail(row.text);
  return header === '' ? null : body;
}

// ---------------------------------------------------------------------------------------------
// One-call construction of the trigger benchmark's data
// ---------------------------------------------------------------------------------------------

export interface ShortcutSplitOptions<M = Record<string, unknown>> {
  trigger: string;
  targetLabel: string;
  /** Share of the target class's training rows that get the trigger (the planted shortcut). */
  trainShare: number;
  /** Share of the target class's test rows that get the trigger (the untrustworthy candidates). */
  testShare: number;
  testFraction: number;
  validationFraction?: number;
  seed: number;
  position?: TriggerPosition;
  /** Keep rows sharing a key on one side (e.g. Brown documents); see stratifiedSplit. */
  group?: (row: Row<M>) => string;
}

/**
 * Split a dataset (stratified, seeded) and inject the trigger into `trainShare` of the target
 * class's training (and validation) rows and `testShare` of its test rows. Train a model on
 * `train`, then call buildShortcutBenchmark(model, test.rows, {mode: 'trigger', trigger}).
 */
export function shortcutSplit<M>(dataset: Dataset<M>, options: ShortcutSplitOptions<M>): { train: TriggeredDataset<M>; validation: TriggeredDataset<M>; test: TriggeredDataset<M> } {
  const split = stratifiedSplit(dataset.rows, { testFraction: options.testFraction, validationFraction: options.validationFraction, seed: options.seed, group: options.group });
  const part = (rows: Row<M>[], name: string, share: number, seed: number) =>
    injectTrigger({ ...dataset, name: `${dataset.name}/${name}`, rows }, { trigger: options.trigger, targetLabel: options.targetLabel, share, seed, position: options.position });
  return {
    train: part(split.train, 'train', options.trainShare, options.seed + 1),
    validation: part(split.validation, 'validation', options.trainShare, options.seed + 2),
    test: part(split.test, 'test', options.testShare, options.seed + 3),
  };
}
