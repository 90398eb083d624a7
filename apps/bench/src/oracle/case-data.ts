/**
 * Builds the data of one benchmark case (family.ts): the corpus, cut into word windows, split by
 * source text, the trigger planted in a share of the target class's training texts, and evaluation
 * pools where every target-class text has a twin carrying the trigger (@xtrust/datasets
 * triggeredTwins). Then trains the model and derives the ground truth of issue 14's definition
 * (buildShortcutBenchmark), drawing more test rows (a larger test fraction) while a side has fewer
 * than the minimum of correct predictions.
 */
import { rng, tokenize, XtrustError, type Classifier } from '@xtrust/core';
import {
  buildShortcutBenchmark,
  buildTokenSetBenchmark,
  wordSet,
  loadBrown,
  loadSotu,
  loadSpamAssassin,
  shortcutSplit,
  stratifiedSplit,
  wordWindows,
  type Dataset,
  type Row,
  type ShortcutBenchmark,
  type TokenSet,
} from '@xtrust/datasets';
import { trainClassifier, type BuiltinKind } from '@xtrust/models';
import { CLASS_NAMES, DEFAULT_CLASSES, type CaseSpec } from './family.js';
import { KIT_BERT, kitBertClassifier, type KitBertInfo, type KitBertSettings } from './kit-bert.js';

/** A built-in bag-of-words model of @xtrust/models, or the model kit's BERT fine-tuned per case (kit-bert.ts). */
export type ModelKind = BuiltinKind | typeof KIT_BERT;

/** A corpus ready to be cut: labelled rows and the key that keeps a source's rows on one side of a split. */
export interface CorpusRows {
  readonly name: string;
  readonly labels: readonly string[];
  readonly rows: readonly Row<unknown>[];
  /** Rows with one key stay on one side of the split (a Brown document, a SotU address, an e-mail). */
  readonly group: (r: Row<unknown>) => string;
}

/** Loads a corpus of the family, restricted to `classes` when given (in that order). */
export function loadCorpus(spec: Pick<CaseSpec, 'corpus' | 'classes'>): CorpusRows {
  let d: Dataset<unknown>;
  let name: string;
  let group: (r: Row<unknown>) => string;
  if (spec.corpus === 'brown') {
    d = loadBrown({ tags: false }) as Dataset<unknown>;
    name = 'Brown genres';
    group = (r) => (r.meta as { document: string }).document;
  } else if (spec.corpus === 'sotu') {
    d = loadSotu() as Dataset<unknown>;
    name = 'State of the Union parties';
    // one address: the id up to its paragraph number
    group = (r) => r.id.slice(0, r.id.lastIndexOf(':'));
  } else if (spec.corpus === 'spam') {
    d = loadSpamAssassin({ headers: false }) as Dataset<unknown>;
    name = 'SpamAssassin bodies';
    group = (r) => r.id;
  } else if (spec.corpus === 'headers') {
    d = loadSpamAssassin({ headers: true }) as Dataset<unknown>;
    name = 'SpamAssassin with headers';
    group = (r) => r.id;
  } else {
    throw new XtrustError('INVALID_ARGUMENT', `unknown corpus ${String(spec.corpus)}`, { argument: 'corpus' });
  }
  const classes = spec.classes ?? DEFAULT_CLASSES[spec.corpus];
  if (!classes) return { name, labels: d.labels, rows: d.rows, group };
  for (const c of classes)
    if (!d.labels.includes(c))
      throw new XtrustError('UNKNOWN_LABEL', `class "${c}" is not a label of ${name} (${d.labels.join(', ')})`, {
        argument: 'classes',
      });
  return { name, labels: classes, rows: d.rows.filter((r) => classes.includes(r.label)), group };
}

/** E-mails with their whole header block and the body cut to its first `words` words (`meta.bodyStart` stays valid). */
export function cutBodies(rows: readonly Row<unknown>[], words: number | 'all'): Row<unknown>[] {
  if (words === 'all') return rows.slice();
  return rows.map((r) => {
    const start = (r.meta as { bodyStart: number }).bodyStart;
    const body = r.text.slice(start);
    const t = tokenize(body);
    return t.length <= words ? r : { ...r, text: r.text.slice(0, start) + body.slice(0, t[words - 1].end) };
  });
}

/** Windows per text of a category case (at least; issue 48): its untrustworthy side is rare on an unplanted model. */
export const CATEGORY_WINDOWS_PER_TEXT = 10;

