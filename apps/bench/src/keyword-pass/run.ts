/**
 * A cheaper keyword pass (issue 30, deliverable 2). An audit explains ~2,000 training texts only to pool
 * their decision words, cluster the pools and keep the clusters related to each class (TOKI §3.1): what
 * do the pools need? Every candidate pass explains the SAME training texts as an exact audit run (read
 * from its run directory), builds a keyword store with the same oracle, and is judged by the audit's
 * outcome, not by per-explanation agreement:
 *   - each class's keyword set K_c against the reference's (Jaccard), the reference being the exact run's
 *     own LIME explanations relabelled with the oracle asked for (so a stored run made under an older
 *     default still serves);
 *   - the labels of the exact run's test predictions (its stored exact LIME explanations) under the
 *     candidate store against the reference store's — the keyword pass's effect on labels alone;
 *   - with `--verdict-passes`, the labels of a whole fast audit: the candidate store, the predictions
 *     explained again with verdict-aware LIME (`--audit-mode fast`'s labelling), against the reference.
 *   - with `--whole`, whole fast audits (keyword-pass/whole-audit.js) timed and labelled against the reference
 *     on the predictions both made; with `--compare-whole A+B`, one audit made two ways (float32 and int8)
 *     compared on what both runs produced (whole-compare.ts).
 * Times are measured here (wall and CPU of this process per pass) and extrapolated to the paper's scale
 * (2,000 + 1,000) from the run's sample sizes.
 *
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/transformer-audit/run.js --model models/transformers/out/bert-spam   (makes the exact run)
 *   node apps/bench/dist/keyword-pass/run.js [--exact DIR] [--passes lime:1000,gradient,…] [--write-section]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Classifier, Explainer, Explanation } from '@xtrust/core';
import { GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { jaccard } from '@xtrust/metrics';
import {
  AttentionExplainer,
  GradientExplainer,
  IntegratedGradientsExplainer,
  LimeExplainer,
  OmissionExplainer,
} from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import {
  calibrateThetaRelate,
  identifyKeywords,
  labelExplanations,
  labelPredictions,
  ORACLES,
  type KeywordStore,
  type TrustLabel,
} from '@xtrust/oracle';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { formatMachine, machineInfo, type MachineInfo } from '../harness/machine.js';
import { median, timed } from '../harness/timing.js';
import { orderAfter, readJson, saveSection, writeJsonAtomic } from '../harness/store.js';
import { writeBenchmarks } from '../harness/render.js';
import type { WholeRecord } from './whole-audit.js';
import { compareOutcomes, readAuditOutcome, type OutcomeComparison } from './whole-compare.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(here, '../../../..');
const SECTIONS = join(ROOT, 'apps/bench/results/sections');
const DEFAULT_EXACT = 'apps/bench/results/transformer-audit/work/exact';
const DEFAULT_OUT = 'apps/bench/results/keyword-pass.json.gz';
const PASS_HELP =
  "lime:N (exact LIME, N samples), adaptive:N (LIME with the tolerance rule — top-10 Jaccard between consecutive fits ≥ 0.8, patience 2 — capped at N), gradient (gradient × input), omission (leave one word out: every occurrence, one batched model call of d + 1 rows per text), integrated-gradients:M (M steps), attention (last layer); a LIME pass may end in @S for seed S (lime:5000@1: exact LIME's own seed-to-seed floor)";

const spec = defineScript({
  usage: 'node apps/bench/dist/keyword-pass/run.js [options]',
  summary:
    "Keyword passes of an audit judged by the audit's outcome: per candidate explainer, the keyword sets (Jaccard per class) and the labels of the exact run's predictions against the exact LIME pass's, with time per text and the paper-scale extrapolation. Markdown on stdout.",
  options: {
    exact: {
      kind: 'string',
      placeholder: 'DIR',
      help: `the exact audit's run directory: keywords.explanations.jsonl, predictions.explanations.jsonl, predictions.jsonl, run.json (default ${DEFAULT_EXACT})`,
    },
    model: {
      kind: 'string',
      placeholder: 'DIR',
      help: "the audited classifier folder (default: the run's, models/transformers/out/bert-spam)",
    },
    passes: {
      kind: 'list',
      default: ['lime:1000', 'adaptive:5000', 'gradient', 'integrated-gradients:20', 'attention'],
      help: `candidate keyword passes: ${PASS_HELP}`,
    },
    'verdict-passes': {
      kind: 'list',
      default: [],
      help: "passes (or 'reference') whose store also labels the predictions with verdict-aware LIME, capped at --samples: a whole fast audit's labels",
    },
    threads: {
      kind: 'integer',
      min: 1,
      help: "onnxruntime intra-op threads (default: onnxruntime's choice; the CLI's default is every core)",
    },
    sessions: {
      kind: 'integer',
      min: 1,
      default: 1,
      help: "onnxruntime sessions scoring batches in parallel (as the CLI's --sessions)",
    },
    oracle: {
      kind: 'string',
      choices: Object.keys(ORACLES),
      default: 'toki',
      help: 'TOKI configuration of every store, the reference included',
    },
    samples: {
      kind: 'integer',
      min: 2,
      default: 5000,
      help: "LIME samples of the verdict-aware labelling's cap (the exact run's)",
    },
    out: {
      kind: 'string',
      placeholder: 'FILE',
      help: `results JSON, rewritten after every pass; a pass already in it is not measured again (default ${DEFAULT_OUT})`,
    },
    fresh: { kind: 'flag', help: 'measure every pass again' },
    whole: {
      kind: 'list',
      default: [],
      help: 'records of whole fast audits (keyword-pass/whole-audit.js --record FILE): their time, and their labels against the reference on the predictions both runs made',
    },
    'compare-whole': {
      kind: 'list',
      default: [],
      help: 'pairs A+B of whole-audit records (keyword-pass/whole-audit.js --record FILE) of one model audited two ways (e.g. float32 and --lime-mode int8): labels on the predictions both runs made and keyword Jaccard per class; a run stopped part-way is compared on what it finished',
    },
    'write-section': {
      kind: 'flag',
      help: 'store the tables as the bench section keyword-pass (apps/bench/results/keyword-pass.md) and rewrite BENCHMARKS.md',
    },
  },
  notes: [
    "The training texts, their order and the seed are the exact run's; only the explainer of the keyword pass differs.",
  ],
});

/** One stored line of a run directory's explanation JSONL. */
interface StoredExplanation {
  readonly key: string;
  readonly explanation: Explanation;
}

