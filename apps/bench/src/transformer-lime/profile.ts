/**
 * Where the time of one transformer LIME explanation goes: tokenising the text into chunks of word
 * pieces (MaskedIds.prepare), building the ids of every perturbed sample (MaskedIds.build), the
 * onnxruntime runs, and the rest (sampling, kernel, ridge). Also the padded positions and the time with
 * length sorting off, and a comparison of session settings.
 *
 *   node apps/bench/dist/transformer-lime/profile.js --model DIR [--words 40,120,250] [--texts 3]
 *        [--samples 5000] [--threads 2] [--batch 32] [--variants default,unsorted,basic,parallel,batch16,batch64,rows32,tokens1024,sessions2,int8,int8-sessions2]
 *        [--validation]  (the validation texts instead of the benchmark's)
 *        [--repeat N]    (time the variants N times each in alternating order; medians)
 *        [--ops]         (instead: onnxruntime's own profiler over the explanations, kernel time by operator)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenize } from '@xtrust/core';
import { LimeExplainer } from '@xtrust/explainers';
import {
  MaskedIds,
  OnnxClassifier,
  loadLocalTokenizer,
  pieceTokenizer,
  type OnnxClassifierOptions,
} from '@xtrust/models';
import { defineScript, exitUsage, parseOrExit, textLengthsOption } from '../harness/options.js';
import { textsOfLength, validationTexts } from './texts.js';
import { operatorProfile, readProfileTrace } from './op-profile.js';

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/transformer-lime/profile.js --model DIR [options]',
    summary:
      'Where the time of one transformer LIME explanation goes (tokenising, building ids, onnxruntime, the rest), and onnxruntime settings compared.',
    options: {
      model: { kind: 'string', placeholder: 'DIR', required: true, help: 'a classifier folder in Hugging Face layout' },
      words: textLengthsOption([40, 120, 250]),
      texts: { kind: 'integer', min: 1, default: 3, help: 'texts per length' },
      samples: { kind: 'integer', min: 2, default: 5000, help: 'LIME samples' },
      threads: { kind: 'integer', min: 1, default: 2, help: 'onnxruntime threads' },
      batch: { kind: 'integer', min: 1, default: 32, help: 'rows per onnxruntime run' },
      variants: {
        kind: 'list',
        placeholder: 'NAME,NAME',
        default: ['default'],
        help: 'session settings compared: default, unsorted, basic, extended, disabled, parallel, nopattern, noarena, batchN, rows32, tokensN, sessions2, int8, int8-… (see the file)',
      },
      validation: { kind: 'flag', help: "the validation texts (lime-stopping's) instead of the benchmark's" },
      repeat: {
        kind: 'integer',
        min: 1,
        default: 1,
        help: 'time each variant N times in alternating order and report medians (N > 1)',
      },
      ops: {
        kind: 'flag',
        help: "instead of the timings: explain the texts with onnxruntime's profiler on (one session; no warm-up, so the first run's allocations count) and report each variant's kernel time by operator type",
      },
    },
  }),
);
const model = o.model;
const lengths = o.words;
const nTexts = o.texts;
const samples = o.samples;
const threads = o.threads;
const batch = o.batch;
const variants = o.variants;
/** --validation: the validation texts (lime-stopping's), for choosing a setting; default the benchmark's texts. */
const validation = o.validation;

