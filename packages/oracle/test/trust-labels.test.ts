import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  labelExplanations,
  plurality,
  pluralityColumns,
  WordPools,
  decisionWords,
} from '../src/index.js';
import { HandEmbedding, at, computerStore, explanation, HAND_PROVENANCE } from './fixtures.js';

describe('Eq. 2: word pools', () => {
  it('averages each word importance over the explanations it appears in, keeping only supporting words', () => {
    const pools = new WordPools(['sports', 'food']);
    pools.add('sports', explanation('sports', { goal: 0.4, the: 0.1, rain: -0.3 }), 10);
    pools.add('sports', explanation('sports', { Goal: 0.2, team: 0.5 }), 10);
    const pool = pools.pool('sports');
    expect(pool.map((w) => w.word)).toEqual(['team', 'goal', 'the']);
    expect(pool.find((w) => w.word === 'goal')!.importance).toBeCloseTo(0.3, 12); // (0.4 + 0.2) / 2
    expect(pool.find((w) => w.word === 'goal')!.count).toBe(2);
    expect(pools.explanations('sports')).toBe(2);
    expect(pools.pool('food')).toEqual([]);
  });

  it('takes the top-k supporting words per explanation', () => {
    const e = explanation('a', { w1: 0.5, w2: -0.9, w3: 0.4, w4: 0.3, w5: 0.2 });
    expect(decisionWords(e, 2).map((f) => f.word)).toEqual(['w1', 'w3']);
  });
});

describe('plurality vote across embedding methods', () => {
  it('ignores abstentions, breaks ties towards yes, and reports unanimous abstention', () => {
    expect(plurality([1, 0, 0])).toBe(0);
    expect(plurality([1, 1, 0])).toBe(1);
    expect(plurality([1, 0, -1])).toBe(1); // tie among voters
    expect(plurality([-1, 0, -1])).toBe(0);
    expect(plurality([-1, -1])).toBe(-1);
    // two methods × three items, row-major
    expect(Array.from(pluralityColumns(Int8Array.from([1, 0, -1, 0, 0, -1]), 2, 3, 0))).toEqual([1, 0, 0]);
  });
});

const glove = new HandEmbedding('hand', {
  computer: at(0),
  file: at(20),
  folder: at(30),
  extension: at(55),
  fruit: at(120),
  banana: at(120),
  apple: at(125),
  lemon: at(130),
});

