import { describe, expect, it } from 'vitest';
import type { AttackRecord } from '@xtrust/attack';
import { formatVictimTable4, sarIntervals } from '../src/attack/victim-runs.js';

/** Only the fields the intervals read: the instance index and the status. */
const rec = (index: number, status: 'succeeded' | 'failed' | 'skipped') =>
  ({ index, status }) as unknown as AttackRecord;
const run = (statuses: readonly ('succeeded' | 'failed' | 'skipped')[]) => ({
  records: statuses.map((s, i) => rec(i, s)),
});

describe('Table 4 SAR intervals', () => {
  it('scores both runs on the instances both attacked and pairs the difference (hand-computed estimates)', () => {
    // instance 4 is skipped by the second run: it counts for neither
    const a = run(['succeeded', 'succeeded', 'failed', 'failed', 'succeeded']);
    const b = run(['succeeded', 'failed', 'failed', 'failed', 'skipped']);
    const r = sarIntervals([a, b], 1);
    expect(r.sar.map((x) => x.estimate)).toEqual([0.5, 0.25]);
    expect(r.difference.instances).toBe(4);
    expect(r.difference.estimate).toBe(0.25);
    for (const x of [...r.sar, r.difference]) expect(x.lo <= x.estimate && x.estimate <= x.hi).toBe(true);
    // every paired difference is 0 or +1, so no resample can go below 0 or above 1
    expect(r.difference.lo).toBeGreaterThanOrEqual(0);
    expect(r.difference.hi).toBeLessThanOrEqual(1);
    expect(sarIntervals([a, b], 1)).toEqual(r); // seeded
  });

  it('gives a zero-width difference when both runs agree on every instance, and says the interval holds 0', () => {
    const a = run(['succeeded', 'failed', 'succeeded']);
    const r = sarIntervals([a, a], 3);
    expect([r.difference.lo, r.difference.estimate, r.difference.hi]).toEqual([0, 0, 0]);
    const row = (method: string) => ({
      method,
      instances: 3,
      successRate: 2 / 3,
      averagePerturbedWords: 1,
      cosine: {},
      perturbedWordsOnCommonSuccesses: 1,
      commonSuccesses: 2,
      averageQueries: 5,
      secondsPerInstance: 0.1,
    });
    const table = formatVictimTable4([
      { victim: 'v', rows: [row('TOKI-guided'), row('A2T')], share: [0.1, 0.1], seconds: [1, 1], intervals: r },
    ]);
    expect(table).toContain('| v | TOKI-guided | 3 | 0.667 [');
    expect(table).toContain(
      '- v: SAR TOKI-guided − A2T on the 3 instances both attacked +0.000 [+0.000, +0.000] (paired bootstrap, 95 %) — the interval holds 0.',
    );
  });
});
