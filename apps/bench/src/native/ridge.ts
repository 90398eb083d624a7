import { rng, ridgeBatchTs, type RidgeProblem } from '@xtrust/core';
import { backend, ridgeBatch } from '@xtrust/native';
import type { BenchResult } from '../harness/result.js';
import { median, speedup, timedSync } from '../harness/timing.js';

export interface RidgeBenchOptions {
  explanations?: number;
  samples?: number;
  features?: number;
  /** Problems the TS twin really solves; its time is scaled to all of them (default: all). */
  tsProblems?: number;
  repeats?: number;
  log?: (line: string) => void;
}

/** LIME-shaped problems: binary masks (first row all ones), kernel weights, a logistic target. */
export function limeProblems(seed: number, count: number, rows: number, cols: number): RidgeProblem[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => {
    const x = new Uint8Array(rows * cols);
    const y = new Float64Array(rows);
    const w = new Float64Array(rows);
    const beta = Float64Array.from({ length: cols }, () => r.normal());
    for (let i = 0; i < rows; i++) {
      let on = 0;
      let lin = 0;
      for (let c = 0; c < cols; c++) {
        const v = i === 0 || r.float() < 0.5 ? 1 : 0;
        x[i * cols + c] = v;
        on += v;
        lin += v * beta[c];
      }
      const dist = Math.sqrt((cols - on) / cols);
      w[i] = Math.sqrt(Math.exp(-(dist * dist) / 0.5625));
      y[i] = 1 / (1 + Math.exp(-0.2 * lin));
    }
    return { x, rows, cols, y, sampleWeight: w, alpha: 1 };
  });
}

/** ridgeBatch for LIME-sized work (default 100 explanations × 5,000 samples × 200 features): native vs TS. */
export async function benchRidge(options: RidgeBenchOptions = {}): Promise<BenchResult[]> {
  const e = options.explanations ?? 100;
  const rows = options.samples ?? 5000;
  const cols = options.features ?? 200;
  const tsE = Math.min(e, options.tsProblems ?? e);
  const log = options.log ?? (() => {});
  const problems = limeProblems(11, e, rows, cols);
  const ours: number[] = [];
  const cpu: number[] = [];
  let fits = ridgeBatch(problems);
  for (let r = 0; r < (options.repeats ?? 3); r++) {
    const t = timedSync(() => ridgeBatch(problems));
    fits = t.value;
    ours.push(t.wall);
    cpu.push(t.cpu);
    log(`  ridgeBatch native (${backend()}): ${t.wall.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`);
  }
  const tsT = timedSync(() => ridgeBatchTs(problems.slice(0, tsE)));
  const [tsFits, tsS] = [tsT.value, tsT.wall];
  const tsFull = (tsS * e) / tsE;
  log(`  ridgeBatchTs ${tsE} problems: ${tsS.toFixed(2)} s`);
  let maxRel = 0;
  tsFits.forEach((t, i) =>
    t.coef.forEach((c, j) => (maxRel = Math.max(maxRel, Math.abs(c - fits[i].coef[j]) / Math.max(1e-12, Math.abs(c))))),
  );
  const ratio = speedup(ours, [tsFull]);
  return [
    {
      name: `ridgeBatch ${e} explanations × ${rows.toLocaleString('en')} samples × ${cols} features: native vs TS twin`,
      ours: { label: `@xtrust/native ridgeBatch (${backend()})`, seconds: ours },
      peer: { label: 'ridgeBatchTs (@xtrust/core)', seconds: [tsFull], kind: tsE === e ? 'measured' : 'extrapolated' },
      ratio,
      notes: `${tsE === e ? '' : `TS measured on ${tsE} problems and scaled; `}largest relative coefficient difference ${maxRel.toExponential(1)}; CPU time: native ${median(cpu).toFixed(2)} s, TS ${((tsT.cpu * e) / tsE).toFixed(2)} s (${((tsT.cpu * e) / tsE / median(cpu)).toFixed(1)}×); target ≥ 10×: ${ratio >= 10 ? 'met' : 'NOT met'}`,
    },
  ];
}