/** A measured keyword pass. */
interface PassResult {
  readonly name: string;
  readonly explainer: string;
  readonly texts: number;
  readonly wall: number;
  readonly cpu: number;
  /** Mean LIME samples per text, when the pass is LIME. */
  readonly samplesMean?: number;
  readonly keywords: Record<string, string[]>;
  readonly jaccard: Record<string, number>;
  /** Labels of the exact explanations under this store: equal to the reference's, of the correct predictions. */
  readonly labelsEqual: number;
  readonly labelled: number;
  readonly differs: string[];
  readonly verdict?: VerdictResult;
  /** onnxruntime intra-op threads (null: onnxruntime's choice) and sessions the pass ran with. */
  readonly threads?: number | null;
  readonly sessions?: number;
}

/** A whole fast audit's labelling: verdict-aware LIME with this store. */
interface VerdictResult {
  readonly labelsEqual: number;
  readonly labelled: number;
  readonly samplesMean: number;
  readonly samplesMedian: number;
  readonly wall: number;
  readonly cpu: number;
}

interface Results {
  readonly exact: string;
  readonly model: string;
  readonly oracle: string;
  readonly trainSample: number;
  readonly testSample: number;
  readonly reference: { keywords: Record<string, string[]>; counts: string; verdict?: VerdictResult };
  passes: PassResult[];
  /** Whole `xtrust audit --audit-mode fast` runs at the paper's scale (keyword-pass/whole-audit.js). */
  whole?: WholeResult[];
  /** Pairs of whole-audit runs of one model made two ways (--compare-whole). */
  wholePairs?: WholePair[];
  machine: MachineInfo;
  date: string;
}

/** Two whole-audit runs of one model made two ways, compared on what both produced (whole-compare.ts). */
interface WholePair extends OutcomeComparison {
  readonly a: {
    readonly record: string;
    readonly command: string;
    readonly finished: boolean;
    readonly predictions: number;
  };
  readonly b: {
    readonly record: string;
    readonly command: string;
    readonly finished: boolean;
    readonly predictions: number;
  };
}

