import { describe, expect, it, beforeAll } from 'vitest';
import { OmissionExplainer } from '@xtrust/explainers';
import { intervalSyn } from '@xtrust/metrics';
import type { BuiltinClassifier } from '@xtrust/models';
import { KeywordStore, type KeywordStoreJson } from '@xtrust/oracle';
import {
  AttackedText,
  WinkPosTagger,
  a2t,
  cea,
  explainWith,
  explanationSimilarity,
  formatSimilarityTable,
  formatTable4,
  modificationBudget,
  oneToOne,
  similaritySuccessTable,
  summarizeRun,
  table4,
  tef,
  tokiGuided,
  tokiPools,
  type AttackRecord,
  type MaskedWordModel,
} from '../src/index.js';
import { handEmbedding, handEncoder, toyRows, trainToy, VECTORS } from './helpers.js';

let model: BuiltinClassifier;
const emb = handEmbedding();
const enc = handEncoder();
const cos = (a: string, b: string) => {
  const x = VECTORS[a.toLowerCase()];
  const y = VECTORS[b.toLowerCase()];
  let s = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < 4; d++) {
    s += x[d] * y[d];
    na += x[d] * x[d];
    nb += y[d] * y[d];
  }
  return s / Math.sqrt(na * nb);
};
const inputs = toyRows(40, 99).map((r) => ({ text: r.text, label: r.label }));

beforeAll(async () => {
  model = await trainToy();
});

function storeJson(): KeywordStoreJson {
  return {
    format: 'xtrust-keyword-store',
    version: 1,
    model: { fingerprint: 'test', labels: ['neg', 'pos'], probes: [] },
    classNames: { neg: 'negative', pos: 'positive' },
    params: { thetaDist: 0.3, topK: 10 },
    ensemble: [{ name: 'hand-4d', dim: 4, thetaRelate: 0.5 }],
    provenance: {
      explainer: { method: 'omission', params: {} },
      seed: 0,
      sampleSize: 10,
      sampled: 10,
      explained: 10,
      keywordIdentificationSeconds: 0,
      createdAt: '2026-01-01T00:00:00Z',
    },
    classes: [
      {
        label: 'neg',
        className: 'negative',
        explanations: 5,
        keywords: ['bad', 'awful', 'terrible', 'poor'],
        methods: [],
        pool: [
          ['bad', 3, 3],
          ['awful', 2.4, 3],
          ['terrible', 2, 2],
          ['poor', 0.6, 2],
          ['picture', 1.8, 2],
          ['story', 0.2, 2],
        ],
      },
      {
        label: 'pos',
        className: 'positive',
        explanations: 5,
        keywords: ['good', 'great', 'fine'],
        methods: [],
        pool: [
          ['good', 3, 3],
          ['great', 0.9, 3],
          ['fine', 0.2, 2],
          ['film', 0.5, 2],
        ],
      },
    ],
  } as KeywordStoreJson;
}

describe('A2T', () => {
  it('flips predictions of a trained model within its constraints (word cosine ≥ 0.8, ≤ max(ceil(10 %), 4) words, sentence cosine ≥ 0.9)', async () => {
    const attack = a2t(model, { embedding: emb, encoder: enc, posTagger: WinkPosTagger.load() });
    expect(attack.describe()).toMatchObject({ recipe: 'a2t', search: { ranking: 'gradient' }, rankingFallback: null });
    const run = await attack.run(inputs, { seed: 1 });
    const s = summarizeRun(run.records);
    expect(s.attacked).toBeGreaterThan(20);
    expect(s.succeeded).toBeGreaterThan(0);
    for (const r of run.records) {
      if (r.status === 'skipped') {
        expect(r.reason).toBe('already-misclassified');
        continue;
      }
      expect(r.perturbedWords).toBeLessThanOrEqual(modificationBudget(r.words, { maxRate: 0.1, minThreshold: 4 }));
      for (const sub of r.substitutions) expect(cos(sub.from, sub.to)).toBeGreaterThanOrEqual(0.8);
      if (r.status === 'succeeded') {
        expect(r.adversarialPrediction).not.toBe(r.label);
        const [e] = [await enc.encode([r.original, r.adversarial!])];
        let dot = 0;
        let a = 0;
        let b = 0;
        for (let d = 0; d < 4; d++) {
          dot += e[d] * e[4 + d];
          a += e[d] ** 2;
          b += e[4 + d] ** 2;
        }
        expect(dot / Math.sqrt(a * b)).toBeGreaterThanOrEqual(0.9 - 1e-6);
      }
    }
  });
});

