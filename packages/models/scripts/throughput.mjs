#!/usr/bin/env node
// Prediction throughput of one trained model through its three runtimes, and TokenScorer speed.
//   pnpm turbo run build --filter=@xtrust/models && node packages/models/scripts/throughput.mjs
// Options: --kind bow-mlp  --texts 1000  --masks 5000  --seed 0
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv } from 'node:process';
import { rng, tokenize } from '@xtrust/core';
import { backend } from '@xtrust/native';
import { exportOnnx, HfClassifier, OnnxClassifier, trainClassifier } from '@xtrust/models';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';

const args = Object.fromEntries(
  argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1]]] : [])),
);
const kind = args.kind ?? 'bow-mlp';
const nTexts = Number(args.texts ?? 1000);
const nMasks = Number(args.masks ?? 5000);
const seed = Number(args.seed ?? 0);

const data = loadSpamAssassin({ headers: true });
const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed });
const train = split.train.map((r) => ({ text: r.text, label: r.label }));
const texts = rng(seed)
  .shuffle(split.test.map((r) => r.text))
  .slice(0, nTexts);
const model = await trainClassifier(kind, train, { seed, labels: data.labels });
const dir = mkdtempSync(join(tmpdir(), 'xtrust-throughput-'));
await exportOnnx(model, dir);
const onnx = await OnnxClassifier.load(dir, { batchSize: 32 });
const hf = await HfClassifier.load(dir, { batchSize: 32 });

async function time(label, fn) {
  await fn(); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { label, wall, cpu: (cpu.user + cpu.system) / 1e6, out };
}

const rows = [];
const ts = await time(`BuiltinClassifier.predictProba (native backend: ${backend()})`, () => model.predictProba(texts));
const ox = await time('OnnxClassifier.predictProba (batch 32)', () => onnx.predictProba(texts));
const hx = await time('HfClassifier.predictProba (batch 32)', () => hf.predictProba(texts));
let maxOnnx = 0;
let maxHf = 0;
for (let i = 0; i < ts.out.length; i++) {
  maxOnnx = Math.max(maxOnnx, Math.abs(ts.out[i] - ox.out[i]));
  maxHf = Math.max(maxHf, Math.abs(ts.out[i] - hx.out[i]));
}
rows.push(ts, ox, hx);
// TokenScorer: LIME-style random masks over one e-mail's tokens (first 3,000 characters).
const text = texts[0].slice(0, 3000);
const T = tokenize(text).length;
const r = rng(seed);
const masks = new Uint8Array(nMasks * T).map(() => (r.float() < 0.5 ? 1 : 0));
rows.push(
  await time(`scoreTokenMasks: ${nMasks} masks × ${T} tokens`, () => model.scoreTokenMasks(text, masks, nMasks)),
);

console.log(
  `model ${kind}, vocabulary ${model.vocabulary.size}, ${texts.length} SpamAssassin test e-mails (with headers)\n`,
);
console.log('| what | wall s | CPU s | per item |');
console.log('| --- | ---: | ---: | ---: |');
for (const x of rows) {
  const n = x.label.startsWith('scoreTokenMasks') ? nMasks : texts.length;
  console.log(`| ${x.label} | ${x.wall.toFixed(3)} | ${x.cpu.toFixed(3)} | ${((1e6 * x.wall) / n).toFixed(1)} µs |`);
}
console.log(`\nmax |Δp| TS vs ONNX: ${maxOnnx.toExponential(2)}, TS vs transformers.js: ${maxHf.toExponential(2)}`);
await onnx.release();
rmSync(dir, { recursive: true, force: true });
