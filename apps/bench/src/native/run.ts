#!/usr/bin/env node
// node apps/bench/dist/native/run.js [--quick] [--only topk,cluster,ridge,cuda] [--json results.json]
import { writeFileSync } from 'node:fs';
import { backendInfo } from '@xtrust/native';
import { defineScript, parseOrExit } from '../harness/options.js';
import { formatResults } from '../harness/result.js';
import { runNativeBenchmarks, type NativeBenchOptions } from './index.js';

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/native/run.js [options]',
    summary:
      "@xtrust/native's kernels against their TypeScript twins, numpy + OpenBLAS, SciPy and ml-hclust (the native section of `pnpm bench`).",
    options: {
      quick: { kind: 'flag', help: 'reduced sizes' },
      only: {
        kind: 'list',
        choices: ['topk', 'cluster', 'ridge', 'cuda'],
        help: 'some benchmarks only (default: all; cuda runs only where a CUDA device answers)',
      },
      json: { kind: 'string', placeholder: 'FILE', help: 'also write the results as JSON' },
    },
  }),
);
const info = backendInfo();
console.log(
  `@xtrust/native backend: ${info.backend} (${info.threads} threads, ${info.simd ?? 'no SIMD'})${info.notes.length ? `; ${info.notes.join('; ')}` : ''}`,
);
const results = await runNativeBenchmarks({
  only: o.only as NativeBenchOptions['only'],
  quick: o.quick,
  log: (l) => console.log(l),
});
console.log(`\n${formatResults(results)}`);
if (o.json)
  writeFileSync(o.json, `${JSON.stringify({ date: new Date().toISOString(), backend: info, results }, null, 2)}\n`);
