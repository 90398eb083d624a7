/**
 * Where a graph's time goes, by operator: onnxruntime's profiler trace (a Chrome trace, one event per node
 * run, written by OnnxClassifier.endProfiling()) summed by operator type. Read by profile.js --ops.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The fields of onnxruntime's trace events this reads. */
export interface TraceEvent {
  cat: string;
  name: string;
  /** Microseconds. */
  dur: number;
  args?: { op_name?: string };
}

/** One operator type's share of the graph. */
export interface OperatorTime {
  op: string;
  /** Kernel time summed over every node of this type and every run, µs. */
  micros: number;
  /** Nodes of this type in the (optimised) graph. */
  nodes: number;
  /** Share of all kernel time. */
  share: number;
}

export interface OperatorProfile {
  /** Graph runs (`model_run` events). */
  runs: number;
  /** Wall time inside the runs, µs (kernels plus onnxruntime's own work between them). */
  runMicros: number;
  /** Kernel time summed over every node run, µs. */
  kernelMicros: number;
  /** Largest first. */
  operators: OperatorTime[];
}

/**
 * Sums a trace's node events (`cat: 'Node'`, name `<node>_kernel_time`) by `args.op_name`; the
 * `<node>_fence_before/after` events (scheduling, zero on one CPU session) are not kernel time.
 */
export function operatorProfile(events: readonly TraceEvent[]): OperatorProfile {
  const byOp = new Map<string, { micros: number; nodes: Set<string> }>();
  let kernelMicros = 0;
  let runs = 0;
  let runMicros = 0;
  for (const e of events) {
    if (e.cat === 'Session' && e.name === 'model_run') {
      runs++;
      runMicros += e.dur;
    } else if (e.cat === 'Node' && e.name.endsWith('_kernel_time')) {
      const op = e.args?.op_name ?? '(unnamed)';
      let entry = byOp.get(op);
      if (!entry) byOp.set(op, (entry = { micros: 0, nodes: new Set() }));
      entry.micros += e.dur;
      entry.nodes.add(e.name);
      kernelMicros += e.dur;
    }
  }
  const operators = [...byOp.entries()]
    .map(([op, { micros, nodes }]) => ({
      op,
      micros,
      nodes: nodes.size,
      share: kernelMicros > 0 ? micros / kernelMicros : 0,
    }))
    .sort((a, b) => b.micros - a.micros || a.op.localeCompare(b.op));
  return { runs, runMicros, kernelMicros, operators };
}

/** The trace onnxruntime wrote for `prefix` (`<prefix>_<date and time>.json`); the newest when several. */
export function readProfileTrace(prefix: string): TraceEvent[] {
  const dir = dirname(prefix);
  const stem = `${basename(prefix)}_`;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(stem) && f.endsWith('.json'))
    .sort();
  if (files.length === 0)
    throw new Error(
      `no onnxruntime profile ${prefix}_*.json in ${dir}: was the classifier loaded with session.profileFilePrefix and endProfiling() called?`,
    );
  return JSON.parse(readFileSync(join(dir, files[files.length - 1]), 'utf8')) as TraceEvent[];
}
