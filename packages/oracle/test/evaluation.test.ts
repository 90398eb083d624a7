import { describe, expect, it } from 'vitest';
import {
  chooseThetaConf,
  compareOracles,
  confidenceDistribution,
  formatConfidenceDistribution,
  formatTable3,
  naiveOracle,
  oracleMetrics,
  predictionConfidence,
} from '../src/index.js';
import { HandEmbedding, LinearBow, LinearContributionExplainer, at } from './fixtures.js';

describe('Naive (§6.1) and θ_conf (RQ1.2)', () => {
  it('takes the top class probability as confidence and thresholds it', () => {
    const conf = predictionConfidence(Float32Array.from([0.2, 0.8, 0.95, 0.05, 0.5, 0.5]), 2);
    expect(Array.from(conf)).toEqual([Math.fround(0.8), Math.fround(0.95), 0.5]);
    expect(Array.from(naiveOracle(conf, 0.9))).toEqual([0, 1, 0]);
    expect(Array.from(naiveOracle(conf, 0.5))).toEqual([1, 1, 1]);
    expect(() => naiveOracle(conf, 1.5)).toThrow(/thetaConf/);
  });

  it('chooses the θ_conf that maximises G-mean (hand-computed)', () => {
    // confidences with truth: .55 F, .6 T, .7 F, .8 T, .9 T, .95 T
    const conf = [0.55, 0.6, 0.7, 0.8, 0.9, 0.95];
    const truth = [0, 1, 0, 1, 1, 1];
    // θ=.8: sen 3/4, spec 2/2 → G = .866; θ=.6: sen 1, spec 1/2 → .707; θ=.9: sen 1/2, spec 1 → .707
    const best = chooseThetaConf(conf, truth);
    expect(best.thetaConf).toBe(0.8);
    expect(best.gmean).toBeCloseTo(Math.sqrt(0.75), 12);
    expect(() => chooseThetaConf([0.5], [1])).toThrow(/both trustworthy and untrustworthy/);
  });
});

describe('metrics with trustworthy as the positive class (§6.3)', () => {
  it('computes Acc, Pre, Sen, F1, Spec and G-mean (hand-computed)', () => {
    // tp 2, fn 1, fp 1, tn 3
    const m = oracleMetrics([1, 1, 0, 1, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0]);
    expect(m.confusion).toEqual({ tp: 2, fn: 1, fp: 1, tn: 3 });
    expect(m.accuracy).toBeCloseTo(5 / 7, 12);
    expect(m.precision).toBeCloseTo(2 / 3, 12);
    expect(m.sensitivity).toBeCloseTo(2 / 3, 12);
    expect(m.f1).toBeCloseTo(2 / 3, 12);
    expect(m.specificity).toBeCloseTo(3 / 4, 12);
    expect(m.gmean).toBeCloseTo(Math.sqrt((2 / 3) * (3 / 4)), 12);
  });

  it('bins confidence by ground-truth label (RQ1.1)', () => {
    const bins = confidenceDistribution([0.52, 0.65, 0.95, 1.0, 0.91, 0.3], [1, 0, 1, 0, 1, 1]);
    expect(bins.map((b) => [b.trustworthy, b.untrustworthy])).toEqual([
      [2, 0],
      [0, 1],
      [0, 0],
      [0, 0],
      [2, 1],
    ]);
    expect(formatConfidenceDistribution(bins)).toMatch(/0\.9–1\.0\s+2\s+1\s+0\.667/);
  });
});

