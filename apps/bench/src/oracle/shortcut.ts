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
 * The default family (family.ts), or one variant:
 *   --corpus brown|sotu|spam|headers  --trigger WORD|"TWO WORDS"  --target CLASS  --classes A,B,…
 *   --share S  --words N|all  --seed N     (--only 1,3,… picks cases of the default family)
 * Settings: --model bow-logistic|bow-mlp|embedding-mlp|kit-bert  --encoder DIR  --epochs 3  --model-threads 1
 *   (kit-bert: the model kit's BERT encoder fine-tuned per case by models/transformers/finetune.py with
 *   /usr/bin/python3, cached under --cache DIR/kit-bert or apps/bench/results/kit-bert-cache; see kit-bert.ts)
 *   --explainers lime[,omis,grad]  --oracle toki,toki-paper (@xtrust/oracle's
 *   ORACLES)  --embeddings glove[,cf,use]  --train 2000  --samples 5000  --per-side 250
 *   --min-per-side 100  --test-fractions 0.3,0.5  --validation-fraction 0.15  --windows-per-text 3
 *   --resamples 1000  --validation  --cache DIR (explanations, per case)  --out results.json
 *   --from results.json (print the tables of a finished or partial run)  --write-section (with --from:
 *   store it as BENCHMARKS.md's table3 section — table3-transformer for a kit-bert run — and rewrite
 *   BENCHMARKS.md)  --note TEXT (with --write-section: a paragraph of observations added to the section)
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backendInfo } from '@xtrust/native';
import { GloveEmbedding } from '@xtrust/embeddings';
import { buildCase, loadCorpus } from './case-data.js';
import { corpusVocabulary } from '@xtrust/datasets';
import { drawCase, familySeed, type CorpusLookup } from './family-draw.js';
import type { CaseSpec, CorpusName } from './family.js';
import { evaluateCase, type CaseResult } from './evaluate-case.js';
import { caseName } from './family.js';
import { kitBertSettings, parseShortcutArgs, type ShortcutOptions } from './family-options.js';
import { caseMarkdown, familyMarkdown, sideBySideTable, transformerSettings, transformerTable } from './family-report.js';
import { KIT_BERT, shownPath } from './kit-bert.js';
import { oracleSetups } from './oracle-setups.js';
import { machineInfo, type MachineInfo } from '../machine.js';
import { saveSection, writeBenchmarks } from '../report.js';
import { BENCHMARKS } from '../index.js';

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

