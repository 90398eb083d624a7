import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '@xtrust/core';
import {
  backendInfo,
  cosineMatrix,
  placement,
  topK,
  useBackend,
  type PlacedKernel,
  type TopKResult,
} from '@xtrust/native';
import type { BenchResult } from '../harness/result.js';
import { median, speedup, timedSync } from '../harness/timing.js';
import { PYTHON } from './peers.js';

export interface CudaBenchOptions {
  /** Corpus rows (default 341,479: the size of the GloVe vocabulary the CPU benchmark searches). */
  corpus?: number;
  /** Dimensions (default 100, GloVe's). */
  dim?: number;
  /** Query rows (default 10,000). */
  queries?: number;
  k?: number;
  repeats?: number;
  seed?: number;
  /** Also time both backends over a range of call sizes, to place the point where CUDA starts to pay (default true). */
  crossover?: boolean;
  log?: (line: string) => void;
}

interface TorchPeer {
  skip?: string;
  first_s: number;
  end_to_end_s: number[];
  resident_s: number[];
  indices: number[];
  torch: string;
  device: string;
  tf32: boolean;
}

/** Where cuda_peer.py sits (src/, which tsc does not copy); XTRUST_BENCH_PEERS_DIR overrides it for a bundled copy of this bench. */
function peerScript(): string {
  const dir = process.env.XTRUST_BENCH_PEERS_DIR ?? fileURLToPath(new URL('../../src/native/', import.meta.url));
  return join(dir, 'cuda_peer.py');
}

/** Median wall seconds of f() over `repeats` runs after one untimed run. */
function medianWall(f: () => unknown, repeats = 3): number {
  f();
  const t: number[] = [];
  for (let i = 0; i < repeats; i++) t.push(timedSync(f).wall);
  return median(t);
}

/**
 * Both backends over call sizes from a handful of queries to a vocabulary-wide search, and cosine
 * matrices from a keyword pool's to a wide one: where the GPU's fixed costs (allocation, copies of
 * the whole corpus each call, the result's copy back) stop outweighing its arithmetic.
 */
function crossover(log: (line: string) => void, threads: number): BenchResult[] {
  const out: BenchResult[] = [];
  const r = rng(7);
  const normals = (len: number) => {
    const a = new Float32Array(len);
    for (let i = 0; i < len; i++) a[i] = r.normal();
    return a;
  };
  const run = (name: string, f: () => unknown, flops: number, call: [PlacedKernel, number, number, number]) => {
    useBackend('cpu');
    const cpu = medianWall(f);
    useBackend('cuda');
    const gpu = medianWall(f);
    useBackend('auto');
    const auto = placement(...call);
    const right = (auto === 'cuda') === gpu < cpu;
    log(
      `  crossover ${name}: cpu ${(cpu * 1e3).toFixed(2)} ms, cuda ${(gpu * 1e3).toFixed(2)} ms (${(cpu / gpu).toFixed(2)}×; ${(flops / 1e9).toFixed(2)} GFLOP); auto places it on ${auto}${right ? '' : ' (the slower side)'}`,
    );
    out.push({
      name: `crossover: ${name}`,
      ours: { label: 'cuda', seconds: [gpu] },
      peer: { label: `cpu (${threads} threads)`, seconds: [cpu], kind: 'measured' },
      ratio: cpu / gpu,
      notes: `${(flops / 1e9).toFixed(3)} GFLOP; medians of 3 after one untimed call; auto places it on ${auto}${right ? '' : ' (the slower side here)'}`,
    });
  };
  const d = 100;
  const corpus = normals(341_479 * d);
  for (const m of [1, 10, 100, 1000]) {
    const q = normals(m * d);
    run(`topK k=10, ${m} queries × 341,479 × ${d}`, () => topK(q, corpus, d, 10), 2 * m * 341_479 * d, [
      'topK',
      m,
      341_479,
      d,
    ]);
  }
  const small = corpus.subarray(0, 20_000 * d);
  for (const m of [10, 1000]) {
    const q = normals(m * d);
    run(`topK k=10, ${m} queries × 20,000 × ${d}`, () => topK(q, small, d, 10), 2 * m * 20_000 * d, [
      'topK',
      m,
      20_000,
      d,
    ]);
  }
  for (const [m, n, dd] of [
    [500, 500, 100],
    [3000, 3000, 100],
    [3000, 3000, 768],
    [200, 341_479, 100],
    [10_000, 10_000, 768],
  ] as const) {
    const a = normals(m * dd);
    const b = m === n ? a : corpus.subarray(0, n * dd);
    run(
      `cosineMatrix ${m.toLocaleString('en')} × ${n.toLocaleString('en')} × ${dd}`,
      () => cosineMatrix(a, b, dd),
      2 * m * n * dd,
      ['cosineMatrix', m, n, dd],
    );
  }
  return out;
}

