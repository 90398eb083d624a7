// The attack bench's transformer-victim path (src/attack/transformer-victim.ts, src/attack/victim-runs.ts) on the
// model kit's committed fixtures: the kit's held-out split re-made through @xtrust/datasets, the victim
// folder checks, TOKI's keyword store from LIME explanations of the BERT classifier, TOKI-guided and A2T
// against it, and CEA with the kit's masked LM and GPT-2 as the transformer victim's defaults. Nothing trains.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstWords, tokenize } from '@xtrust/core';
import { GradientExplainer } from '@xtrust/explainers';
import { CausalLanguageModel, OnnxClassifier } from '@xtrust/models';
import { HfMaskedWordModel, WinkPosTagger, cea, explainWith, robustnessPoint, table4 } from '@xtrust/attack';
import {
  CASE_LABELS,
  kitSplitCase,
  limeKeywordStore,
  loadTransformerVictim,
  parseVictims,
  type TransformerVictim,
} from '../src/attack/transformer-victim.js';
import {
  attackSeconds,
  ceaLanguageModels,
  formatVictimTable4,
  perturbedShare,
  tokiVsA2t,
} from '../src/attack/victim-runs.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';
import { groupEmbedding, meanEncoder, SPAM_WORD_GROUPS } from '../../../test/helpers/group-embedding.js';

// the SpamAssassin case at the bench's 40 words, made once for the whole file (loading the corpus takes seconds)
let spam40: ReturnType<typeof kitSplitCase> | undefined;
const spamCase = () => (spam40 ??= kitSplitCase('spam', 40));

const recordedTestSize = (name: 'tiny-bert-spam' | 'tiny-bert-brown') =>
  (JSON.parse(readFileSync(join(kitFixture(name), 'training.json'), 'utf8')) as { test_size: number }).test_size;

describe("the kit's held-out split, re-made through @xtrust/datasets", () => {
  it('has the test size the kit recorded for each classifier, disjoint from training, Brown grouped by document', () => {
    const spam = spamCase();
    expect(spam.test.length).toBe(recordedTestSize('tiny-bert-spam'));
    const trainIds = new Set(spam.train.map((r) => r.id));
    expect(spam.test.some((r) => trainIds.has(r.id))).toBe(false);
    expect(spam.test.every((r) => r.text.split(' ').length <= 40)).toBe(true);
    expect(new Set(spam.test.map((r) => r.label))).toEqual(new Set(CASE_LABELS.spam));
    // the kit's own rows (models/transformers/export-corpora.mjs writes the same ids in the same order): a
    // changed seed or fraction keeps the sizes but not these
    expect(spam.test.slice(0, 4).map((r) => r.id)).toEqual([
      'easy-ham-1/00006',
      'easy-ham-1/00008',
      'easy-ham-1/00010',
      'easy-ham-1/00012',
    ]);
    expect(spam.validation.slice(0, 2).map((r) => r.id)).toEqual(['easy-ham-1/00002', 'easy-ham-1/00020']);

    const brown = kitSplitCase('brown', 40);
    expect(brown.test.length).toBe(recordedTestSize('tiny-bert-brown'));
    // passage ids are <document>:<passage>: a document on both sides would leak its style into the test
    const doc = (id: string) => id.split(':')[0];
    const trainDocs = new Set(brown.train.map((r) => doc(r.id)));
    expect(brown.test.filter((r) => trainDocs.has(doc(r.id)))).toEqual([]);
    expect(new Set(brown.test.map((r) => r.label))).toEqual(new Set(CASE_LABELS.brown));
    const docs = (rows: readonly { id: string }[]) => [...new Set(rows.map((r) => doc(r.id)))];
    expect(docs(brown.test).slice(0, 6)).toEqual(['ca01', 'ca03', 'ca06', 'ca09', 'ca10', 'ca16']);
    expect(docs(brown.validation).slice(0, 3)).toEqual(['ca13', 'ca21', 'ca22']);
  });

  it('reads --model as one folder or case=folder pairs, and names a bad value', () => {
    expect(parseVictims('a/b', ['spam', 'brown'])).toEqual({ spam: 'a/b', brown: 'a/b' });
    expect(parseVictims('spam=x,brown=y', ['spam', 'brown'])).toEqual({ spam: 'x', brown: 'y' });
    expect(() => parseVictims('spam=x', ['spam', 'brown'])).toThrow(/no folder for case brown/);
    expect(() => parseVictims('sotu=x', ['spam'])).toThrow(/case "sotu" is not among/);
    expect(() => parseVictims('spam=', ['spam'])).toThrow(/not case=folder/);
  });

  it("refuses a folder trained on another corpus (its held-out texts are not this case's)", async () => {
    await expect(loadTransformerVictim(kitFixture('tiny-bert-brown'), spamCase())).rejects.toThrow(
      /trained on the kit's "brown" corpus/,
    );
  });
});

