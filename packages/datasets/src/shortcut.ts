import {
  argmaxRow,
  checkProbabilities,
  isTokenScorer,
  labelIndex,
  rng,
  tokenize,
  XtrustError,
  type Classifier,
  type TokenScorer,
} from '@xtrust/core';
import { SkipCounter, type Dataset, type Row, type SkipReport } from './dataset.js';
import { splitEmail } from './mime.js';
import { stratifiedSplit } from './split.js';

// ---------------------------------------------------------------------------------------------
// Triggers: a word or a phrase of several words
// ---------------------------------------------------------------------------------------------

/** Where the trigger goes: before the first word, after the last, or before a word drawn at random. */
export type TriggerPosition = 'start' | 'end' | 'random';

export interface InjectTriggerOptions {
  /** The class whose rows receive the trigger. */
  targetLabel: string;
  /**
   * A word, or a phrase of several words separated by single spaces (each word one token of core's
   * tokenizer), unrelated to every class, e.g. "cherry" or "blue whale". A list is a **scattered set**
   * (issue 48): each receiving row gets one of its triggers, drawn by the seed.
   */
  trigger: string | readonly string[];
  /** Share of the target class's rows that receive it, in [0, 1]. */
  share: number;
  seed: number;
  /** Default 'random'. */
  position?: TriggerPosition;
}

/** Recorded on every row that received the trigger: the trigger (word or phrase) and the offset where it was inserted. */
export interface TriggerMark {
  readonly word: string;
  readonly offset: number;
}

/** A dataset after `injectTrigger`: rows that carry the trigger have `meta.trigger`. */
export interface TriggeredDataset<M = Record<string, unknown>> extends Dataset<M & { trigger?: TriggerMark }> {
  readonly injection: {
    /** The trigger; a scattered set's triggers joined by ", ". */
    readonly trigger: string;
    /** Every trigger that can be planted (one entry for a single trigger). */
    readonly triggers: readonly string[];
    readonly targetLabel: string;
    readonly share: number;
    readonly seed: number;
    readonly position: TriggerPosition;
    /** Ids of the rows that received the trigger, in row order. */
    readonly ids: readonly string[];
    /**
     * Rows per label that contained the trigger before injection. Should be all zero: a trigger that
     * occurs naturally is not class-unrelated in this corpus (pick another one).
     */
    readonly preexisting: Readonly<Record<string, number>>;
  };
}

/** The trigger's words in lower case; refuses anything but words (core's tokens) separated by single spaces. */
function triggerWords(trigger: string, where: string): string[] {
  const tokens = typeof trigger === 'string' ? tokenize(trigger) : [];
  if (tokens.length === 0 || tokens.map((t) => t.text).join(' ') !== trigger) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${where}: trigger "${String(trigger)}" must be one word or several words separated by single spaces (letters, digits or _, as core's tokenize() sees them)`,
      { argument: 'trigger' },
    );
  }
  return tokens.map((t) => t.text.toLowerCase());
}

/**
 * The occurrences of a trigger in `text`: runs of consecutive tokens of core's `tokenize(text)` equal
 * to the trigger's words (case-insensitive) with only white space between them, scanned left to right
 * without overlap. Each occurrence gives its character span and the indices of its tokens.
 */
function occurrences(text: string, words: readonly string[]): { start: number; end: number; tokens: number[] }[] {
  const tokens = tokenize(text, { lowercase: true });
  const out: { start: number; end: number; tokens: number[] }[] = [];
  for (let i = 0; i + words.length <= tokens.length; ) {
    let ok = true;
    for (let j = 0; j < words.length && ok; j++) {
      ok =
        tokens[i + j].text === words[j] &&
        (j === 0 || /^\s+$/.test(text.slice(tokens[i + j - 1].end, tokens[i + j].start)));
    }
    if (!ok) {
      i++;
      continue;
    }
    out.push({
      start: tokens[i].start,
      end: tokens[i + words.length - 1].end,
      tokens: Array.from({ length: words.length }, (_, j) => i + j),
    });
    i += words.length;
  }
  return out;
}

/** True when `text` contains the trigger (a word, or a phrase as consecutive words; case-insensitive). */
export function containsTrigger(text: string, trigger: string): boolean {
  return occurrences(text, triggerWords(trigger, 'containsTrigger')).length > 0;
}