/** Positions where two top-k lists name the same row. */
function agreement(a: TopKResult, b: { indices: ArrayLike<number> }): { same: number; total: number } {
  let same = 0;
  for (let i = 0; i < a.indices.length; i++) if (a.indices[i] === b.indices[i]) same++;
  return { same, total: a.indices.length };
}

/**
 * The CUDA backend of @xtrust/native on a GloVe-shaped seeded corpus (standard normals, so the figure
 * is the same on any machine without GloVe's files): top-k search and a cosine matrix on CUDA against
 * the CPU backend on every core, and top-k against PyTorch on the same GPU (float32 matrix product +
 * torch.topk, with and without the host-to-device copies that our call makes every time). Returns no
 * rows, with a line saying why, where no CUDA device answers.
 */
export async function benchCuda(options: CudaBenchOptions = {}): Promise<BenchResult[]> {
  const log = options.log ?? (() => {});
  const info = backendInfo();
  if (!info.available.includes('cuda')) {
    log(`  cuda: skipped, no CUDA backend here (${info.notes.join('; ') || 'unknown reason'})`);
    return [];
  }
  const n = options.corpus ?? 341_479;
  const d = options.dim ?? 100;
  const m = options.queries ?? 10_000;
  const k = options.k ?? 10;
  const repeats = options.repeats ?? 3;
  const r = rng(options.seed ?? 2024);
  const corpus = new Float32Array(n * d);
  for (let i = 0; i < corpus.length; i++) corpus[i] = r.normal();
  // Queries are corpus rows plus noise, so every query has a clear nearest neighbour, as a word of the vocabulary does.
  const rows = r.sampleIndices(n, m);
  const queries = new Float32Array(m * d);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < d; p++) queries[i * d + p] = corpus[rows[i] * d + p] + 0.5 * r.normal();
  const flops = 2 * m * n * d;
  const gf = (s: number, f = flops) => (f / s / 1e9).toFixed(0);

  useBackend('cuda');
  const device = backendInfo().device ?? 'CUDA device';
  const first = timedSync(() => topK(queries.subarray(0, d), corpus, d, k));
  log(`  cuda: ${device}; first call (context creation included) ${first.wall.toFixed(2)} s`);
  const gpu: number[] = [];
  let gpuRes = topK(queries, corpus, d, k);
  for (let i = 0; i < repeats; i++) {
    const t = timedSync(() => topK(queries, corpus, d, k));
    gpuRes = t.value;
    gpu.push(t.wall);
    log(`  topK cuda ${m} queries: ${t.wall.toFixed(3)} s (${gf(t.wall)} GFLOP/s effective, copies included)`);
  }
  const blk = Math.min(1000, m);
  const cmGpu = timedSync(() => cosineMatrix(queries.subarray(0, blk * d), corpus, d));

  useBackend('cpu');
  const threads = backendInfo().threads;
  const cpu: number[] = [];
  let cpuRes = gpuRes;
  for (let i = 0; i < repeats; i++) {
    const t = timedSync(() => topK(queries, corpus, d, k));
    cpuRes = t.value;
    cpu.push(t.wall);
    log(
      `  topK cpu (${threads} threads, ${backendInfo().simd}) ${m} queries: ${t.wall.toFixed(3)} s (CPU ${t.cpu.toFixed(1)} s)`,
    );
  }
  const cmCpu = timedSync(() => cosineMatrix(queries.subarray(0, blk * d), corpus, d));
  useBackend('auto');

  const vsCpu = agreement(gpuRes, cpuRes);
  let maxScoreDiff = 0;
  for (let i = 0; i < gpuRes.scores.length; i++)
    if (gpuRes.indices[i] === cpuRes.indices[i])
      maxScoreDiff = Math.max(maxScoreDiff, Math.abs(gpuRes.scores[i] - cpuRes.scores[i]));
  let cmDiff = 0;
  for (let i = 0; i < cmGpu.value.length; i++) cmDiff = Math.max(cmDiff, Math.abs(cmGpu.value[i] - cmCpu.value[i]));
  const shape = `${m.toLocaleString('en')} queries × ${n.toLocaleString('en')} rows × ${d} (seeded normals, GloVe's shape)`;
  const cpuModel = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  const results: BenchResult[] = [
    {
      name: `top-${k} cosine search, ${shape}: CUDA vs the CPU backend`,
      ours: { label: `@xtrust/native topK (cuda, ${device})`, seconds: gpu },
      peer: { label: `@xtrust/native topK (cpu, ${threads} threads, ${cpuModel})`, seconds: cpu, kind: 'measured' },
      ratio: speedup(gpu, cpu),
      notes: `same index at ${vsCpu.same}/${vsCpu.total} positions (max score difference where equal ${maxScoreDiff.toExponential(1)}); CUDA ${gf(median(gpu))} GFLOP/s effective, copies of corpus and queries to the device included in every call; first call ${first.wall.toFixed(2)} s (context creation)`,
    },
    {
      name: `cosine matrix ${blk.toLocaleString('en')} × ${n.toLocaleString('en')} × ${d}: CUDA vs the CPU backend`,
      ours: { label: `@xtrust/native cosineMatrix (cuda)`, seconds: [cmGpu.wall] },
      peer: { label: `@xtrust/native cosineMatrix (cpu, ${threads} threads)`, seconds: [cmCpu.wall], kind: 'measured' },
      ratio: cmCpu.wall / cmGpu.wall,
      notes: `max |difference| ${cmDiff.toExponential(1)}; the ${((blk * n * 4) / 1e9).toFixed(2)} GB result is copied back to the host in both`,
    },
  ];

  if (options.crossover !== false) results.push(...crossover(log, threads));

  const dir = mkdtempSync(join(tmpdir(), 'xtrust-cuda-bench-'));
  try {
    writeFileSync(join(dir, 'c.f32'), new Uint8Array(corpus.buffer));
    writeFileSync(join(dir, 'q.f32'), new Uint8Array(queries.buffer));
    const py = spawnSync(
      PYTHON,
      [
        peerScript(),
        join(dir, 'c.f32'),
        String(n),
        String(d),
        join(dir, 'q.f32'),
        String(m),
        String(k),
        '2048',
        String(repeats),
      ],
      {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    if (py.status !== 0) {
      log(`  PyTorch peer failed: ${(py.stderr || py.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`);
      return results;
    }
    const peer = JSON.parse(py.stdout.trim().split('\n').pop()!) as TorchPeer;
    if (peer.skip) {
      log(`  PyTorch peer skipped: ${peer.skip}`);
      return results;
    }
    const vsTorch = agreement(gpuRes, { indices: peer.indices });
    log(
      `  PyTorch ${peer.torch} on ${peer.device}: end to end ${peer.end_to_end_s.map((s) => s.toFixed(3)).join(', ')} s; resident ${peer.resident_s.map((s) => s.toFixed(3)).join(', ')} s`,
    );
    results.push(
      {
        name: `top-${k} cosine search, ${shape}: CUDA vs PyTorch on the same GPU, copies included`,
        ours: { label: `@xtrust/native topK (cuda)`, seconds: gpu },
        peer: {
          label: `PyTorch ${peer.torch} float32 matmul + topk, host→device copies each run`,
          seconds: peer.end_to_end_s,
          kind: 'measured',
        },
        ratio: speedup(gpu, peer.end_to_end_s),
        notes: `same index at ${vsTorch.same}/${vsTorch.total} positions (torch.topk orders near-ties its own way); blocks of 2,048 queries; TF32 ${peer.tf32 ? 'on' : 'off'}; torch's first call ${peer.first_s.toFixed(2)} s`,
      },
      {
        name: `top-${k} cosine search, ${shape}: CUDA (copies included) vs PyTorch with the data already on the GPU`,
        ours: { label: `@xtrust/native topK (cuda)`, seconds: gpu },
        peer: {
          label: `PyTorch ${peer.torch} float32 matmul + topk, resident`,
          seconds: peer.resident_s,
          kind: 'measured',
        },
        ratio: speedup(gpu, peer.resident_s),
        notes: `the peer skips the ${(((n + m) * d * 4) / 1e6).toFixed(0)} MB of host-to-device copies our call makes; a bound on what keeping the corpus on the device would gain`,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