// A small embedding over the texts' words (groups of interchangeable words) plus the class names TOKI relates
// pool words to; the keyword store's pools then hold the words LIME found important on the transformer.
const GROUPS = [...SPAM_WORD_GROUPS, ['spam', 'junk'], ['legitimate', 'genuine']];
const groups = () => groupEmbedding(GROUPS);

const TRAIN = [
  { text: 'Click now to win free money and claim the prize in our special offer', label: 'spam' },
  { text: 'Win a free prize today, click here for the offer and the money', label: 'spam' },
  { text: 'Free cash offer: click to earn money and win a reward tonight', label: 'spam' },
  { text: 'Please bring the project report to the meeting tomorrow morning', label: 'ham' },
  { text: 'The meeting about the project report moved to tomorrow afternoon', label: 'ham' },
  { text: 'Send me the summary of the project plan before the session today', label: 'ham' },
];
const ATTACKED = [
  'Click here to win free money with our special prize offer today',
  'Please send the project report before the meeting tomorrow',
];

describe("TOKI-guided and A2T against the kit's BERT classifier (tiny-bert-spam), store from LIME on the transformer", () => {
  let victim: TransformerVictim;
  const emb = groups();
  beforeAll(async () => {
    victim = await loadTransformerVictim(kitFixture('tiny-bert-spam'), spamCase(), { threads: 1 });
  });
  afterAll(async () => victim?.model.release());

  it("identifies pools from the transformer's LIME explanations and attacks with them; every success flips the model's own prediction", async () => {
    const model = victim.model;
    expect(victim.tag).toBe('tiny-bert-spam');
    expect(victim.size).toBe('2×128');
    const probs = await model.predictProba(TRAIN.map((r) => r.text));
    const predicted = TRAIN.map((_, i) => model.labels[probs[2 * i + 1] > probs[2 * i] ? 1 : 0]);
    const { store, cached } = await limeKeywordStore(model, TRAIN, {
      embedding: emb,
      thetaRelate: 0.5,
      sampleSize: TRAIN.length,
      limeSamples: 200,
      seed: 1,
      classNames: { ham: 'legitimate' },
    });
    expect(cached).toBe(false);
    expect(store.provenance.explainer.method).toBe('lime');
    // Eq. 1: only correctly predicted training texts are explained
    expect(store.provenance.explained).toBe(TRAIN.filter((r, i) => predicted[i] === r.label).length);
    const poolWords = new Set(store.labels.flatMap((l) => store.pool(l).map((w) => w.word)));
    expect(poolWords.size).toBeGreaterThan(0);
    // Eq. 2 pools the explanations' top words: words of the explained texts (the candidates are those the embedding knows)
    const trainWords = new Set(TRAIN.flatMap((r) => tokenize(r.text, { lowercase: true }).map((t) => t.text)));
    for (const w of poolWords) expect(trainWords.has(w)).toBe(true);
    expect([...poolWords].filter((w) => emb.has(w)).length).toBeGreaterThan(2);

    const p = await model.predictProba(ATTACKED);
    const inputs = ATTACKED.map((text, i) => ({
      text,
      label: model.labels[p[2 * i + 1] > p[2 * i] ? 1 : 0],
      id: String(i),
    }));
    const runs = await tokiVsA2t(model, inputs, {
      store,
      embedding: emb,
      encoder: meanEncoder(emb),
      posTagger: WinkPosTagger.load(),
      seed: 1,
    });
    expect(runs.map((r) => r.method)).toEqual(['TOKI-guided', 'A2T']);
    const sameGroup = (a: string, b: string) => GROUPS.some((g) => g.includes(a) && g.includes(b));
    for (const run of runs) {
      expect(run.records).toHaveLength(ATTACKED.length);
      for (const r of run.records) {
        expect(['succeeded', 'failed']).toContain(r.status);
        expect(r.queries.texts).toBeGreaterThan(0);
        for (const s of r.substitutions) {
          if (run.method === 'A2T') expect(sameGroup(s.from.toLowerCase(), s.to.toLowerCase())).toBe(true);
          else expect(poolWords.has(s.to.toLowerCase())).toBe(true);
        }
        if (r.status !== 'succeeded') {
          expect(r.reason).not.toBeNull();
          continue;
        }
        const q = await model.predictProba([r.adversarial!]);
        const now = model.labels[q[1] > q[0] ? 1 : 0];
        expect(now).toBe(r.adversarialPrediction);
        expect(now).not.toBe(r.label);
      }
    }
    // the share column: perturbed words over words, over the successes of the instances both attacked
    const share = perturbedShare(runs);
    runs.forEach((run, i) => {
      const ok = run.records.filter((r) => r.status === 'succeeded');
      if (ok.length === 0) expect(share[i]).toBeNaN();
      else expect(share[i]).toBeCloseTo(ok.reduce((a, r) => a + r.perturbedWords / r.words, 0) / ok.length, 12);
    });
    const seconds = runs.map((r) => attackSeconds(r.records));
    seconds.forEach((x, i) => expect(x).toBeLessThanOrEqual(runs[i].seconds + 1e-6));
    const table = formatVictimTable4([{ victim: 'tiny-bert-spam', rows: await table4(runs), share, seconds }]);
    expect(table.split('\n')).toHaveLength(4);
    expect(table).toContain('| tiny-bert-spam | TOKI-guided | 2 |');
    expect(table.split('\n')[2].endsWith(`| ${seconds[0].toFixed(1)} |`)).toBe(true);
  }, 120_000);
});

