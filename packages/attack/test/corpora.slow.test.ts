import { describe, expect, it } from 'vitest';
import { loadBrown, sample, stratifiedSplit } from '@xtrust/datasets';
import { CounterFittedEmbedding, wordnet } from '@xtrust/embeddings';
import { OmissionExplainer } from '@xtrust/explainers';
import { trainClassifier } from '@xtrust/models';
import { calibrateThetaRelate, identifyKeywords } from '@xtrust/oracle';
import { MeanVectorEncoder, WinkPosTagger, a2t, summarizeRun, table4, tokiGuided } from '../src/index.js';

const CLASSES = ['news', 'religion', 'hobbies', 'government', 'romance'];
const first = (t: string, n: number) => t.split(/\s+/).filter(Boolean).slice(0, n).join(' ');

describe('TOKI-guided vs A2T on the Brown corpus (000 Table 4 target)', () => {
  it('TOKI-guided reaches a higher success rate than A2T on the same instances, with fewer words where both win', async () => {
    const rows = loadBrown({ tags: false })
      .rows.filter((r) => CLASSES.includes(r.label))
      .map((r) => ({ text: first(r.text, 40), label: r.label }));
    const split = stratifiedSplit(rows, { testFraction: 0.3, seed: 1 });
    const model = await trainClassifier('bow-logistic', split.train, { seed: 1 });
    const cf = await CounterFittedEmbedding.load();
    const theta = await calibrateThetaRelate(cf, wordnet(), { seed: 0 });
    const store = await identifyKeywords(
      model,
      split.train.map((r) => r.text),
      split.train.map((r) => r.label),
      {
        explainer: new OmissionExplainer() as never,
        embeddings: [cf],
        thetaRelate: theta.thetaRelate,
        sampleSize: 2000,
        seed: 1,
        // Table 4's TOKI-guided attack on keywords identified from class names alone (as the bench's Table 4).
        // With the default `toki` (class descriptions: more words related, so fewer unrelated words to attack)
        // this check measured SAR 0.575 vs A2T 0.558 and 2.43 vs 2.40 words on common successes; with
        // toki-name 0.692 and 2.15 vs 2.47, with toki-paper 0.683 and 2.17 vs 2.49 (packages/attack README).
        oracle: 'toki-name',
      },
    );
    const inputs = sample(split.test, 150, 1);
    const encoder = new MeanVectorEncoder(cf);
    const posTagger = WinkPosTagger.load();
    const toki = await tokiGuided(model, { store, embedding: cf, encoder, posTagger }).run(inputs, { seed: 1 });
    const base = await a2t(model, { embedding: cf, encoder, posTagger }).run(inputs, { seed: 1 });
    const [t, a] = await table4([
      { method: 'TOKI-guided', records: toki.records },
      { method: 'A2T', records: base.records },
    ]);
    expect(summarizeRun(base.records).attacked).toBeGreaterThan(100);
    expect(t.successRate).toBeGreaterThan(a.successRate);
    expect(t.commonSuccesses).toBeGreaterThan(10);
    expect(t.perturbedWordsOnCommonSuccesses!).toBeLessThan(a.perturbedWordsOnCommonSuccesses!);
  }, 600_000);
});