describe('Eqs. 5–6: trustworthiness labels', () => {
  it('identifies K_c and F_c from the pools', async () => {
    const store = await computerStore([glove]);
    expect(store.keywords('computer')).toEqual(['file', 'extension']); // s̄: file .4, extension .3
    expect(store.nonKeywords('computer')).toEqual(['banana', 'apple']);
    expect(store.keywords('fruit')).toEqual(['apple', 'banana']);
  });

  it('labels by IS_rel ≥ IS_unr with r(w,c) from the nearest pool word (hand-computed)', async () => {
    const store = await computerStore([glove]);
    const [a, b, c] = await labelExplanations(
      store,
      [
        // folder is not in the pool: nearest pool word is file (10°), a keyword → related
        explanation('computer', { folder: 0.2, extension: 0.3, lemon: 0.4 }),
        explanation('computer', { lemon: 0.6, file: 0.5 }),
        // a word no embedding knows is unrelated
        explanation('computer', { zzyzx: 0.9, file: 0.8 }),
      ],
      { embeddings: [glove] },
    );
    expect(a.verdict).toBe('trustworthy');
    expect(a.isRel).toBeCloseTo(0.5, 12);
    expect(a.isUnr).toBeCloseTo(0.4, 12);
    expect(a.related.map((f) => f.word).sort()).toEqual(['extension', 'folder']);
    expect(b.verdict).toBe('untrustworthy'); // .5 < .6
    expect(c.verdict).toBe('untrustworthy');
    expect(c.unrelated.map((f) => f.word)).toEqual(['zzyzx']);
  });

  it('TOKI(–K.I) judges words by their own similarity to the class name, missing indirect relations', async () => {
    const store = await computerStore([glove]);
    const [a] = await labelExplanations(store, [explanation('computer', { folder: 0.2, extension: 0.3, lemon: 0.4 })], {
      embeddings: [glove],
      mode: 'toki-ki-ablated',
    });
    // folder cos 30° = .866 ≥ .6 related; extension cos 55° = .574 < .6 unrelated; lemon unrelated
    expect(a.related.map((f) => f.word)).toEqual(['folder']);
    expect(a.isRel).toBeCloseTo(0.2, 12);
    expect(a.isUnr).toBeCloseTo(0.7, 12);
    expect(a.verdict).toBe('untrustworthy');
  });

  it('reports incorrect predictions as such, and unknown for empty explanations or a class without a pool', async () => {
    const store = KeywordStore.create({
      fingerprint: 'm',
      labels: ['computer', 'fruit'],
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
      provenance: HAND_PROVENANCE,
    });
    await store.addExplanations([explanation('computer', { file: 0.5 })], [glove]);
    const labels = await labelExplanations(
      store,
      [
        explanation('computer', { file: 0.5 }),
        explanation('computer', { file: -0.5 }),
        explanation('fruit', { apple: 0.5 }),
        explanation('fruit', { apple: 0.5 }),
      ],
      { embeddings: [glove], trueLabels: ['computer', 'computer', 'fruit', 'computer'] },
    );
    expect(labels.map((l) => l.verdict)).toEqual(['trustworthy', 'unknown', 'unknown', 'incorrect']);
    expect(labels[1].reason).toMatch(/no word supporting/);
    expect(labels[2].reason).toMatch(/class "fruit" has no word pool/);
    expect(labels[3].correct).toBe(false);
  });

  it('Eq. 5 edge cases: with no keyword every word is unrelated, with no non-keyword every known word related', async () => {
    const mk = async (thetaRelate: number) => {
      const st = KeywordStore.create({
        fingerprint: 'm',
        labels: ['computer', 'fruit'],
        thetaDist: 0.3,
        topK: 10,
        ensemble: [{ name: 'hand', dim: 2, thetaRelate }],
        provenance: HAND_PROVENANCE,
      });
      await st.addExplanations([explanation('computer', { file: 0.5, banana: 0.4 })], [glove]);
      return st;
    };
    const none = await mk(1.01); // no cluster reaches cos ≥ 1.01: K_c empty
    expect(none.keywords('computer')).toEqual([]);
    const all = await mk(-1.01); // every cluster is related: F_c empty
    expect(all.nonKeywords('computer')).toEqual([]);
    const e = [explanation('computer', { file: 0.3, lemon: 0.2, zzyzx: 0.1 })];
    const [a] = await labelExplanations(none, e, { embeddings: [glove] });
    expect(a.isRel).toBe(0);
    const [b] = await labelExplanations(all, e, { embeddings: [glove] });
    expect(b.related.map((f) => f.word)).toEqual(['file', 'lemon']); // zzyzx: unknown to every method → unrelated
    expect(b.unrelated.map((f) => f.word)).toEqual(['zzyzx']);
  });

  it('refuses explanations of a label other than the prediction', async () => {
    const store = await computerStore([glove]);
    const e = { ...explanation('computer', { file: 0.5 }), explainedLabel: 'fruit' };
    await expect(labelExplanations(store, [e], { embeddings: [glove] })).rejects.toThrow(/explains label "fruit"/);
  });
});

describe('ensemble of embedding methods', () => {
  // second method places "extension" near the fruits: it votes extension out of K_computer;
  // third method lacks "extension" and abstains. Votes on extension: hand 1, skewed 0 → tie → keyword.
  const skewed = new HandEmbedding('skewed', {
    computer: at(0),
    file: at(15),
    folder: at(25),
    extension: at(118),
    banana: at(120),
    apple: at(125),
    lemon: at(130),
  });
  const sparse = new HandEmbedding('sparse', {
    computer: at(0),
    file: at(10),
    banana: at(100),
    apple: at(110),
    lemon: at(112),
  });

  it('decides keywords by plurality, abstentions not counting, ties towards keyword', async () => {
    const store = await computerStore([glove, skewed, sparse]);
    expect(store.keywords('computer')).toEqual(['file', 'extension']);
    const two = await computerStore([skewed, sparse]);
    // skewed: extension clusters with banana/apple → non-keyword; sparse abstains → extension out
    expect(two.keywords('computer')).toEqual(['file']);
    expect(two.methods('computer').map((m) => m.abstained)).toEqual([0, 1]);
  });

  it('votes r(w,c) across methods', async () => {
    const store = await computerStore([glove, skewed, sparse]);
    // folder: hand → nearest file (keyword) 1; skewed → nearest file 1; sparse abstains → related
    // lemon: all three → nearest apple/banana (non-keywords) → unrelated
    const [a] = await labelExplanations(store, [explanation('computer', { folder: 0.3, lemon: 0.2 })], {
      embeddings: [sparse, skewed, glove],
    });
    expect(a.related.map((f) => f.word)).toEqual(['folder']);
    expect(a.unrelated.map((f) => f.word)).toEqual(['lemon']);
  });

  it('refuses a class name missing from every embedding, naming the class', async () => {
    await expect(KeywordStore.requireClassNamesKnown({ ham: 'ham' }, [glove, sparse])).rejects.toThrow(
      /class name "ham" \(label "ham"\) is missing from every embedding/,
    );
    await expect(KeywordStore.requireClassNamesKnown({ ham: 'computer' }, [glove, sparse])).resolves.toBeUndefined();
  });
});