/** A whole fast audit (2,000 + 1,000) read from its record and run directory. */
interface WholeResult {
  readonly record: string;
  readonly command: string;
  readonly keywordMethod: string;
  readonly threads: number | null;
  readonly sittings: number;
  readonly wall: number;
  readonly cpu: number;
  readonly machines: string[];
  readonly predictions: number;
  readonly counts: string;
  readonly keywords: Record<string, number>;
  /** Predictions the exact run also made (same text) and judged (not incorrect), and how many the whole run labels alike. */
  readonly shared: number;
  readonly sharedEqual: number;
  readonly differs: string[];
  /** The audit's --model, its held-out accuracy and size (from the folder's training.json / config.json). */
  readonly model: string;
  /** Keyword texts and test predictions this run sampled: below 2,000 + 1,000 it measured a part, and the section extrapolates. */
  readonly trainSample: number;
  readonly testSample: number;
}

function readJsonl(file: string): StoredExplanation[] {
  if (!existsSync(file))
    throw new UsageError(
      `--exact: ${file} is missing (run the transformer-audit bench first, or name an audit's run directory)`,
    );
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as StoredExplanation);
}

/** The explainer a --passes entry names (10 features and seed 0 as the audit, or `@S` for seed S). */
function passExplainer(name: string): Explainer {
  const [body, seedPart] = name.split('@');
  const seed = seedPart === undefined ? 0 : Number(seedPart);
  if (!Number.isInteger(seed) || seed < 0)
    throw new UsageError(`--passes: "${name}": the seed after '@' must be a whole number ≥ 0`);
  const [kind, arg] = body.split(':');
  const n = arg === undefined ? undefined : Number(arg);
  if (arg !== undefined && !(Number.isInteger(n) && n! >= 2))
    throw new UsageError(`--passes: "${name}": the number after ':' must be an integer ≥ 2`);
  switch (kind) {
    case 'lime':
      return new LimeExplainer({ numSamples: n ?? 1000, numFeatures: 10, seed });
    case 'adaptive':
      return new LimeExplainer({
        numSamples: n ?? 5000,
        numFeatures: 10,
        seed,
        adaptive: { patience: 2, minJaccard: 0.8 },
      });
    case 'gradient':
      return new GradientExplainer({});
    case 'omission':
      return new OmissionExplainer({});
    case 'integrated-gradients':
      return new IntegratedGradientsExplainer({ steps: n ?? 20 });
    case 'attention':
      return new AttentionExplainer({});
    default:
      throw new UsageError(`--passes: unknown pass "${name}" (${PASS_HELP})`);
  }
}

/** Answers from stored explanations only: the exact run's pass, replayed. */
class ReplayExplainer implements Explainer {
  readonly name = 'lime';
  constructor(private readonly byText: ReadonlyMap<string, Explanation>) {}
  async explain(_c: Classifier, texts: readonly string[]): Promise<Explanation[]> {
    return texts.map((t) => {
      const e = this.byText.get(t);
      if (!e) throw new Error('replay: a text the exact run did not explain');
      return e;
    });
  }
}

const counts = (ls: readonly TrustLabel[]) =>
  ['trustworthy', 'untrustworthy', 'unknown'].map((v) => ls.filter((l) => l.verdict === v).length).join(' / ');

