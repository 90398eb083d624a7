// profile.js --ops's reading of onnxruntime's trace (op-profile.ts): kernel time summed by operator type on a
// hand-made trace, fences and session events kept out, the newest trace of a prefix read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorProfile, readProfileTrace, type TraceEvent } from '../src/transformer-lime/op-profile.js';

const node = (name: string, op: string, dur: number): TraceEvent => ({
  cat: 'Node',
  name: `${name}_kernel_time`,
  dur,
  args: { op_name: op },
});

describe('operatorProfile', () => {
  // two graph runs of a three-node graph: two MatMuls and a Softmax
  const trace: TraceEvent[] = [
    { cat: 'Session', name: 'session_initialization', dur: 5000 },
    { cat: 'Session', name: 'model_run', dur: 130 },
    { cat: 'Node', name: 'mm1_fence_before', dur: 0, args: { op_name: 'MatMul' } },
    node('mm1', 'MatMul', 40),
    node('mm2', 'MatMul', 50),
    node('sm', 'Softmax', 10),
    { cat: 'Session', name: 'model_run', dur: 120 },
    node('mm1', 'MatMul', 30),
    node('mm2', 'MatMul', 50),
    node('sm', 'Softmax', 20),
  ];

  it('sums kernel time by operator, counts nodes and runs, largest first', () => {
    const p = operatorProfile(trace);
    expect(p.runs).toBe(2);
    expect(p.runMicros).toBe(250);
    expect(p.kernelMicros).toBe(200);
    expect(p.operators).toEqual([
      { op: 'MatMul', micros: 170, nodes: 2, share: 0.85 },
      { op: 'Softmax', micros: 30, nodes: 1, share: 0.15 },
    ]);
  });

  it('gives an empty profile for a trace without node events', () => {
    expect(operatorProfile([{ cat: 'Session', name: 'session_initialization', dur: 9 }])).toEqual({
      runs: 0,
      runMicros: 0,
      kernelMicros: 0,
      operators: [],
    });
  });

  it('reads the newest trace of a prefix and names the prefix when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-op-profile-'));
    try {
      writeFileSync(join(dir, 'run_2026-11-27_10-00-00.json'), JSON.stringify([node('a', 'Add', 1)]));
      writeFileSync(join(dir, 'run_2026-11-27_10-00-05.json'), JSON.stringify([node('b', 'Mul', 2)]));
      writeFileSync(join(dir, 'other_2026-11-27_10-00-09.json'), '[]');
      expect(readProfileTrace(join(dir, 'run'))[0].args?.op_name).toBe('Mul');
      expect(() => readProfileTrace(join(dir, 'missing'))).toThrow(/missing_\*\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