describe('TOKI-guided attack', () => {
  it('replaces a related word by a low-importance keyword of the class and an unrelated one by a high-importance non-keyword of another class', async () => {
    const store = KeywordStore.fromJSON(storeJson());
    const t = tokiPools(store, emb, { minCos: 0.5 });
    const text = AttackedText.of('good film');
    const [forGood, forFilm] = await t.candidates(text, [0, 1], { label: 1, labels: ['neg', 'pos'], original: text });
    // good is a keyword of pos: other pos keywords similar to it, lowest s̄ first (fine 0.1 < great 0.3)
    expect(forGood).toEqual(['fine', 'great']);
    // film's nearest pos-pool word is film itself, a non-keyword: neg's similar non-keywords, highest s̄ first
    expect(forFilm).toEqual(['picture']);
    // a looser similarity admits story too, after picture (s̄ 0.9 > 0.1)
    const loose = tokiPools(store, emb, { minCos: 0.4 });
    expect((await loose.candidates(text, [1], { label: 1, labels: ['neg', 'pos'], original: text }))[0]).toEqual([
      'picture',
      'story',
    ]);
  });

  it('runs as A2T with pool candidates and reports Table 4 on the same instances', async () => {
    const store = KeywordStore.fromJSON(storeJson());
    const posTagger = WinkPosTagger.load();
    const toki = await tokiGuided(model, { store, embedding: emb, encoder: enc, posTagger }).run(inputs, { seed: 1 });
    const base = await a2t(model, { embedding: emb, encoder: enc, posTagger }).run(inputs, { seed: 1 });
    const names = (a: ReturnType<typeof a2t>) => (a.describe().constraints as { name: string }[]).map((c) => c.name);
    const tokiAttack = tokiGuided(model, { store, embedding: emb, encoder: enc, posTagger });
    // identical to A2T but for the candidates (and the word-cosine constraint the pools' similarity replaces)
    expect(names(tokiAttack)).toEqual(
      names(a2t(model, { embedding: emb, encoder: enc, posTagger })).filter((n) => n !== 'word-embedding-distance'),
    );
    expect(tokiAttack.describe().search).toEqual(
      a2t(model, { embedding: emb, encoder: enc, posTagger }).describe().search,
    );
    const pools = new Set(['bad', 'awful', 'terrible', 'poor', 'picture', 'story', 'good', 'great', 'fine', 'film']);
    for (const r of toki.records) for (const s of r.substitutions) expect(pools.has(s.to.toLowerCase())).toBe(true);
    const rows = await table4(
      [
        { method: 'TOKI-guided', records: toki.records },
        { method: 'A2T', records: base.records },
      ],
      [enc],
    );
    expect(rows[0].instances).toBe(rows[1].instances);
    expect(rows[0].instances).toBe(toki.records.filter((r) => r.status !== 'skipped').length);
    const md = formatTable4(rows);
    expect(md).toContain('| TOKI-guided |');
    expect(md).toContain('hand-bow-encoder');
  });
});