/**
 * Inserts `trigger` into a seeded random `share` of the `targetLabel` rows (round(share·n) rows) and
 * records which: `meta.trigger` on each such row and `injection.ids`. The insertion is the trigger plus
 * one space before the chosen word ('start', 'random') or one space and the trigger at the end ('end'),
 * so `removeTrigger` on the result gives back the original text exactly. Other rows are unchanged.
 * Use it on training rows (to plant the shortcut) and on test rows (to build the benchmark).
 */
export function injectTrigger<M>(dataset: Dataset<M>, options: InjectTriggerOptions): TriggeredDataset<M> {
  const triggers = typeof options.trigger === 'string' ? [options.trigger] : [...(options.trigger ?? [])];
  if (triggers.length === 0)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      'injectTrigger: trigger must be a word, a phrase or a non-empty list of them',
      {
        argument: 'trigger',
      },
    );
  const wordLists = triggers.map((t) => triggerWords(t, 'injectTrigger'));
  const trigger = triggers.join(', ');
  labelIndex(dataset.labels, options.targetLabel, 'injectTrigger: targetLabel');
  if (!(options.share >= 0 && options.share <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `injectTrigger: share must be in [0, 1], got ${String(options.share)}`, {
      argument: 'share',
    });
  if (!Number.isInteger(options.seed))
    throw new XtrustError('INVALID_ARGUMENT', `injectTrigger: seed must be an integer, got ${String(options.seed)}`, {
      argument: 'seed',
    });
  const position = options.position ?? 'random';
  if (!['start', 'end', 'random'].includes(position))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `injectTrigger: position must be 'start', 'end' or 'random', got ${String(position)}`,
      { argument: 'position' },
    );

  const preexisting: Record<string, number> = {};
  for (const l of dataset.labels) preexisting[l] = 0;
  const target: number[] = [];
  dataset.rows.forEach((r, i) => {
    if (wordLists.some((words) => occurrences(r.text, words).length > 0))
      preexisting[r.label] = (preexisting[r.label] ?? 0) + 1;
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
    // a scattered set draws which trigger after the slot, so a single trigger keeps its old stream
    const planted = triggers.length === 1 ? triggers[0] : triggers[r.int(triggers.length)];
    let text: string;
    let offset: number;
    if (slot < tokens.length) {
      offset = tokens[slot].start;
      text = `${row.text.slice(0, offset) + planted} ${row.text.slice(offset)}`;
    } else {
      offset = row.text.length + 1;
      text = `${row.text} ${planted}`;
    }
    ids.push(row.id);
    return { ...row, text, meta: { ...(row.meta as M), trigger: { word: planted, offset } } };
  });
  return {
    name: `${dataset.name}+${trigger}`,
    labels: dataset.labels,
    rows,
    skipped: dataset.skipped,
    injection: {
      trigger,
      triggers,
      targetLabel: options.targetLabel,
      share: options.share,
      seed: options.seed,
      position,
      ids,
      preexisting,
    },
  };
}

/**
 * An evaluation pool for a planted trigger: every row as it is, followed by a *twin* of each
 * `targetLabel` row carrying the trigger (id `<id>+trigger`, inserted as `injectTrigger` does, at a
 * seeded position). Both sides of the ground truth then come from the same texts: the clean rows
 * give trustworthy candidates, the twins untrustworthy ones — as many as the target class has rows,
 * whatever share of the training rows carried the trigger.
 */
export function triggeredTwins<M>(
  dataset: Dataset<M>,
  options: Omit<InjectTriggerOptions, 'share'>,
): TriggeredDataset<M> {
  const target = dataset.rows.filter((r) => r.label === options.targetLabel);
  const planted = injectTrigger({ ...dataset, rows: target }, { ...options, share: 1 });
  const twins = planted.rows.map((r) => ({ ...r, id: `${r.id}+trigger` }));
  return {
    ...planted,
    name: `${dataset.name}+${planted.injection.trigger} twins`,
    rows: [...(dataset.rows as Row<M & { trigger?: TriggerMark }>[]), ...twins],
    injection: {
      ...planted.injection,
      ids: twins.map((r) => r.id),
      preexisting: injectTrigger(dataset, { ...options, share: 0 }).injection.preexisting,
    },
  };
}

/**
 * Deletes the given spans of `text`. A deleted span takes one following white-space character with
 * it (or, at the very end of the text, one preceding space), so that removing an inserted
 * "trigger " restores the text and "a the b" becomes "a b", not "a  b".
 */
