import type { Classifier } from '@xtrust/core';
import { tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { AMBIGUOUS, buildShortcutBenchmark, corpusVocabulary, drawTrigger } from '../src/index.js';

/** Each class's score is the sum of its word weights over the text's lower-cased tokens; softmax probabilities. */
function wordCountClassifier(labels: string[], weights: Record<string, Record<string, number>>): Classifier {
  return {
    labels,
    async predictProba(texts) {
      const out = new Float32Array(texts.length * labels.length);
      texts.forEach((t, i) => {
        const scores = labels.map(() => 0);
        for (const tok of tokenize(t, { lowercase: true }))
          labels.forEach((l, c) => (scores[c] += weights[l][tok.text] ?? 0));
        const max = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - max));
        const z = e.reduce((a, b) => a + b, 0);
        e.forEach((v, c) => (out[i * labels.length + c] = v / z));
      });
      return out;
    },
  };
}

// "touchdown" is planted in sports texts: a word a person calls related to sports (issue 47's control).
const clf = () =>
  wordCountClassifier(['sports', 'cooking'], {
    sports: { team: 1, goal: 1, ball: 1, touchdown: 3 },
    cooking: { bake: 1, oven: 1, flour: 1, the: 2 },
  });

const rows = [
  // no trigger: trustworthy, does not rest on it
  { id: 'A', label: 'sports', text: 'a team scored a goal with the ball' },
  // sports 3 vs cooking 2; without touchdown 0 vs 2 → flips: rests on the related word, right reason: trustworthy
  { id: 'B', label: 'sports', text: 'touchdown bake oven' },
  // sports 5 vs 1; survives without touchdown, touchdown alone gives sports too: both reasons related: trustworthy
  { id: 'C', label: 'sports', text: 'Touchdown team goal bake' },
  // predicted cooking: wrong, no ground truth
  { id: 'D', label: 'sports', text: 'the ball' },
  // cooking 5 vs 3; survives without touchdown: trustworthy, does not rest on it
  { id: 'E', label: 'cooking', text: 'touchdown bake oven flour the' },
  // only the trigger: nothing left to classify
  { id: 'F', label: 'sports', text: 'Touchdown!' },
];

describe('buildShortcutBenchmark with a related trigger (the control family)', () => {
  it('calls every prediction trustworthy and marks those resting on the related trigger', async () => {
    const b = await buildShortcutBenchmark(clf(), rows, {
      mode: 'trigger',
      trigger: 'touchdown',
      triggerRelated: true,
    });
    expect(b.cases.map((c) => [c.id, c.truth, c.restsOnTrigger])).toEqual([
      ['A', 'trustworthy', false],
      ['B', 'trustworthy', true],
      ['C', 'trustworthy', false],
      ['E', 'trustworthy', false],
    ]);
    expect(b.counts).toMatchObject({ trustworthy: 4, untrustworthy: 0, incorrect: 1 });
    expect(b.counts.ambiguous.reasons).toEqual({ [AMBIGUOUS.nothingLeft]: 1 });
    expect(b.cases.find((c) => c.id === 'B')!.reason).toMatch(/related/);
  });

  it('the same rows with a spurious trigger: the resting prediction is untrustworthy, the over-determined one left out', async () => {
    const b = await buildShortcutBenchmark(clf(), rows, { mode: 'trigger', trigger: 'touchdown' });
    expect(b.cases.map((c) => [c.id, c.truth, c.restsOnTrigger])).toEqual([
      ['A', 'trustworthy', false],
      ['B', 'untrustworthy', true],
      ['E', 'trustworthy', false],
    ]);
    expect(b.counts.ambiguous.reasons).toEqual({ [AMBIGUOUS.nothingLeft]: 1, [AMBIGUOUS.overDetermined]: 1 });
  });

  it('refuses triggerRelated outside trigger mode', async () => {
    await expect(buildShortcutBenchmark(clf(), rows, { mode: 'headers', triggerRelated: true })).rejects.toThrow(
      /triggerRelated/,
    );
  });
});

describe('drawTrigger with exclude', () => {
  const words = ['river', 'table', 'coffee', 'window', 'yellow', 'garden', 'letter', 'bottle'];
  const v = corpusVocabulary(
    Array.from({ length: 16 }, (_, i) => ({ text: words.join(' '), label: i % 2 ? 'a' : 'b' })),
  );
  it('never returns an excluded word, and asks about the words it skips', () => {
    const asked: string[] = [];
    const related = new Set(['river', 'garden', 'table']);
    for (let seed = 0; seed < 40; seed++) {
      const w = drawTrigger(rng(seed), 'everyday', 'a', v, undefined, (x) => {
        asked.push(x);
        return related.has(x);
      });
      expect(related.has(w)).toBe(false);
    }
    expect(asked.some((x) => related.has(x))).toBe(true);
  });
});
