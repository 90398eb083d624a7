import { describe, expect, it } from 'vitest';
import { wilsonInterval, XtrustError, type Classifier } from '@xtrust/core';
import { leansOn, probeCategories, type CategoryProbeResult } from '../src/index.js';

/**
 * A hand-made spam model that leans on years: p(spam) 0.95 with "unsubscribe", else 0.9 when a year
 * (1600–2099) occurs, else 0.2. Records every predictProba call's texts.
 */
function yearModel(): Classifier & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    labels: ['spam', 'ham'],
    calls,
    async predictProba(texts) {
      calls.push([...texts]);
      const out = new Float32Array(texts.length * 2);
      texts.forEach((t, i) => {
        const p = /\bunsubscribe\b/.test(t) ? 0.95 : /\b(1[6-9]\d\d|20\d\d)\b/.test(t) ? 0.9 : 0.2;
        out[2 * i] = p;
        out[2 * i + 1] = 1 - p;
      });
      return out;
    },
  };
}

const TEXTS = [
  'sale ends 1999 hurry', // spam → ham without the year
  'in 2005 we met', // spam → ham
  'unsubscribe 1850 list', // spam either way
  'hello friend', // no year
  'meeting at noon', // no year
  'The 1999 report and 2001 plans', // spam → ham
];

const withoutSeconds = (r: CategoryProbeResult) => ({ ...r, cost: { ...r.cost, seconds: 0 } });

