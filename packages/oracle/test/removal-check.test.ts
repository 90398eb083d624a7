import type { Classifier } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  ORACLES,
  checkOracle,
  coveringSpans,
  labelExplanations,
  removalOutcomes,
  textWithout,
} from '../src/index.js';
import { COMPUTER_HAND, computerStore, decisiveWordOracle, explanation } from './fixtures.js';

const hand = COMPUTER_HAND;

/** The hand-checked computer/fruit store under `decisive-word` (banana unrelated to "computer"), with or without the removal check. */
function store(removalCheck: number | null | undefined) {
  const oracle = decisiveWordOracle(`removal-${removalCheck}`, {
    decisiveShare: 0.5,
    ...(removalCheck === undefined ? {} : { removalCheck }),
  });
  return computerStore([hand], { oracle });
}

/**
 * A hand-made two-class model: "computer" when the text scores ≥ 0, where file counts +1 and banana +2 for
 * computer and every other word −0.5; it records the texts it was asked about.
 */
function handModel(): Classifier & { asked: string[] } {
  const asked: string[] = [];
  return {
    labels: ['computer', 'fruit'],
    asked,
    async predictProba(texts) {
      asked.push(...texts);
      const out = new Float32Array(texts.length * 2);
      texts.forEach((t, i) => {
        let s = 0;
        for (const w of t.toLowerCase().match(/\w+/g) ?? []) s += w === 'file' ? 1 : w === 'banana' ? 2 : -0.5;
        const p = 1 / (1 + Math.exp(-4 * s));
        out[2 * i] = s >= 0 ? Math.max(p, 0.5) : Math.min(p, 0.4999);
        out[2 * i + 1] = 1 - out[2 * i];
      });
      return out;
    },
  };
}

// banana weighs 0.3 of 0.4 supporting weight: decisive by the share (0.3 > 0.2) on a saturated prediction
const weights = { file: 0.1, banana: 0.3 };

describe('textWithout', () => {
  it('removes every occurrence of the words, any case, and keeps the separators', () => {
    expect(textWithout('Banana file, banana! apple', new Set(['banana']))).toBe(' file, ! apple');
    expect(textWithout('a b c', new Set(['x']))).toBe('a b c');
    expect(textWithout('', new Set(['a']))).toBe('');
    expect(textWithout('bananas banana', new Set(['banana']))).toBe('bananas ');
  });

  it('removes every token overlapping a span as well (a category wherever it occurs)', () => {
    const text = 'From: bob\nSubject: hi\n\nfile banana';
    const header = { start: 0, end: text.indexOf('\n\n') + 2 };
    expect(textWithout(text, new Set(), [header])).toBe(': \n: \n\nfile banana');
    // overlapping spans, and a span touching half a token takes the token
    expect(
      textWithout('abc def ghi', new Set(['ghi']), [
        { start: 1, end: 2 },
        { start: 0, end: 5 },
      ]),
    ).toBe('  ');
  });
});

describe('removalOutcomes', () => {
  it('asks the model once per reason, batched, and says whether the prediction changed', async () => {
    const model = handModel();
    // "file banana apple": 1 + 2 − 0.5 = 2.5 → computer; without banana 0.5 → computer; without file and banana −0.5 → fruit
    const out = await removalOutcomes(
      model,
      [{ text: 'file banana apple', predicted: 0, reasons: [['banana'], ['file', 'banana'], ['pear']] }],
      2,
    );
    expect(model.asked).toEqual(['file  apple', '  apple', 'file banana apple']);
    expect(out[0].map((o) => o.flipped)).toEqual([false, true, false]);
    expect(out[0].map((o) => o.predicted)).toEqual([0, 1, 0]);
    // margins of "computer" without each reason: p(0.5) − p(−0.5) for s = 0.5, negative once flipped, unchanged for pear
    const p = (s: number) => 1 / (1 + Math.exp(-4 * s));
    expect(out[0][0].margin).toBeCloseTo(2 * p(0.5) - 1, 6);
    expect(out[0][1].margin).toBeLessThan(0);
    expect(out[0][2].margin).toBeCloseTo(2 * p(2.5) - 1, 6);
  });
});

describe('removalOutcomes on a bad model', () => {
  it('refuses probabilities of the wrong shape or not summing to 1, naming the call', async () => {
    const bad: Classifier = { labels: ['a', 'b'], predictProba: async (t) => new Float32Array(t.length * 2).fill(NaN) };
    await expect(removalOutcomes(bad, [{ text: 'x y', predicted: 0, reasons: [['x']] }])).rejects.toThrow(
      /classifier\.predictProba/,
    );
  });
});