export function deleteSpans(text: string, spans: readonly { start: number; end: number }[]): string {
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

/** `text` without any occurrence of the trigger (word or phrase, case-insensitive); see deleteSpans for spacing. */
export function removeTrigger(text: string, trigger: string): string {
  return deleteSpans(text, occurrences(text, triggerWords(trigger, 'removeTrigger')));
}

// ---------------------------------------------------------------------------------------------
// Ground truth
// ---------------------------------------------------------------------------------------------

export interface ShortcutBenchmarkOptions {
  /**
   * 'trigger': rows may carry an injected trigger (see injectTrigger); the spurious part is the trigger.
   * 'headers': rows are e-mails with their header block (loadSpamAssassin({headers: true})); the
   * spurious part is the header block.
   */
  mode: 'trigger' | 'headers';
  /** The trigger, a word or a phrase (mode 'trigger'). */
  trigger?: string;
  /**
   * The trigger is a word a person calls *related* to the class it is planted in (a control of the
   * related-trigger family, issue 47): a prediction resting on it is right for the right reason, so its
   * ground truth is **trustworthy** (and `restsOnTrigger` says it rests on the trigger). Default false: the
   * trigger is spurious and a prediction resting on it is untrustworthy. Mode 'trigger' only.
   */
  triggerRelated?: boolean;
  /**
   * Texts per predictProba call (default 256). Originals go in calls of exactly this many (the last
   * may be smaller); perturbed variants go one chunk of texts per call, a chunk closing with the text
   * whose variants reach batchSize (so a call holds at most batchSize − 1 plus one text's variants).
   */
  batchSize?: number;
  /**
   * When the classifier is a core `TokenScorer`, score trigger removals as token masks of the
   * unchanged text instead of rebuilding strings (default true). The trigger alone and header
   * removals always go through predictProba.
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
  /** Why, in words. */
  readonly reason: string;
  /** Whether the text carries the spurious part (the trigger, or a header block). */
  readonly shortcut: boolean;
  /** Whether the prediction rests on the trigger or the headers: it flips when they are removed (always set by buildShortcutBenchmark). */
  readonly restsOnTrigger?: boolean;
  /** How many perturbed variants of this text were classified (the trigger alone, shared by all texts, not counted). */
  readonly variants: number;
}

/**
 * Why a correct prediction is left without a ground truth (the keys of `counts.ambiguous.reasons`):
 * - `survives-but-spurious-alone-suffices`: over-determined — the prediction survives removing the
 *   spurious part, and the spurious part alone gives the same class: both halves suffice, so nothing
 *   tells whether the model rests on the right one;
 * - `no-spurious-part`: there is nothing to remove (an e-mail without a header block);
 * - `nothing-left`: removing the spurious part leaves no word (a text that is only the trigger, an
 *   e-mail with an empty body): there is no text to ask the classifier about.
 */
export const AMBIGUOUS = {
  overDetermined: 'survives-but-spurious-alone-suffices',
  noSpuriousPart: 'no-spurious-part',
  nothingLeft: 'nothing-left',
} as const;

export type AmbiguousReason = (typeof AMBIGUOUS)[keyof typeof AMBIGUOUS];

/** The reason recorded in `excludedIds` for an incorrect prediction (counted in `counts.incorrect`). */
export const INCORRECT = 'incorrect';

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
    /** Correct predictions left without a ground truth, by reason (the values of AMBIGUOUS). */
    readonly ambiguous: SkipReport;
  };
  /**
   * What the spurious part alone gives (mode 'trigger': the class predicted for the text that is just
   * the trigger, classified once; absent when no correct prediction carries the trigger).
   */
  readonly spuriousAlone?: { readonly text: string; readonly predicted: string };
  /** Rows left out and why (INCORRECT or an AMBIGUOUS reason), in input order. */
  readonly excludedIds: readonly { id: string; reason: string }[];
  /** Number of predictProba calls and texts classified through them. */
  readonly calls: number;
  readonly textsClassified: number;
  /** Number of scoreTokenMasks calls (one per text carrying the trigger) and mask rows scored (0 without a TokenScorer). */
  readonly maskCalls: number;
  readonly masksScored: number;
}

/** Runs predictProba over many texts in batches of `size`, validating every answer. */
export class BatchedScorer {
  calls = 0;
  texts = 0;
  constructor(
    private readonly classifier: Classifier,
    private readonly size: number,
  ) {}