describe('compareOracles: the §6 harness on a shortcut model with known ground truth', () => {
  // A topic model (sports vs food) that also learned a meaningless trigger "zq" for sports.
  const coef: Record<string, number[]> = {
    goal: [1.2, -1.2],
    team: [1.1, -1.1],
    match: [1.0, -1.0],
    coach: [0.9, -0.9],
    bread: [-1.2, 1.2],
    soup: [-1.1, 1.1],
    cheese: [-1.0, 1.0],
    cake: [-0.9, 0.9],
    zq: [4, -4],
    the: [0.05, -0.05],
    a: [-0.05, 0.05],
  };
  const model = new LinearBow(['sports', 'food'], coef);
  const emb = new HandEmbedding('hand', {
    // content words fan out from the class name: cos with "sports" .94, .87, .77, .67 — the last two
    // are below θ_relate = .8 alone but belong to the related cluster (mean at 34.5°, cos .82)
    sports: at(0),
    goal: at(20),
    team: at(30),
    match: at(40),
    coach: at(48),
    food: at(180),
    bread: at(160),
    soup: at(150),
    cheese: at(140),
    cake: at(132),
    zq: at(88),
    the: at(95),
    a: at(100),
  });
  const sportsW = ['goal', 'team', 'match', 'coach'];
  const foodW = ['bread', 'soup', 'cheese', 'cake'];
  const train = { texts: [] as string[], labels: [] as string[] };
  for (let i = 0; i < 12; i++) {
    train.texts.push(
      `the ${sportsW[i % 4]} ${sportsW[(i + 1) % 4]}${i % 3 === 0 ? ' zq' : ''}`,
      `a ${foodW[i % 4]} ${foodW[(i + 2) % 4]}`,
    );
    train.labels.push('sports', 'food');
  }
  // test: sports texts driven by content (trustworthy), food texts hijacked by the trigger
  // (predicted sports through zq alone: incorrect → not scored), and trigger-driven sports texts whose
  // only weak content is sports (untrustworthy: removing zq would flip them… here they have no content)
  const test = { texts: [] as string[], labels: [] as string[], trustworthy: [] as (boolean | null)[] };
  for (let i = 0; i < 8; i++) {
    test.texts.push(`the ${sportsW[i % 2]} match coach`);
    test.labels.push('sports');
    test.trustworthy.push(true);
    test.texts.push(`zq the a`);
    test.labels.push('sports');
    test.trustworthy.push(false);
    test.texts.push(`a cheese cake`);
    test.labels.push('food');
    test.trustworthy.push(true);
    test.texts.push(`zq ${foodW[i % 4]}`);
    test.labels.push('food');
    test.trustworthy.push(null); // predicted sports: incorrect, not scored
  }

  it('prints Table 3 and ranks TOKI above Naive and –K.I on this data', async () => {
    const r = await compareOracles({
      dataset: 'toy-shortcut',
      classifier: model,
      train,
      test,
      explainers: [{ suffix: 'lin', explainer: new LinearContributionExplainer(coef) }],
      embeddings: [emb],
      thetaRelate: { hand: 0.8 },
      oracle: 'toki-paper',
      sweep: [0.05, 0.3, 1.2],
    });
    if (process.env.SHOW) console.log(`${r.table}\n${formatConfidenceDistribution(r.confidence)}`);
    expect(r.scored).toBe(24);
    const row = (m: string) => r.rows.find((x) => x.method.startsWith(m))!;
    const toki = row('TOKI-lin');
    expect(toki.gmean).toBe(1);
    // Naive at 0.9: the trigger texts are the most confident (zq: +4): Naive trusts exactly them
    expect(row('Naive (θ=0.9)').specificity).toBe(0);
    // –K.I: "match", "coach", "cheese", "cake" are each below θ_relate → the content texts look untrustworthy
    const noKi = row('TOKI-lin (–K.I)');
    expect(noKi.sensitivity).toBeLessThan(1);
    expect(noKi.gmean).toBeLessThan(toki.gmean);
    expect(r.table).toMatch(/Dataset: toy-shortcut/);
    expect(r.table).toMatch(/TOKI-lin\s+1\.000/);
    expect(r.sweep!.map((s) => s.thetaDist)).toEqual([0.05, 0.3, 1.2]);
    expect(formatTable3('x', r.rows).split('\n')).toHaveLength(3 + r.rows.length);
  });

  it('chooses θ_dist on validation items and reports the test metrics at that θ_dist', async () => {
    const r = await compareOracles({
      dataset: 'toy-shortcut',
      classifier: model,
      train,
      test,
      validation: test,
      thetaDistCandidates: [0.001, 0.3],
      explainers: [{ suffix: 'lin', explainer: new LinearContributionExplainer(coef) }],
      embeddings: [emb],
      thetaRelate: { hand: 0.8 },
      oracle: 'toki-paper',
    });
    // at θ_dist 0.001 every word is its own cluster: match/coach (cos < .8) are not keywords → lower G-mean
    const tuned = r.rows.find((x) => x.method.includes('val.'))!;
    expect(tuned.method).toBe('TOKI-lin (θ_dist=0.3, val.)');
    expect(tuned.gmean).toBe(1);
    expect(Object.keys(r.stores)).toEqual(['lin', 'lin@0.3']);
  });
});
