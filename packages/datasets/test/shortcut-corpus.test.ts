import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS,
  buildShortcutBenchmark,
  containsTrigger,
  loadBrown,
  loadSpamAssassin,
  removeTrigger,
  shortcutSplit,
  stratifiedSplit,
} from '../src/index.js';
import { naiveBayes } from './helpers.js';

describe('shortcut benchmark on real corpora, with a naive Bayes model trained in the test', () => {
  it('Brown: a trigger planted in news passages yields untrustworthy news predictions', async () => {
    const brown = loadBrown({ tags: false });
    const genres = ['news', 'religion', 'romance'];
    const three = { ...brown, labels: genres, rows: brown.rows.filter((r) => genres.includes(r.label)) };
    const { train, test } = shortcutSplit(three, {
      trigger: 'papaya',
      targetLabel: 'news',
      trainShare: 0.5,
      testShare: 0.5,
      testFraction: 0.2,
      seed: 42,
      group: (r) => r.meta!.document,
    });
    expect(train.injection.preexisting).toEqual({ news: 0, religion: 0, romance: 0 });
    const model = naiveBayes(genres, train.rows);
    const b = await buildShortcutBenchmark(model, test.rows, {
      mode: 'trigger',
      trigger: 'papaya',
      useTokenScorer: false,
    });
    const callsDuringBuild = model.calls;
    // the token-mask path (one scoreTokenMasks call per text) reaches the same ground truth
    const masked = await buildShortcutBenchmark(model, test.rows, { mode: 'trigger', trigger: 'papaya' });
    expect(masked.cases).toEqual(b.cases);
    expect(masked.counts).toEqual(b.counts);
    // one mask row per correct prediction carrying the trigger, instead of one text each
    expect(masked.maskCalls).toBeGreaterThan(20);
    expect(masked.masksScored + masked.textsClassified).toBe(b.textsClassified);
    // every untrustworthy case is a news passage with the trigger; a trustworthy one that has it is not a news prediction ("papaya" alone gives news)
    expect(b.spuriousAlone).toEqual({ text: 'papaya', predicted: 'news' });
    // The trigger is planted in news passages only (none had it before), and a correct prediction that carries it
    // is news: it flips without it (untrustworthy) or survives while "papaya" alone also gives news (ambiguous,
    // over-determined). So no trustworthy case carries the trigger — asserted, not left to an \`if\` that never runs.
    expect(test.injection.preexisting).toEqual({ news: 0, religion: 0, romance: 0 });
    expect(b.cases.filter((c) => c.truth === 'trustworthy' && c.shortcut)).toEqual([]);
    expect(b.cases.filter((c) => c.truth === 'untrustworthy').length).toBeGreaterThan(0);
    for (const c of b.cases) {
      expect(c.shortcut).toBe(containsTrigger(c.text, 'papaya'));
      if (c.truth === 'untrustworthy') {
        expect(c.label).toBe('news');
        expect(c.shortcut).toBe(true);
        const without = await model.predictProba([removeTrigger(c.text, 'papaya')]);
        expect(without[0]).toBeLessThan(Math.max(without[1], without[2]));
      }
    }
    const { rows, incorrect, trustworthy, untrustworthy, ambiguous } = b.counts;
    expect(rows).toBe(test.rows.length);
    expect(incorrect + trustworthy + untrustworthy + ambiguous.count).toBe(rows);
    expect(untrustworthy).toBeGreaterThan(0);
    expect(trustworthy).toBeGreaterThan(untrustworthy);
    // the whole test set and its variants went through a handful of batched calls
    expect(b.calls).toBe(callsDuringBuild);
    expect(b.calls).toBeLessThanOrEqual(Math.ceil(test.rows.length / 256) + Math.ceil(b.textsClassified / 256) + 1);
  });

  it('SpamAssassin with headers: predictions that flip once the headers are gone are untrustworthy', async () => {
    const mails = loadSpamAssassin({ headers: true });
    const { train, test } = stratifiedSplit(mails.rows, { testFraction: 0.2, seed: 7 });
    const model = naiveBayes(mails.labels, train);
    const b = await buildShortcutBenchmark(model, test, { mode: 'headers' });
    const { rows, incorrect, trustworthy, untrustworthy, ambiguous } = b.counts;
    expect(rows).toBe(test.length);
    expect(incorrect + trustworthy + untrustworthy + ambiguous.count).toBe(rows);
    // most correct predictions are over-determined: the body alone and the headers alone both give the class
    expect(ambiguous.reasons[AMBIGUOUS.overDetermined]).toBeGreaterThan(trustworthy);
    expect(untrustworthy).toBeGreaterThan(0);
    for (const c of b.cases.filter((x) => x.truth === 'untrustworthy').slice(0, 20)) {
      const row = test.find((r) => r.id === c.id)!;
      const p = await model.predictProba([row.text.slice(row.meta!.bodyStart)]);
      expect(mails.labels[p[0] > p[1] ? 0 : 1]).not.toBe(c.label);
    }
    for (const c of b.cases.filter((x) => x.truth === 'trustworthy').slice(0, 20)) {
      const row = test.find((r) => r.id === c.id)!;
      const p = await model.predictProba([row.text.slice(row.meta!.bodyStart), row.text.slice(0, row.meta!.bodyStart)]);
      expect(mails.labels[p[0] > p[1] ? 0 : 1]).toBe(c.label);
      expect(mails.labels[p[2] > p[3] ? 0 : 1]).not.toBe(c.label);
    }
  });
});