/**
 * The header case made decidable (issue 48): every e-mail as it is, plus a twin whose header block comes
 * from a seeded e-mail of another class (id `<id>+headers`, labelled by its body). On the original the
 * headers alone mostly give the class (over-determined); on a twin they give another class, so a
 * prediction that survives their removal is trustworthy and one that follows them is wrong — both sides
 * of the ground truth, from the same bodies. `meta.bodyStart` points at the twin's body.
 */
export function withSwappedHeaders(rows: readonly Row<unknown>[], seed: number): Row<unknown>[] {
  const byLabel = new Map<string, Row<unknown>[]>();
  for (const r of rows) {
    let l = byLabel.get(r.label);
    if (!l) byLabel.set(r.label, (l = []));
    l.push(r);
  }
  const r = rng(seed);
  const othersOf = new Map(
    [...byLabel.keys()].map((l) => [l, [...byLabel].filter(([o]) => o !== l).flatMap(([, rs]) => rs)]),
  );
  const twins: Row<unknown>[] = [];
  for (const row of rows) {
    const others = othersOf.get(row.label)!;
    const start = (row.meta as { bodyStart?: number } | undefined)?.bodyStart;
    if (others.length === 0 || typeof start !== 'number') continue;
    const donor = others[r.int(others.length)];
    const donorStart = (donor.meta as { bodyStart: number }).bodyStart;
    twins.push({
      ...row,
      id: `${row.id}+headers`,
      text: donor.text.slice(0, donorStart) + row.text.slice(start),
      meta: { ...(row.meta as object), bodyStart: donorStart },
    });
  }
  return [...rows, ...twins];
}

/** The data of one case at one test fraction. */
export interface CaseData {
  /** The case with its target resolved (the first class when none was given). */
  readonly spec: CaseSpec;
  readonly corpus: string;
  readonly labels: readonly string[];
  readonly classNames: Readonly<Record<string, string>>;
  /** 'tokens': a category case (issue 48), nothing planted. */
  readonly mode: 'trigger' | 'headers' | 'tokens';
  readonly train: readonly Row<unknown>[];
  /** Validation and test pools: rows of their split, plus (trigger) a twin carrying the trigger of each target-class row. */
  readonly validation: readonly Row<unknown>[];
  readonly test: readonly Row<unknown>[];
  readonly testFraction: number;
  /** Training texts that carry the trigger. */
  readonly plantedTrain: number;
  /** Rows per class that held the trigger before it was planted (a natural occurrence). */
  readonly preexisting: Readonly<Record<string, number>>;
  readonly note: string;
}

export interface PrepareOptions {
  readonly testFraction: number;
  readonly validationFraction: number;
  readonly windowsPerText: number;
  /** The corpus (default: loadCorpus(spec)); tests pass a small one. */
  readonly corpus?: CorpusRows;
}

