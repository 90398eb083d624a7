import type { VerdictStatistic } from '@xtrust/explainers';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  ORACLES,
  WordCooccurrence,
  checkOracle,
  groupedWithPhraseWords,
  labelExplanations,
  verdictSampling,
  type OracleConfig,
} from '../src/index.js';
import { COMPUTER_HAND, computerStore, explanation } from './fixtures.js';

const hand = COMPUTER_HAND;

/** decisive-word with function words never keywords, a lean `lean` and a phrase lean `phrase`. */
function config(lean: number | null, phrase: number | null): OracleConfig {
  return {
    ...ORACLES['toki-paper'],
    name: `phrase-${lean}-${phrase}`,
    verdictRule: 'decisive-word',
    functionWordsNeverKeywords: true,
    functionWordLean: lean,
    phraseFunctionWordLean: phrase,
  };
}

// "the" and "banana" travel together in these training texts (Jaccard 3 / 4), "file" with neither
const TRAINING = ['the banana', 'the banana split', 'the ripe banana', 'the end', 'a file', 'one file'];

/**
 * Pools (top-k 10, hand-counted; banana, far from computer, is unrelated to it): "the" is in both of computer's explanations (share 1) and in one of
 * fruit's two (0.5), so it leans towards computer by 0.5; "of" by 0 (one explanation of each class).
 */
async function store(lean: number | null, phrase: number | null): Promise<KeywordStore> {
  const s = await computerStore([hand], {
    oracle: config(lean, phrase),
    explanations: [
      explanation('computer', { file: 0.5, the: 0.3, of: 0.1 }),
      explanation('computer', { file: 0.3, the: 0.2, banana: 0.05 }),
      explanation('fruit', { apple: 0.6, of: 0.2 }),
      explanation('fruit', { apple: 0.5, the: 0.1 }),
    ],
  });
  s.cooccurrence = WordCooccurrence.fromTexts(TRAINING, ['the', 'banana', 'file'], { minJaccard: 0.5, minTexts: 2 });
  return s;
}

/** A prediction of computer at p 0.9: half its margin is 0.4. */
const predicted = (features: Record<string, number>, text: string) => ({
  ...explanation('computer', features, text),
  probabilities: [0.9, 0.1],
});
// "the" and "banana" are one reason (0.25 + 0.2 = 0.45 > 0.4); banana alone (0.2) is not decisive
const phrase = predicted({ file: 0.2, the: 0.25, banana: 0.2 }, 'the file banana');
// "the" alone (0.45 > 0.4) is decisive only when every leaned function word counts
const alone = predicted({ file: 0.2, the: 0.45 }, 'the file');