describe("CEA on a transformer victim: the kit's masked LM and GPT-2 are the defaults", () => {
  it('resolves tiny-bert-mlm and tiny-gpt2 for a transformer victim only, and CEA runs with them', async () => {
    expect(ceaLanguageModels({}, false)).toEqual({ mlm: undefined, causalLm: undefined });
    expect(ceaLanguageModels({ mlm: 'x' }, false)).toEqual({ mlm: 'x', causalLm: undefined });
    const lms = ceaLanguageModels({}, true);
    expect(lms.mlm).toBe(kitFixture('tiny-bert-mlm'));
    expect(lms.causalLm).toBe(kitFixture('tiny-gpt2'));
    expect(ceaLanguageModels({ causalLm: 'y' }, true).causalLm).toBe('y');

    const model = await OnnxClassifier.load(kitFixture('tiny-bert-spam'), { threads: 1 });
    const lm = await CausalLanguageModel.load(lms.causalLm!, { threads: 1 });
    try {
      const mlm = await HfMaskedWordModel.load(lms.mlm!);
      // two held-out spam e-mails cut to 20 words (each candidate costs a gradient-graph run; 20 words keep it fast)
      const held = spamCase()
        .test.filter((r) => r.label === 'spam')
        .slice(0, 2)
        .map((r) => ({ ...r, text: firstWords(r.text, 20, { by: 'whitespace' }) }));
      const attack = cea(model, { explain: explainWith(new GradientExplainer()), mlm, rhoMax: 0.1 });
      expect(String(attack.describe().candidateSource)).toContain('masked-lm');
      const run = await attack.run(held, { seed: 1 });
      expect(run.records).toHaveLength(2);
      for (const r of run.records) {
        expect(['succeeded', 'failed', 'skipped']).toContain(r.status);
        if (r.status !== 'succeeded') continue;
        // CEA keeps the prediction and moves the attribution map
        const q = await model.predictProba([r.adversarial!]);
        expect(model.labels[q[1] > q[0] ? 1 : 0]).toBe(r.originalPrediction);
        expect(r.details.attributionDistance).toBeGreaterThan(0);
        expect(r.perturbedWords).toBeLessThanOrEqual(Math.max(1, Math.floor(r.words * 0.1)));
      }
      const ok = run.records.filter((r) => r.status === 'succeeded');
      expect(ok.length).toBeGreaterThan(0);
      const point = await robustnessPoint('cea', 0.1, run.records, { perplexity: (t) => lm.perplexity(t) });
      expect(point.samples).toBe(ok.length);
      expect(Number.isFinite(point.deltaPP)).toBe(true);
    } finally {
      await model.release();
      await lm.release();
    }
  }, 120_000);
});
