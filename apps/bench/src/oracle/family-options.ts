/**
 * Command-line options of the shortcut benchmark (apps/bench/dist/oracle/shortcut.js): either the
 * default family, or one variant built from --corpus/--trigger/--target/--classes/--share/--words.
 */
import { resolve } from 'node:path';
import { XtrustError } from '@xtrust/core';
import { BUILTIN_KINDS } from '@xtrust/models';
import type { ModelKind } from './case-data.js';
import { DEFAULT_ENCODER, DEFAULT_KIT_CACHE, KIT_BERT, type KitBertSettings } from './kit-bert.js';
import { CORPORA, DEFAULT_CLASSES, DEFAULT_FAMILY, type CaseSpec, type CorpusName } from './family.js';
import { BANDS, type Band } from '@xtrust/datasets';
import { FAMILY_SIZE, NATURAL_FAMILIES, type FamilyName } from './family-draw.js';

/** A drawn family to run (family-draw.ts): its draws from index `first`, `count` of them or until `untilScored` cases are scored. */
export interface DrawRequest {
  readonly family: FamilyName;
  readonly first: number;
  /** Draws to make (indices first … first + count − 1). */
  readonly count: number;
  /** Keep drawing (beyond `count`) until this many cases are scored; 0: just `count` draws. */
  readonly untilScored: number;
  /** Every draw takes its trigger from this band instead of the drawn one. */
  readonly band?: Band;
}

export interface ShortcutOptions {
  /** The cases to run, in order. */
  readonly cases: readonly CaseSpec[];
  /** Whether the cases are the default family (or a subset of it by --only). */
  readonly family: boolean;
  /** A drawn family (--family validation|test): the cases are drawn by shortcut.ts, `cases` is empty. */
  readonly draw?: DrawRequest;
  /** A built-in bag-of-words kind, or kit-bert (the model kit's BERT fine-tuned per case, kit-bert.ts). */
  readonly model: ModelKind;
  /** kit-bert: the masked-LM folder whose encoder is fine-tuned (default: the committed tiny-bert-mlm fixture). */
  readonly encoder?: string;
  /** kit-bert: the torch device of the fine-tuning (kit-bert.ts KitBertSettings.device; default cpu, here). */
  readonly finetuneDevice?: string;
  /** kit-bert with a device other than cpu: the queue file the missing fine-tunings are written to. */
  readonly finetuneQueue?: string;
  /** kit-bert: fine-tuning epochs (the one with the best validation accuracy is kept). */
  readonly epochs: number;
  /** kit-bert: torch threads of the fine-tuning (part of its cache key) and onnxruntime threads of inference. */
  readonly modelThreads: number;
  /** Explainers, by Table 3 suffix: lime, omis, grad. */
  readonly explainers: readonly string[];
  /** Oracle configurations evaluated on the same cached explanations (see oracle-setups.ts). */
  readonly oracles: readonly string[];
  /** Embeddings of the paper-faithful configuration: glove, cf, use. */
  readonly embeddings: readonly string[];
  /** Training texts sampled for keyword identification (§6.4: 2,000). */
  readonly train: number;
  /** LIME samples per explanation. */
  readonly samples: number;
  /** A case is scored only with at least this many trustworthy and untrustworthy correct predictions. */
  readonly minPerSide: number;
  /** At most this many predictions per side are explained and scored (a seeded sample of each side). */
  readonly perSide: number;
  /** Test fractions tried in turn until a case reaches minPerSide on both sides (more test rows each time). */
  readonly testFractions: readonly number[];
  readonly validationFraction: number;
  /** With --words N: at most this many consecutive N-word windows per source text. */
  readonly windowsPerText: number;
  /** Bootstrap resamples for the G-mean intervals. */
  readonly resamples: number;
  /** Also build the validation split's ground truth and explain it (for configuration selection). */
  readonly validation: boolean;
  /** JSON results, rewritten after every case. */
  readonly out?: string;
  /** Folder of per-case explanation caches (reused across runs and oracle configurations). */
  readonly cacheDir?: string;
  /** Print the family tables from a results file instead of running. */
  readonly from?: string;
  /** With --from: store the tables as BENCHMARKS.md's table3 section (table3-transformer for a kit-bert run) and rewrite BENCHMARKS.md. */
  readonly writeSection: boolean;
  /** With --write-section: a paragraph of observations added to the section. */
  readonly note?: string;
}