describe('function words that count only inside a phrase (OracleConfig.phraseFunctionWordLean)', () => {
  it('finds them between the phrase lean and the lean (hand-counted)', async () => {
    const s = await store(0.9, 0.3);
    expect([...s.phraseFunctionWords('computer')]).toEqual(['the']); // 0.5: ≥ 0.3, < 0.9
    expect(s.leanedFunctionWords('computer').size).toBe(0);
    expect(s.phraseFunctionWords('fruit').size).toBe(0); // 0.5 − 1 < 0
    expect(s.isNeutralWord('computer', 'the')).toBe(true); // neutral alone; the verdict counts it in a phrase
    // a word leaning by the full lean is counted anywhere, not only in phrases
    expect((await store(0.5, 0.3)).phraseFunctionWords('computer').size).toBe(0);
    expect((await store(0.9, 0.6)).phraseFunctionWords('computer').size).toBe(0);
    expect((await store(0.9, null)).phraseFunctionWords('computer').size).toBe(0);
    expect((await store(0.3, 0.5)).phraseFunctionWords('computer').size).toBe(0); // a phrase lean above the lean adds nothing
  });

  it('keeps a phrase function word only in a group holding another kind of word', () => {
    const co = WordCooccurrence.fromTexts(TRAINING, ['the', 'banana', 'file'], { minJaccard: 0.5, minTexts: 2 });
    const the = { word: 'the', weight: 0.25 };
    const banana = { word: 'banana', weight: 0.2 };
    const file = { word: 'file', weight: 0.1 };
    const joined = groupedWithPhraseWords([banana, file], [the], co);
    expect(joined.groups.map((g) => [...g.words].sort())).toEqual([['banana', 'the'], ['file']]);
    expect(joined.groups[0].weight).toBeCloseTo(0.45, 12);
    expect(joined.kept).toEqual([the]);
    // without co-occurrence "the" is a group of its own: dropped
    const apart = groupedWithPhraseWords([banana], [the], null);
    expect(apart.groups).toEqual([{ words: ['banana'], weight: 0.2 }]);
    expect(apart.kept).toEqual([]);
    // no phrase words: exactly groupedWeights
    expect(groupedWithPhraseWords([banana, file], [], co).groups).toEqual([
      { words: ['banana'], weight: 0.2 },
      { words: ['file'], weight: 0.1 },
    ]);
  });

  it('condemns a prediction resting on a phrase, not one resting on the function word alone', async () => {
    const [none, withPhrase] = await Promise.all([store(0.9, null), store(0.9, 0.3)]);
    const [a] = await labelExplanations(none, [phrase], { embeddings: [hand] });
    expect(a.verdict).toBe('trustworthy'); // banana 0.2 ≤ 0.4; "the" neutral
    const [b] = await labelExplanations(withPhrase, [phrase], { embeddings: [hand] });
    expect(b.verdict).toBe('untrustworthy');
    expect([...b.decisive!.words].sort()).toEqual(['banana', 'the']);
    expect(b.decisive!.weight).toBeCloseTo(0.45, 12);
    expect(b.unrelated.map((f) => f.word).sort()).toEqual(['banana', 'the']);
    expect(b.isUnr).toBeCloseTo(0.45, 12);
    const [c] = await labelExplanations(withPhrase, [alone], { embeddings: [hand] });
    expect(c.verdict).toBe('trustworthy'); // "the" alone is no phrase
    expect(c.isUnr).toBe(0);
    const [d] = await labelExplanations(await store(0.5, 0.3), [alone], { embeddings: [hand] });
    expect(d.verdict).toBe('untrustworthy'); // at the full lean it counts alone
  });

  it('verdict-aware sampling weighs it the same way', async () => {
    const ctx = (words: string[]) => ({
      text: words.join(' '),
      words,
      probabilities: Float32Array.from([0.9, 0.1]),
      label: 0,
      labels: ['computer', 'fruit'],
    });
    const statOf = async (s: KeywordStore, words: string[]) =>
      (await verdictSampling(s, { embeddings: [hand] }).prepare(ctx(words))) as VerdictStatistic;
    const s = await store(0.9, 0.3);
    const fit = { features: Int32Array.from([0, 1, 2]), coef: Float64Array.from([0.25, 0.2, 0.2]), intercept: 0 };
    const joined = (await statOf(s, ['the', 'file', 'banana']))(fit);
    expect(joined.value).toBeCloseTo(0.4 - 0.45, 6); // half the margin − the phrase's weight
    expect(Array.from(joined.gradient)).toEqual([-1, 0, -1]);
    const single = (await statOf(s, ['the', 'file']))({
      features: Int32Array.from([0, 1]),
      coef: Float64Array.from([0.45, 0.2]),
      intercept: 0,
    });
    expect(single.value).toBeCloseTo(0.4, 6); // no unrelated reason
    expect(Array.from(single.gradient)).toEqual([0, 0]);
  });

  it('is kept by a saved store and refused outside (0, 1], naming the field', async () => {
    const saved = KeywordStore.fromJSON(JSON.parse(JSON.stringify((await store(0.9, 0.3)).toJSON())));
    expect(saved.oracle.phraseFunctionWordLean).toBe(0.3);
    expect([...saved.phraseFunctionWords('computer')]).toEqual(['the']);
    expect(() => checkOracle(config(0.5, 0))).toThrow(/phraseFunctionWordLean must be a share difference in \(0, 1\]/);
    expect(() => checkOracle(config(0.5, 1.5))).toThrow(/phraseFunctionWordLean/);
    expect(() => checkOracle(config(0.5, 0.3))).not.toThrow();
  });
});