describe('probeCategories (CheckList invariance tests)', () => {
  it('measures removal and swap flips of a model that leans on years', async () => {
    const model = yearModel();
    const r = await probeCategories(model, TEXTS, { categories: ['years', 'person-names'], seed: 7, batchSize: 4 });
    const years = r.categories[0];
    expect(years.category).toBe('years');
    expect(years.texts).toBe(4);
    expect(years.without).toBe(2);
    expect(years.occurrences).toBe(5);
    expect(years.emptied).toBe(0);
    // removal: 3 of 4 texts flip; drops 0.7, 0.7, 0, 0.7
    const w = wilsonInterval(3, 4);
    expect(years.removal).toMatchObject({ flips: 3, texts: 4, rate: 0.75, lo: w.lo, hi: w.hi });
    expect(years.removal!.meanDrop).toBeCloseTo((3 * 0.7) / 4, 5);
    // swapping a year for another year changes nothing this model reads
    expect(years.swap).toMatchObject({ flips: 0, texts: 4, rate: 0, lo: 0, swaps: 4 });
    expect(years.swap!.meanDrop).toBeCloseTo(0, 6);
    expect(years.swap!.hi).toBeCloseTo(wilsonInterval(0, 4).hi, 12);
    // no name in any text: counted, not probed
    expect(r.categories[1]).toMatchObject({
      category: 'person-names',
      texts: 0,
      without: 6,
      removal: null,
      swap: null,
    });
    expect(leansOn(r).map((p) => p.category)).toEqual(['years']);
    expect(w.lo).toBeCloseTo(0.3006, 3);
    expect(leansOn(r, 0.31)).toEqual([]);
  });

  it('batches every model call and reports the cost', async () => {
    const model = yearModel();
    const r = await probeCategories(model, TEXTS, { seed: 1, batchSize: 3, swapsPerText: 2 });
    const sizes = model.calls.map((c) => c.length);
    expect(sizes.length).toBe(r.cost.modelCalls);
    expect(sizes.slice(0, -1).every((n) => n === 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(r.cost.textsScored);
    // the 4 year texts once each; years: 4 removals + 8 swaps; numbers: the same
    expect(r.cost.textsScored).toBe(4 + 2 * (4 + 8));
    expect(r.cost.seconds).toBeGreaterThan(0);
    const years = r.categories.find((p) => p.category === 'years')!;
    expect(years.swap).toMatchObject({ texts: 4, swaps: 8 });
    // a removal-only category has no swap figure
    expect(r.categories.find((p) => p.category === 'mail-headers')).toMatchObject({ texts: 0, swap: null });
  });

  it('finds the header block a header model leans on, removal only', async () => {
    const headerModel: Classifier = {
      labels: ['spam', 'ham'],
      async predictProba(texts) {
        return Float32Array.from(texts.flatMap((t) => (/^Received:/m.test(t) ? [0.1, 0.9] : [0.7, 0.3])));
      },
    };
    const texts = [
      'Received: from a\nSubject: x\n\nbuy now',
      'Received: from b\nTo: y\n\nhello',
      'Subject: z\n\nplain body',
      'no header here',
    ];
    const r = await probeCategories(headerModel, texts, { categories: ['mail-headers'], seed: 0 });
    expect(r.categories[0]).toMatchObject({
      texts: 3,
      without: 1,
      removal: { flips: 2, texts: 3 },
      swap: null,
    });
    expect(r.categories[0].removal!.meanDrop).toBeCloseTo((0.6 + 0.6 + 0) / 3, 5);
  });

  it('is deterministic for a seed, and the seed draws the swaps', async () => {
    const a = yearModel();
    const b = yearModel();
    const c = yearModel();
    const ra = await probeCategories(a, TEXTS, { seed: 42 });
    const rb = await probeCategories(b, TEXTS, { seed: 42 });
    await probeCategories(c, TEXTS, { seed: 43 });
    expect(withoutSeconds(ra)).toEqual(withoutSeconds(rb));
    expect(a.calls).toEqual(b.calls);
    expect(c.calls).not.toEqual(a.calls);
    // a category's swaps do not depend on which other categories are probed beside it
    const alone = yearModel();
    await probeCategories(alone, TEXTS, { categories: ['years'], seed: 42, batchSize: 1000 });
    const swappedYears = (calls: string[][]) =>
      calls.flat().filter((t) => !TEXTS.includes(t) && /\d{4}/.test(t) && !/\d{4}\.\d/.test(t));
    expect(swappedYears(a.calls)).toEqual(expect.arrayContaining(swappedYears(alone.calls)));
  });

  it('counts a text that removal would empty apart, never scoring an empty text', async () => {
    const model = yearModel();
    const r = await probeCategories(model, ['1999', 'in 1999'], { categories: ['years'], seed: 0 });
    expect(r.categories[0]).toMatchObject({ texts: 2, emptied: 1, removal: { texts: 1, flips: 1 } });
    expect(model.calls.flat().some((t) => t.trim() === '')).toBe(false);
  });

  it('refuses bad input with an error naming it', async () => {
    const m = yearModel();
    await expect(probeCategories(m, TEXTS, { seed: 0, categories: ['dates'] })).rejects.toThrow(
      /unknown token category "dates" \(known: person-names/,
    );
    await expect(probeCategories(m, [], { seed: 0 })).rejects.toThrow(/texts must be a non-empty list/);
    await expect(probeCategories(m, ['ok', ''], { seed: 0 })).rejects.toThrow(/texts\[1\] is empty/);
    await expect(probeCategories(m, TEXTS, { seed: 1.5 })).rejects.toThrow(/seed must be an integer/);
    await expect(probeCategories(m, TEXTS, { seed: 0, batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(probeCategories(m, TEXTS, { seed: 0, swapsPerText: -1 })).rejects.toThrow(/swapsPerText/);
    await expect(probeCategories(m, TEXTS, { seed: 0, categories: [] })).rejects.toThrow(/categories/);
    const broken: Classifier = { labels: ['a', 'b'], predictProba: async (t) => new Float32Array(t.length) };
    await expect(probeCategories(broken, TEXTS, { seed: 0 })).rejects.toMatchObject({ code: 'BAD_MODEL_OUTPUT' });
    await expect(probeCategories(m, TEXTS, { seed: 0 })).resolves.toBeDefined();
    await expect(probeCategories(m, TEXTS, { seed: 'x' as unknown as number })).rejects.toBeInstanceOf(XtrustError);
  });
});