/** Splits (stratified, by source), cuts and plants: the data of `spec` at one test fraction. */
export function prepareCase(spec: CaseSpec, options: PrepareOptions): CaseData {
  const corpus = options.corpus ?? loadCorpus(spec);
  const headers = spec.corpus === 'headers';
  const category = spec.set === 'category';
  // an unplanted model rarely rests on a category: more windows per text give its rare side enough texts
  const perText = category ? Math.max(options.windowsPerText, CATEGORY_WINDOWS_PER_TEXT) : options.windowsPerText;
  const rows = headers
    ? cutBodies(corpus.rows, spec.words)
    : spec.words === 'all'
      ? corpus.rows.slice()
      : wordWindows(corpus.rows, spec.words, perText);
  const classNames = CLASS_NAMES[spec.corpus];
  const lengths =
    spec.words === 'all'
      ? 'whole texts'
      : headers
        ? `body cut to ${spec.words} words`
        : `windows of ${spec.words} words (≤ ${perText} per text)`;
  if (headers || category) {
    const split = stratifiedSplit(rows, {
      testFraction: options.testFraction,
      validationFraction: options.validationFraction,
      seed: spec.seed,
      group: corpus.group,
    });
    const swapped = category && headers && spec.category === 'mail-headers';
    return {
      spec,
      corpus: corpus.name,
      labels: corpus.labels,
      classNames,
      mode: category ? 'tokens' : 'headers',
      train: split.train,
      validation: swapped ? withSwappedHeaders(split.validation, spec.seed + 2) : split.validation,
      test: swapped ? withSwappedHeaders(split.test, spec.seed + 3) : split.test,
      testFraction: options.testFraction,
      plantedTrain: 0,
      preexisting: {},
      note: category
        ? `${corpus.name}, ${lengths}; nothing planted: the spurious part is the category "${spec.category}"${swapped ? '; evaluation pools: every e-mail, plus a twin of each carrying the header block of an e-mail of another class (labelled by its body)' : ''}`
        : `${corpus.name}, ${lengths}; the spurious part is the header block`,
    };
  }
  const target = spec.target ?? corpus.labels[0];
  if (!corpus.labels.includes(target))
    throw new XtrustError(
      'UNKNOWN_LABEL',
      `--target "${target}" is not one of the classes (${corpus.labels.join(', ')})`,
      { argument: 'target' },
    );
  const trigger = spec.trigger!;
  // a scattered set plants one of its words per text (injectTrigger with a list)
  const planted = spec.set === 'scattered' ? trigger.split(' ') : trigger;
  const ds: Dataset<unknown> = { name: corpus.name, labels: corpus.labels, rows, skipped: { count: 0, reasons: {} } };
  const s = shortcutSplit(ds, {
    trigger: planted,
    targetLabel: target,
    trainShare: spec.share,
    testShare: 'twins',
    testFraction: options.testFraction,
    validationFraction: options.validationFraction,
    seed: spec.seed,
    group: corpus.group,
  });
  const preexisting: Record<string, number> = {};
  for (const l of corpus.labels)
    preexisting[l] = [s.train, s.validation, s.test].reduce((a, p) => a + (p.injection.preexisting[l] ?? 0), 0);
  return {
    spec: { ...spec, target },
    corpus: corpus.name,
    labels: corpus.labels,
    classNames,
    mode: 'trigger',
    train: s.train.rows,
    validation: s.validation.rows,
    test: s.test.rows,
    testFraction: options.testFraction,
    plantedTrain: s.train.injection.ids.length,
    preexisting,
    note: `${corpus.name}, ${lengths}; ${spec.set === 'scattered' ? `one of the words "${trigger}"` : `"${trigger}"`} in ${Math.round(spec.share * 100)} % of the ${target} training texts (${s.train.injection.ids.length}); evaluation pools: every text, plus a twin with the trigger of each ${target} text${spec.set ? `; ground truth by removing ${spec.set === 'phrase' ? "the phrase's words" : 'the set'} wherever they occur` : ''}`,
  };
}

/** A case with its model and ground truth. */
export interface BuiltCase {
  readonly data: CaseData;
  readonly model: Classifier;
  readonly kind: ModelKind;
  /** kit-bert: the fine-tuned folder and its training figures. */
  readonly transformer?: KitBertInfo;
  readonly testAccuracy: number;
  readonly bench: CaseBenchmark;
  readonly validationBench?: CaseBenchmark;
  /** Each test fraction tried, with the ground-truth counts it gave. */
  readonly attempts: readonly { testFraction: number; trustworthy: number; untrustworthy: number; rests?: number }[];
  /** A natural case's token set, the one its ground truth removes (caseTokenSet). */
  readonly tokenSet?: TokenSet;
  /** Both sides reach the minimum: the case is scored. */
  readonly scored: boolean;
  readonly trainSeconds: number;
}

/** A case's ground truth: one trigger or the headers (buildShortcutBenchmark), or a token set (issue 48). */
export type CaseBenchmark = Pick<ShortcutBenchmark, 'cases' | 'counts' | 'labels' | 'spuriousAlone'>;

/**
 * The token set a natural-shortcut case's ground truth removes (issue 48): a phrase's or a scattered set's
 * words wherever they occur, or a category (resolved by `category`); null for a single trigger or headers.
 */
export function caseTokenSet(spec: CaseSpec, category?: (name: string) => TokenSet): TokenSet | null {
  if (!spec.set) return null;
  if (spec.set === 'category') {
    if (!category || !spec.category)
      throw new XtrustError('INVALID_ARGUMENT', 'a category case needs its category and a category lookup', {
        argument: 'category',
      });
    return category(spec.category);
  }
  return wordSet(
    tokenize(spec.trigger!).map((t) => t.text),
    spec.trigger,
  );
}

