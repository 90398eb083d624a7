import { argmaxRow, checkProbabilities, tokenize, XtrustError, type Classifier, type Token } from '@xtrust/core';
import { SkipCounter, type Row } from './dataset.js';
import {
  AMBIGUOUS,
  collectCases,
  deleteSpans,
  scoreOriginals,
  INCORRECT,
  type AmbiguousReason,
  type BenchmarkCase,
  type ShortcutBenchmark,
} from './shortcut.js';
import { setTokenIndices, type TokenSet } from './token-set.js';

export interface TokenSetBenchmarkOptions {
  /** The spurious token set S: a phrase's words (phraseWords), a scattered list (wordSet) or a category. */
  set: TokenSet;
  /**
   * S is related to the class (a control): a prediction resting on it is right for the right reason, so
   * its ground truth is trustworthy. Default false: S is spurious.
   */
  related?: boolean;
  /** Texts per predictProba call (default 256); see buildShortcutBenchmark. */
  batchSize?: number;
  /** Score the interventions as token masks when the classifier is a core TokenScorer (default true). */
  useTokenScorer?: boolean;
  /**
   * Also remove each distinct word of S present in a text on its own, and record the words whose removal
   * alone flips the prediction (`flipsAlone`), when the text holds 2 to `singlesUpTo` distinct words of S
   * (default 8; 0 turns it off). The ground truth is decided by removing S as a whole.
   */
  singlesUpTo?: number;
}

/** A correct prediction with its ground truth relative to a token set. */
export interface TokenSetCase extends BenchmarkCase {
  /** How many of the text's tokens belong to S. */
  readonly setTokens: number;
  /** The distinct words of S in the text (lower case, first-appearance order). */
  readonly setWords: readonly string[];
  /** The words of S whose removal on its own flips the prediction (when singles were tried). */
  readonly flipsAlone?: readonly string[];
}

/** The token-set benchmark: ShortcutBenchmark's shape, mode 'tokens', with the set's name. */
export interface TokenSetBenchmark extends Omit<ShortcutBenchmark, 'mode' | 'cases' | 'spuriousAlone'> {
  readonly mode: 'tokens';
  readonly set: string;
  readonly cases: TokenSetCase[];
}

/** The interventions of one text: masks over its tokens (1 = word kept) and what each means. */
interface Interventions {
  readonly tokens: readonly Token[];
  /** Row 0: S removed; row 1: S alone; then one row per single word of S removed. */
  readonly masks: Uint8Array;
  readonly rows: number;
  /** The distinct words of S in the text, lower case, first-appearance order. */
  readonly words: string[];
  /** The words removed one by one (rows 2…). */
  readonly singles: readonly string[];
}

function interventions(text: string, set: TokenSet, singlesUpTo: number): Interventions | null {
  const tokens = tokenize(text);
  const idx = setTokenIndices(tokens, set.spans(text));
  if (idx.length === 0) return null;
  const T = tokens.length;
  const words: string[] = [];
  const wordOf = new Map<string, number[]>();
  for (const i of idx) {
    const w = tokens[i].text.toLowerCase();
    let list = wordOf.get(w);
    if (!list) {
      list = [];
      wordOf.set(w, list);
      words.push(w);
    }
    list.push(i);
  }
  const singles = words.length >= 2 && words.length <= singlesUpTo ? words : [];
  const rows = 2 + singles.length;
  const masks = new Uint8Array(rows * T).fill(1);
  for (const i of idx) masks[i] = 0; // row 0: without S
  masks.fill(0, T, 2 * T);
  for (const i of idx) masks[T + i] = 1; // row 1: S alone
  singles.forEach((w, s) => {
    for (const i of wordOf.get(w)!) masks[(2 + s) * T + i] = 0;
  });
  return { tokens, masks, rows, words, singles };
}

/** The text a mask row keeps: deleted words go with one following space (deleteSpans), "S alone" is its words joined by spaces. */
function maskedText(text: string, tokens: readonly Token[], mask: Uint8Array, alone: boolean): string {
  if (alone)
    return tokens
      .filter((_, i) => mask[i] === 1)
      .map((t) => t.text)
      .join(' ');
  return deleteSpans(
    text,
    tokens.filter((_, i) => mask[i] === 0),
  );
}

/**
 * Ground-truth trustworthiness of `classifier`'s correct predictions on `rows` relative to a **token set**
 * S (issue 48: a phrase's words wherever they occur, a scattered list, a category), by intervention on
 * both sides, as buildShortcutBenchmark defines it for one trigger:
 * - **untrustworthy** when removing every token of S flips the prediction;
 * - **trustworthy** when it survives and the text's S tokens alone (in order, nothing else) give another
 *   class — or the text holds no token of S;
 * - otherwise **ambiguous** by reason: S alone also gives the class (over-determined), or nothing is left
 *   without S.
 * With `related`, a prediction resting on S is trustworthy (a right reason) and nothing is over-determined.
 * Each text's interventions are one scoreTokenMasks call when the classifier is a TokenScorer, else texts
 * batched through predictProba in chunks of `batchSize`.
 */
