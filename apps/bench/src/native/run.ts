#!/usr/bin/env node
// node apps/bench/dist/native/run.js [--quick] [--only topk,cluster,ridge] [--json results.json]
import { writeFileSync } from 'node:fs';
import { backendInfo } from '@xtrust/native';
import { formatResults } from '../harness/result.js';
import { runNativeBenchmarks, type NativeBenchOptions } from './index.js';

const args = process.argv.slice(2);
const value = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = value('--only')?.split(',') as NativeBenchOptions['only'];
const json = value('--json');
const info = backendInfo();
console.log(`@xtrust/native backend: ${info.backend} (${info.threads} threads, ${info.simd ?? 'no SIMD'})${info.notes.length ? `; ${info.notes.join('; ')}` : ''}`);
const results = await runNativeBenchmarks({ only, quick: args.includes('--quick'), log: (l) => console.log(l) });
console.log(`\n${formatResults(results)}`);
if (json) writeFileSync(json, `${JSON.stringify({ date: new Date().toISOString(), backend: info, results }, null, 2)}\n`);
