import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Attack,
  AttackedText,
  embeddingNeighbours,
  greedySearch,
  instanceSeed,
  maxModificationRate,
  omissionRanking,
  randomRanking,
  repeatModification,
  stopwordModification,
  summarizeRun,
  untargetedClassification,
  wordEmbeddingDistance,
  type AttackRecord,
} from '../src/index.js';
import { handEmbedding, linearClassifier } from './helpers.js';

function linearAttack(classifier = linearClassifier(), name = 'test-greedy') {
  const emb = handEmbedding();
  return new Attack(classifier, {
    name,
    goal: untargetedClassification(),
    transformation: embeddingNeighbours(emb, { maxCandidates: 3 }),
    constraints: [
      repeatModification(),
      stopwordModification(),
      maxModificationRate({ maxRate: 0.5, minThreshold: 1 }),
      wordEmbeddingDistance(emb, { minCos: 0.8 }),
    ],
    search: greedySearch({ ranking: omissionRanking() }),
  });
}

describe('AttackedText', () => {
  it('replaces a word in place, keeps offsets and case, and tracks the original word', () => {
    const t = AttackedText.of('The Good film, truly good!');
    const u = t.replaceWord(1, 'poor');
    expect(u.text).toBe('The Poor film, truly good!');
    expect(u.tokens[2]).toEqual({ text: 'film', start: 9, end: 13 });
    expect(u.substitutions()).toEqual([{ index: 1, from: 'Good', to: 'Poor' }]);
    expect(u.replaceWord(1, 'good').modified.size).toBe(0);
    expect(t.deleteWord(1)).toBe('The film, truly good!');
    expect(() => t.replaceWord(1, 'two words')).toThrow(/single word/);
  });
});

describe('greedy word swap on a known linear model', () => {
  it('flips "a good film" with the expected substitution, scoring all candidates of a position in one call', async () => {
    const clf = linearClassifier();
    const r = await linearAttack(clf).attack('a good film');
    expect(r.status).toBe('succeeded');
    expect(r.substitutions).toEqual([{ index: 1, from: 'good', to: 'poor' }]);
    expect(r.adversarial).toBe('a poor film');
    expect(r.originalPrediction).toBe('pos');
    expect(r.adversarialPrediction).toBe('neg');
    expect(r.perturbedWords).toBe(1);
    // calls: the original, the omission ranking (one batch), one batch for the three neighbours of "good"
    expect(clf.calls).toEqual([1, 3, 3]);
    expect(r.queries).toEqual({ texts: 7, calls: 3 });
  });

  it('rejects candidates below the word cosine and fails with the reason when none is left', async () => {
    const emb = handEmbedding();
    const attack = new Attack(linearClassifier(), {
      name: 'strict',
      goal: untargetedClassification(),
      transformation: embeddingNeighbours(emb, { maxCandidates: 3 }),
      constraints: [repeatModification(), wordEmbeddingDistance(emb, { minCos: 0.9999 })],
      search: greedySearch({ ranking: omissionRanking() }),
    });
    const r = await attack.attack('a good film');
    expect(r.status).toBe('failed');
    expect(r.reason).toBe('no-candidates');
    expect(r.rejections['word-embedding-distance']).toBeGreaterThan(0);
    expect(r.adversarial).toBe('a good film');
  });

  it('skips a prediction that is already wrong and counts it', async () => {
    const attack = linearAttack();
    const run = await attack.run([
      { text: 'a good film', label: 'pos' },
      { text: 'a good film', label: 'neg' },
      { text: '', label: 'pos' },
      { text: 'the a and', label: 'neg' },
    ]);
    expect(run.records.map((r) => r.status)).toEqual(['succeeded', 'skipped', 'skipped', 'skipped']);
    expect(run.records.map((r) => r.reason)).toEqual([
      null,
      'already-misclassified',
      'too-short',
      'no-modifiable-words',
    ]);
    const s = summarizeRun(run.records);
    expect(s.attacked).toBe(1);
    expect(s.skippedBy).toEqual({ 'already-misclassified': 1, 'too-short': 1, 'no-modifiable-words': 1 });
    expect(s.successRate).toBe(1);
    await expect(attack.attack('a good film', { label: 'positive' })).rejects.toThrow(
      /not one of the classifier's labels/,
    );
    // a minimum word count: shorter texts are skipped before any model call
    const clf = linearClassifier();
    const strict = new Attack(clf, { ...attack.spec, minWords: 4 });
    expect((await strict.attack('a good film')).reason).toBe('too-short');
    expect(clf.calls).toEqual([]);
  });

  it('stops with BAD_MODEL_OUTPUT when the model returns NaN or the wrong shape', async () => {
    const emb = handEmbedding();
    const make = (out: (n: number) => Float32Array) =>
      new Attack(
        { labels: ['neg', 'pos'], predictProba: async (texts: readonly string[]) => out(texts.length) },
        {
          name: 'bad',
          goal: untargetedClassification(),
          transformation: embeddingNeighbours(emb),
          constraints: [],
          search: greedySearch({ ranking: omissionRanking() }),
        },
      );
    await expect(make((n) => new Float32Array(2 * n).fill(NaN)).attack('a good film')).rejects.toMatchObject({
      code: 'BAD_MODEL_OUTPUT',
    });
    await expect(make(() => new Float32Array(3)).attack('a good film')).rejects.toMatchObject({
      code: 'BAD_MODEL_OUTPUT',
    });
  });

  it('respects the modification budget: a text needing two swaps fails under a one-word budget', async () => {
    const emb = handEmbedding();
    const make = (min: number) =>
      new Attack(linearClassifier(), {
        name: 'budget',
        goal: untargetedClassification(),
        transformation: embeddingNeighbours(emb, { maxCandidates: 3 }),
        constraints: [
          repeatModification(),
          maxModificationRate({ maxRate: 0, minThreshold: min }),
          wordEmbeddingDistance(emb, { minCos: 0.8 }),
        ],
        search: greedySearch({ ranking: omissionRanking() }),
      });
    // great (2.5) + good (2): replacing the best single word leaves the other positive
    const one = await make(1).attack('great good film');
    expect(one.status).toBe('failed');
    expect(one.perturbedWords).toBe(1);
    const two = await make(2).attack('great good film');
    expect(two.status).toBe('succeeded');
    expect(two.perturbedWords).toBe(2);
  });

  it('is deterministic for a seed and a random ranking', async () => {
    const emb = handEmbedding();
    const make = () =>
      new Attack(linearClassifier(), {
        name: 'random',
        goal: untargetedClassification(),
        transformation: embeddingNeighbours(emb, { maxCandidates: 3 }),
        constraints: [repeatModification(), wordEmbeddingDistance(emb, { minCos: 0.8 })],
        search: greedySearch({ ranking: randomRanking() }),
      });
    const a = await make().attack('great good fine film', { seed: 5 });
    const b = await make().attack('great good fine film', { seed: 5 });
    expect(a.adversarial).toBe(b.adversarial);
    expect(a.substitutions).toEqual(b.substitutions);
  });
});

