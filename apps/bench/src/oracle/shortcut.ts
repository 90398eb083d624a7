/**
 * The shortcut benchmark family (issue 14; Table 3 of the TOKI paper, 000_6d314fe57d39eb4c.txt §6):
 * for each case, plant a class-unrelated trigger (a word or a phrase) in a share of one class's
 * training texts (or keep SpamAssassin's headers, a natural shortcut), train a built-in model, derive
 * the ground truth of its correct test predictions by intervention on both sides (@xtrust/datasets
 * buildShortcutBenchmark), then score the oracle configurations, TOKI –K.I and Naive, with bootstrap
 * intervals. A case with fewer than 100 trustworthy or untrustworthy predictions is reported too small.
 *
 *   pnpm turbo run build --filter=@xtrust/bench && node apps/bench/dist/oracle/shortcut.js [options]
 *
 * The options (parsed by family-options.ts's parseShortcutArgs) are listed in USAGE below, or by --help.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backendInfo } from '@xtrust/native';
import { GloveEmbedding } from '@xtrust/embeddings';
import { buildCase } from './case-data.js';
import { BANDS, tokenCategory } from '@xtrust/datasets';
import { BUILTIN_KINDS } from '@xtrust/models';
import {
  corpusLookup,
  drawCase,
  drawNaturalCase,
  familySeed,
  isNaturalFamily,
  NATURAL_FAMILIES,
} from './family-draw.js';
import { naturalErrorsTable, naturalHeadline, naturalTable } from './natural-report.js';
import type { CaseSpec } from './family.js';
import { evaluateCase, type CaseResult } from './evaluate-case.js';
import { caseName } from './family.js';
import { kitBertSettings, leadOracle, parseShortcutArgs, type ShortcutOptions } from './family-options.js';
import {
  caseMarkdown,
  compactCase,
  drawnHeadline,
  familyMarkdown,
  sideBySideTable,
  transformerSettings,
  transformerTable,
} from './family-report.js';
import { DeferredFineTune, KIT_BERT, shownPath } from './kit-bert.js';
import { oracleSetups } from './oracle-setups.js';
import { machineInfo, type MachineInfo } from '../harness/machine.js';
import { saveSection, writeBenchmarks } from '../report.js';
import { orderAfter, readJson, writeJsonAtomic } from '../harness/index.js';
import { BENCHMARKS } from '../index.js';
import { defineScript, parseOrExit, runScript } from '../harness/index.js';

/** The --help text; every option parseShortcutArgs accepts. */
const USAGE = `usage: node apps/bench/dist/oracle/shortcut.js [options]

The shortcut benchmark family (Table 3 of the TOKI paper): per case, plant a class-unrelated trigger in a
share of one class's training texts (or keep SpamAssassin's headers), train a model, derive the ground
truth of its correct test predictions by intervention, then score the oracle configurations, TOKI –K.I
and Naive with bootstrap intervals. Runs the default family (family.ts), one variant, or a drawn family.

options:
 which cases (default: the default family):
  --only 1,3,…                   cases of the default family
  --corpus brown|sotu|spam|headers
                                 one variant on this corpus (default: brown)
  --trigger WORD|"TWO WORDS"     the planted trigger (default: papaya; none for headers)
  --target CLASS                 the class whose texts carry the trigger (default: the first class)
  --classes A,B,…                the classes kept (default: the corpus's)
  --share S                      share of the target's training texts with the trigger, in (0, 1] (default: 1)
  --words N|all                  texts cut into N-word windows, or whole (default: 40)
  --seed N                       seed of every case (default: 1)
  --family validation|test|smoke|phrase-validation|phrase-test|scattered-validation|scattered-test|
           category-validation|category-test
                                 validation|test: a drawn family (family-draw.ts); smoke: the default family;
                                 phrase-*, scattered-*, category-*: issue 48's natural-shortcut families
                                 (boilerplate phrases, scattered word sets, categories on unplanted models)
  --draws N                      drawn family: draws to make (default: 20)
  --first N                      drawn family: index of the first draw (default: 0)
  --until-scored N               drawn family: keep drawing until N cases are scored
  --trigger-band ${BANDS.join('|')}
                                 drawn family: every trigger from this frequency band
 model and oracle:
  --model ${[...BUILTIN_KINDS, KIT_BERT].join('|')}
                                 the model trained per case (default: bow-logistic)
  --encoder DIR                  kit-bert: the masked-LM folder fine-tuned (default: the committed tiny-bert-mlm)
  --epochs N                     kit-bert: fine-tuning epochs (default: 3)
  --model-threads N              kit-bert: torch and onnxruntime threads (default: 1)
  --finetune-device cuda         kit-bert: fine-tune on a lent GPU machine instead of here (part of the
                                 cache key); a folder missing from the cache is queued, not trained:
  --finetune-queue FILE          kit-bert with --finetune-device: the queue file; its cases are deferred
                                 (run node apps/bench/dist/oracle/kit-bert-queue.js, then this again)
                                 (kit-bert: fine-tuned per case by models/transformers/finetune.py with
                                 /usr/bin/python3, cached under --cache DIR/kit-bert or
                                 apps/bench/results/kit-bert-cache; see kit-bert.ts)
  --explainers lime[,omis,grad]  explainers (default: lime)
  --oracle A,B                   oracle configurations, @xtrust/oracle's ORACLES (default: toki,toki-paper; also --oracles)
  --embeddings glove[,cf,use]    embeddings of the paper-faithful configuration (default: glove)
 sizes:
  --train N                      training texts sampled for keyword identification (default: 2000)
  --samples N                    LIME samples per explanation (default: 5000)
  --per-side N                   at most N predictions per side explained and scored (default: 250)
  --min-per-side N               a case is scored with at least N per side (default: 100)
  --test-fractions 0.3,0.5       test fractions tried in turn until a case reaches --min-per-side (default: 0.3,0.5)
  --validation-fraction F        validation share (default: 0.15)
  --windows-per-text N           at most N windows per source text (default: 3)
  --resamples N                  bootstrap resamples (default: 1000)
  --validation                   also build and explain the validation split
 files:
  --cache DIR                    explanations, per case (reused across runs)
  --out FILE                     JSON results, rewritten after every case
  --from FILE                    print the tables of a finished or partial run instead of running
  --write-section                with --from: store it as BENCHMARKS.md's table3 section (table3-transformer
                                 for a kit-bert run) and rewrite BENCHMARKS.md
  --note TEXT                    with --write-section: a paragraph of observations added to the section
  -h, --help                     print this help and exit
`;