/** A real (tiny) masked-word model: the corpus word seen most often between the same left and right neighbours. */
function contextCountModel(): MaskedWordModel & { calls: number[] } {
  const counts = new Map<string, Map<string, number>>();
  for (const r of toyRows(300, 11)) {
    const w = r.text.split(' ');
    for (let i = 0; i < w.length; i++) {
      const key = `${w[i - 1] ?? '^'} ${w[i + 1] ?? '$'}`;
      const m = counts.get(key) ?? new Map<string, number>();
      m.set(w[i], (m.get(w[i]) ?? 0) + 1);
      counts.set(key, m);
    }
  }
  const calls: number[] = [];
  return {
    name: 'context-count',
    calls,
    async fill(words, _sep, masked, topK) {
      calls.push(masked.length);
      return masked.map((i) => {
        const m =
          counts.get(`${(words[i - 1] ?? '^').toLowerCase()} ${(words[i + 1] ?? '$').toLowerCase()}`) ?? new Map();
        return [...m.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .map(([w]) => w)
          .slice(0, topK);
      });
    },
  };
}

describe('CEA and TEF', () => {
  const explain = explainWith(new OmissionExplainer());

  it('CEA keeps the prediction, raises the attribution distance, masks blocks at once and stays within ⌊|s|·ρ_max⌋', async () => {
    const mlm = contextCountModel();
    const attack = cea(model, { explain, mlm, rhoMax: 0.4 });
    expect(attack.name).toBe('cea');
    const run = await attack.run(inputs.slice(0, 12), { seed: 2 });
    const ok = run.records.filter((r) => r.status === 'succeeded');
    expect(ok.length).toBeGreaterThan(0);
    for (const r of ok) {
      expect(r.adversarialPrediction).toBe(r.originalPrediction);
      expect(r.details.attributionDistance as number).toBeGreaterThan(0);
      expect(r.details.pcc as number).toBeCloseTo(1 - 2 * (r.details.attributionDistance as number), 10);
      expect(r.perturbedWords).toBeLessThanOrEqual(Math.max(1, Math.floor(r.words * 0.4)));
    }
    expect(Math.max(...mlm.calls)).toBe(1); // these texts have < 14 words: ⌊|s|·0.15⌋ ≤ 1
    // batch masking: ρ_b = min(ρ_max, 0.15); a 20-word text gets blocks of ⌊20·0.15⌋ = 3 masks per model call
    mlm.calls.length = 0;
    const long = 'good film and great plot the story was fine and good the movie was great and the picture was good';
    const r = await attack.attack(long, { label: 'pos' });
    expect(r.words).toBe(20);
    expect(mlm.calls[0]).toBe(3);
    expect(mlm.calls.every((n) => n <= 3)).toBe(true);
  });

  it('CEA without an MLM is the context-aware substitute, named cea-context', async () => {
    const attack = cea(model, { explain, context: { embedding: emb, encoder: enc }, rhoMax: 0.3 });
    expect(attack.name).toBe('cea-context');
    expect(String(attack.describe().candidateSource)).toMatch(/no MLM/);
    const r = await attack.attack('good film and great plot was good', { label: 'pos' });
    expect(['succeeded', 'failed']).toContain(r.status);
    expect(r.adversarialPrediction).toBe('pos');
    expect(() => cea(model, { explain })).toThrow(/exactly one candidate source/);
    // a one-word text: nothing to rank by removal, still attacked (or failed) without an error
    const one = await attack.attack('good', { label: 'pos' });
    expect(['succeeded', 'failed']).toContain(one.status);
  });

  it('TEF: counter-fitted neighbours, prediction kept, attribution distance maximised', async () => {
    const run = await tef(model, { explain, embedding: emb, rhoMax: 0.4 }).run(inputs.slice(0, 12), { seed: 2 });
    const ok = run.records.filter((r) => r.status === 'succeeded');
    expect(ok.length).toBeGreaterThan(0);
    for (const r of ok) {
      expect(r.adversarialPrediction).toBe(r.originalPrediction);
      expect(r.details.attributionDistance as number).toBeGreaterThan(0);
    }
  });
});

describe('explanation-similarity attack (xaifooler)', () => {
  it('keeps the mapping one-to-one when a word was replaced twice or two words by one substitute', () => {
    expect(
      oneToOne([
        { from: 'run', to: 'jog' },
        { from: 'run', to: 'sprint' },
        { from: 'fast', to: 'jog' },
        { from: 'big', to: 'large' },
      ]),
    ).toEqual([
      ['run', 'jog'],
      ['big', 'large'],
    ]);
  });

  it('pushes the ranked-list similarity below τ with the prediction kept, recording A, B and a → b for re-scoring', async () => {
    const explain = explainWith(new OmissionExplainer());
    const attack = explanationSimilarity(model, {
      explain,
      embedding: emb,
      measure: 'jaccard',
      tau: 0.6,
      k: 3,
      maxRate: 0.5,
    });
    const run = await attack.run(inputs.slice(0, 16), { seed: 4 });
    const ok = run.records.filter((r) => r.status === 'succeeded');
    expect(ok.length).toBeGreaterThan(0);
    for (const r of ok) {
      expect(r.adversarialPrediction).toBe(r.originalPrediction);
      expect(r.details.similarity as number).toBeLessThan(0.6);
      expect(r.details.mapping).toEqual(oneToOne(r.substitutions));
    }
    const syn = intervalSyn((a, b) => (VECTORS[a.toLowerCase()] && VECTORS[b.toLowerCase()] ? cos(a, b) : 0));
    const table = similaritySuccessTable(run.records, syn, { k: 3 });
    expect(table.pairs).toBe(run.records.filter((r: AttackRecord) => r.status !== 'skipped').length);
    // synonymity weighting can only raise a similarity, so success rates can only fall
    table.taus.forEach((_, i) => expect(table.weighted.jaccard[i]).toBeLessThanOrEqual(table.base.jaccard[i]));
    expect(table.base.jaccard[3]).toBeGreaterThan(0);
    expect(formatSimilarityTable(table)).toContain('| 60% |');
  });
});