const bad = (option: string, expected: string, got: string | undefined) =>
  new XtrustError(
    'INVALID_ARGUMENT',
    `${option}: expected ${expected}, got ${got === undefined ? 'nothing' : JSON.stringify(got)}`,
    { argument: option },
  );

function number(option: string, v: string | undefined, check: (x: number) => boolean, expected: string): number {
  const x = Number(v);
  if (v === undefined || v.trim() === '' || !Number.isFinite(x) || !check(x)) throw bad(option, expected, v);
  return x;
}

const positiveInt = (o: string, v: string | undefined) =>
  number(o, v, (x) => Number.isInteger(x) && x > 0, 'a positive integer');

/** --words: a positive integer or 'all'. */
export function wordsArg(v: string | undefined): number | 'all' {
  if (v === 'all') return 'all';
  return positiveInt('--words', v);
}

/** Parses the benchmark's arguments; every choice of a case is an option. */
export function parseShortcutArgs(argv: readonly string[]): ShortcutOptions {
  const variant: {
    corpus?: CorpusName;
    trigger?: string;
    target?: string;
    classes?: string[];
    share?: number;
    words?: number | 'all';
  } = {};
  let seed = 1;
  let only: number[] | undefined;
  let familyName: FamilyName | 'smoke' | undefined;
  let draws = 20;
  let first = 0;
  let untilScored = 0;
  let band: Band | undefined;
  const o = {
    model: 'bow-logistic' as ModelKind,
    encoder: undefined as string | undefined,
    finetuneDevice: undefined as string | undefined,
    finetuneQueue: undefined as string | undefined,
    epochs: 3,
    modelThreads: 1,
    explainers: ['lime'],
    oracles: ['toki', 'toki-paper'],
    embeddings: ['glove'],
    train: 2000,
    samples: 5000,
    minPerSide: 100,
    perSide: 250,
    testFractions: [0.3, 0.5],
    validationFraction: 0.15,
    windowsPerText: 3,
    resamples: 1000,
    validation: false,
    out: undefined as string | undefined,
    cacheDir: undefined as string | undefined,
    from: undefined as string | undefined,
    writeSection: false,
    note: undefined as string | undefined,
  };
  /** The options given (keys only, never their values). */
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    given.add(k);
    const v = () => argv[++i];
    const list = () => {
      const x = v();
      if (x === undefined || x.trim() === '') throw bad(k, 'a comma-separated list', x);
      return x.split(',').map((s) => s.trim());
    };
    if (k === '--corpus') {
      const x = v();
      if (!(CORPORA as readonly string[]).includes(x ?? '')) throw bad(k, CORPORA.join(' | '), x);
      variant.corpus = x as CorpusName;
    } else if (k === '--trigger') {
      const x = v();
      if (x === undefined || x.trim() === '') throw bad(k, 'a word or a phrase', x);
      variant.trigger = x;
    } else if (k === '--target') variant.target = v();
    else if (k === '--classes') variant.classes = list();
    else if (k === '--share') variant.share = number(k, v(), (x) => x > 0 && x <= 1, 'a share in (0, 1]');
    else if (k === '--words') variant.words = wordsArg(v());
    else if (k === '--seed') seed = number(k, v(), Number.isInteger, 'an integer');
    else if (k === '--only')
      only = list().map((x) =>
        number(
          k,
          x,
          (n) => Number.isInteger(n) && n >= 1 && n <= DEFAULT_FAMILY.length,
          `case numbers 1–${DEFAULT_FAMILY.length}`,
        ),
      );
    else if (k === '--family') {
      const x = v();
      const names: readonly string[] = ['validation', 'test', ...NATURAL_FAMILIES, 'smoke'];
      if (!names.includes(x ?? '')) throw bad(k, names.join(' | '), x);
      familyName = x as FamilyName | 'smoke';
    } else if (k === '--draws')
      draws = number(k, v(), (n) => Number.isInteger(n) && n > 0 && n <= FAMILY_SIZE, `a count in 1–${FAMILY_SIZE}`);
    else if (k === '--first')
      first = number(
        k,
        v(),
        (n) => Number.isInteger(n) && n >= 0 && n < FAMILY_SIZE,
        `an index in 0–${FAMILY_SIZE - 1}`,
      );
    else if (k === '--until-scored') untilScored = positiveInt(k, v());
    else if (k === '--trigger-band') {
      const x = v();
      if (!(BANDS as readonly string[]).includes(x ?? '')) throw bad(k, BANDS.join(' | '), x);
      band = x as Band;
    } else if (k === '--model') {
      const x = v();
      const kinds: readonly string[] = [...BUILTIN_KINDS, KIT_BERT];
      if (!kinds.includes(x ?? '')) throw bad(k, kinds.join(' | '), x);
      o.model = x as ModelKind;
    } else if (k === '--encoder') {
      const x = v();
      if (x === undefined || x.trim() === '') throw bad(k, 'a kit masked-LM folder', x);
      o.encoder = x;
    } else if (k === '--epochs') o.epochs = positiveInt(k, v());
    else if (k === '--model-threads') o.modelThreads = positiveInt(k, v());
    else if (k === '--explainers') o.explainers = list();
    else if (k === '--oracle' || k === '--oracles') o.oracles = list();
    else if (k === '--embeddings') o.embeddings = list();
    else if (k === '--train') o.train = positiveInt(k, v());
    else if (k === '--samples') o.samples = positiveInt(k, v());
    else if (k === '--min-per-side') o.minPerSide = positiveInt(k, v());
    else if (k === '--per-side') o.perSide = positiveInt(k, v());
    else if (k === '--test-fractions')
      o.testFractions = list().map((x) => number(k, x, (f) => f > 0 && f < 0.85, 'fractions in (0, 0.85)'));
    else if (k === '--validation-fraction')
      o.validationFraction = number(k, v(), (f) => f >= 0 && f < 0.5, 'a fraction in [0, 0.5)');
    else if (k === '--windows-per-text') o.windowsPerText = positiveInt(k, v());
    else if (k === '--resamples') o.resamples = positiveInt(k, v());
    else if (k === '--validation') o.validation = true;
    else if (k === '--out') o.out = v();
    else if (k === '--cache') o.cacheDir = v();
    else if (k === '--finetune-device') {
      const x = v();
      if (x === undefined || !/^(cpu|cuda(:\d+)?)$/.test(x)) throw bad(k, 'a torch device: cpu, cuda or cuda:N', x);
      o.finetuneDevice = x;
    } else if (k === '--finetune-queue') o.finetuneQueue = v();
    else if (k === '--from') o.from = v();
    else if (k === '--write-section') o.writeSection = true;
    else if (k === '--note') {
      const x = v();
      if (x === undefined) throw bad(k, 'a paragraph of text', x);
      o.note = x;
    } else throw new XtrustError('INVALID_ARGUMENT', `unknown option ${k} (try --help)`, { argument: k });
  }
  if (o.note !== undefined && !o.writeSection)
    throw new XtrustError('INVALID_ARGUMENT', '--note TEXT goes with --from FILE --write-section', {
      argument: '--note',
    });
  if (o.writeSection && o.from === undefined)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      '--write-section goes with --from FILE (it writes the section of a finished run)',
      { argument: '--write-section' },
    );
  if (o.perSide < o.minPerSide) throw bad('--per-side', `at least --min-per-side (${o.minPerSide})`, String(o.perSide));
  if (o.model !== KIT_BERT) {
    // fine-tuning settings on a bag-of-words run would be silently ignored
    for (const flag of ['--encoder', '--epochs', '--model-threads', '--finetune-device', '--finetune-queue']) {
      if (given.has(flag))
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `${flag} applies to --model ${KIT_BERT} only (got --model ${o.model})`,
          { argument: flag },
        );
    }
  }
  if (o.finetuneDevice && o.finetuneDevice !== 'cpu' && !o.finetuneQueue)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `--finetune-device ${o.finetuneDevice} needs --finetune-queue FILE: fine-tunings missing from the cache are queued there for that device, not run here`,
      { argument: '--finetune-queue' },
    );
  if (o.finetuneQueue && !(o.finetuneDevice && o.finetuneDevice !== 'cpu'))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      '--finetune-queue goes with --finetune-device cuda (a CPU fine-tuning runs here, unqueued)',
      { argument: '--finetune-queue' },
    );
  const single = Object.keys(variant).length > 0;
  if (familyName && familyName !== 'smoke') {
    if (single || only)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `--family ${familyName} draws its cases: it cannot be combined with --corpus/--trigger/--target/--classes/--share/--words or --only`,
        { argument: '--family' },
      );
    if (first + draws > FAMILY_SIZE)
      throw bad('--draws', `at most ${FAMILY_SIZE - first} from --first ${first}`, String(draws));
    return {
      ...o,
      cases: [],
      family: true,
      draw: { family: familyName, first, count: draws, untilScored, ...(band ? { band } : {}) },
    };
  }
  if (band || given.has('--draws') || given.has('--first') || given.has('--until-scored')) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      '--draws, --first, --until-scored and --trigger-band go with --family validation|test',
      { argument: '--family' },
    );
  }
  if (single && only)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      '--only picks cases of the default family; it cannot be combined with --corpus/--trigger/--target/--classes/--share/--words',
      { argument: '--only' },
    );
  let cases: CaseSpec[];
  if (single) {
    const corpus = variant.corpus ?? 'brown';
    const classes = variant.classes ?? DEFAULT_CLASSES[corpus];
    if (corpus === 'headers' && (variant.trigger || variant.target))
      throw new XtrustError(
        'INVALID_ARGUMENT',
        '--corpus headers has no trigger or target: the header block is the spurious part',
        { argument: '--trigger' },
      );
    const spec: CaseSpec =
      corpus === 'headers'
        ? { corpus, share: 1, words: variant.words ?? 40, seed, ...(variant.classes ? { classes } : {}) }
        : {
            corpus,
            trigger: variant.trigger ?? 'papaya',
            target: variant.target ?? classes?.[0],
            ...(classes ? { classes } : {}),
            share: variant.share ?? 1,
            words: variant.words ?? 40,
            seed,
          };
    cases = [spec];
  } else {
    const picked = only ? only.map((n) => DEFAULT_FAMILY[n - 1]) : DEFAULT_FAMILY;
    cases = picked.map((c) => ({ ...c, seed }));
  }
  return { ...o, cases, family: !single };
}