/** The JSON results file, rewritten after every case (a killed run keeps the cases it finished). */
export interface FamilyResults {
  readonly argv: readonly string[];
  readonly options: ShortcutOptions;
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly cases: CaseResult[];
  finishedAt?: string;
}

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/** A run's results, written atomically; gzipped when the name ends in `.gz` (the committed compact copies). */
function writeResults(path: string, r: FamilyResults, compact = false): void {
  writeJsonAtomic(resolve(path), r, compact ? undefined : 1);
}

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** The bag-of-words family run of the table3 section, shown beside a transformer run's cases. */
const BOW_RESULTS = join(ROOT, 'apps/bench/results/oracle-family.json.gz');
/** Layers × hidden of the committed masked-LM fixture: a kit-bert run on any other encoder is the full-size section's. */
const FIXTURE_SIZE = '2 × 128';
/** Where the natural-shortcut sections go, after the drawn families' (issue 48). */
const NATURAL_ORDER = NATURAL_FAMILIES;

/**
 * The bag-of-words run of the same cases, shown beside a transformer run's: the drawn family's own section
 * (the same seeds draw the same cases) for a drawn run, the table3 section's for the hand-written family;
 * nothing when they share no case.
 */
function bagOfWordsBeside(r: FamilyResults, family: 'test' | 'validation' | undefined): string[] {
  // the compact copy each drawn family's section is rendered from (writeSection's compactFile)
  const [file, section] = family
    ? [
        join(ROOT, `apps/bench/results/oracle-drawn-${family}.json.gz`),
        family === 'test' ? 'oracle-drawn' : 'oracle-drawn-validation',
      ]
    : [BOW_RESULTS, 'table3'];
  if (!existsSync(file)) return [];
  const bow = readJson<FamilyResults>(file);
  if (!r.cases.some((c) => bow.cases.some((b) => b.name === c.name))) return [];
  return [
    `#### Beside the bag-of-words model on the same cases\n\nThe bag-of-words rows are the ${section} section's (${shownPath(file)}, its own settings: the model, the sizes and hence the sampled predictions differ; the ground truth is the same definition on the same test pools).\n\n${sideBySideTable(r, bow)}`,
  ];
}

