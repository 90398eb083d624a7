import { rng } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  ORACLES,
  checkOracle,
  labelExplanations,
  tokiStatistic,
  verdictOf,
  verdictStatisticOf,
  type OracleConfig,
} from '../src/index.js';
import { COMPUTER_HAND, computerStore, decisiveWordOracle, explanation } from './fixtures.js';

const hand = COMPUTER_HAND;

/** The hand-checked store of trust-labels.test.ts (keywords of "computer": file, extension; banana unrelated) under `decisive-word`. */
function store(decisiveShare: number | null, verdictRule: OracleConfig['verdictRule'] = 'decisive-word') {
  return computerStore([hand], {
    oracle: decisiveWordOracle(`share-${decisiveShare}`, { verdictRule, decisiveShare }),
  });
}

// a saturated prediction: half the margin (0.99 − 0.01) / 2 = 0.49; banana carries 0.3 of the 0.4 supporting weight
const saturated = {
  ...explanation('computer', { file: 0.1, banana: 0.3 }, 'file banana'),
  probabilities: [0.99, 0.01],
};

describe('decisive-word with a decisive share (OracleConfig.decisiveShare)', () => {
  it('calls a reason decisive when it carries the share of the supporting weight, below half the margin', async () => {
    const [plain] = await labelExplanations(await store(null), [saturated], { embeddings: [hand] });
    expect(plain.unrelated.map((f) => f.word)).toEqual(['banana']);
    expect(plain.verdict).toBe('trustworthy'); // 0.3 ≤ 0.49
    const [half] = await labelExplanations(await store(0.5), [saturated], { embeddings: [hand] });
    expect(half.verdict).toBe('untrustworthy'); // 0.3 > min(0.49, 0.5 × 0.4 = 0.2)
    expect(half.decisive).toEqual({ words: ['banana'], weight: 0.3, bound: expect.closeTo(0.2, 12), by: 'share' });
    expect(plain.decisive).toBeUndefined();
    const [most] = await labelExplanations(await store(0.8), [saturated], { embeddings: [hand] });
    expect(most.verdict).toBe('trustworthy'); // 0.3 ≤ min(0.49, 0.32)
  });

  it('leaves half the margin in charge where it is the smaller bound, and other rules alone', async () => {
    // margin (0.6 − 0.4) / 2 = 0.1 < 0.5 × 0.4: banana's 0.3 is decisive with or without the share
    const close = { ...saturated, probabilities: [0.6, 0.4] };
    for (const share of [null, 0.5]) {
      const [l] = await labelExplanations(await store(share), [close], { embeddings: [hand] });
      expect(l.verdict).toBe('untrustworthy');
      expect(l.decisive).toEqual({ words: ['banana'], weight: 0.3, bound: expect.closeTo(0.1, 12), by: 'margin' });
    }
    // the sum rule knows no share: IS_rel 0.1 < IS_unr 0.3 either way, and a related-heavy text stays trustworthy
    const related = {
      ...explanation('computer', { file: 0.4, banana: 0.3 }, 'file banana'),
      probabilities: [0.99, 0.01],
    };
    const [sum] = await labelExplanations(await store(0.5, 'sum'), [related], { embeddings: [hand] });
    expect(sum.verdict).toBe('trustworthy');
    const [sumFlag] = await labelExplanations(await store(0.5, 'sum'), [saturated], { embeddings: [hand] });
    expect(sumFlag.verdict).toBe('untrustworthy'); // 0.1 < 0.3: the sum rule has no decisive reason to name
    expect(sumFlag.decisive).toBeUndefined();
  });

  it('is kept by a saved store', async () => {
    const saved = KeywordStore.fromJSON(JSON.parse(JSON.stringify((await store(0.5)).toJSON())));
    expect(saved.oracle.decisiveShare).toBe(0.5);
    const [l] = await labelExplanations(saved, [saturated], { embeddings: [hand] });
    expect(l.verdict).toBe('untrustworthy');
  });

  it('verdictOf and verdictStatisticOf agree under a share bound (2,000 random cases, ties included)', () => {
    const r = rng(9);
    for (let i = 0; i < 2000; i++) {
      const q = () => r.int(9) / 16;
      const isRel = q();
      const isUnr = q();
      const maxUnr = Math.min(isUnr, q());
      const bound = r.int(3) === 0 ? Number.POSITIVE_INFINITY : q();
      const pc = 0.5 + q();
      const s = verdictStatisticOf('decisive-word', isRel, isUnr, 2 * pc - 1, maxUnr, bound);
      expect(s >= 0).toBe(verdictOf('decisive-word', isRel, isUnr, { probabilities: [pc, 1 - pc] }, 0, maxUnr, bound));
    }
  });

  it('verdict-aware sampling: the statistic and its gradient under the share (hand-computed)', () => {
    // top 3 decision words: file 0.3 (related, two spellings), banana 0.25 (unrelated), the 0.05 (neutral): supporting 0.6
    const words = ['File', 'file', 'banana', 'the', 'apple'];
    const role = Int8Array.from([1, 1, -1, 0, -1]);
    const fit = {
      features: Int32Array.from([0, 1, 2, 3, 4]),
      coef: Float64Array.from([0.2, 0.1, 0.25, 0.05, -0.3]),
      intercept: 0,
    };
    // share 0.5: bound 0.3 < half the margin 0.4 → 0.3 − 0.25; every counted feature +0.5, banana −1 more
    const s = tokiStatistic('decisive-word', words, role, 3, 0.8, 1, 0.5)(fit);
    expect(s.value).toBeCloseTo(0.05, 12);
    expect(Array.from(s.gradient)).toEqual([0.5, 0.5, -0.5, 0.5, 0]);
    // share 0.3: bound 0.18 → −0.07 (untrustworthy)
    expect(tokiStatistic('decisive-word', words, role, 3, 0.8, 1, 0.3)(fit).value).toBeCloseTo(-0.07, 12);
    // a narrow margin (half 0.1) is the smaller bound: the plain decisive-word statistic and gradient
    const narrow = tokiStatistic('decisive-word', words, role, 3, 0.2, 1, 0.5)(fit);
    expect(narrow.value).toBeCloseTo(-0.15, 12);
    expect(Array.from(narrow.gradient)).toEqual([0, 0, -1, 0, 0]);
  });

  it("verdict-aware sampling weighs the labelling's groups: words that travel together are one reason", () => {
    const words = ['best', 'regards', 'file'];
    const role = Int8Array.from([-1, -1, 1]);
    const fit = { features: Int32Array.from([0, 1, 2]), coef: Float64Array.from([0.2, 0.15, 0.3]), intercept: 0 };
    // alone: half the margin 0.4 − best's 0.2
    const alone = tokiStatistic('decisive-word', words, role, 3, 0.8)(fit);
    expect(alone.value).toBeCloseTo(0.2, 12);
    expect(Array.from(alone.gradient)).toEqual([-1, 0, 0]);
    // grouped (best, regards): 0.4 − 0.35, gradient −1 on both
    const grouped = tokiStatistic('decisive-word', words, role, 3, 0.8, 1, null, (ws) => {
      expect(ws).toEqual(['best', 'regards']); // the counted unrelated words, heaviest first
      return [[0, 1]];
    })(fit);
    expect(grouped.value).toBeCloseTo(0.05, 12);
    expect(Array.from(grouped.gradient)).toEqual([-1, -1, 0]);
  });

  it('refuses a share outside (0, 1], naming the field', () => {
    const c = (decisiveShare: number) => ({ ...ORACLES.toki, decisiveShare });
    expect(() => checkOracle(c(0))).toThrow(/decisiveShare must be a share in \(0, 1\]/);
    expect(() => checkOracle(c(1.5))).toThrow(/decisiveShare/);
    expect(() => checkOracle(c(0.5))).not.toThrow();
  });
});