const settings: Record<string, OnnxClassifierOptions> = {
  default: {},
  unsorted: { sortByLength: false },
  basic: { session: { graphOptimizationLevel: 'basic' } },
  extended: { session: { graphOptimizationLevel: 'extended' } },
  disabled: { session: { graphOptimizationLevel: 'disabled' } },
  parallel: { session: { executionMode: 'parallel' } },
  nopattern: { session: { enableMemPattern: false } },
  noarena: { session: { enableCpuMemArena: false, enableMemPattern: false } },
  batch2: { batchSize: 2, batchTokens: Infinity },
  batch4: { batchSize: 4, batchTokens: Infinity },
  batch8: { batchSize: 8, batchTokens: Infinity },
  batch16: { batchSize: 16, batchTokens: Infinity },
  batch64: { batchSize: 64, batchTokens: Infinity },
  batch128: { batchSize: 128, batchTokens: Infinity },
  rows32: { batchSize: 32, batchTokens: Infinity },
  tokens512: { batchSize: 256, batchTokens: 512 },
  tokens1024: { batchSize: 256, batchTokens: 1024 },
  tokens2048: { batchSize: 256, batchTokens: 2048 },
  tokens1536: { batchSize: 256, batchTokens: 1536 },
  tokens4096: { batchSize: 256, batchTokens: 4096 },
  // `--threads` split over parallel single-thread sessions in worker threads (session-pool.ts), float and int8
  sessions2: { sessions: 2 },
  int8: { quantize: 'int8' },
  'int8-sessions2': { sessions: 2, quantize: 'int8' },
};
// The same batch shapes on the int8 graph (dynamic quantisation works per batch, so its cost depends on the shape too).
for (const [name, o] of Object.entries({ ...settings }))
  if (/^(rows|tokens|batch)\d+$/.test(name)) settings[`int8-${name}`] = { ...o, quantize: 'int8' };
const unknown = variants.filter((v) => !(v in settings));
if (unknown.length)
  exitUsage(
    `--variants: no variant ${unknown.map((v) => JSON.stringify(v)).join(', ')}; the variants are ${Object.keys(settings).join(', ')}`,
  );

