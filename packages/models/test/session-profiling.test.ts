// onnxruntime's profiler through OnnxClassifierOptions.session.profileFilePrefix: the kit's tiny-bert-spam
// writes a Chrome trace with one kernel-time event per node run, the profiled scores equal the unprofiled
// ones, and asking to profile a pool of sessions is refused by name.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OnnxClassifier } from '../src/index.js';
import { sessionOptions } from '../src/session-options.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

interface TraceEvent {
  cat: string;
  name: string;
  dur: number;
  args?: { op_name?: string };
}

describe("onnxruntime's profiler on an OnnxClassifier", () => {
  const dir = kitFixture('tiny-bert-spam');
  const out = mkdtempSync(join(tmpdir(), 'xtrust-profile-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const texts = ['win a free prize now', 'meeting moved to thursday afternoon, see the agenda', 'click here'];

  it('leaves profiling off unless a prefix is given', () => {
    expect(sessionOptions(1)).not.toHaveProperty('enableProfiling');
    expect(sessionOptions(1, { profileFilePrefix: '/x/p' })).toMatchObject({
      enableProfiling: true,
      profileFilePrefix: '/x/p',
    });
  });

  it('writes one kernel-time event per node run, and the scores are the unprofiled ones', async () => {
    const prefix = join(out, 'tiny');
    const profiled = await OnnxClassifier.load(dir, { threads: 1, session: { profileFilePrefix: prefix } });
    const plain = await OnnxClassifier.load(dir, { threads: 1 });
    try {
      const p = await profiled.predictProba(texts);
      expect(Array.from(p)).toEqual(Array.from(await plain.predictProba(texts)));
      profiled.endProfiling();
      profiled.endProfiling(); // a second call is a no-op, not a second file
    } finally {
      await profiled.release();
      await plain.release();
    }
    const files = readdirSync(out).filter((f) => f.startsWith('tiny') && f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const events = JSON.parse(readFileSync(join(out, files[0]), 'utf8')) as TraceEvent[];
    const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run');
    expect(runs.length).toBe(profiled.scoringStats.runs);
    const kernels = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
    expect(kernels.length).toBeGreaterThan(0);
    // every node runs once per graph run
    expect(kernels.length % runs.length).toBe(0);
    const ops = new Set(kernels.map((e) => e.args?.op_name));
    expect(ops.has('Gather')).toBe(true);
    expect([...ops].some((op) => op === 'MatMul' || op === 'FusedMatMul' || op === 'Gemm')).toBe(true);
  });

  it('refuses to profile a pool of sessions, naming the setting', async () => {
    await expect(
      OnnxClassifier.load(dir, { threads: 2, sessions: 2, session: { profileFilePrefix: join(out, 'pool') } }),
    ).rejects.toThrow(/profileFilePrefix.*sessions: 1/);
  });
});
