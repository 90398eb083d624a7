import { tokenize, type Classifier, type TokenScorer } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  buildTokenSetBenchmark,
  injectTrigger,
  patternSet,
  phraseWords,
  setTokenIndices,
  wordSet,
  type Dataset,
} from '../src/index.js';

/** A linear model over words: class b's score is the sum of its words' weights minus class a's. */
const WEIGHTS: Record<string, [number, number]> = {
  apple: [3, 0],
  pear: [1, 0],
  best: [0, 2],
  regards: [0, 2],
  dear: [0, 1],
};

function scores(words: readonly string[], out: Float32Array, row: number) {
  const s = [0, 0];
  for (const w of words) {
    const v = WEIGHTS[w.toLowerCase()];
    if (v) {
      s[0] += v[0];
      s[1] += v[1];
    }
  }
  const m = Math.max(...s);
  const z = Math.exp(s[0] - m) + Math.exp(s[1] - m);
  out[row * 2] = Math.exp(s[0] - m) / z;
  out[row * 2 + 1] = Math.exp(s[1] - m) / z;
}

function linearModel(): Classifier & { texts: string[] } {
  const self = {
    labels: ['a', 'b'],
    texts: [] as string[],
    async predictProba(texts: readonly string[]) {
      self.texts.push(...texts);
      const out = new Float32Array(texts.length * 2);
      texts.forEach((t, i) =>
        scores(
          tokenize(t).map((x) => x.text),
          out,
          i,
        ),
      );
      return out;
    },
  };
  return self;
}

function maskingModel(): Classifier & TokenScorer {
  const base = linearModel();
  return {
    labels: base.labels,
    predictProba: base.predictProba,
    async scoreTokenMasks(text: string, masks: Uint8Array, rows: number) {
      const tokens = tokenize(text).map((x) => x.text);
      const out = new Float32Array(rows * 2);
      for (let r = 0; r < rows; r++)
        scores(
          tokens.filter((_, i) => masks[r * tokens.length + i] === 1),
          out,
          r,
        );
      return out;
    },
  };
}

const ROWS = [
  { id: 'flips', text: 'apple best regards', label: 'b' },
  { id: 'survives', text: 'apple pear best', label: 'a' },
  { id: 'over', text: 'Best regards, dear', label: 'b' },
  { id: 'clean', text: 'pear', label: 'a' },
  { id: 'only', text: 'best regards', label: 'b' },
  { id: 'wrong', text: 'apple', label: 'b' },
];

describe('token sets', () => {
  it('a phrase set matches its words one by one, anywhere, case-insensitively', () => {
    const s = phraseWords('best regards');
    expect(s.name).toBe('best regards');
    const text = 'Regards to the best of them';
    expect(s.spans(text).map((x) => text.slice(x.start, x.end))).toEqual(['Regards', 'best']);
    expect(() => wordSet(['two words'])).toThrow(/not one word/);
    expect(() => wordSet([])).toThrow(/non-empty/);
  });

  it('a span covers every token it overlaps: a URL is one span over several tokens', () => {
    const text = 'see http://www.example.com/a now';
    const tokens = tokenize(text);
    const urls = patternSet('urls', /https?:\/\/\S+/);
    expect(setTokenIndices(tokens, urls.spans(text)).map((i) => tokens[i].text)).toEqual([
      'http',
      'www',
      'example',
      'com',
      'a',
    ]);
    // overlapping and unsorted spans
    expect(
      setTokenIndices(tokens, [
        { start: 28, end: 31 },
        { start: 0, end: 2 },
        { start: 1, end: 3 },
      ]),
    ).toEqual([0, 6]);
  });
});