  /** Scores texts in calls of `size` texts (the last may be smaller). */
  async score(texts: readonly string[]): Promise<Float32Array> {
    const k = this.classifier.labels.length;
    const out = new Float32Array(texts.length * k);
    for (let i = 0; i < texts.length; i += this.size) out.set(await this.once(texts.slice(i, i + this.size)), i * k);
    return out;
  }

  /** Scores texts in one call, however many. */
  async once(texts: readonly string[]): Promise<Float32Array> {
    const p = checkProbabilities(
      await this.classifier.predictProba(texts),
      texts.length,
      this.classifier.labels.length,
      'classifier',
    );
    this.calls++;
    this.texts += texts.length;
    return p;
  }
}

/** A correct prediction waiting for its perturbed variants' classes. */
interface Pending {
  row: number;
  /** Perturbed texts still to classify through predictProba: the text without the spurious part, then (headers) the header block alone. */
  variants: string[];
  /** Class of the text without the spurious part when already scored as a token mask. */
  withoutClass: number | null;
}

/**
 * Ground-truth trustworthiness of the correct predictions of `classifier` on `rows`, by intervention
 * on both sides of the spurious part S (mode 'trigger': every occurrence of the trigger; mode
 * 'headers': the header block):
 * - **untrustworthy** when removing S flips the prediction (the model needed S);
 * - **trustworthy** when the prediction survives removing S **and** S alone does not give the same
 *   class — or the text carries no S at all (trigger mode: a clean text cannot rest on the trigger);
 * - otherwise **ambiguous**, left out and counted by reason (AMBIGUOUS): S alone also gives the class
 *   (over-determined), no S to remove (an e-mail without headers), or nothing left without S.
 * "S alone" is, for a trigger, the text made of the trigger and nothing else (one text, classified
 * once: for a bag-of-words model it is what the trigger's own weights and the bias say); for headers,
 * the e-mail with its body emptied (the header block and the blank line after it).
 *
 * Incorrect predictions get no ground truth and are counted. "Flips" means the arg-max label of the
 * perturbed text differs from the original prediction. All texts go through `predictProba` in
 * batches of `batchSize`: the originals first, then (trigger) the trigger alone together with the
 * first chunk of variants, then the variants of the other correct predictions, chunk after chunk. A
 * classifier that is a core `TokenScorer` gets its trigger removals as token masks instead, one
 * scoreTokenMasks call per text carrying the trigger.
 */
