#!/usr/bin/env node
// node apps/bench/dist/native/cuda-section.js --from DIR [--write-section]
//
// Stores a GPU machine's run of the CUDA check (native/scripts/device-check.sh run, which writes
// cuda-bench.json, native-tests.log and machine.txt to one folder) as the native-cuda section of
// BENCHMARKS.md. The GPU machine has no workspace, so the section is written here from its files.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import type { MachineInfo } from '../harness/machine.js';
import { formatResults, type BenchResult } from '../harness/result.js';
import { orderAfter, readJson, saveSection } from '../harness/store.js';
import { writeBenchmarks } from '../harness/render.js';

// The vitest log that comes back from the GPU machine is coloured: its escape codes are stripped before reading it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is the character to match
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const SECTIONS = join(ROOT, 'apps/bench/results/sections');

interface DeviceRun {
  date: string;
  backend: { backend: string; threads: number; device?: string; simd?: string };
  machine?: MachineInfo;
  results: BenchResult[];
}

const SPEC = defineScript({
  usage: 'node apps/bench/dist/native/cuda-section.js --from DIR [--write-section]',
  summary:
    "Renders a GPU machine's CUDA check (the folder native/scripts/device-check.sh run wrote) and stores it as BENCHMARKS.md's native-cuda section.",
  options: {
    from: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'the folder with cuda-bench.json, native-tests.log and machine.txt',
    },
    commit: {
      kind: 'string',
      placeholder: 'REV',
      help: 'the commit whose code ran there (the GPU machine has no git history)',
    },
    'write-section': { kind: 'flag', help: 'store the section and re-render BENCHMARKS.md' },
  },
});

await runScript(SPEC, async (o) => {
  if (!o.from) throw new UsageError('--from DIR is required');
  // a committed run may keep its larger files gzipped (name.gz: the results folder has a git budget)
  const file = (name: string) => {
    for (const f of [join(o.from!, name), join(o.from!, `${name}.gz`)]) if (existsSync(f)) return f;
    throw new UsageError(`--from ${o.from}: ${name} is missing (native/scripts/device-check.sh run writes it)`);
  };
  const text = (f: string) => {
    const bytes = readFileSync(f);
    return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  };
  const run = readJson<DeviceRun>(file('cuda-bench.json'));
  const machineText = text(file('machine.txt'));
  const tests = text(file('native-tests.log'));
  const counts = /Tests\s+(.+?)\s*\n/.exec(tests)?.[1]?.replace(ANSI_COLOUR, '') ?? 'unknown';
  const files = /Test Files\s+(.+?)\s*\n/.exec(tests)?.[1]?.replace(ANSI_COLOUR, '') ?? 'unknown';
  const cudaCases = tests.split('\n').filter((l) => l.includes('cuda.test.ts') || l.includes('placement.test.ts'));
  const cpuLine = /CPU:\s*(.+?) × (\d+)/.exec(machineText);
  const nodeLine = /node (v[0-9.]+); (.+)/.exec(machineText);
  const machine: MachineInfo = run.machine ?? {
    cpuModel: cpuLine?.[1]?.trim() ?? 'unknown',
    cores: Number(cpuLine?.[2] ?? 0),
    memoryGiB: 128,
    freeMemoryGiB: Number.NaN,
    loadAverage: [],
    os: `linux (GPU machine: ${nodeLine?.[2] ?? 'unknown GPU'})`,
    node: nodeLine?.[1] ?? 'unknown',
    kernels: `${run.backend.backend} (${run.backend.threads} threads${run.backend.simd ? `, ${run.backend.simd}` : ''}; ${run.backend.device ?? 'no device'})`,
    commit: o.commit ?? 'unknown',
  };
  const crossover = run.results.filter((r) => r.name.startsWith('crossover: '));
  const wrong = crossover.filter((r) => r.notes.includes('slower side'));
  const main = run.results.filter((r) => !r.name.startsWith('crossover: '));
  const ms = (s: number) => `${(s * 1e3).toFixed(2)} ms`;
  const markdown = [
    `Native test suite on the GPU machine (${machineText.trim().replace(/\n/g, '; ')}): test files ${files}; tests ${counts}.`,
    '',
    'CUDA cases (native/test/cuda.test.ts against the CPU kernels and the TS twins, and the placement rule):',
    '',
    ...cudaCases.map(
      (l) =>
        `- ${l
          .replace(ANSI_COLOUR, '')
          .replace(/^\s*[✓✗×]\s*/, '')
          .trim()}`,
    ),
    '',
    '### Where a call runs under `auto` (native/src/placement.ts)',
    '',
    '| call | CPU (all threads) | CUDA | CPU / CUDA | auto places it on |',
    '| --- | --- | --- | --- | --- |',
    ...crossover.map((r) => {
      const auto = /auto places it on (\w+)/.exec(r.notes)?.[1] ?? '?';
      return `| ${r.name.replace('crossover: ', '')} | ${ms(r.peer.seconds[0])} | ${ms(r.ours.seconds[0])} | ${r.ratio.toFixed(2)}× | ${auto}${r.notes.includes('slower side') ? ' (the slower side here)' : ''} |`;
    }),
    '',
    `Auto placed ${crossover.length - wrong.length} of ${crossover.length} call sizes on the faster side${wrong.length ? ` (not: ${wrong.map((r) => r.name.replace('crossover: ', '')).join('; ')}, within ${Math.max(...wrong.map((r) => Math.abs(r.ratio - 1) * 100)).toFixed(0)} % of a tie)` : ''}.`,
  ].join('\n');
  process.stdout.write(`${markdown}\n\n${formatResults(main)}\n`);
  if (o['write-section']) {
    saveSection(SECTIONS, {
      name: 'native-cuda',
      title: 'The CUDA backend of @xtrust/native on a GPU: equal to the CPU kernels, and where it pays',
      description:
        "@xtrust/native's CUDA library (cosine matrices, top-k search) on a lent GPU machine: the package's whole vitest suite there (CUDA against the CPU kernels and the TS twins), top-10 search over a GloVe-shaped seeded corpus against the CPU backend on the machine's 16 threads and against PyTorch on the same GPU (float32 matmul + torch.topk, with and without host-to-device copies), and both backends over call sizes, with the backend `auto` picks for each. The GPU machine has no workspace: native/scripts/device-check.sh carries Node, a flat vitest install and the benchmark bundled into one file; this page is rendered here from the files it wrote.",
      command:
        'bash native/scripts/device-check.sh prepare  # here; then on the GPU machine, with .devcheck/ and native/build/Release carried: bash native/scripts/device-check.sh run',
      script: `native/cuda-section.js --from ${o.from}${o.commit ? ` --commit ${o.commit}` : ''}`,
      date: run.date,
      seconds: run.results.reduce(
        (a, r) => a + r.ours.seconds.reduce((x, y) => x + y, 0) + r.peer.seconds.reduce((x, y) => x + y, 0),
        0,
      ),
      quick: false,
      machine,
      status: 'ok',
      results: main,
      markdown,
      order: orderAfter(SECTIONS, 'native', 0.5, 1),
    });
    writeBenchmarks(join(ROOT, 'BENCHMARKS.md'), SECTIONS);
    console.log('section native-cuda written');
  }
});