/** kit-bert's fine-tuning settings of a run: encoder, epochs, threads, and where fine-tuned folders are cached. */
export function kitBertSettings(options: ShortcutOptions): Omit<KitBertSettings, 'seed'> {
  return {
    encoder: resolve(options.encoder ?? DEFAULT_ENCODER),
    epochs: options.epochs,
    threads: options.modelThreads,
    cacheDir: options.cacheDir ? resolve(options.cacheDir, KIT_BERT) : DEFAULT_KIT_CACHE,
    ...(options.finetuneDevice ? { device: options.finetuneDevice } : {}),
    ...(options.finetuneQueue ? { queue: resolve(options.finetuneQueue) } : {}),
  };
}

/**
 * The bench's name for what `xtrust demo` runs on its bundled corpora (the benchmark's corpora): `toki`
 * labelling with every token category of @xtrust/datasets as no reason for any class (issue 48's second
 * round, `--unrelated-categories all`) and each class described by the corpus's built-in description beside
 * its name and WordNet (issue 47's third round, `+ud`). `xtrust audit` on a user's corpus runs `toki+cat`
 * with the user's `--class-descriptions`, if any.
 */
export const CLI_DEFAULT_ORACLE = 'toki+cat+ud';

/** The default a run's tables lead with: the CLI's when the run has it, else the earlier defaults in turn (older runs); undefined when it has none. */
export function leadOracle(names: readonly string[]): string | undefined {
  return [CLI_DEFAULT_ORACLE, 'toki+cat', 'toki'].find((n) => names.includes(n));
}