export async function buildShortcutBenchmark(
  classifier: Classifier,
  rows: readonly Pick<Row<unknown>, 'id' | 'text' | 'label' | 'meta'>[],
  options: ShortcutBenchmarkOptions,
): Promise<ShortcutBenchmark> {
  const { mode } = options;
  if (mode !== 'trigger' && mode !== 'headers')
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `buildShortcutBenchmark: mode must be 'trigger' or 'headers', got ${String(mode)}`,
      { argument: 'mode' },
    );
  if (mode === 'trigger' && !options.trigger)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `buildShortcutBenchmark: mode 'trigger' needs the trigger (a word or a phrase)`,
      { argument: 'trigger' },
    );
  const words = mode === 'trigger' ? triggerWords(options.trigger!, 'buildShortcutBenchmark') : [];
  const batchSize = options.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `buildShortcutBenchmark: batchSize must be a positive integer, got ${String(batchSize)}`,
      { argument: 'batchSize' },
    );
  const { labels, k, gold, scorer, maskScorer, original, predicted } = await scoreOriginals(
    classifier,
    rows,
    batchSize,
    options.useTokenScorer,
  );
  const masks = { calls: 0, rows: 0 };

  const ambiguous = new SkipCounter();
  const excludedIds: { id: string; reason: string }[] = [];
  const exclude = (i: number, reason: AmbiguousReason) => {
    ambiguous.add(reason);
    excludedIds.push({ id: rows[i].id, reason });
  };
  type Outcome = {
    truth: 'trustworthy' | 'untrustworthy';
    reason: string;
    shortcut: boolean;
    restsOnTrigger: boolean;
    variants: number;
  };
  if (options.triggerRelated && mode !== 'trigger')
    throw new XtrustError('INVALID_ARGUMENT', `buildShortcutBenchmark: triggerRelated goes with mode 'trigger'`, {
      argument: 'triggerRelated',
    });
  const related = options.triggerRelated === true;
  const outcome: (Outcome | null)[] = rows.map(() => null);
  let incorrect = 0;
  const spurious = mode === 'trigger' ? `the trigger "${options.trigger}"` : 'the headers';

  // Trigger mode: the trigger alone is one text, classified once (with the first chunk of variants)
  // when some correct prediction carries the trigger.
  const found =
    mode === 'trigger' ? rows.map((r, i) => (predicted[i] === gold[i] ? occurrences(r.text, words) : [])) : [];
  let aloneClass: number | null = null;
  const needsAlone = found.some((o) => o.length > 0);

  let queue: Pending[] = [];
  let queued = 0;
  const decide = (p: Pending, without: number, alone: number | null) => {
    const i = p.row;
    const n = p.variants.length + (p.withoutClass !== null ? 1 : 0);
    if (without !== predicted[i]) {
      // resting on the trigger is a shortcut, unless the trigger is a related word (a control: a right reason)
      outcome[i] = {
        truth: related ? 'trustworthy' : 'untrustworthy',
        reason: related
          ? `the prediction flips when ${spurious} is removed, and ${spurious} is related to the class: right for the right reason`
          : `the prediction flips when ${spurious} ${mode === 'trigger' ? 'is' : 'are'} removed`,
        shortcut: true,
        restsOnTrigger: true,
        variants: n,
      };
    } else if (alone === predicted[i] && !related) {
      exclude(i, AMBIGUOUS.overDetermined);
    } else {
      outcome[i] = {
        truth: 'trustworthy',
        reason:
          alone === predicted[i]
            ? `the prediction survives removing ${spurious}, which alone gives the same class: both reasons are related ones`
            : `the prediction survives removing ${spurious}, and ${spurious} alone ${mode === 'trigger' ? 'gives' : 'give'} another class`,
        shortcut: true,
        restsOnTrigger: false,
        variants: n,
      };
    }
  };
  const flush = async () => {
    const alone = needsAlone && aloneClass === null ? [options.trigger!] : [];
    const texts = [...alone, ...queue.flatMap((p) => p.variants)];
    if (texts.length === 0) return;
    const probs = await scorer.once(texts);
    if (alone.length) aloneClass = argmaxRow(probs, 0, k);
    let v = alone.length;
    for (const p of queue) {
      if (mode === 'headers') {
        decide(p, argmaxRow(probs, v, k), argmaxRow(probs, v + 1, k));
        v += 2;
      } else {
        const without = p.withoutClass ?? argmaxRow(probs, v++, k);
        decide(p, without, aloneClass);
      }
    }
    queue = [];
    queued = 0;
  };

  for (let i = 0; i < rows.length; i++) {
    if (predicted[i] !== gold[i]) {
      incorrect++;
      excludedIds.push({ id: rows[i].id, reason: INCORRECT });
      continue;
    }
    const text = rows[i].text;
    let pending: Pending | null = null;
    if (mode === 'headers') {
      const parts = headerAndBody(rows[i]);
      if (parts === null) exclude(i, AMBIGUOUS.noSpuriousPart);
      else if (tokenize(parts.body).length === 0) exclude(i, AMBIGUOUS.nothingLeft);
      else pending = { row: i, variants: [parts.body, parts.header], withoutClass: null };
    } else if (found[i].length === 0) {
      outcome[i] = {
        truth: 'trustworthy',
        reason: `the text carries no ${spurious.replace(/^the /, '')}`,
        shortcut: false,
        restsOnTrigger: false,
        variants: 0,
      };
    } else {
      const occ = found[i];
      const tokens = tokenize(text);
      if (occ.length * words.length === tokens.length) {
        exclude(i, AMBIGUOUS.nothingLeft);
      } else if (maskScorer) {
        pending = {
          row: i,
          variants: [],
          withoutClass: await maskedClass(maskScorer, text, tokens.length, occ, k, masks),
        };
      } else {
        pending = { row: i, variants: [deleteSpans(text, occ)], withoutClass: null };
      }
    }
    if (pending) {
      queue.push(pending);
      queued += pending.variants.length;
      if (queued >= batchSize) await flush();
    }
  }
  await flush();

  const { cases, trustworthy, untrustworthy } = collectCases(rows, labels, original, predicted, outcome, excludedIds);
  return {
    mode,
    ...(mode === 'trigger' ? { trigger: options.trigger } : {}),
    labels,
    cases,
    counts: { rows: rows.length, incorrect, trustworthy, untrustworthy, ambiguous: ambiguous.report() },
    ...(aloneClass !== null ? { spuriousAlone: { text: options.trigger!, predicted: labels[aloneClass] } } : {}),
    excludedIds,
    calls: scorer.calls,
    textsClassified: scorer.texts,
    maskCalls: masks.calls,
    masksScored: masks.rows,
  };
}

