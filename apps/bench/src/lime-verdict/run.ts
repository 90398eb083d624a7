/**
 * Verdict-aware sampling on validation texts (issue 30, deliverable 1): label held-out predictions of a
 * classifier with TOKI twice — LIME at a fixed `--samples` (the paper's computation, `--audit-mode
 * exact`) and LIME stopping once each verdict is settled (@xtrust/oracle verdictSampling, `--audit-mode
 * fast`'s labelling) — on the same keyword store, and print how many labels are equal and how many
 * samples the fast run used per prediction (mean, median, quartiles), with wall and CPU time of both.
 *
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/lime-verdict/run.js [--model models/transformers/fixtures/tiny-bert-spam]
 *        [--oracles toki,toki-paper] [--train 150] [--test 40] [--samples 5000] [--keyword-samples 1000] [--words 120]
 *   (--help lists every option)
 *
 * Data: SpamAssassin bodies (no headers) through the model kit's split (test 0.3, validation 0.15, seed
 * 1, as models/transformers/export-corpora.mjs): the keyword store comes from `--train` training texts,
 * the labelled predictions are `--test` VALIDATION texts (never the test split, which the full-size
 * audit of issue 30 reports). Each text is cut to its first `--words` words, so an explanation's
 * neighbourhood stays in the fixture's 128-position window. Keyword identification runs once per oracle
 * with exact LIME at `--keyword-samples`; only the labelling differs between the two runs.
 */
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokenize } from '@xtrust/core';
import { loadSpamAssassin, sample, stratifiedSplit } from '@xtrust/datasets';
import { GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { calibrateThetaRelate, identifyKeywords, labelPredictions, ORACLES, type TrustLabel } from '@xtrust/oracle';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { formatMachine, machineInfo } from '../harness/machine.js';
import { median } from '../harness/timing.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(here, '../../../..');
const KIT_SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 } as const;

const spec = defineScript({
  usage: 'node apps/bench/dist/lime-verdict/run.js [options]',
  summary: 'TOKI labels of validation predictions with exact LIME and with verdict-aware LIME (stop once the verdict is settled): labels equal and samples used. Markdown on stdout.',
  options: {
    model: { kind: 'string', placeholder: 'DIR', help: 'classifier folder (default models/transformers/fixtures/tiny-bert-spam)' },
    oracles: { kind: 'list', choices: Object.keys(ORACLES), default: ['toki', 'toki-paper'], help: 'TOKI configurations (their verdict rules: toki decisive, toki-paper sum)' },
    train: { kind: 'integer', min: 2, default: 150, help: 'training texts for keyword identification' },
    test: { kind: 'integer', min: 1, default: 40, help: 'validation texts whose predictions are labelled' },
    samples: { kind: 'integer', min: 2, default: 5000, help: "LIME samples of the labelling (the exact run's, the fast run's cap)" },
    'keyword-samples': { kind: 'integer', min: 2, default: 1000, help: 'LIME samples of the keyword identification (exact LIME, shared by both runs)' },
    words: { kind: 'integer', min: 2, default: 120, help: 'each text cut to its first N words' },
    confidence: { kind: 'number', min: 0.5, max: 0.999999, default: 0.95, help: "the verdict rule's confidence" },
    seed: { kind: 'integer', default: 0, help: 'seed of sampling texts and LIME' },
  },
  notes: ['Each run labels the same predictions with the same keyword store; only LIME\'s sample count differs.'],
});

/** The first n words of a text. */
function firstWords(text: string, n: number): string {
  const t = tokenize(text);
  return t.length <= n ? text : text.slice(0, t[n - 1].end);
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

async function timedLabels(run: () => Promise<TrustLabel[]>) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const labels = await run();
  return { labels, wall: (performance.now() - wall0) / 1000, cpu: cpuSeconds(process.cpuUsage(cpu0)) };
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
}