describe('JSONL runs', () => {
  const inputs = [
    'a good film',
    'a great movie',
    'fine plot and good story',
    'a bad film',
    'good',
    'great great film',
  ].map((text) => ({ text }));

  it('writes one line per instance and resumes after a kill without losing or repeating instances', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-attack-'));
    const file = join(dir, 'run.jsonl');
    const full = await linearAttack().run(inputs, { seed: 3 });
    const first = await linearAttack().run(inputs.slice(0, 3), { output: file, seed: 3 });
    expect(first.attacked).toBe(3);
    // a killed run: a half-written fourth line
    const partial = JSON.stringify(full.records[3]).slice(0, 40);
    writeFileSync(file, readFileSync(file, 'utf8') + partial);
    const clf = linearClassifier();
    const resumed = await linearAttack(clf).run(inputs, { output: file, seed: 3 });
    expect(resumed.resumed).toBe(3);
    expect(resumed.attacked).toBe(3);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const parsed: AttackRecord[] = [];
    for (const l of lines) {
      try {
        parsed.push(JSON.parse(l));
      } catch {
        /* the torn line of the killed run */
      }
    }
    expect(parsed.map((r) => r.index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const strip = (r: AttackRecord) => ({ ...r, seconds: 0 });
    expect(resumed.records.map(strip)).toEqual(full.records.map(strip));
    expect(resumed.records.every((r, i) => r.seed === instanceSeed(3, i))).toBe(true);
    // a third run finds everything done and calls no model
    const again = await linearAttack(clf).run(inputs, { output: file, seed: 3 });
    expect(again.attacked).toBe(0);
  });

  it('refuses to resume a file of another recipe, other texts or another seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-attack-'));
    const file = join(dir, 'run.jsonl');
    await linearAttack().run(inputs.slice(0, 2), { output: file, seed: 1 });
    await expect(linearAttack(undefined, 'other').run(inputs, { output: file, seed: 1 })).rejects.toThrow(
      /recipe "test-greedy"/,
    );
    await expect(linearAttack().run([{ text: 'x y' }, ...inputs], { output: file, seed: 1 })).rejects.toThrow(
      /different text/,
    );
    await expect(linearAttack().run(inputs, { output: file, seed: 2 })).rejects.toThrow(/another seed/);
  });
});
