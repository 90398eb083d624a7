import { averageLinkage, backend, cosineMatrix } from '@xtrust/native';
import { agnes } from 'ml-hclust';
import type { BenchResult } from '../harness/result.js';
import { median, speedup, timedSync } from '../harness/timing.js';
import { gloveMatrix, seconds } from './glove.js';
import { pythonPeers, runPeer } from './peers.js';

export interface ClusterBenchOptions {
  sizes?: number[];
  /** Largest size ml-hclust (O(n³)) really runs; above it its time is extrapolated (default 2,000). */
  hclustMax?: number;
  repeats?: number;
  log?: (line: string) => void;
}

/** Cosine distances of the rows of x (n×dim) with the native kernel, then UPGMA. */
export function nativeClustering(x: Float32Array, n: number, dim: number) {
  const d = cosineMatrix(x, x, dim);
  for (let i = 0; i < d.length; i++) d[i] = 1 - d[i];
  for (let i = 0; i < n; i++) d[i * n + i] = 0;
  return { distances: d, dendrogram: averageLinkage(d, n) };
}

/**
 * Average-linkage clustering of the first n GloVe words (cosine distance matrix included) with the
 * native kernels, against ml-hclust's agnes and SciPy's pdist + linkage(method='average').
 */
export async function benchClustering(options: ClusterBenchOptions = {}): Promise<BenchResult[]> {
  const sizes = options.sizes ?? [2000, 5000, 10000];
  const hclustMax = options.hclustMax ?? 2000;
  const log = options.log ?? (() => {});
  const { matrix, dim } = await gloveMatrix();
  const py = pythonPeers();
  const results: BenchResult[] = [];
  let hclust: { n: number; s: number } | null = null;
  for (const n of sizes) {
    const x = matrix.slice(0, n * dim);
    const repeats = options.repeats ?? (n <= 5000 ? 3 : 2);
    const ours: number[] = [];
    const cpu: number[] = [];
    let last = nativeClustering(x, n, dim);
    for (let r = 0; r < repeats; r++) {
      const t = timedSync(() => nativeClustering(x, n, dim));
      last = t.value;
      ours.push(t.wall);
      cpu.push(t.cpu);
    }
    log(
      `  clustering ${n} native (${backend()}): ${ours.map((s) => s.toFixed(3)).join(', ')} s (CPU ${cpu.map((s) => s.toFixed(3)).join(', ')} s)`,
    );
    const oursLabel = `@xtrust/native cosineMatrix + averageLinkage (${backend()})`;
    const top = last.dendrogram.heights[n - 2];

    // ml-hclust: given the same distance matrix as number[][] (building it is not timed).
    let hclustSeconds: number;
    let kind: 'measured' | 'extrapolated';
    let hclustNote: string;
    if (n <= hclustMax) {
      const rows = Array.from({ length: n }, (_, i) => Array.from(last.distances.subarray(i * n, (i + 1) * n)));
      const [tree, s] = seconds(() => agnes(rows, { method: 'average', isDistanceMatrix: true }));
      hclustSeconds = s;
      kind = 'measured';
      hclust = { n, s };
      hclustNote = `ml-hclust root height ${tree.height.toFixed(6)} vs ours ${top.toFixed(6)}`;
      log(`  clustering ${n} ml-hclust: ${s.toFixed(2)} s`);
    } else if (hclust) {
      hclustSeconds = hclust.s * (n / hclust.n) ** 3;
      kind = 'extrapolated';
      hclustNote = `ml-hclust extrapolated as O(n³) from ${hclust.s.toFixed(2)} s measured at n = ${hclust.n}`;
    } else {
      continue;
    }
    results.push({
      name: `average-linkage clustering of ${n.toLocaleString('en')} GloVe words: native vs ml-hclust`,
      ours: { label: oursLabel, seconds: ours },
      peer: { label: 'ml-hclust agnes(average)', seconds: [hclustSeconds], kind },
      ratio: speedup(ours, [hclustSeconds]),
      notes: `${hclustNote}; ours includes the cosine distance matrix, ml-hclust gets it ready-made${n === 2000 ? `; target ≥ 50×: ${speedup(ours, [hclustSeconds]) >= 50 ? 'met' : 'NOT met'}` : ''}`,
    });

    if (!py.ok) {
      log(`  SciPy peer skipped: ${py.reason}`);
      continue;
    }
    const sp = runPeer<{
      pdist_s: number;
      linkage_s: number;
      total_s: number;
      cpu_s: number;
      last_height: number;
      scipy: string;
    }>('cluster', { x }, (f) => [f.x, String(n), String(dim)]);
    log(`  clustering ${n} SciPy ${sp.scipy}: pdist ${sp.pdist_s.toFixed(2)} s + linkage ${sp.linkage_s.toFixed(2)} s`);
    const r = speedup(ours, [sp.total_s]);
    results.push({
      name: `average-linkage clustering of ${n.toLocaleString('en')} GloVe words: native vs SciPy`,
      ours: { label: oursLabel, seconds: ours },
      peer: { label: `SciPy ${sp.scipy} pdist(cosine) + linkage(average)`, seconds: [sp.total_s], kind: 'measured' },
      ratio: r,
      notes: `SciPy pdist ${sp.pdist_s.toFixed(2)} s + linkage ${sp.linkage_s.toFixed(2)} s; root height SciPy ${sp.last_height.toFixed(6)} vs ours ${top.toFixed(6)}${n >= 5000 ? `; target ≥ 2×: ${r >= 2 ? 'met' : 'NOT met'}` : ''}; CPU time: SciPy ${sp.cpu_s.toFixed(2)} s, ours ${median(cpu).toFixed(2)} s`,
    });
  }
  return results;
}