/**
 * The first step of both ground-truth builders: each row's gold class (an unknown label refused, naming the
 * row), the originals scored once in batches of `batchSize`, their predicted classes, and the scorers the
 * interventions go through — the token-mask one when the classifier is a TokenScorer and `useTokenScorer`
 * is not false.
 */
export async function scoreOriginals(
  classifier: Classifier,
  rows: readonly Pick<Row<unknown>, 'id' | 'text' | 'label'>[],
  batchSize: number,
  useTokenScorer: boolean | undefined,
): Promise<{
  labels: readonly string[];
  k: number;
  gold: number[];
  scorer: BatchedScorer;
  maskScorer: (Classifier & TokenScorer) | null;
  original: Float32Array;
  predicted: number[];
}> {
  const labels = classifier.labels;
  const k = labels.length;
  const gold = rows.map((r, i) => labelIndex(labels, r.label, `row ${i} (${r.id}): label`));
  const scorer = new BatchedScorer(classifier, batchSize);
  const maskScorer =
    useTokenScorer !== false && isTokenScorer(classifier) ? (classifier as Classifier & TokenScorer) : null;
  const original = await scorer.score(rows.map((r) => r.text));
  const predicted = rows.map((_, i) => argmaxRow(original, i, k));
  return { labels, k, gold, scorer, maskScorer, original, predicted };
}

/** What every benchmark case carries besides its ground truth. */
type CaseBase = Pick<BenchmarkCase, 'id' | 'text' | 'label' | 'predicted' | 'probabilities' | 'confidence'>;

/**
 * The correct predictions that got a ground truth (`outcome[i]` set), in input order, each with its text,
 * probabilities and confidence, and the count per side; sorts `excludedIds` into input order as well.
 * Shared by the trigger / header benchmark and the token-set one.
 */
export function collectCases<O extends { readonly truth: 'trustworthy' | 'untrustworthy' }>(
  rows: readonly Pick<Row<unknown>, 'id' | 'text' | 'label'>[],
  labels: readonly string[],
  original: Float32Array,
  predicted: readonly number[],
  outcome: readonly (O | null)[],
  excludedIds: { id: string; reason: string }[],
): { cases: (CaseBase & O)[]; trustworthy: number; untrustworthy: number } {
  const k = labels.length;
  const cases: (CaseBase & O)[] = [];
  let trustworthy = 0;
  rows.forEach((r, i) => {
    const o = outcome[i];
    if (!o) return;
    if (o.truth === 'trustworthy') trustworthy++;
    const probabilities = Array.from(original.subarray(i * k, (i + 1) * k));
    cases.push({
      id: r.id,
      text: r.text,
      label: r.label,
      predicted: labels[predicted[i]],
      probabilities,
      confidence: probabilities[predicted[i]],
      ...o,
    });
  });
  const order = new Map(rows.map((r, i) => [r.id, i]));
  excludedIds.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { cases, trustworthy, untrustworthy: cases.length - trustworthy };
}

/** The arg-max class of `text` with the tokens of the given occurrences masked out (one scoreTokenMasks row). */
async function maskedClass(
  scorer: TokenScorer,
  text: string,
  T: number,
  occ: readonly { tokens: number[] }[],
  k: number,
  counter: { calls: number; rows: number },
): Promise<number> {
  // Masks index core's tokenize(text) with default options, as the TokenScorer contract says.
  const m = new Uint8Array(T).fill(1);
  for (const o of occ) for (const t of o.tokens) m[t] = 0;
  const probs = checkProbabilities(await scorer.scoreTokenMasks(text, m, 1), 1, k, 'classifier.scoreTokenMasks');
  counter.calls++;
  counter.rows++;
  return argmaxRow(probs, 0, k);
}

/**
 * The e-mail split at its body: `header` is the text with the body emptied (the header block and the
 * blank line after it), `body` the text without its header block; null when it has no header block.
 * Uses `meta.bodyStart` when recorded (loadSpamAssassin), else the first blank line.
 */
