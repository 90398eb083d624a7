import { describe, expect, it } from 'vitest';
import { compareWithTruth } from '../src/audit.js';
import { groundTruthCounts, MIN_CASES_PER_SIDE, type AuditedPrediction } from '../src/audit-records.js';
import { decidedSentence, overDeterminedSentence, tooSmallSentence } from '../src/ground-truth-text.js';
import { groundTruthLines } from '../src/output.js';
import { smallestClass } from '../src/scored-case.js';
import type { ShortcutBenchmark } from '@xtrust/datasets';

const pred = (
  trustworthy: boolean,
  verdict: 'trustworthy' | 'untrustworthy',
  confidence: number,
): AuditedPrediction => ({
  index: 0,
  text: 't',
  truth: 'a',
  predicted: 'a',
  confidence,
  verdict,
  isRel: verdict === 'trustworthy' ? 1 : 0,
  isUnr: verdict === 'trustworthy' ? 0 : 1,
  related: [],
  unrelated: [],
  features: [],
  trustworthy,
});

describe('compareWithTruth: the too-small rule', () => {
  it('gives no accuracy or G-mean with fewer than 100 predictions of a kind', () => {
    const few = [
      ...Array.from({ length: 150 }, () => pred(true, 'trustworthy', 0.95)),
      ...Array.from({ length: 99 }, () => pred(false, 'untrustworthy', 0.6)),
    ];
    expect(compareWithTruth(few, 0.9)).toEqual({
      cases: 249,
      trustworthy: 150,
      untrustworthy: 99,
      minPerSide: MIN_CASES_PER_SIDE,
      tooSmall: true,
      thetaConf: 0.9,
      rows: [],
      roc: [],
    });
  });

  it('scores Naive and TOKI with 100 of each kind (hand-computed)', () => {
    // 100 trustworthy: TOKI right on 80, confidence 0.95 on all; 100 untrustworthy: TOKI right on 90, confidence 0.95 on 50
    const p = [
      ...Array.from({ length: 100 }, (_, i) => pred(true, i < 80 ? 'trustworthy' : 'untrustworthy', 0.95)),
      ...Array.from({ length: 100 }, (_, i) =>
        pred(false, i < 90 ? 'untrustworthy' : 'trustworthy', i < 50 ? 0.95 : 0.6),
      ),
    ];
    const c = compareWithTruth(p, 0.9)!;
    expect([c.tooSmall, c.trustworthy, c.untrustworthy]).toEqual([false, 100, 100]);
    const [naive, toki] = c.rows;
    // Naive: Sen 1, Spec 0.5 → G-mean √0.5; TOKI: Sen 0.8, Spec 0.9 → √0.72
    expect(naive.gmean).toBeCloseTo(Math.sqrt(0.5), 12);
    expect(toki.gmean).toBeCloseTo(Math.sqrt(0.72), 12);
    expect(toki.accuracy).toBeCloseTo(0.85, 12);
  });
});

describe('the ground truth in words', () => {
  const bench = {
    mode: 'headers',
    counts: {
      rows: 1200,
      incorrect: 9,
      trustworthy: 20,
      untrustworthy: 11,
      ambiguous: { count: 1160, reasons: { 'survives-but-spurious-alone-suffices': 1160 } },
    },
  } as unknown as ShortcutBenchmark;

  it('says how many predictions are over-determined and what was decided', () => {
    const g = groundTruthCounts(bench);
    expect(g).toEqual({
      spurious: 'the headers',
      correct: 1191,
      trustworthy: 20,
      untrustworthy: 11,
      ambiguous: { 'survives-but-spurious-alone-suffices': 1160 },
      incorrect: 9,
    });
    expect(overDeterminedSentence(g)).toBe(
      'For 1,160 of 1,191 correct predictions, the headers alone and the body alone each give the same class: these cannot tell whether the model is right for the right reasons.',
    );
    expect(decidedSentence(g)).toBe(
      'Removing the headers decides 20 trustworthy (the prediction survives, and the headers alone give another class) and 11 untrustworthy (the prediction flips) of 1,191 correct predictions.',
    );
    expect(tooSmallSentence(20, 11, 100)).toBe(
      'Too small to score an oracle: 20 trustworthy and 11 untrustworthy predictions with a ground truth; an accuracy or G-mean needs at least 100 of each, so none is given.',
    );
  });

  it('the terminal summary prints the sentences and never a metric of a too-small comparison', () => {
    const g = groundTruthCounts(bench);
    const lines = groundTruthLines({
      groundTruth: g,
      comparison: {
        cases: 31,
        trustworthy: 20,
        untrustworthy: 11,
        minPerSide: 100,
        tooSmall: true,
        thetaConf: 0.9,
        rows: [],
        roc: [],
      },
    } as never);
    expect(lines[0]).toBe(`ground truth          ${overDeterminedSentence(g)}`);
    expect(lines.join('\n')).toContain(
      'against ground truth  Too small to score an oracle: 20 trustworthy and 11 untrustworthy',
    );
    expect(lines.join('\n')).not.toMatch(/G-mean \d/);
  });

  it('the scored check plants its trigger in the smallest class', () => {
    expect(smallestClass(['ham', 'spam'], [{ label: 'ham' }, { label: 'ham' }, { label: 'spam' }])).toBe('spam');
    expect(smallestClass(['a', 'b'], [{ label: 'a' }, { label: 'b' }])).toBe('a');
  });
});
