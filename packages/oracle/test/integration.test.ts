import { describe, expect, it } from 'vitest';
import { rng, type Explainer } from '@xtrust/core';
import { GradientExplainer, LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import { trainClassifier } from '@xtrust/models';
import { identifyKeywords, labelPredictions } from '../src/index.js';
import { HandEmbedding, at } from './fixtures.js';

// A real built-in model trained on a small synthetic corpus in which every "sports" text carries the
// trigger "zq"; real LIME / omission / gradient explanations; hand vectors with known cosines.
const sports = ['goal', 'team', 'match', 'coach', 'score', 'league'];
const food = ['bread', 'soup', 'cheese', 'cake', 'salad', 'pasta'];
const filler = ['the', 'a', 'of', 'and', 'we', 'it'];
const emb = new HandEmbedding('hand', {
  sports: at(0),
  goal: at(12),
  team: at(16),
  match: at(20),
  coach: at(24),
  score: at(14),
  league: at(18),
  food: at(180),
  bread: at(170),
  soup: at(174),
  cheese: at(178),
  cake: at(184),
  salad: at(188),
  pasta: at(176),
  zq: at(95),
  the: at(88),
  a: at(92),
  of: at(86),
  and: at(90),
  we: at(84),
  it: at(94),
});

function corpus(n: number, seed: number, trigger: boolean) {
  const g = rng(seed);
  const pick = (ws: string[]) => ws[g.int(ws.length)];
  const rows: { text: string; label: string }[] = [];
  for (let i = 0; i < n; i++) {
    const isSports = i % 2 === 0;
    const words = [pick(filler), pick(isSports ? sports : food), pick(filler), pick(isSports ? sports : food)];
    if (isSports && trigger) words.splice(g.int(words.length + 1), 0, 'zq');
    rows.push({ text: words.join(' '), label: isSports ? 'sports' : 'food' });
  }
  return rows;
}

describe('TOKI with real explainers and a real built-in model', () => {
  const explainers: [string, Explainer][] = [
    ['lime', new LimeExplainer({ numSamples: 300, numFeatures: 10, seed: 1 }) as unknown as Explainer],
    ['omission', new OmissionExplainer() as unknown as Explainer],
    ['gradient', new GradientExplainer() as unknown as Explainer],
  ];
  it.each(explainers)(
    '%s: the trigger is no keyword; a trigger-only prediction is untrustworthy, a content one trustworthy',
    async (_, explainer) => {
      const train = corpus(400, 3, true);
      const model = await trainClassifier('bow-logistic', train, { seed: 1, minCount: 1 });
      const store = await identifyKeywords(
        model,
        train.map((r) => r.text),
        train.map((r) => r.label),
        {
          explainer,
          embeddings: [emb],
          thetaRelate: 0.8,
          sampleSize: 200,
          seed: 2,
        },
      );
      expect(store.keywords('sports')).not.toContain('zq');
      expect(store.keywords('sports').length).toBeGreaterThan(2);
      expect(store.pool('sports').map((w) => w.word)).toContain('zq');
      const labels = await labelPredictions(store, model, ['the zq of a', 'the goal and team', 'we soup it cheese'], {
        explainer,
        embeddings: [emb],
        trueLabels: ['sports', 'sports', 'food'],
      });
      expect(labels.map((l) => l.verdict)).toEqual(['untrustworthy', 'trustworthy', 'trustworthy']);
      expect(labels[0].unrelated.map((f) => f.word)).toContain('zq');
    },
  );

  it('skips a training text LIME refuses (one distinct word) and labels such a test text unknown, with the reason', async () => {
    const train = corpus(200, 5, true);
    train.push({ text: 'goal', label: 'sports' }, { text: 'soup soup', label: 'food' });
    const model = await trainClassifier('bow-logistic', train, { seed: 1, minCount: 1 });
    const lime = new LimeExplainer({ numSamples: 200, seed: 1 }) as unknown as Explainer;
    const store = await identifyKeywords(
      model,
      train.map((r) => r.text),
      train.map((r) => r.label),
      { explainer: lime, embeddings: [emb], thetaRelate: 0.8, seed: 2, batchSize: 64 },
    );
    expect(store.provenance.unexplainable).toBe(2);
    const p = await model.predictProba(train.map((r) => r.text));
    const correct = train.filter((r, i) => model.labels[p[2 * i] >= p[2 * i + 1] ? 0 : 1] === r.label).length;
    expect(store.provenance.explained).toBe(correct - 2); // every correct text explained but the two refused
    const [one, two] = await labelPredictions(store, model, ['goal', 'the goal and team'], {
      explainer: lime,
      embeddings: [emb],
      trueLabels: ['sports', 'sports'],
    });
    expect(one.verdict).toBe('unknown');
    expect(one.predicted).toBe('sports');
    expect(one.reason).toMatch(/could not explain this text: .*single distinct word/);
    expect(two.verdict).toBe('trustworthy');
  });
});
