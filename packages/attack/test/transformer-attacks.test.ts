// A2T and TOKI-guided on the model kit's BERT classifier (tiny-bert-spam): the word ranking uses the
// real gradient graph (OnnxClassifier is a GradientProvider), candidates come from a small hand-made
// embedding over the texts' words, and every success is checked against the model itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxClassifier } from '@xtrust/models';
import { KeywordStore, type KeywordStoreJson } from '@xtrust/oracle';
import { WinkPosTagger, a2t, summarizeRun, tokiGuided } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';
import { groupEmbedding, meanEncoder, SPAM_WORD_GROUPS } from '../../../test/helpers/group-embedding.js';

// Groups of interchangeable words: members are near each other (cosine ≥ 0.9), groups far apart.
const GROUPS = SPAM_WORD_GROUPS;
const DIM = GROUPS.length + 2;
const groups = () => groupEmbedding(GROUPS);

const TEXTS = [
  'Click now to win free money and claim the prize in our special offer',
  'Win a free prize today, click here for the offer and the money',
  'Please bring the project report to the meeting tomorrow morning',
  'The meeting about the project report moved to tomorrow afternoon',
];

function storeJson(): KeywordStoreJson {
  return {
    format: 'xtrust-keyword-store',
    version: 1,
    model: { fingerprint: 'test', labels: ['ham', 'spam'], probes: [] },
    classNames: { ham: 'legitimate', spam: 'spam' },
    params: { thetaDist: 0.3, topK: 10 },
    ensemble: [{ name: 'groups', dim: DIM, thetaRelate: 0.5 }],
    provenance: {
      explainer: { method: 'omission', params: {} },
      seed: 0,
      sampleSize: 4,
      sampled: 4,
      explained: 4,
      keywordIdentificationSeconds: 0,
      createdAt: '2026-01-01T00:00:00Z',
    },
    classes: [
      {
        label: 'ham',
        className: 'legitimate',
        explanations: 4,
        keywords: ['meeting', 'report', 'project'],
        methods: [],
        pool: [
          ['meeting', 2, 2],
          ['conference', 0.4, 2],
          ['report', 1.5, 2],
          ['summary', 0.3, 2],
          ['project', 1.2, 2],
          ['plan', 0.2, 2],
          ['deal', 0.9, 2],
          ['cash', 0.8, 2],
        ],
      },
      {
        label: 'spam',
        className: 'spam',
        explanations: 4,
        keywords: ['free', 'money', 'prize', 'win'],
        methods: [],
        pool: [
          ['free', 3, 3],
          ['gratis', 0.3, 2],
          ['money', 2, 2],
          ['funds', 0.2, 2],
          ['prize', 1.6, 2],
          ['award', 0.3, 2],
          ['win', 1.4, 2],
          ['earn', 0.2, 2],
          ['session', 0.9, 2],
          ['document', 0.7, 2],
        ],
      },
    ],
  } as KeywordStoreJson;
}

describe('A2T and TOKI-guided on tiny-bert-spam', () => {
  let model: OnnxClassifier;
  let inputs: { text: string; label: string; id: string }[];
  const emb = groups();
  const enc = meanEncoder(emb);
  beforeAll(async () => {
    model = await OnnxClassifier.load(kitFixture('tiny-bert-spam'));
    const p = await model.predictProba(TEXTS);
    // labelled with the model's own predictions, so every text is attacked (none already misclassified)
    inputs = TEXTS.map((text, i) => ({ text, label: model.labels[p[2 * i + 1] > p[2 * i] ? 1 : 0], id: String(i) }));
  });
  afterAll(async () => model?.release());

  async function checkRecords(
    records: Awaited<ReturnType<ReturnType<typeof a2t>['run']>>['records'],
    allowed: (from: string, to: string) => boolean,
  ) {
    expect(summarizeRun(records).attacked).toBe(TEXTS.length);
    for (const r of records) {
      expect(r.perturbedWords).toBeLessThanOrEqual(Math.max(Math.ceil(r.words * 0.1), 4));
      for (const s of r.substitutions) expect(allowed(s.from.toLowerCase(), s.to.toLowerCase())).toBe(true);
      if (r.status !== 'succeeded') continue;
      const p = await model.predictProba([r.adversarial!]);
      const predicted = model.labels[p[1] > p[0] ? 1 : 0];
      expect(predicted).toBe(r.adversarialPrediction);
      expect(predicted).not.toBe(r.label);
    }
  }

  it("A2T ranks words by the transformer's gradients and swaps only embedding neighbours", async () => {
    const attack = a2t(model, { embedding: emb, encoder: enc, posTagger: WinkPosTagger.load() });
    expect(attack.describe()).toMatchObject({ recipe: 'a2t', search: { ranking: 'gradient' }, rankingFallback: null });
    const run = await attack.run(inputs, { seed: 1 });
    const sameGroup = (a: string, b: string) => GROUPS.some((g) => g.includes(a) && g.includes(b));
    await checkRecords(run.records, sameGroup);
  }, 120_000);

  it("TOKI-guided draws its candidates from the keyword store's pools", async () => {
    const store = KeywordStore.fromJSON(storeJson());
    const run = await tokiGuided(model, { store, embedding: emb, encoder: enc, posTagger: WinkPosTagger.load() }).run(
      inputs,
      { seed: 1 },
    );
    const pools = new Set(storeJson().classes.flatMap((c) => c.pool.map((p) => p[0] as string)));
    await checkRecords(run.records, (_from, to) => pools.has(to));
  }, 120_000);
});