/** BENCHMARKS.md's table3 section (table3-transformer for a kit-bert run) from a results file (the same formatter as a live run). */
function writeSection(r: FamilyResults, file: string, note?: string): void {
  // wall time of the run (data, training, ground truth, explaining, scoring); the evaluation time of the cases when it was cut short
  const seconds = r.finishedAt
    ? (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000
    : r.cases.reduce((a, c) => a + c.seconds, 0);
  const partial = r.finishedAt ? '' : ' (run stopped before the end: the cases listed are those it finished)';
  const made = r.cases.reduce((a, c) => a + (c.explanations?.made ?? 0), 0);
  const reused = r.cases.reduce((a, c) => a + (c.explanations?.reused ?? 0), 0);
  const cache =
    made === 0 && reused > 0
      ? ` Every LIME explanation (${reused.toLocaleString('en-US')} asked for) came from the --cache folder, made by an earlier run of the same command (about 12 min more): the time above is data, training, ground truth, keyword identification, labelling and scoring.`
      : '';
  const transformer = r.options.model === KIT_BERT;
  const drawn = r.options.draw?.family;
  // issue 48's natural-shortcut families have sections of their own (natural-<family>)
  const natural = drawn && isNaturalFamily(drawn) ? drawn : undefined;
  const family = natural ? undefined : (drawn as 'test' | 'validation' | undefined);
  // a drawn family's section is rendered from a compact copy committed beside the sections (the run's own file is regenerated)
  // per case the validation page details the default only (it compares eleven configurations in its family tables)
  // the default as the run names it: the CLI's (`toki+cat+ud`) when the run has it, else an earlier default (older and transformer runs)
  const lead = leadOracle(r.options.oracles) ?? 'toki';
  const DETAIL = family === 'validation' ? [lead] : [lead, 'toki-paper'];
  // the full-size encoder's run has its own section beside the fixture encoder's quick variant
  const sizes = [...new Set(r.cases.flatMap((c) => (c.transformer ? [c.transformer.size] : [])))];
  const fullSize = transformer && sizes.length > 0 && !sizes.includes(FIXTURE_SIZE);
  const transformerName = fullSize ? 'transformer-full' : 'transformer';
  if (natural) {
    const compactFile = join(ROOT, `apps/bench/results/natural-${natural}.json.gz`);
    r = { ...r, cases: r.cases.map((c) => compactCase(c, r.options.oracles.slice(0, 1))) };
    writeResults(compactFile, r, true);
    file = shownPath(compactFile);
  }
  if (family) {
    // gzipped: a family's per-case figures compress tenfold, and git keeps apps/bench/results under 2 MB
    const compactFile = join(ROOT, `apps/bench/results/oracle-drawn-${transformer ? transformerName : family}.json.gz`);
    r = { ...r, cases: r.cases.map((c) => compactCase(c, DETAIL)) };
    writeResults(compactFile, r, true);
    file = shownPath(compactFile);
  }
  const name = natural
    ? `natural-${natural}`
    : family && transformer
      ? `oracle-drawn-${transformerName}`
      : family === 'test'
        ? 'oracle-drawn'
        : family === 'validation'
          ? 'oracle-drawn-validation'
          : transformer
            ? 'table3-transformer'
            : 'table3';
  const entry = BENCHMARKS.find((b) => b.name === name)!;
  const head = `Written from ${file}${partial} by \`node apps/bench/dist/oracle/shortcut.js --from ${file} --write-section\`. The machine was shared with other engineers' jobs during the run (load average above): times are indicative only.${cache}`;
  const transformerHead = transformer
    ? [
        head,
        transformerSettings(r.options),
        ...(note ? [note] : []),
        `#### The transformer per case\n\n${transformerTable(r.cases)}`,
        ...bagOfWordsBeside(r, family),
      ].join('\n\n')
    : undefined;
  saveSection(join(ROOT, 'apps/bench/results/sections'), {
    name: entry.name,
    title: entry.title,
    description: entry.description,
    area: entry.area,
    ...(typeof entry.regenerated === 'string' ? { regenerated: entry.regenerated } : {}),
    command: `pnpm turbo run build --filter=@xtrust/bench && nice -n ${transformer ? 19 : 10} node apps/bench/dist/oracle/shortcut.js ${r.argv
      .map((a) => (isAbsolute(a) ? shownPath(a) : a))
      .map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))
      .join(' ')}`,
    date: r.startedAt,
    seconds,
    quick: false,
    machine: r.machine,
    status: 'ok',
    markdown: `${transformerHead ?? `${head}${note ? `\n\n${note}` : ''}`}\n\n${
      natural
        ? // per case: the bar table (every configuration with its interval); the family tables without the case-by-case pages (git keeps the results small)
          `${[naturalTable(r.cases, r.options.oracles), naturalErrorsTable(r.cases, lead)].filter(Boolean).join('\n\n')}\n\n${familyMarkdown(r.cases, r.options.minPerSide).split('\n### Case')[0]}`
        : family === 'validation' && !transformer
          ? // the selection family: its case table and summaries; each case's page is printed by --from (git keeps the results small)
            `${familyMarkdown(r.cases, r.options.minPerSide).split('\n### Case')[0]}\n\nEach case's ground truth, Table 3 and keyword report: \`node apps/bench/dist/oracle/shortcut.js --from ${file}\`.`
          : familyMarkdown(r.cases, r.options.minPerSide, family ? DETAIL : undefined)
    }`,
    // beside the table3 section (whose order is its registry position when last run): the transformer run, then the drawn families
    order: orderAfter(
      join(ROOT, 'apps/bench/results/sections'),
      'table3',
      natural
        ? 0.4 + NATURAL_ORDER.indexOf(natural) * 0.01
        : family && transformer
          ? fullSize
            ? 0.39
            : 0.38
          : family === 'test'
            ? 0.3
            : family === 'validation'
              ? 0.35
              : transformer
                ? 0.25
                : 0,
      BENCHMARKS.indexOf(entry),
    ),
    // a drawn family's headline is computed from its results; the hand-written family's is kept as written
    ...(natural ? { headline: naturalHeadline(r.cases, natural, r.startedAt, r.options.oracles) } : {}),
    ...(family
      ? { headline: drawnHeadline(r.cases, family, r.startedAt, transformer ? sizes.join(', ') : undefined) }
      : {}),
  });
  writeBenchmarks(join(ROOT, 'BENCHMARKS.md'), join(ROOT, 'apps/bench/results/sections'));
}

async function main(argv: readonly string[], options: ShortcutOptions): Promise<void> {
  if (options.from) {
    const r = readJson<FamilyResults>(options.from);
    if (r.options.model === KIT_BERT) console.log(`${transformerTable(r.cases)}\n`);
    console.log(familyMarkdown(r.cases, r.options.minPerSide));
    if (options.writeSection) writeSection(r, options.from, options.note);
    return;
  }
  const info = backendInfo();
  log(
    `kernels: ${info.backend} (${info.threads} threads${info.simd ? `, ${info.simd}` : ''}); ${options.cases.length} case(s); model ${options.model}; oracles ${options.oracles.join(', ')}; explainers ${options.explainers.join(', ')}`,
  );
  const kitBert = options.model === KIT_BERT ? kitBertSettings(options) : undefined;
  const setups = oracleSetups(options.oracles, { embeddings: options.embeddings });
  const results: FamilyResults = {
    argv,
    options,
    startedAt: new Date().toISOString(),
    machine: machineInfo(),
    cases: [],
  };
  if (options.out && existsSync(options.out)) log(`${options.out} exists: it will be overwritten`);
  let scored = 0;
  let deferred = 0;
  /** The listed cases, or a drawn family's: `count` draws, then more while fewer than `untilScored` are scored. */
  async function* casesToRun(o: ShortcutOptions): AsyncGenerator<[number, CaseSpec]> {
    if (!o.draw) {
      yield* o.cases.entries();
      return;
    }
    const glove = await GloveEmbedding.load();
    const lookup = corpusLookup();
    const d = o.draw;
    // a case deferred to a device's queue may yet score: count it towards --until-scored so enough are queued
    for (let i = d.first; i < 1000 && (i < d.first + d.count || scored + deferred < d.untilScored); i++) {
      const seed = familySeed(d.family, i);
      yield [
        i - d.first,
        isNaturalFamily(d.family) ? drawNaturalCase(seed, lookup, glove) : drawCase(seed, lookup, glove, d.band),
      ];
    }
  }
  for await (const [i, spec] of casesToRun(options)) {
    log(`case ${i + 1}${options.draw ? '' : `/${options.cases.length}`}: ${caseName(spec)}`);
    let built: Awaited<ReturnType<typeof buildCase>>;
    try {
      built = await buildCase(spec, {
        kind: options.model,
        ...(kitBert ? { kitBert } : {}),
        testFractions: options.testFractions,
        validationFraction: options.validationFraction,
        windowsPerText: options.windowsPerText,
        minPerSide: options.minPerSide,
        validation: options.validation,
        category: tokenCategory,
        log,
      });
    } catch (e) {
      if (!(e instanceof DeferredFineTune)) throw e;
      deferred++;
      log(`case ${i + 1} deferred: its fine-tuning ${e.key} is queued in ${e.queue}`);
      continue;
    }
    const result = await evaluateCase(built, setups, {
      explainers: options.explainers,
      samples: options.samples,
      train: options.train,
      perSide: options.perSide,
      resamples: options.resamples,
      cacheDir: options.cacheDir,
      log,
    });
    results.cases.push(result);
    scored += result.status === 'scored' ? 1 : 0;
    if (options.out) writeResults(options.out, results);
    console.log(`${caseMarkdown(result, i + 1, options.minPerSide)}\n`);
    log(`case ${i + 1} ${result.status} in ${result.seconds.toFixed(0)} s`);
  }
  if (deferred > 0)
    log(
      `${deferred} case(s) deferred: their fine-tunings are queued in ${options.finetuneQueue} (node apps/bench/dist/oracle/kit-bert-queue.js pack, the device, unpack; then run this command again)`,
    );
  results.finishedAt = new Date().toISOString();
  if (options.out) writeResults(options.out, results);
  if (options.model === KIT_BERT) console.log(transformerTable(results.cases));
  if (options.cases.length > 1) console.log(familyMarkdown(results.cases, options.minPerSide).split('\n### Case')[0]);
}

const argv = process.argv.slice(2);
const options = parseOrExit(parseShortcutArgs, argv, USAGE);
// the command line is parsed above; runScript (with no options of its own) reports what main throws: one line, exit 1 (the stack with XTRUST_DEBUG)
await runScript(
  defineScript({ usage: 'node apps/bench/dist/oracle/shortcut.js [options]', options: {} }),
  () => main(argv, options),
  [],
);
