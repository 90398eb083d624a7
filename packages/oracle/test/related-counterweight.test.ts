import { rng } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  ORACLES,
  checkOracle,
  labelExplanations,
  relatedFloor,
  tokiStatistic,
  verdictOf,
  verdictStatisticOf,
} from '../src/index.js';
import { COMPUTER_HAND, computerStore, decisiveWordOracle, explanation } from './fixtures.js';

const hand = COMPUTER_HAND;

/** The hand-checked store of trust-labels.test.ts (keywords of "computer": file, extension; banana unrelated) under `decisive-word`. */
function store(relatedCounterweight: number | null, decisiveShare: number | null = null) {
  return computerStore([hand], {
    oracle: decisiveWordOracle(`counterweight-${relatedCounterweight}`, { decisiveShare, relatedCounterweight }),
  });
}

// a near tie: half the margin (0.52 − 0.48) / 2 = 0.02; file (related) 0.46, banana (unrelated) 0.065
const nearTie = {
  ...explanation('computer', { file: 0.46, banana: 0.065 }, 'file banana'),
  probabilities: [0.52, 0.48],
};

describe('decisive-word with a related counterweight (OracleConfig.relatedCounterweight)', () => {
  it('lets a heavier related weight keep a light decisive word from condemning a near tie', async () => {
    const [plain] = await labelExplanations(await store(null), [nearTie], { embeddings: [hand] });
    expect(plain.verdict).toBe('untrustworthy'); // 0.065 > 0.02
    expect(plain.decisive).toEqual({ words: ['banana'], weight: 0.065, bound: expect.closeTo(0.02, 12), by: 'margin' });
    const [one] = await labelExplanations(await store(1), [nearTie], { embeddings: [hand] });
    expect(one.verdict).toBe('trustworthy'); // 0.065 ≤ max(0.02, 1 × 0.46)
    expect(one.isRel).toBeCloseTo(0.46, 12);
    // a counterweight of 0.1: the floor 0.046 is still below banana's 0.065, and names itself as the bound
    const [tenth] = await labelExplanations(await store(0.1), [nearTie], { embeddings: [hand] });
    expect(tenth.verdict).toBe('untrustworthy');
    expect(tenth.decisive).toEqual({
      words: ['banana'],
      weight: 0.065,
      bound: expect.closeTo(0.046, 12),
      by: 'related',
    });
  });

  it('changes nothing where the unrelated reason outweighs the related words', async () => {
    // the planted-trigger shape: banana 0.3 against file 0.1, half the margin 0.15
    const shortcut = {
      ...explanation('computer', { file: 0.1, banana: 0.3 }, 'file banana'),
      probabilities: [0.65, 0.35],
    };
    for (const k of [null, 1, 2]) {
      const [l] = await labelExplanations(await store(k), [shortcut], { embeddings: [hand] });
      expect(l.verdict).toBe('untrustworthy');
      // the floor (k × 0.1) is below banana's 0.3; it names the bound only where it is the larger one
      expect(l.decisive?.by).toBe(k === 2 ? 'related' : 'margin');
    }
    // a counterweight of 3: 0.3 ≤ 3 × 0.1 — the related words outweigh it three to one
    const [three] = await labelExplanations(await store(3), [shortcut], { embeddings: [hand] });
    expect(three.verdict).toBe('trustworthy');
    // with no related word the floor is 0: a shortcut alone is judged by the margin as before
    const alone = { ...explanation('computer', { banana: 0.3 }, 'banana'), probabilities: [0.6, 0.4] };
    const [a] = await labelExplanations(await store(3), [alone], { embeddings: [hand] });
    expect(a.verdict).toBe('untrustworthy');
    expect(a.decisive?.by).toBe('margin');
  });

  it('is kept by a saved store and reads 0 as its floor when absent', async () => {
    const s = await store(1);
    const saved = KeywordStore.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    expect(saved.oracle.relatedCounterweight).toBe(1);
    expect(relatedFloor(saved, 0.4)).toBeCloseTo(0.4, 12);
    expect(relatedFloor(await store(null), 0.4)).toBe(0);
    const [l] = await labelExplanations(saved, [nearTie], { embeddings: [hand] });
    expect(l.verdict).toBe('trustworthy');
  });

  it('verdictOf and verdictStatisticOf agree with a related floor (2,000 random cases, ties included)', () => {
    const r = rng(13);
    for (let i = 0; i < 2000; i++) {
      const q = () => r.int(9) / 16;
      const isRel = q();
      const isUnr = q();
      const maxUnr = Math.min(isUnr, q());
      const bound = r.int(3) === 0 ? Number.POSITIVE_INFINITY : q();
      const floor = r.int(3) === 0 ? 0 : (r.int(4) / 2) * isRel;
      const pc = 0.5 + q();
      const s = verdictStatisticOf('decisive-word', isRel, isUnr, 2 * pc - 1, maxUnr, bound, floor);
      expect(s >= 0).toBe(
        verdictOf('decisive-word', isRel, isUnr, { probabilities: [pc, 1 - pc] }, 0, maxUnr, bound, floor),
      );
    }
  });

  it('verdict-aware sampling: the statistic and its gradient under the floor (hand-computed)', () => {
    // top 3 decision words: file 0.3 (related, two spellings), banana 0.25 (unrelated), the 0.05 (neutral)
    const words = ['File', 'file', 'banana', 'the', 'apple'];
    const role = Int8Array.from([1, 1, -1, 0, -1]);
    const fit = {
      features: Int32Array.from([0, 1, 2, 3, 4]),
      coef: Float64Array.from([0.2, 0.1, 0.25, 0.05, -0.3]),
      intercept: 0,
    };
    // a narrow margin (half 0.1): without the floor 0.1 − 0.25; with counterweight 1 the floor 0.3 is larger:
    // 0.3 − 0.25, gradient +1 on file's two features, −1 on banana's
    expect(tokiStatistic('decisive-word', words, role, 3, 0.2, 1, null)(fit).value).toBeCloseTo(-0.15, 12);
    const s = tokiStatistic('decisive-word', words, role, 3, 0.2, 1, null, undefined, 1)(fit);
    expect(s.value).toBeCloseTo(0.05, 12);
    expect(Array.from(s.gradient)).toEqual([1, 1, -1, 0, 0]);
    // counterweight 0.5: floor 0.15 > 0.1 → 0.15 − 0.25, related features +0.5
    const half = tokiStatistic('decisive-word', words, role, 3, 0.2, 1, null, undefined, 0.5)(fit);
    expect(half.value).toBeCloseTo(-0.1, 12);
    expect(Array.from(half.gradient)).toEqual([0.5, 0.5, -1, 0, 0]);
    // a wide margin (half 0.4) is above the floor: the plain statistic
    const wide = tokiStatistic('decisive-word', words, role, 3, 0.8, 1, null, undefined, 1)(fit);
    expect(wide.value).toBeCloseTo(0.15, 12);
    expect(Array.from(wide.gradient)).toEqual([0, 0, -1, 0, 0]);
  });

  it('refuses a counterweight that is not a positive finite number, naming the field', () => {
    const c = (relatedCounterweight: number) => ({ ...ORACLES.toki, relatedCounterweight });
    expect(() => checkOracle(c(0))).toThrow(/relatedCounterweight must be a positive finite multiple/);
    expect(() => checkOracle(c(-1))).toThrow(/relatedCounterweight/);
    expect(() => checkOracle(c(Number.POSITIVE_INFINITY))).toThrow(/relatedCounterweight/);
    expect(() => checkOracle(c(1))).not.toThrow();
  });
});