describe('buildTokenSetBenchmark', () => {
  for (const [name, make] of [
    ['predictProba', linearModel],
    ['token masks', maskingModel],
  ] as const) {
    it(`labels each correct prediction by removing the whole set, both sides (${name})`, async () => {
      const b = await buildTokenSetBenchmark(make(), ROWS, { set: phraseWords('best regards') });
      const byId = Object.fromEntries(b.cases.map((c) => [c.id, c]));
      expect(Object.keys(byId)).toEqual(['flips', 'survives', 'clean']);
      expect(byId.flips).toMatchObject({
        truth: 'untrustworthy',
        restsOnTrigger: true,
        setTokens: 2,
        setWords: ['best', 'regards'],
        flipsAlone: ['best', 'regards'],
        variants: 4,
      });
      // "best" alone gives b, the text without it still a: trustworthy
      expect(byId.survives).toMatchObject({ truth: 'trustworthy', restsOnTrigger: false, setWords: ['best'] });
      expect(byId.survives.flipsAlone).toBeUndefined();
      expect(byId.clean).toMatchObject({ truth: 'trustworthy', shortcut: false, variants: 0 });
      expect(b.counts).toMatchObject({ rows: 6, incorrect: 1, trustworthy: 2, untrustworthy: 1 });
      expect(b.counts.ambiguous.reasons).toEqual({ 'nothing-left': 1, 'survives-but-spurious-alone-suffices': 1 });
      expect(b.excludedIds.map((e) => e.id)).toEqual(['over', 'only', 'wrong']);
      expect(b.mode).toBe('tokens');
      expect(b.set).toBe('best regards');
    });
  }

  it('a related set makes resting on it trustworthy and nothing over-determined', async () => {
    const b = await buildTokenSetBenchmark(linearModel(), ROWS, { set: wordSet(['best', 'regards']), related: true });
    const byId = Object.fromEntries(b.cases.map((c) => [c.id, c]));
    expect(byId.flips).toMatchObject({ truth: 'trustworthy', restsOnTrigger: true });
    expect(byId.over).toMatchObject({ truth: 'trustworthy', restsOnTrigger: false });
  });

  it('batches the variant texts of several texts per predictProba call; singles can be turned off', async () => {
    const m = linearModel();
    const b = await buildTokenSetBenchmark(m, ROWS, {
      set: phraseWords('best regards'),
      batchSize: 100,
      singlesUpTo: 0,
    });
    expect(b.calls).toBe(2);
    // originals, then without / alone of "flips", "survives", "over"
    expect(m.texts.slice(6)).toEqual(['apple ', 'best regards', 'apple pear', 'best', ', dear', 'Best regards']);
    expect(b.cases.find((c) => c.id === 'flips')!.flipsAlone).toBeUndefined();
  });

  it('refuses a missing set and bad settings', async () => {
    await expect(buildTokenSetBenchmark(linearModel(), ROWS, {} as never)).rejects.toThrow(/set must be a TokenSet/);
    await expect(buildTokenSetBenchmark(linearModel(), ROWS, { set: wordSet(['best']), batchSize: 0 })).rejects.toThrow(
      /batchSize/,
    );
    await expect(
      buildTokenSetBenchmark(linearModel(), [{ id: 'x', text: 'pear', label: 'c' }], { set: wordSet(['best']) }),
    ).rejects.toThrow(/label/);
  });
});

describe('injectTrigger with a scattered set', () => {
  const dataset: Dataset = {
    name: 'toy',
    labels: ['a', 'b'],
    rows: Array.from({ length: 40 }, (_, i) => ({
      id: `r${i}`,
      text: `text number ${i} here`,
      label: i % 2 ? 'b' : 'a',
    })),
    skipped: { count: 0, reasons: {} },
  };

  it('plants one trigger of the list per chosen row, drawn by the seed; a single trigger keeps its old draw', () => {
    const words = ['alpha', 'bravo', 'charlie'];
    const s = injectTrigger(dataset, { targetLabel: 'b', trigger: words, share: 1, seed: 7 });
    const planted = s.rows.filter((r) => r.meta?.trigger).map((r) => r.meta!.trigger!.word);
    expect(planted).toHaveLength(20);
    expect(new Set(planted)).toEqual(new Set(words));
    expect(s.injection.triggers).toEqual(words);
    expect(s.injection.trigger).toBe('alpha, bravo, charlie');
    expect(injectTrigger(dataset, { targetLabel: 'b', trigger: words, share: 1, seed: 7 }).rows).toEqual(s.rows);
    const one = injectTrigger(dataset, { targetLabel: 'b', trigger: 'alpha', share: 0.5, seed: 3 });
    const listOfOne = injectTrigger(dataset, { targetLabel: 'b', trigger: ['alpha'], share: 0.5, seed: 3 });
    expect(listOfOne.rows).toEqual(one.rows);
    expect(() => injectTrigger(dataset, { targetLabel: 'b', trigger: [], share: 1, seed: 1 })).toThrow(
      /non-empty list/,
    );
  });
});
