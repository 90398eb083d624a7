import type { VerdictStatistic } from '@xtrust/explainers';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  ORACLES,
  checkOracle,
  labelExplanations,
  verdictSampling,
  type OracleConfig,
} from '../src/index.js';
import { HandEmbedding, at, computerStore, explanation } from './fixtures.js';

const hand = new HandEmbedding('hand', { computer: at(0), file: at(20), fruit: at(120), apple: at(125) });

/** The paper's rule with function words never keywords, and a lean of `lean` (null: every function word neutral). */
function config(lean: number | null): OracleConfig {
  return {
    ...ORACLES['toki-paper'],
    name: `lean-${lean}`,
    functionWordsNeverKeywords: true,
    functionWordLean: lean,
  };
}

/**
 * Pools (top-k 10, hand-counted): computer's two explanations both hold "the" (share 1), fruit's one of two
 * (0.5) → "the" leans towards computer by 0.5; "of" is in one explanation of each class (0.5 − 0.5 = 0).
 */
function store(lean: number | null): Promise<KeywordStore> {
  return computerStore([hand], {
    oracle: config(lean),
    explanations: [
      explanation('computer', { file: 0.5, the: 0.3, of: 0.1 }),
      explanation('computer', { file: 0.3, the: 0.2 }),
      explanation('fruit', { apple: 0.6, of: 0.2 }),
      explanation('fruit', { apple: 0.5, the: 0.1 }),
    ],
  });
}

describe('function words the model leans on (OracleConfig.functionWordLean)', () => {
  it('finds a function word by its pool-share difference against every other class (hand-counted)', async () => {
    const s = await store(0.5);
    expect([...s.leanedFunctionWords('computer')]).toEqual(['the']); // 1 − 0.5 = 0.5 ≥ 0.5; "of" 0.5 − 0.5
    expect(s.leanedFunctionWords('fruit').size).toBe(0); // 0.5 − 1 < 0
    expect(s.isNeutralWord('computer', 'the')).toBe(false);
    expect(s.isNeutralWord('computer', 'of')).toBe(true);
    expect(s.isNeutralWord('fruit', 'the')).toBe(true);
    expect(s.isNeutralWord('computer', 'file')).toBe(false); // not a function word: left to relatedness
    expect((await store(0.6)).leanedFunctionWords('computer').size).toBe(0);
    expect((await store(null)).isNeutralWord('computer', 'the')).toBe(true);
  });

  it('is recomputed from a saved store', async () => {
    const saved = KeywordStore.fromJSON(JSON.parse(JSON.stringify((await store(0.5)).toJSON())));
    expect(saved.oracle.functionWordLean).toBe(0.5);
    expect([...saved.leanedFunctionWords('computer')]).toEqual(['the']);
  });

  it('follows the pools as they grow', async () => {
    const s = await store(0.5);
    expect(s.leanedFunctionWords('computer').has('the')).toBe(true);
    await s.addExplanations([explanation('fruit', { apple: 0.4, the: 0.1 })], [hand]); // fruit 2 / 3
    expect(s.leanedFunctionWords('computer').has('the')).toBe(false); // 1 − 0.667 < 0.5
  });

  it('counts a leaned-on function word as an unrelated reason in the verdict, and only for its class', async () => {
    const e = explanation('computer', { file: 0.3, the: 0.4 }, 'the file');
    const [neutral] = await labelExplanations(await store(null), [e], { embeddings: [hand] });
    expect(neutral.verdict).toBe('trustworthy'); // "the" neutral: IS_rel .3, IS_unr 0
    expect(neutral.isUnr).toBe(0);
    const [leaned] = await labelExplanations(await store(0.5), [e], { embeddings: [hand] });
    expect(leaned.verdict).toBe('untrustworthy'); // IS_rel .3 < IS_unr .4
    expect(leaned.unrelated.map((f) => f.word)).toEqual(['the']);
    const f = explanation('fruit', { apple: 0.3, the: 0.4 }, 'the apple');
    const [other] = await labelExplanations(await store(0.5), [f], { embeddings: [hand] });
    expect(other.verdict).toBe('trustworthy'); // no lean towards fruit: still neutral there
  });

  it("verdict-aware sampling weighs the text's words the same way: a leaned-on function word unrelated", async () => {
    const ctx = {
      text: 'the file',
      words: ['the', 'file'],
      probabilities: Float32Array.from([0.9, 0.1]),
      label: 0,
      labels: ['computer', 'fruit'],
    };
    const fit = { features: Int32Array.from([0, 1]), coef: Float64Array.from([0.4, 0.3]), intercept: 0 };
    const statOf = async (lean: number | null) =>
      (await verdictSampling(await store(lean), { embeddings: [hand] }).prepare(ctx)) as VerdictStatistic;
    // the paper's sum rule: IS_rel − IS_unr
    const neutral = (await statOf(null))(fit);
    expect(neutral.value).toBeCloseTo(0.3, 12);
    expect(Array.from(neutral.gradient)).toEqual([0, 1]);
    const leaned = (await statOf(0.5))(fit);
    expect(leaned.value).toBeCloseTo(0.3 - 0.4, 12);
    expect(Array.from(leaned.gradient)).toEqual([-1, 1]);
  });

  it('refuses a lean outside (0, 1], naming the field', () => {
    expect(() => checkOracle(config(0))).toThrow(/functionWordLean must be a share difference in \(0, 1\]/);
    expect(() => checkOracle(config(1.5))).toThrow(/functionWordLean/);
    expect(() => checkOracle(config(0.2))).not.toThrow();
  });
});
