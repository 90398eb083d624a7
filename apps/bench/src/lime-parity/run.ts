/**
 * LIME parity and speed against the reference Python implementation (marcotcr/lime).
 *
 * Trains (or reloads) a built-in bag-of-words logistic model on SpamAssassin, exports its weights,
 * explains the same 50 e-mails (first 3,000 characters) with xtrust's LimeExplainer and with the
 * reference LimeTextExplainer (5,000 samples, 10 features, `auto` selection; and `none` for a
 * Pearson correlation over every word), two seeds each, and prints the agreement and timing table
 * recorded in packages/explainers/README.md.
 *
 *   git --git-dir=$(fetched github:marcotcr/lime) archive HEAD lime | tar -x -C /tmp/lime-ref
 *   apt-get install -y python3-numpy python3-scipy python3-sklearn
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/lime-parity/run.js --lime-src /tmp/lime-ref [--texts 50] [--out DIR]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import { LimeExplainer } from '@xtrust/explainers';
import { BuiltinClassifier, trainClassifier } from '@xtrust/models';
import { backendInfo } from '@xtrust/native';
import { defineScript, parseOrExit } from '../harness/options.js';
import { timed } from '../harness/timing.js';
import { mean, sharedWordPearson, topKJaccard, type WordWeights } from './metrics.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const srcDir = resolve(here, '../../src/lime-parity');

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/lime-parity/run.js --lime-src DIR [options]',
    summary:
      "xtrust's LimeExplainer against the reference Python LIME (marcotcr/lime) on the same SpamAssassin e-mails and built-in model: agreement and time per explanation.",
    options: {
      'lime-src': {
        kind: 'string',
        placeholder: 'DIR',
        env: 'LIME_SRC',
        required: true,
        help: 'a folder holding the reference `lime` package',
      },
      texts: { kind: 'integer', min: 1, default: 50, help: 'e-mails explained (first 3,000 characters)' },
      out: {
        kind: 'string',
        placeholder: 'DIR',
        help: "the run folder: model, weights, texts, the reference's outputs, summary.json (default apps/bench/results/lime-parity)",
      },
      python: {
        kind: 'string',
        placeholder: 'FILE',
        default: '/usr/bin/python3',
        help: 'the Python with numpy, scipy and scikit-learn',
      },
      'rerun-reference': { kind: 'flag', help: 'run the reference again even when its outputs are stored in --out' },
    },
  }),
);
const limeSrc = o['lime-src'];
const nTexts = o.texts;
const out = resolve(o.out ?? join(process.cwd(), 'apps/bench/results/lime-parity'));
const python = o.python;
const seeds = [1, 2];
mkdirSync(out, { recursive: true });

// 1. Data: 50 e-mails chosen with a fixed seed; the model trains on the others.
const data = loadSpamAssassin();
const order = rng(2024).shuffle(data.rows.map((_, i) => i));
const chosen = new Set(order.slice(0, nTexts));
const texts = order.slice(0, nTexts).map((i) => data.rows[i].text.slice(0, 3000));
const train = data.rows.filter((_, i) => !chosen.has(i)).map((r) => ({ text: r.text, label: r.label }));

// 2. Model: trained once, reloaded afterwards.
const modelDir = join(out, 'model');
let model: BuiltinClassifier;
if (existsSync(join(modelDir, 'model.json'))) model = await BuiltinClassifier.load(modelDir);
else {
  const t0 = performance.now();
  model = await trainClassifier('bow-logistic', train, { seed: 1, labels: data.labels });
  await model.save(modelDir);
  console.error(`trained bow-logistic on ${train.length} e-mails in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const net = model.toNet();
if (net.input.kind !== 'bag-of-words' || net.layers.length !== 1)
  throw new Error('expected a one-layer bag-of-words model');
const layer = net.layers[0];
const modelJson = join(out, 'model-weights.json');
writeFileSync(
  modelJson,
  JSON.stringify({
    labels: model.labels,
    vocabulary: model.vocabulary.words,
    transform: net.input.transform,
    inDim: layer.inDim,
    outDim: layer.outDim,
    weight: Array.from(layer.weight),
    bias: Array.from(layer.bias),
  }),
);
const textsJson = join(out, 'texts.json');
writeFileSync(textsJson, JSON.stringify(texts));

// 3. xtrust.
type Run = { features: WordWeights[]; labels: string[]; seconds: number[]; cpu: number[]; total: number };
async function xtrust(
  seed: number,
  featureSelection: 'auto' | 'none',
  ridgeBackend: 'auto' | 'ts' = 'auto',
): Promise<Run> {
  const lime = new LimeExplainer({ numSamples: 5000, numFeatures: 10, featureSelection, seed, ridgeBackend });
  await lime.explain(model, texts.slice(0, 2)); // warm-up (JIT)
  const seconds: number[] = [];
  const cpu: number[] = [];
  const exps = [];
  const t0 = performance.now();
  for (const t of texts) {
    // CPU: all threads of the process, the addon's pool included
    const t1 = await timed(() => lime.explain(model, [t]));
    exps.push(...t1.value);
    cpu.push(t1.cpu);
    seconds.push(t1.wall);
  }
  const total = (performance.now() - t0) / 1000;
  return {
    features: exps.map((e) => e.features.map((f) => [f.word, f.weight] as const)),
    labels: exps.map((e) => e.explainedLabel),
    seconds,
    cpu,
    total,
  };
}
async function xtrustBatched(seed: number): Promise<{ wall: number; cpu: number }> {
  const lime = new LimeExplainer({ numSamples: 5000, numFeatures: 10, seed });
  const { wall, cpu } = await timed(() => lime.explain(model, texts));
  return { wall: wall / texts.length, cpu: cpu / texts.length };
}

// 4. Reference.
function reference(seed: number, featureSelection: 'auto' | 'none'): Run {
  const file = join(out, `reference-${featureSelection}-seed${seed}.json`);
  if (!existsSync(file) || o['rerun-reference']) {
    const r = spawnSync(
      python,
      [join(srcDir, 'reference.py'), limeSrc, modelJson, textsJson, String(seed), featureSelection, file],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error(`reference LIME failed (exit ${r.status})`);
  }
  const j = JSON.parse(readFileSync(file, 'utf8')) as {
    results: { label: string; features: [string, number][]; seconds: number; cpuSeconds: number }[];
  };
  const seconds = j.results.map((x) => x.seconds);
  const cpu = j.results.map((x) => x.cpuSeconds);
  return {
    features: j.results.map((x) => x.features),
    labels: j.results.map((x) => x.label),
    seconds,
    cpu,
    total: seconds.reduce((s, v) => s + v, 0),
  };
}

const runs: Record<string, Run> = {};
for (const fs of ['auto', 'none'] as const) {
  for (const seed of seeds) {
    runs[`ref-${fs}-${seed}`] = reference(seed, fs);
    runs[`xt-${fs}-${seed}`] = await xtrust(seed, fs);
  }
}
const xtTs = await xtrust(1, 'auto', 'ts');
const batched = await xtrustBatched(1);

function agree(a: Run, b: Run) {
  const n = a.features.length;
  const jac: number[] = [];
  const r: number[] = [];
  let sameLabel = 0;
  for (let i = 0; i < n; i++) {
    jac.push(topKJaccard(a.features[i], b.features[i], 10));
    r.push(sharedWordPearson(a.features[i], b.features[i]));
    if (a.labels[i] === b.labels[i]) sameLabel++;
  }
  return { jaccard: mean(jac), pearson: mean(r), sameLabel: sameLabel / n };
}
const pairs: [string, string, string][] = [
  ['xtrust vs reference (same seed number)', 'xt-%-1', 'ref-%-1'],
  ['xtrust vs reference (other seed)', 'xt-%-2', 'ref-%-1'],
  ['reference seed 1 vs reference seed 2', 'ref-%-1', 'ref-%-2'],
  ['xtrust seed 1 vs xtrust seed 2', 'xt-%-1', 'xt-%-2'],
];
const table = pairs.map(([name, a, b]) => {
  const auto = agree(runs[a.replace('%', 'auto')], runs[b.replace('%', 'auto')]);
  const none = agree(runs[a.replace('%', 'none')], runs[b.replace('%', 'none')]);
  return {
    name,
    top10JaccardAuto: auto.jaccard,
    top10JaccardNone: none.jaccard,
    pearsonNone: none.pearson,
    sameLabel: auto.sameLabel,
  };
});
const both = (run: 'ref' | 'xt', what: 'seconds' | 'cpu') =>
  mean(runs[`${run}-auto-1`][what].concat(runs[`${run}-auto-2`][what]));
const refPer = both('ref', 'seconds');
const refCpu = both('ref', 'cpu');
const xtPer = both('xt', 'seconds');
const xtCpu = both('xt', 'cpu');
const info = backendInfo();
const distinct = texts.map((t) => new Set(t.match(/[\p{L}\p{N}_]+/gu) ?? []).size);
const summary = {
  texts: texts.length,
  meanDistinctWords: mean(distinct),
  backend: info.backend,
  threads: info.threads,
  simd: info.simd,
  loadAverage: (await import('node:os')).loadavg(),
  agreement: table,
  timing: {
    reference: { wall: refPer, cpu: refCpu },
    xtrustOnePerCall: { wall: xtPer, cpu: xtCpu },
    xtrustBatched: batched,
    xtrustTsRidge: { wall: mean(xtTs.seconds), cpu: mean(xtTs.cpu) },
  },
};
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

const f3 = (x: number) => x.toFixed(3);
console.log(
  `\n${texts.length} SpamAssassin e-mails (first 3,000 characters, ${summary.meanDistinctWords.toFixed(0)} distinct words on average), built-in bow-logistic, 5,000 samples\n`,
);
console.log(
  '| pair | top-10 Jaccard (auto) | top-10 Jaccard (none) | Pearson of weights (none, all words) | same explained label |',
);
console.log('| --- | --- | --- | --- | --- |');
for (const r of table)
  console.log(
    `| ${r.name} | ${f3(r.top10JaccardAuto)} | ${f3(r.top10JaccardNone)} | ${f3(r.pearsonNone)} | ${f3(r.sameLabel)} |`,
  );
console.log(
  `\nload average during the run: ${summary.loadAverage.map((x) => x.toFixed(1)).join(', ')} (${(await import('node:os')).cpus().length} cores)\n`,
);
console.log('| implementation | wall s / explanation | CPU s / explanation | speed-up (wall) | speed-up (CPU) |');
console.log('| --- | --- | --- | --- | --- |');
const row = (name: string, wall: number, cpu: number) =>
  console.log(
    `| ${name} | ${wall.toFixed(4)} | ${cpu.toFixed(4)} | ${(refPer / wall).toFixed(1)}× | ${(refCpu / cpu).toFixed(1)}× |`,
  );
row('reference LIME (Python 3, numpy/scipy/scikit-learn)', refPer, refCpu);
row(`xtrust, one text per call (ridge: ${info.backend})`, xtPer, xtCpu);
row(`xtrust, ${texts.length} texts in one call (ridge: ${info.backend})`, batched.wall, batched.cpu);
row('xtrust, one text per call (ridge: ts twin)', mean(xtTs.seconds), mean(xtTs.cpu));