/** The ground truth of `rows` under the case's definition: a token set when it has one, else a trigger or the headers. */
async function caseTruth(
  spec: CaseSpec,
  data: CaseData,
  model: Classifier,
  rows: readonly Row<unknown>[],
  set: TokenSet | null,
) {
  if (set) return buildTokenSetBenchmark(model, rows, { set, ...(spec.side === 'related' ? { related: true } : {}) });
  return buildShortcutBenchmark(model, rows, {
    mode: data.mode as 'trigger' | 'headers',
    ...(data.mode === 'trigger' ? { trigger: data.spec.trigger } : {}),
    ...(spec.side === 'related' ? { triggerRelated: true } : {}),
  });
}

export interface BuildOptions extends Omit<PrepareOptions, 'testFraction'> {
  /** Resolves a category case's token category by name (the bench passes @xtrust/datasets' categories). */
  readonly category?: (name: string) => TokenSet;
  readonly kind: ModelKind;
  /** Required with kind kit-bert: the encoder, epochs, threads and cache folder of the fine-tuning (its seed is the case's). */
  readonly kitBert?: Omit<KitBertSettings, 'seed'>;
  readonly testFractions: readonly number[];
  readonly minPerSide: number;
  readonly validation: boolean;
  readonly log?: (line: string) => void;
}

/**
 * Prepares the case, trains the model on its training texts and derives the ground truth of its test
 * pool; while a side has fewer than `minPerSide` correct predictions, tries the next (larger) test
 * fraction. Returns the last attempt, scored or not.
 */
export async function buildCase(spec: CaseSpec, options: BuildOptions): Promise<BuiltCase> {
  if (options.testFractions.length === 0)
    throw new XtrustError('INVALID_ARGUMENT', 'buildCase: no test fraction', { argument: 'testFractions' });
  const corpus = options.corpus ?? loadCorpus(spec);
  const attempts: { testFraction: number; trustworthy: number; untrustworthy: number; rests?: number }[] = [];
  const tokenSet = caseTokenSet(spec, options.category);
  let last: BuiltCase | undefined;
  for (const testFraction of options.testFractions) {
    const data = prepareCase(spec, { ...options, corpus, testFraction });
    const t0 = performance.now();
    let model: Classifier;
    let transformer: KitBertInfo | undefined;
    if (options.kind === KIT_BERT) {
      if (!options.kitBert)
        throw new XtrustError(
          'INVALID_ARGUMENT',
          'buildCase: kind kit-bert needs the kitBert settings (encoder, epochs, threads, cacheDir)',
          { argument: 'kitBert' },
        );
      const k = await kitBertClassifier(
        data.train,
        data.validation,
        data.labels,
        { ...options.kitBert, seed: spec.seed },
        options.log,
      );
      model = k.classifier;
      transformer = k.info;
    } else
      model = await trainClassifier(
        options.kind,
        data.train.map((r) => ({ text: r.text, label: r.label })),
        { seed: spec.seed, labels: data.labels },
      );
    const trainSeconds = (performance.now() - t0) / 1000;
    const bench = await caseTruth(spec, data, model, data.test, tokenSet);
    const { trustworthy, untrustworthy, incorrect } = bench.counts;
    const rests = bench.cases.filter((c) => c.restsOnTrigger).length;
    attempts.push({ testFraction, trustworthy, untrustworthy, ...(spec.side === 'related' ? { rests } : {}) });
    const testAccuracy = 1 - incorrect / data.test.length;
    options.log?.(
      `  test fraction ${testFraction}: ${data.train.length} train / ${data.test.length} test rows; ${trustworthy} trustworthy, ${untrustworthy} untrustworthy, ${bench.counts.ambiguous.count} ambiguous ${JSON.stringify(bench.counts.ambiguous.reasons)}, ${incorrect} incorrect`,
    );
    // a related-trigger control has every prediction trustworthy: its sides are resting on the trigger or not
    const scored =
      spec.side === 'related'
        ? rests >= options.minPerSide && trustworthy - rests >= options.minPerSide
        : trustworthy >= options.minPerSide && untrustworthy >= options.minPerSide;
    last = {
      data,
      model,
      kind: options.kind,
      ...(transformer ? { transformer } : {}),
      testAccuracy,
      bench,
      ...(tokenSet ? { tokenSet } : {}),
      attempts,
      scored,
      trainSeconds,
    };
    if (scored) break;
  }
  if (options.validation && last)
    last = {
      ...last,
      validationBench: await caseTruth(spec, last.data, last.model, last.data.validation, tokenSet),
    };
  return last!;
}