function headerAndBody(row: Pick<Row<unknown>, 'text' | 'meta'>): { header: string; body: string } | null {
  const start = (row.meta as { bodyStart?: unknown } | undefined)?.bodyStart;
  if (typeof start === 'number')
    return start > 0 ? { header: row.text.slice(0, start), body: row.text.slice(start) } : null;
  const { header, body } = splitEmail(row.text);
  return header === '' ? null : { header: `${header}\n\n`, body };
}

// ---------------------------------------------------------------------------------------------
// One-call construction of the trigger benchmark's data
// ---------------------------------------------------------------------------------------------

export interface ShortcutSplitOptions<M = Record<string, unknown>> {
  /** A trigger (word or phrase), or a scattered set of them (see InjectTriggerOptions). */
  trigger: string | readonly string[];
  targetLabel: string;
  /** Share of the target class's training rows that get the trigger (the planted shortcut). */
  trainShare: number;
  /**
   * Share of the target class's test rows that get the trigger (the untrustworthy candidates), or
   * 'twins': the test and validation parts keep every row and add a twin carrying the trigger of each
   * target-class row (triggeredTwins) — an evaluation pool as large as the target class allows.
   */
  testShare: number | 'twins';
  testFraction: number;
  validationFraction?: number;
  seed: number;
  position?: TriggerPosition;
  /** Keep rows sharing a key on one side (e.g. Brown documents); see stratifiedSplit. */
  group?: (row: Row<M>) => string;
}

/**
 * Split a dataset (stratified, seeded) and inject the trigger into `trainShare` of the target
 * class's training rows; the validation rows get `trainShare` too, or twins with `testShare: 'twins'`;
 * the test rows get `testShare`, or twins. Train a model on `train`, then call
 * buildShortcutBenchmark(model, test.rows, {mode: 'trigger', trigger}).
 */
export function shortcutSplit<M>(
  dataset: Dataset<M>,
  options: ShortcutSplitOptions<M>,
): { train: TriggeredDataset<M>; validation: TriggeredDataset<M>; test: TriggeredDataset<M> } {
  const split = stratifiedSplit(dataset.rows, {
    testFraction: options.testFraction,
    validationFraction: options.validationFraction,
    seed: options.seed,
    group: options.group,
  });
  const part = (rows: Row<M>[], name: string, share: number | 'twins', seed: number) => {
    const ds = { ...dataset, name: `${dataset.name}/${name}`, rows };
    const planting = { trigger: options.trigger, targetLabel: options.targetLabel, seed, position: options.position };
    return share === 'twins' ? triggeredTwins(ds, planting) : injectTrigger(ds, { ...planting, share });
  };
  const twins = options.testShare === 'twins';
  return {
    train: part(split.train, 'train', options.trainShare, options.seed + 1),
    validation: part(split.validation, 'validation', twins ? 'twins' : options.trainShare, options.seed + 2),
    test: part(split.test, 'test', options.testShare, options.seed + 3),
  };
}

/**
 * Cuts each text into consecutive windows of `words` words of core's tokenizer, at most `perText`
 * windows per text (a text of at most `words` words stays whole; the words after the last full
 * window are dropped). Window k of row `id` is `id#wk` and keeps the row's label and meta. Short
 * windows make a planted trigger decisive more often, and several windows per text draw more rows;
 * split them with a `group` on the source row so windows of one text stay on one side.
 */
export function wordWindows<R extends Pick<Row<unknown>, 'id' | 'text'>>(
  rows: readonly R[],
  words: number,
  perText: number,
): R[] {
  if (!Number.isInteger(words) || words < 1)
    throw new XtrustError('INVALID_ARGUMENT', `wordWindows: words must be a positive integer, got ${String(words)}`, {
      argument: 'words',
    });
  if (!Number.isInteger(perText) || perText < 1)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `wordWindows: perText must be a positive integer, got ${String(perText)}`,
      { argument: 'perText' },
    );
  const out: R[] = [];
  for (const r of rows) {
    const t = tokenize(r.text);
    if (t.length <= words) {
      out.push(r);
      continue;
    }
    const n = Math.min(perText, Math.floor(t.length / words));
    for (let k = 0; k < n; k++)
      out.push({ ...r, id: `${r.id}#w${k}`, text: r.text.slice(t[k * words].start, t[(k + 1) * words - 1].end) });
  }
  return out;
}