const tokenizer = await loadLocalTokenizer(model, 'profile');
const tok = pieceTokenizer(tokenizer);
const lines: string[] = [];
const log = (s: string) => {
  lines.push(s);
  process.stderr.write(`${s}\n`);
};
/** --ops: each variant's explanations under onnxruntime's profiler, kernel time summed by operator type (op-profile.ts). */
if (o.ops) {
  const traceDir = mkdtempSync(join(tmpdir(), 'xtrust-ops-'));
  const out = [
    `model ${model}, ${samples} samples, ${threads} threads, batches of ${batch} rows, ${nTexts} ${validation ? 'validation' : 'benchmark'} texts per length, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at the start`,
    '',
    '| words | variant | operator | nodes | ms / explanation | share of kernel time |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  try {
    for (const words of lengths) {
      const texts = validation ? validationTexts(words, nTexts) : textsOfLength(words, nTexts);
      for (const v of variants) {
        const prefix = join(traceDir, `${words}-${v}`);
        const tuning = settings[v];
        const clf = await OnnxClassifier.load(model, {
          batchSize: batch,
          threads,
          ...tuning,
          session: { ...tuning.session, profileFilePrefix: prefix },
        });
        const lime = new LimeExplainer({ numSamples: samples, seed: 1 });
        for (const text of texts) await lime.explain(clf, [text]);
        clf.endProfiling();
        await clf.release();
        const p = operatorProfile(readProfileTrace(prefix));
        const perText = (us: number) => (us / 1000 / texts.length).toFixed(1);
        for (const op of p.operators) {
          const line = `| ${words} | ${v} | ${op.op} | ${op.nodes} | ${perText(op.micros)} | ${(100 * op.share).toFixed(1)} % |`;
          out.push(line);
          process.stderr.write(`${line}\n`);
        }
        const total = `| ${words} | ${v} | **all kernels** (in ${p.runs} graph runs of ${perText(p.runMicros)} ms / explanation) | ${p.operators.reduce((n, op) => n + op.nodes, 0)} | ${perText(p.kernelMicros)} | 100 % |`;
        out.push(total);
        process.stderr.write(`${total}\n`);
      }
    }
  } finally {
    rmSync(traceDir, { recursive: true, force: true });
  }
  process.stdout.write(`${out.join('\n')}\n`);
  process.exit(0);
}
/** --repeat N (N > 1): instead of the profile, time each variant N times in alternating order (ABC, CBA, …) and report the median. */
const repeat = o.repeat;
if (repeat > 1) {
  process.stderr.write(
    `model ${model}, ${samples} samples, ${threads} threads, ${repeat} runs per variant in alternating order\n`,
  );
  const out = [
    "| words | variant | median s / explanation | min | max | median / first variant's |",
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const words of lengths) {
    const texts = validation ? validationTexts(words, nTexts) : textsOfLength(words, nTexts);
    const lime = new LimeExplainer({ numSamples: samples, seed: 1 });
    const clfs = new Map<string, OnnxClassifier>();
    for (const v of variants) {
      const clf = await OnnxClassifier.load(model, { batchSize: batch, threads, ...settings[v] });
      await lime.explain(clf, [texts[0]], { numSamples: 200 }); // warm-up
      clfs.set(v, clf);
    }
    const times = new Map<string, number[]>(variants.map((v) => [v, []]));
    for (let r = 0; r < repeat; r++) {
      for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
        const s0 = performance.now();
        for (const text of texts) await lime.explain(clfs.get(v)!, [text]);
        times.get(v)!.push((performance.now() - s0) / 1000 / texts.length);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const first = median(times.get(variants[0])!);
    for (const v of variants) {
      const t = times.get(v)!;
      const line = `| ${words} | ${v} | ${median(t).toFixed(2)} | ${Math.min(...t).toFixed(2)} | ${Math.max(...t).toFixed(2)} | ${(median(t) / first).toFixed(3)} |`;
      out.push(line);
      process.stderr.write(`${line}\n`);
    }
    for (const c of clfs.values()) await c.release();
  }
  process.stdout.write(`${out.join('\n')}\n`);
  process.exit(0);
}
log(
  `model ${model}, ${samples} samples, ${threads} threads, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
log(
  '| words | variant | batch | s / explanation | prepare ms | build ms (texts built from strings) | onnxruntime s | other s | distinct rows | mean length | padded / real positions |',
);
log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const words of lengths) {
  const texts = validation ? validationTexts(words, nTexts) : textsOfLength(words, nTexts);
  for (const v of variants) {
    const opts = { batchSize: batch, threads, ...settings[v] };
    const clf = await OnnxClassifier.load(model, opts);
    const lime = new LimeExplainer({ numSamples: samples, seed: 1 });
    await lime.explain(clf, [texts[0]], { numSamples: 200 }); // warm-up: first-run allocations
    Object.assign(clf.scoringStats, { rows: 0, distinct: 0, runs: 0, positions: 0, tokens: 0, runMs: 0 });
    let prepareMs = 0;
    let buildMs = 0;
    let total = 0;
    let stringTexts = 0;
    for (const text of texts) {
      // The ids work alone, with a cold piece cache (what one explanation pays).
      const T = tokenize(text).length;
      const t0 = performance.now();
      const m = MaskedIds.prepare(tok, text);
      const t1 = performance.now();
      const masks = new Uint8Array(samples * T);
      for (let i = 0; i < masks.length; i++) masks[i] = (i * 2654435761) % 7 < 4 ? 1 : 0;
      const t2 = performance.now();
      // A text the pieces cannot build exactly goes the strings way (rebuild, re-tokenise): time that instead.
      if (m) m.build(masks, samples);
      else {
        stringTexts++;
        clf.maskedIds(text, masks, samples);
      }
      buildMs += performance.now() - t2;
      prepareMs += t1 - t0;
      const s0 = performance.now();
      await lime.explain(clf, [text]);
      total += (performance.now() - s0) / 1000;
    }
    const st = clf.scoringStats;
    const n = texts.length;
    const ort = st.runMs / 1000 / n;
    log(
      `| ${words} | ${v} | ${opts.batchSize} | ${(total / n).toFixed(2)} | ${(prepareMs / n).toFixed(1)} | ${(buildMs / n).toFixed(1)} (${stringTexts} of ${n}) | ${ort.toFixed(2)} | ${(total / n - ort).toFixed(2)} | ${(st.distinct / n).toFixed(0)} of ${(st.rows / n).toFixed(0)} | ${(st.tokens / st.distinct).toFixed(1)} | ${(st.positions / st.tokens).toFixed(3)} |`,
    );
    await clf.release();
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