describe('labelExplanations with the removal check (OracleConfig.removalCheck)', () => {
  it('keeps a decisive reason whose removal changes the prediction, and says what the model predicts without it', async () => {
    // "banana apple": 2 − 0.5 → computer; without banana −0.5 → fruit
    const e = { ...explanation('computer', weights, 'banana apple'), probabilities: [0.99, 0.01] };
    const model = handModel();
    const [l] = await labelExplanations(await store(1), [e], { embeddings: [hand], classifier: model });
    expect(l.verdict).toBe('untrustworthy');
    expect(l.decisive).toMatchObject({ words: ['banana'], weight: 0.3, by: 'share' });
    expect(l.decisive?.without?.predicted).toBe('fruit');
    expect(model.asked).toEqual([' apple']);
    expect(l.overruled).toBeUndefined();
  });

  it('overrules a reason the prediction survives without: trustworthy, the reason kept as `overruled`', async () => {
    // "file file banana": 1 + 1 + 2 → computer; without banana 2 → computer still
    const e = { ...explanation('computer', weights, 'file file banana'), probabilities: [0.99, 0.01] };
    const [l] = await labelExplanations(await store(1), [e], { embeddings: [hand], classifier: handModel() });
    expect(l.verdict).toBe('trustworthy');
    expect(l.decisive).toBeUndefined();
    expect(l.overruled).toMatchObject({ words: ['banana'], weight: 0.3, without: { predicted: 'computer' } });
  });

  it('decides by the weights alone without the check or without the model, and asks nothing of trustworthy verdicts', async () => {
    const e = { ...explanation('computer', weights, 'file file banana'), probabilities: [0.99, 0.01] };
    for (const [check, model] of [
      [null, handModel()],
      [undefined, handModel()],
      [1, undefined],
    ] as const) {
      const [l] = await labelExplanations(await store(check), [e], { embeddings: [hand], classifier: model });
      expect(l.verdict).toBe('untrustworthy');
      expect(l.decisive?.without).toBeUndefined();
      expect(model?.asked ?? []).toEqual([]);
    }
    // file alone is related: trustworthy by the weights, the model never asked
    const model = handModel();
    const related = { ...explanation('computer', { file: 0.5 }, 'file'), probabilities: [0.99, 0.01] };
    const [l] = await labelExplanations(await store(1), [related], { embeddings: [hand], classifier: model });
    expect(l.verdict).toBe('trustworthy');
    expect(model.asked).toEqual([]);
  });

  it('with a share of the margin below 1, confirms a reason whose removal costs more than that share', async () => {
    // "file banana banana apple": 1 + 4 − 0.5 = 4.5; without banana 0.5 → still computer, p = 1/(1+e^−2) ≈ 0.881:
    // the margin falls from ≈ 1 to ≈ 0.762, a loss of ≈ 0.238 of it
    const e = { ...explanation('computer', weights, 'file banana banana apple'), probabilities: [0.99999, 0.00001] };
    const at = async (loss: number) =>
      (await labelExplanations(await store(loss), [e], { embeddings: [hand], classifier: handModel() }))[0];
    expect((await at(1)).verdict).toBe('trustworthy');
    expect((await at(0.5)).verdict).toBe('trustworthy');
    const l = await at(0.2);
    expect(l.verdict).toBe('untrustworthy');
    expect(l.decisive?.without).toEqual({ predicted: 'computer', probability: expect.closeTo(0.881, 3) });
  });

  it('is kept by a saved store and refused outside (0, 1]', async () => {
    const saved = KeywordStore.fromJSON(JSON.parse(JSON.stringify((await store(0.5)).toJSON())));
    expect(saved.oracle.removalCheck).toBe(0.5);
    for (const bad of [0, 1.5, '1'])
      expect(() => checkOracle({ ...ORACLES.toki, removalCheck: bad as unknown as number })).toThrow(/removalCheck/);
  });
});

describe('coveringSpans', () => {
  const header = {
    name: 'mail-headers',
    spans: (t: string) => (t.startsWith('From:') ? [{ start: 0, end: t.indexOf('\n\n') + 2 }] : []),
  };
  const numbers = {
    name: 'numbers',
    spans: (t: string) => [...t.matchAll(/\d+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length })),
    relatedClasses: ['results'],
  };
  const text = 'From: bob 42\n\nscore 7 banana';

  it('takes every category covering an occurrence of the words, each whole', () => {
    // "42" is a number inside the header: removing it as a reason takes the header block and every number
    expect(coveringSpans(text, 'computer', new Set(['42']), [numbers, header])).toEqual([
      { start: 10, end: 12 },
      { start: 20, end: 21 },
      { start: 0, end: 14 },
    ]);
    expect(coveringSpans(text, 'computer', new Set(['bob']), [numbers, header])).toEqual([{ start: 0, end: 14 }]);
    expect(coveringSpans(text, 'computer', new Set(['banana']), [numbers, header])).toEqual([]);
  });

  it('skips a category for the class it is a right reason for, and words the text does not hold', () => {
    expect(coveringSpans(text, 'results', new Set(['42']), [numbers, header])).toEqual([{ start: 0, end: 14 }]);
    expect(coveringSpans(text, 'computer', new Set(['pear']), [numbers, header])).toEqual([]);
  });
});