await runScript(spec, async (o) => {
  const model = resolve(o.model ?? join(ROOT, 'models/transformers/fixtures/tiny-bert-spam'));
  const log = (s: string) => process.stderr.write(s + '\n');
  const classifier = await OnnxClassifier.load(model).catch((e: Error) => {
    throw new UsageError(`--model ${model}: ${e.message.split('\n')[0]}`);
  });
  const data = loadSpamAssassin({ headers: false });
  const split = stratifiedSplit(data.rows, KIT_SPLIT);
  const cut = (rows: readonly { text: string; label: string }[]) => rows.map((r) => ({ text: firstWords(r.text, o.words), label: r.label }));
  const train = cut(sample([...split.train], Math.min(o.train, split.train.length), o.seed));
  const valid = cut(sample([...split.validation], Math.min(o.test, split.validation.length), o.seed + 1));
  log(`${train.length} training texts, ${valid.length} validation texts (first ${o.words} words) of ${model}`);
  const glove = await GloveEmbedding.load();
  const { thetaRelate } = await calibrateThetaRelate(glove, wordnet(), { seed: 0 });
  const rows: string[] = [];
  for (const oracle of o.oracles) {
    log(`${oracle}: keyword identification (exact LIME, ${o['keyword-samples']} samples)`);
    const store = await identifyKeywords(
      classifier,
      train.map((r) => r.text),
      train.map((r) => r.label),
      { explainer: new LimeExplainer({ numSamples: o['keyword-samples'], numFeatures: 10, seed: o.seed }), embeddings: [glove], thetaRelate: { [glove.name]: thetaRelate }, oracle: ORACLES[oracle], topK: 10, seed: o.seed },
    );
    const explainer = new LimeExplainer({ numSamples: o.samples, numFeatures: 10, seed: o.seed });
    const common = { embeddings: [glove], explainer, trueLabels: valid.map((r) => r.label) };
    log(`${oracle}: labelling ${valid.length} predictions, exact LIME (${o.samples} samples)`);
    const exact = await timedLabels(() => labelPredictions(store, classifier, valid.map((r) => r.text), common));
    log(`${oracle}: labelling again, verdict-aware LIME (confidence ${o.confidence})`);
    const fast = await timedLabels(() => labelPredictions(store, classifier, valid.map((r) => r.text), { ...common, verdictSampling: { confidence: o.confidence } }));
    const judged = exact.labels.map((l, i) => ({ exact: l.verdict, fast: fast.labels[i].verdict, samples: fast.labels[i].samples })).filter((x) => x.exact !== 'incorrect');
    const equal = judged.filter((x) => x.exact === x.fast).length;
    const used = judged.map((x) => x.samples).filter((n): n is number => n !== undefined);
    const mean = used.reduce((a, b) => a + b, 0) / Math.max(1, used.length);
    const counts = (ls: readonly TrustLabel[]) => ['trustworthy', 'untrustworthy', 'unknown'].map((v) => ls.filter((l) => l.verdict === v).length).join(' / ');
    rows.push(
      `| ${oracle} (${ORACLES[oracle].verdictRule}) | ${judged.length} | ${counts(exact.labels)} | ${equal} of ${judged.length} | ${mean.toFixed(0)} | ${median(used).toFixed(0)} | ${quantile(used, 0.25)}–${quantile(used, 0.75)} | ${Math.min(...used)}–${Math.max(...used)} | ${used.filter((n) => n >= o.samples).length} | ${exact.wall.toFixed(1)} / ${exact.cpu.toFixed(1)} | ${fast.wall.toFixed(1)} / ${fast.cpu.toFixed(1)} | ${(exact.wall / fast.wall).toFixed(2)}× |`,
    );
    const differ = judged.map((x, i) => ({ ...x, i })).filter((x) => x.exact !== x.fast);
    for (const d of differ) log(`  differs: prediction ${d.i}: exact ${d.exact}, fast ${d.fast} (${d.samples} samples)`);
  }
  await classifier.release();
  const m = machineInfo();
  const out = [
    `Verdict-aware LIME on ${valid.length} validation predictions of ${model.replace(ROOT + '/', '')} (SpamAssassin bodies, the kit's split, first ${o.words} words; keyword store from ${train.length} training texts at LIME ${o['keyword-samples']}); labelling LIME ${o.samples} samples exact vs verdict-aware (confidence ${o.confidence}), seed ${o.seed}.`,
    '',
    '| oracle (verdict rule) | correct predictions labelled | exact: trustworthy / untrustworthy / unknown | labels equal | fast samples mean | median | quartiles | min–max | at the cap | exact wall / CPU s | fast wall / CPU s | wall speed-up |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Machine: ${formatMachine(m)} (${cpus().length} cores).`,
  ];
  process.stdout.write(out.join('\n') + '\n');
});