function writeResults(path: string, r: FamilyResults): void {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(`${path}.${process.pid}.tmp`, `${JSON.stringify(r, null, 1)}\n`);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** The bag-of-words family run of the table3 section, shown beside a transformer run's cases. */
const BOW_RESULTS = join(ROOT, 'apps/bench/results/oracle-family.json');

/**
 * BENCHMARKS.md's place of the transformer section: right after the stored table3 section (whose order is its registry
 * position when it was last run, which later registry entries may have shifted), else its own registry position.
 */
function besideTable3(entry: (typeof BENCHMARKS)[number]): number {
  const stored = join(ROOT, 'apps/bench/results/sections/table3.json');
  return existsSync(stored) ? (JSON.parse(readFileSync(stored, 'utf8')) as { order: number }).order + 0.25 : BENCHMARKS.indexOf(entry);
}

/** BENCHMARKS.md's table3 section (table3-transformer for a kit-bert run) from a results file (the same formatter as a live run). */
function writeSection(r: FamilyResults, file: string, note?: string): void {
  // wall time of the run (data, training, ground truth, explaining, scoring); the evaluation time of the cases when it was cut short
  const seconds = r.finishedAt ? (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000 : r.cases.reduce((a, c) => a + c.seconds, 0);
  const partial = r.finishedAt ? '' : ' (run stopped before the end: the cases listed are those it finished)';
  const made = r.cases.reduce((a, c) => a + (c.explanations?.made ?? 0), 0);
  const reused = r.cases.reduce((a, c) => a + (c.explanations?.reused ?? 0), 0);
  const cache = made === 0 && reused > 0 ? ` Every LIME explanation (${reused.toLocaleString('en-US')} asked for) came from the --cache folder, made by an earlier run of the same command (about 12 min more): the time above is data, training, ground truth, keyword identification, labelling and scoring.` : '';
  const transformer = r.options.model === KIT_BERT;
  const entry = BENCHMARKS.find((b) => b.name === (transformer ? 'table3-transformer' : 'table3'))!;
  const head = `Written from ${file}${partial} by \`node apps/bench/dist/oracle/shortcut.js --from ${file} --write-section\`. The machine was shared with other engineers' jobs during the run (load average above): times are indicative only.${cache}`;
  const transformerHead = transformer
    ? [
        head,
        transformerSettings(r.options),
        ...(note ? [note] : []),
        `#### The transformer per case\n\n${transformerTable(r.cases)}`,
        ...(existsSync(BOW_RESULTS)
          ? [`#### Beside the bag-of-words model on the same cases\n\nThe bag-of-words rows are the table3 section's (${shownPath(BOW_RESULTS)}, its own settings: the model, the sizes and hence the sampled predictions differ; the ground truth is the same definition on the same test pools).\n\n${sideBySideTable(r, JSON.parse(readFileSync(BOW_RESULTS, 'utf8')) as FamilyResults)}`]
          : []),
      ].join('\n\n')
    : undefined;
  saveSection(join(ROOT, 'apps/bench/results/sections'), {
    name: entry.name,
    title: entry.title,
    description: entry.description,
    command: `pnpm turbo run build --filter=@xtrust/bench && nice -n ${transformer ? 19 : 10} node apps/bench/dist/oracle/shortcut.js ${r.argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`,
    date: r.startedAt,
    seconds,
    quick: false,
    machine: r.machine,
    status: 'ok',
    markdown: `${transformerHead ?? `${head}${note ? `\n\n${note}` : ''}`}\n\n${familyMarkdown(r.cases, r.options.minPerSide)}`,
    order: transformer ? besideTable3(entry) : BENCHMARKS.indexOf(entry),
  });
  writeBenchmarks(join(ROOT, 'BENCHMARKS.md'), join(ROOT, 'apps/bench/results/sections'));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const writeSectionFlag = argv.includes('--write-section');
  const noteAt = argv.indexOf('--note');
  if (noteAt >= 0 && (!writeSectionFlag || argv[noteAt + 1] === undefined)) throw new Error('--note TEXT goes with --from FILE --write-section');
  const note = noteAt >= 0 ? argv[noteAt + 1] : undefined;
  const options = parseShortcutArgs(argv.filter((a, i) => a !== '--write-section' && (noteAt < 0 || (i !== noteAt && i !== noteAt + 1))));
  if (options.from) {
    const r = JSON.parse(readFileSync(options.from, 'utf8')) as FamilyResults;
    if (r.options.model === KIT_BERT) console.log(`${transformerTable(r.cases)}\n`);
    console.log(familyMarkdown(r.cases, r.options.minPerSide));
    if (writeSectionFlag) writeSection(r, options.from, note);
    return;
  }
  const info = backendInfo();
  log(`kernels: ${info.backend} (${info.threads} threads${info.simd ? `, ${info.simd}` : ''}); ${options.cases.length} case(s); model ${options.model}; oracles ${options.oracles.join(', ')}; explainers ${options.explainers.join(', ')}`);
  const kitBert = options.model === KIT_BERT ? kitBertSettings(options) : undefined;
  const setups = oracleSetups(options.oracles, { embeddings: options.embeddings });
  const results: FamilyResults = { argv, options, startedAt: new Date().toISOString(), machine: machineInfo(), cases: [] };
  if (options.out && existsSync(options.out)) log(`${options.out} exists: it will be overwritten`);
  let scored = 0;
  /** The listed cases, or a drawn family's: `count` draws, then more while fewer than `untilScored` are scored. */
  async function* casesToRun(o: ShortcutOptions): AsyncGenerator<[number, CaseSpec]> {
    if (!o.draw) {
      yield* o.cases.entries();
      return;
    }
    const glove = await GloveEmbedding.load();
    const corpora = new Map<CorpusName, ReturnType<CorpusLookup>>();
    const lookup: CorpusLookup = (corpus) => {
      let c = corpora.get(corpus);
      if (!c) {
        const rows = loadCorpus({ corpus });
        c = { corpus: rows, vocabulary: corpusVocabulary(rows.rows) };
        corpora.set(corpus, c);
      }
      return c;
    };
    const d = o.draw;
    for (let i = d.first; i < 1000 && (i < d.first + d.count || scored < d.untilScored); i++) {
      yield [i - d.first, drawCase(familySeed(d.family, i), lookup, glove, d.band)];
    }
  }
  for await (const [i, spec] of casesToRun(options)) {
    log(`case ${i + 1}${options.draw ? '' : `/${options.cases.length}`}: ${caseName(spec)}`);
    const built = await buildCase(spec, { kind: options.model, ...(kitBert ? { kitBert } : {}), testFractions: options.testFractions, validationFraction: options.validationFraction, windowsPerText: options.windowsPerText, minPerSide: options.minPerSide, validation: options.validation, log });
    const result = await evaluateCase(built, setups, { explainers: options.explainers, samples: options.samples, train: options.train, perSide: options.perSide, resamples: options.resamples, cacheDir: options.cacheDir, log });
    results.cases.push(result);
    scored += result.status === 'scored' ? 1 : 0;
    if (options.out) writeResults(options.out, results);
    console.log(`${caseMarkdown(result, i + 1, options.minPerSide)}\n`);
    log(`case ${i + 1} ${result.status} in ${result.seconds.toFixed(0)} s`);
  }
  results.finishedAt = new Date().toISOString();
  if (options.out) writeResults(options.out, results);
  if (options.model === KIT_BERT) console.log(transformerTable(results.cases));
  if (options.cases.length > 1) console.log(familyMarkdown(results.cases, options.minPerSide).split('\n### Case')[0]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