export async function buildTokenSetBenchmark(
  classifier: Classifier,
  rows: readonly Pick<Row<unknown>, 'id' | 'text' | 'label' | 'meta'>[],
  options: TokenSetBenchmarkOptions,
): Promise<TokenSetBenchmark> {
  const set = options?.set;
  if (!set || typeof set.spans !== 'function' || typeof set.name !== 'string')
    throw new XtrustError('INVALID_ARGUMENT', 'buildTokenSetBenchmark: set must be a TokenSet ({name, spans(text)})', {
      argument: 'set',
    });
  const batchSize = options.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `buildTokenSetBenchmark: batchSize must be a positive integer, got ${String(batchSize)}`,
      { argument: 'batchSize' },
    );
  const singlesUpTo = options.singlesUpTo ?? 8;
  if (!Number.isInteger(singlesUpTo) || singlesUpTo < 0)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `buildTokenSetBenchmark: singlesUpTo must be a non-negative integer, got ${String(singlesUpTo)}`,
      { argument: 'singlesUpTo' },
    );
  const related = options.related === true;
  const { labels, k, gold, scorer, maskScorer, original, predicted } = await scoreOriginals(
    classifier,
    rows,
    batchSize,
    options.useTokenScorer,
  );
  const maskCounter = { calls: 0, rows: 0 };
  const spurious = `the set "${set.name}"`;

  const ambiguous = new SkipCounter();
  const excludedIds: { id: string; reason: string }[] = [];
  const exclude = (i: number, reason: AmbiguousReason) => {
    ambiguous.add(reason);
    excludedIds.push({ id: rows[i].id, reason });
  };
  type Outcome = Omit<TokenSetCase, 'id' | 'text' | 'label' | 'predicted' | 'probabilities' | 'confidence'>;
  const outcome: (Outcome | null)[] = rows.map(() => null);

  const decide = (i: number, iv: Interventions, classes: readonly number[]) => {
    const [without, alone, ...single] = classes;
    const flipsAlone = iv.singles.filter((_, s) => single[s] !== predicted[i]);
    const base = {
      shortcut: true,
      variants: iv.rows,
      setTokens: iv.masks.subarray(0, iv.tokens.length).reduce((a, m) => a + (m === 0 ? 1 : 0), 0),
      setWords: iv.words,
      ...(iv.singles.length ? { flipsAlone } : {}),
    };
    if (without !== predicted[i]) {
      outcome[i] = {
        ...base,
        truth: related ? 'trustworthy' : 'untrustworthy',
        reason: related
          ? `the prediction flips when ${spurious} is removed, and it is related to the class: right for the right reason`
          : `the prediction flips when ${spurious} is removed`,
        restsOnTrigger: true,
      };
    } else if (alone === predicted[i] && !related) {
      exclude(i, AMBIGUOUS.overDetermined);
    } else {
      outcome[i] = {
        ...base,
        truth: 'trustworthy',
        reason:
          alone === predicted[i]
            ? `the prediction survives removing ${spurious}, which alone gives the same class: both reasons are related ones`
            : `the prediction survives removing ${spurious}, whose words alone give another class`,
        restsOnTrigger: false,
      };
    }
  };

  let queue: { row: number; iv: Interventions }[] = [];
  let queued = 0;
  const flush = async () => {
    if (queue.length === 0) return;
    const texts: string[] = [];
    for (const { row, iv } of queue) {
      const T = iv.tokens.length;
      for (let r = 0; r < iv.rows; r++)
        texts.push(maskedText(rows[row].text, iv.tokens, iv.masks.subarray(r * T, (r + 1) * T), r === 1));
    }
    const probs = await scorer.once(texts);
    let v = 0;
    for (const { row, iv } of queue) {
      decide(
        row,
        iv,
        Array.from({ length: iv.rows }, (_, r) => argmaxRow(probs, v + r, k)),
      );
      v += iv.rows;
    }
    queue = [];
    queued = 0;
  };

  let incorrect = 0;
  for (let i = 0; i < rows.length; i++) {
    if (predicted[i] !== gold[i]) {
      incorrect++;
      excludedIds.push({ id: rows[i].id, reason: INCORRECT });
      continue;
    }
    const iv = interventions(rows[i].text, set, singlesUpTo);
    if (iv === null) {
      outcome[i] = {
        truth: 'trustworthy',
        reason: `the text holds no token of ${spurious}`,
        shortcut: false,
        restsOnTrigger: false,
        variants: 0,
        setTokens: 0,
        setWords: [],
      };
      continue;
    }
    const T = iv.tokens.length;
    if (iv.masks.subarray(0, T).every((m) => m === 0)) {
      exclude(i, AMBIGUOUS.nothingLeft);
      continue;
    }
    if (maskScorer) {
      const probs = checkProbabilities(
        await maskScorer.scoreTokenMasks(rows[i].text, iv.masks, iv.rows),
        iv.rows,
        k,
        'classifier.scoreTokenMasks',
      );
      maskCounter.calls++;
      maskCounter.rows += iv.rows;
      decide(
        i,
        iv,
        Array.from({ length: iv.rows }, (_, r) => argmaxRow(probs, r, k)),
      );
    } else {
      queue.push({ row: i, iv });
      queued += iv.rows;
      if (queued >= batchSize) await flush();
    }
  }
  await flush();

  const { cases, trustworthy, untrustworthy } = collectCases(rows, labels, original, predicted, outcome, excludedIds);
  return {
    mode: 'tokens',
    set: set.name,
    labels,
    cases,
    counts: { rows: rows.length, incorrect, trustworthy, untrustworthy, ambiguous: ambiguous.report() },
    excludedIds,
    calls: scorer.calls,
    textsClassified: scorer.texts,
    maskCalls: maskCounter.calls,
    masksScored: maskCounter.rows,
  };
}