await runScript(spec, async (o) => {
  o.passes.forEach(passExplainer); // a bad --passes entry is a usage error before anything loads
  const exactDir = resolve(ROOT, o.exact ?? DEFAULT_EXACT);
  const outFile = resolve(ROOT, o.out ?? DEFAULT_OUT);
  const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
  const run = readJson<{
    key: {
      trainSample: number;
      testSample: number;
      classNames: Record<string, string>;
      seed: number;
      limeMode: string;
      samples: number;
    };
  }>(join(exactDir, 'run.json'));
  if (run.key.limeMode !== 'exact')
    throw new UsageError(`--exact ${exactDir}: a ${run.key.limeMode} run; the reference must be an exact one`);
  const model = resolve(ROOT, o.model ?? 'models/transformers/out/bert-spam');
  const classifier = await OnnxClassifier.load(model, {
    ...(o.threads ? { threads: o.threads } : {}),
    sessions: o.sessions,
  }).catch((e: Error) => {
    throw new UsageError(`--model ${model}: ${e.message.split('\n')[0]}`);
  });
  const keywordExpl = readJsonl(join(exactDir, 'keywords.explanations.jsonl')).map((s) => s.explanation);
  const predictionExpl = readJsonl(join(exactDir, 'predictions.explanations.jsonl')).map((s) => s.explanation);
  const predictions = readFileSync(join(exactDir, 'predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { text: string; truth: string });
  const truthOf = new Map(predictions.map((p) => [p.text, p.truth]));
  const trueLabels = predictionExpl.map((e) => truthOf.get(e.text) ?? e.predictedLabel);
  // the keyword pass's texts were predicted correctly: their predicted label is the true one
  const trainTexts = keywordExpl.map((e) => e.text);
  const trainLabels = keywordExpl.map((e) => e.predictedLabel);
  log(`${trainTexts.length} keyword texts, ${predictionExpl.length} predictions from ${exactDir}; model ${model}`);

  const glove = await GloveEmbedding.load();
  const { thetaRelate } = await calibrateThetaRelate(glove, wordnet(), { seed: 0 });
  const oracle = ORACLES[o.oracle];
  const storeFrom = (explainer: Explainer) =>
    identifyKeywords(classifier, trainTexts, trainLabels, {
      explainer,
      embeddings: [glove],
      thetaRelate: { [glove.name]: thetaRelate },
      oracle,
      topK: 10,
      seed: run.key.seed,
      sampleSize: trainTexts.length,
      classNames: run.key.classNames,
    });
  const keywordsOf = (s: KeywordStore) => Object.fromEntries(classifier.labels.map((l) => [l, s.keywords(l).sort()]));
  const labelsOf = (s: KeywordStore) => labelExplanations(s, predictionExpl, { embeddings: [glove], trueLabels });
  const verdictLabels = async (
    s: KeywordStore,
    ref: readonly TrustLabel[] | null,
  ): Promise<{ labels: TrustLabel[]; result: VerdictResult }> => {
    const {
      value: labels,
      wall,
      cpu,
    } = await timed(() =>
      labelPredictions(
        s,
        classifier,
        predictionExpl.map((e) => e.text),
        {
          embeddings: [glove],
          explainer: new LimeExplainer({ numSamples: o.samples, numFeatures: 10, seed: run.key.seed }),
          trueLabels,
          verdictSampling: { confidence: 0.95 },
        },
      ),
    );
    const used = labels.map((l) => l.samples).filter((n): n is number => n !== undefined);
    const judged = ref ? labels.map((_, i) => i).filter((i) => ref[i].verdict !== 'incorrect') : [];
    return {
      labels,
      result: {
        labelsEqual: judged.filter((i) => ref![i].verdict === labels[i].verdict).length,
        labelled: judged.length,
        samplesMean: used.reduce((a, b) => a + b, 0) / Math.max(1, used.length),
        samplesMedian: median(used),
        wall,
        cpu,
      },
    };
  };

  log(`reference: the exact run's LIME explanations, oracle ${o.oracle}`);
  const refStore = await storeFrom(new ReplayExplainer(new Map(keywordExpl.map((e) => [e.text, e]))));
  const refLabels = await labelsOf(refStore);
  const correct = refLabels.map((_, i) => i).filter((i) => refLabels[i].verdict !== 'incorrect');
  const prior = !o.fresh && existsSync(outFile) ? readJson<Results>(outFile) : null;
  const usable = prior && prior.exact === exactDir.replace(`${ROOT}/`, '') && prior.oracle === o.oracle ? prior : null;
  const results: Results = {
    exact: exactDir.replace(`${ROOT}/`, ''),
    model: model.replace(`${ROOT}/`, ''),
    oracle: o.oracle,
    trainSample: run.key.trainSample,
    testSample: run.key.testSample,
    reference: {
      keywords: keywordsOf(refStore),
      counts: counts(refLabels),
      verdict: usable?.reference.verdict,
    },
    passes: usable?.passes ?? [],
    // the machine and day the stored passes were measured on: a run that only re-reads them must not claim them
    machine: usable?.machine ?? machineInfo(),
    date: usable?.date ?? new Date().toISOString().slice(0, 10),
  };
  const measuredHere = () => {
    results.machine = machineInfo();
    results.date = new Date().toISOString().slice(0, 10);
  };
  const save = () => writeJsonAtomic(outFile, results, 1);
  if (o.whole.length > 0) {
    const refByText = new Map(predictionExpl.map((e, i) => [e.text, refLabels[i]]));
    results.whole = o.whole.map((f) => readWhole(resolve(ROOT, f), refByText, model));
    for (const w of results.whole)
      log(
        `whole run ${w.record}: ${(w.wall / 3600).toFixed(3)} h wall, labels equal on ${w.sharedEqual} of ${w.shared} shared predictions`,
      );
    save();
  }
  if (o['compare-whole'].length > 0) {
    results.wholePairs = o['compare-whole'].map(comparePair);
    for (const p of results.wholePairs)
      log(`${p.a.record} vs ${p.b.record}: labels equal on ${p.equal} of ${p.shared} predictions both made`);
    save();
  }
  if (o['verdict-passes'].includes('reference') && !results.reference.verdict) {
    log('reference store: labelling with verdict-aware LIME');
    results.reference.verdict = (await verdictLabels(refStore, refLabels)).result;
    measuredHere();
    save();
  }
  for (const name of o.passes) {
    const explainer = passExplainer(name);
    const stored = results.passes.find((p) => p.name === name);
    if (stored && (stored.verdict || !o['verdict-passes'].includes(name))) {
      log(`${name}: stored`);
      continue;
    }
    log(`${name}: keyword pass over ${trainTexts.length} texts`);
    measuredHere();
    const { value: store, wall, cpu } = await timed(() => storeFrom(explainer));
    const labels = await labelsOf(store);
    const keywords = keywordsOf(store);
    const pass: PassResult = {
      name,
      explainer: explainer.name,
      texts: trainTexts.length,
      wall,
      cpu,
      keywords,
      jaccard: Object.fromEntries(
        classifier.labels.map((l) => [l, jaccard(keywords[l], results.reference.keywords[l])]),
      ),
      labelsEqual: correct.filter((i) => labels[i].verdict === refLabels[i].verdict).length,
      labelled: correct.length,
      differs: correct
        .filter((i) => labels[i].verdict !== refLabels[i].verdict)
        .map((i) => `prediction ${i}: ${refLabels[i].verdict} → ${labels[i].verdict}`),
      threads: o.threads ?? null,
      sessions: o.sessions,
      ...(o['verdict-passes'].includes(name) ? { verdict: (await verdictLabels(store, refLabels)).result } : {}),
    };
    results.passes = [...results.passes.filter((p) => p.name !== name), pass];
    save();
    log(
      `${name}: ${wall.toFixed(1)} s wall, Jaccard ${Object.entries(pass.jaccard)
        .map(([l, j]) => `${l} ${j.toFixed(3)}`)
        .join(', ')}, labels ${pass.labelsEqual}/${pass.labelled}`,
    );
  }
  await classifier.release();
  const markdown = render(results);
  process.stdout.write(`${markdown}\n`);
  if (o['write-section']) {
    const argv = process.argv.slice(2).filter((a) => a !== '--write-section');
    saveSection(SECTIONS, {
      name: 'keyword-pass',
      title: 'A cheaper keyword pass for the audit (issue 30)',
      description:
        "Which explainer the audit's keyword identification needs: each candidate explains the exact audit run's training texts, its keyword store (same oracle) is compared with the exact LIME pass's by the audit's outcome — keyword sets (Jaccard per class) and the labels of the run's predictions — with its time per text extrapolated to the paper's 2,000 + 1,000.",
      command:
        `pnpm turbo run build --filter=@xtrust/bench && node apps/bench/dist/keyword-pass/run.js ${argv.join(' ')}`.trim(),
      script: `keyword-pass/run.js ${argv.join(' ')}`.trim(),
      date: results.date,
      seconds: results.passes.reduce((a, p) => a + p.wall + (p.verdict?.wall ?? 0), 0),
      quick: false,
      machine: results.machine,
      status: 'ok',
      markdown,
      order: orderAfter(SECTIONS, 'transformer-audit', 0.5, 900),
      regenerated: `The exact run directory (${results.exact}, not committed) is made by \`node apps/bench/dist/transformer-audit/run.js --model ${results.model} --fraction 0.1 --samples 5000\`; ${shownOut(outFile)} holds every pass's figures.`,
    });
    writeBenchmarks(join(ROOT, 'BENCHMARKS.md'), SECTIONS);
    log('section keyword-pass written');
  }
});

/** A whole fast audit's record and run directory, its labels compared with the reference's on the predictions both made. */
function readWhole(
  recordFile: string,
  refByText: ReadonlyMap<string, TrustLabel>,
  referenceModel: string,
): WholeResult {
  if (!existsSync(recordFile))
    throw new UsageError(`--whole ${recordFile}: no such record (keyword-pass/whole-audit.js writes it)`);
  const record = readJson<WholeRecord>(recordFile);
  const finished = record.sittings.some((x) => x.finished);
  if (!finished)
    throw new UsageError(
      `--whole ${recordFile}: the run is not finished (${record.sittings.length} sitting(s) so far); rerun keyword-pass/whole-audit.js to continue it`,
    );
  const dir = resolve(ROOT, record.dir);
  const preds = readFileSync(join(dir, 'predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { text: string; verdict: string });
  const store = readJson<{ classes: { label: string; keywords: string[] }[] }>(join(dir, 'keywords.json'));
  // one prediction per text: a test set may hold the same body twice, and both copies get the same label
  const firstByText = new Map<string, { text: string; verdict: string }>();
  for (const p of preds) if (!firstByText.has(p.text)) firstByText.set(p.text, p);
  const auditedModel = resolve(ROOT, argOf(record.args, '--model'));
  // labels compare only between audits of one model: another model's exact labels say nothing about this one's
  const comparable = auditedModel === referenceModel;
  const shared = [...firstByText.values()].filter(
    (p) => comparable && refByText.get(p.text) !== undefined && refByText.get(p.text)!.verdict !== 'incorrect',
  );
  const differs = shared
    .filter((p) => refByText.get(p.text)!.verdict !== p.verdict)
    .map((p) => `${refByText.get(p.text)!.verdict} → ${p.verdict}`);
  return {
    record: shownOut(recordFile),
    command: record.command,
    keywordMethod: record.keywordMethod,
    threads: record.threads,
    sittings: record.sittings.length,
    wall: record.sittings.reduce((a, x) => a + x.wall, 0),
    cpu: record.sittings.reduce((a, x) => a + x.cpu, 0),
    machines: [...new Set(record.sittings.map((x) => x.machine))],
    predictions: preds.length,
    counts: ['trustworthy', 'untrustworthy', 'unknown', 'incorrect']
      .map((v) => preds.filter((p) => p.verdict === v).length)
      .join(' / '),
    keywords: Object.fromEntries(store.classes.map((c) => [c.label, c.keywords.length])),
    shared: shared.length,
    sharedEqual: shared.length - differs.length,
    differs,
    model: describeModel(auditedModel),
    trainSample: Number(argOf(record.args, '--train-sample')),
    testSample: Number(argOf(record.args, '--test-sample')),
  };
}

/** `A+B`: two whole-audit records of one model; B's run compared with A's. */
function comparePair(pair: string): WholePair {
  const files = pair.split('+');
  if (files.length !== 2 || files.some((f) => f === ''))
    throw new UsageError(`--compare-whole: "${pair}" is not two records joined by '+' (A.json+B.json)`);
  const [ra, rb] = files.map((f) => {
    const file = resolve(ROOT, f);
    if (!existsSync(file))
      throw new UsageError(`--compare-whole ${f}: no such record (keyword-pass/whole-audit.js writes it)`);
    return { file, record: readJson<WholeRecord>(file) };
  });
  const modelOf = (r: WholeRecord) => resolve(ROOT, argOf(r.args, '--model'));
  if (modelOf(ra.record) !== modelOf(rb.record))
    throw new UsageError(
      `--compare-whole ${pair}: the runs audit different models (${argOf(ra.record.args, '--model')}, ${argOf(rb.record.args, '--model')})`,
    );
  const oa = readAuditOutcome(resolve(ROOT, ra.record.dir));
  const ob = readAuditOutcome(resolve(ROOT, rb.record.dir));
  const side = (r: { file: string; record: WholeRecord }, o: { predictions: readonly unknown[] }) => ({
    record: shownOut(r.file),
    command: r.record.command,
    finished: r.record.sittings.some((x) => x.finished),
    predictions: o.predictions.length,
  });
  return { a: side(ra, oa), b: side(rb, ob), ...compareOutcomes(oa, ob) };
}

function argOf(args: readonly string[], name: string): string {
  const i = args.indexOf(name);
  if (i < 0 || i + 1 >= args.length) throw new UsageError(`--whole: the recorded command has no ${name}`);
  return args[i + 1];
}

/** "folder (L × H, held-out accuracy A)" from a kit classifier folder's config.json and training.json. */
function describeModel(dir: string): string {
  const read = (f: string) =>
    existsSync(join(dir, f)) ? (JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>) : {};
  const config = read('config.json');
  const training = read('training.json');
  const size =
    config.num_hidden_layers && config.hidden_size
      ? `${String(config.num_hidden_layers)} × ${String(config.hidden_size)}`
      : 'size not recorded';
  const accuracy =
    typeof training.test_accuracy === 'number' ? `, held-out accuracy ${training.test_accuracy.toFixed(3)}` : '';
  return `${shownOut(dir)} (${size}${accuracy})`;
}

function shownOut(file: string): string {
  return file.replace(`${ROOT}/`, '');
}

/** The section's tables. */
function render(r: Results): string {
  const labels = Object.keys(r.reference.keywords);
  const scaleTrain = 2000 / r.trainSample;
  const scaleTest = 1000 / r.testSample;
  const pct = (a: number, b: number) => `${a} of ${b} (${((100 * a) / Math.max(1, b)).toFixed(1)} %)`;
  const rows = r.passes.map((p) => {
    const verdict = p.verdict
      ? `${pct(p.verdict.labelsEqual, p.verdict.labelled)}, ${p.verdict.samplesMean.toFixed(0)} samples`
      : '—';
    const audit = p.verdict
      ? `${((p.wall * scaleTrain + p.verdict.wall * scaleTest) / 3600).toFixed(2)} h / ${((p.cpu * scaleTrain + p.verdict.cpu * scaleTest) / 3600).toFixed(2)} h`
      : '—';
    const runtime =
      p.threads === undefined
        ? ''
        : ` (${p.threads === null ? "onnxruntime's threads" : `${p.threads} threads`}${p.sessions && p.sessions > 1 ? `, ${p.sessions} sessions` : ''})`;
    return `| ${p.name}${runtime} | ${(p.wall / p.texts).toFixed(2)} / ${(p.cpu / p.texts).toFixed(2)} | ${((p.wall * scaleTrain) / 60).toFixed(1)} / ${((p.cpu * scaleTrain) / 60).toFixed(1)} min | ${labels.map((l) => p.jaccard[l].toFixed(3)).join(' | ')} | ${labels.map((l) => p.keywords[l].length).join(' / ')} | ${pct(p.labelsEqual, p.labelled)} | ${verdict} | ${audit} |`;
  });
  const v = r.reference.verdict;
  return [
    `Exact audit run: \`${r.exact}\` (${r.model}; ${r.trainSample} keyword texts sampled, ${r.testSample} test predictions; LIME ${5000} samples); oracle \`${r.oracle}\` for every store. Reference = that run's own LIME explanations relabelled with \`${r.oracle}\`: keywords ${labels.map((l) => `${l} ${r.reference.keywords[l].length}`).join(', ')}; labels (trustworthy / untrustworthy / unknown) ${r.reference.counts}; its times (several sittings) are in the transformer-audit section.`,
    '',
    `| keyword pass | s per text, wall / CPU | at 2,000 texts, wall / CPU | ${labels.map((l) => `Jaccard ${l}`).join(' | ')} | keywords (${labels.join(' / ')}) | labels equal (exact explanations) | whole fast audit: labels equal, verdict-aware samples | audit at 2,000 + 1,000, wall / CPU |`,
    `| --- | --- | --- | ${labels.map(() => '---').join(' | ')} | --- | --- | --- | --- |`,
    ...(v
      ? [
          `| exact LIME (the reference store) | — | — | ${labels.map(() => '1').join(' | ')} | ${labels.map((l) => r.reference.keywords[l].length).join(' / ')} | — | ${pct(v.labelsEqual, v.labelled)}, ${v.samplesMean.toFixed(0)} samples | labelling alone: ${((v.wall * scaleTest) / 3600).toFixed(2)} h / ${((v.cpu * scaleTest) / 3600).toFixed(2)} h |`,
        ]
      : []),
    ...rows,
    '',
    "\"labels equal (exact explanations)\": the run's stored exact LIME explanations of its predictions labelled with the candidate store against the reference store — what the keyword pass alone changes. \"Whole fast audit\": the candidate store with the predictions explained again by verdict-aware LIME (confidence 0.95, capped at the exact run's samples) — `--audit-mode fast`'s labelling. Extrapolation: the pass's time × 2,000 / keyword texts sampled, the labelling's × 1,000 / predictions sampled; CPU is this process's (all its threads): on a machine shared with other jobs the wall figures grow and the CPU ones hold. A pass named lime:5000@S is the reference's own computation with LIME seed S: its Jaccard is exact LIME's seed-to-seed agreement, the floor a cheaper pass is read against.",
    `Differences: ${
      r.passes
        .filter((p) => p.differs.length > 0)
        .map((p) => `${p.name}: ${p.differs.join('; ')}`)
        .join(' · ') || 'none'
    }.`,
    ...(r.whole ?? []).flatMap((w) => {
      const part = w.trainSample < 2000 || w.testSample < 1000;
      // the keyword pass scales with the keyword texts and the labelling with the predictions: one factor when both are the same share
      const factor = part && 2000 / w.trainSample === 1000 / w.testSample ? 2000 / w.trainSample : null;
      const timing = part
        ? `measured on ${w.trainSample} + ${w.testSample} (${((100 * w.testSample) / 1000).toFixed(0)} % of the paper's scale): ${(w.wall / 3600).toFixed(2)} h wall, ${(w.cpu / 3600).toFixed(2)} CPU-h` +
          (factor
            ? `; **extrapolated to 2,000 + 1,000: ${((w.wall * factor) / 3600).toFixed(2)} h wall**, ${((w.cpu * factor) / 3600).toFixed(2)} CPU-h (× ${factor.toFixed(1)})`
            : ' (keyword texts and predictions sampled at different shares: not extrapolated)')
        : `**${(w.wall / 3600).toFixed(2)} h wall**, ${(w.cpu / 3600).toFixed(2)} CPU-h`;
      const agreement =
        w.shared > 0
          ? `Of the exact run's correct predictions, ${w.shared} (distinct texts) are in this run's sample too: labels equal on **${pct(w.sharedEqual, w.shared)}**${w.differs.length ? ` (${w.differs.join('; ')})` : ''}, against the reference labels above — each run with its own keyword store.`
          : 'No exact audit of this model exists to compare labels with (the exact run above is of another model).';
      return [
        '',
        `**Fast audit of ${w.model}, ${part ? 'a measured part' : 'measured whole, not extrapolated'}** (\`${w.command}\`; keyword pass ${w.keywordMethod}, labels verdict-aware LIME; ${w.threads === null ? "the CLI's default threads (every core)" : `${w.threads} threads`}; ${w.sittings} sitting(s) on ${w.machines.join(' / ')}): ` +
          `${timing}. ${w.predictions} predictions labelled (trustworthy / untrustworthy / unknown / incorrect ${w.counts}); keywords ${Object.entries(
            w.keywords,
          )
            .map(([l, n]) => `${l} ${n}`)
            .join(', ')}. ${agreement}`,
      ];
    }),
    ...(r.wholePairs ?? []).flatMap((p) => [
      '',
      `**One audit made two ways** (\`${p.a.command}\` vs \`${p.b.command}\`; ${p.a.finished ? 'finished' : 'stopped part-way'}, ${p.a.predictions} predictions / ${p.b.finished ? 'finished' : 'stopped part-way'}, ${p.b.predictions} predictions): ` +
        (p.shared > 0
          ? `on the ${p.shared} predictions both runs made, labels equal on **${pct(p.equal, p.shared)}**${p.differs.length ? ` (${p.differs.join('; ')})` : ''}; `
          : 'no final labels from both runs (a run stopped part-way writes predictions.jsonl only at its end: see the checkpoints below); ') +
        `keyword sets (each run's own store) Jaccard ${p.keywords.map((k) => `${k.label} ${k.jaccard.toFixed(3)} (${k.a} / ${k.b} words)`).join(', ')}. ` +
        `Checkpointed explanations both runs made: ${p.explained.shared}; same predicted label ${pct(p.explained.samePrediction, p.explained.shared)}; ` +
        `same side of the verdict-aware statistic (trustworthy or not, before the incorrect / unknown rules) ${pct(p.explained.sameSide, p.explained.sided)}.`,
    ]),
    '',
    `Machine of the passes above (the last run that measured one): ${formatMachine(r.machine)} (${r.machine.cores} cores), ${r.date}. The fast audits name their own machines.`,
  ].join('\n');
}
