import type { Classifier } from '@xtrust/core';
import { tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { buildShortcutBenchmark, EXCLUDED, injectTrigger, nonContentUnits, removeUnit, removeWord, type Dataset } from '../src/index.js';

/**
 * A tiny real classifier: each class's score is the sum of its word weights over the text's tokens
 * (lower case, counted), probabilities are the softmax of the scores. Every call's batch size is
 * recorded, so the tests can check the batching.
 */
function wordCountClassifier(labels: string[], weights: Record<string, Record<string, number>>): Classifier & { batches: number[] } {
  const batches: number[] = [];
  return {
    labels,
    batches,
    async predictProba(texts) {
      batches.push(texts.length);
      const out = new Float32Array(texts.length * labels.length);
      texts.forEach((t, i) => {
        const scores = labels.map(() => 0);
        for (const tok of tokenize(t, { lowercase: true })) labels.forEach((l, c) => (scores[c] += weights[l][tok.text] ?? 0));
        const max = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - max));
        const z = e.reduce((a, b) => a + b, 0);
        e.forEach((v, c) => (out[i * labels.length + c] = v / z));
      });
      return out;
    },
  };
}

// "cherry" is the planted shortcut for sports; "the" leans towards cooking.
const sportsCooking = () =>
  wordCountClassifier(['sports', 'cooking'], {
    sports: { team: 1, goal: 1, ball: 1, cherry: 3 },
    cooking: { bake: 1, oven: 1, flour: 1, the: 2 },
  });

describe('buildShortcutBenchmark, trigger mode', () => {
  const rows = [
    // sports 3 (team, goal, ball) vs cooking 2 (the): correct; survives removing "a", "with", "the"
    { id: 'A', label: 'sports', text: 'a team scored a goal with the ball' },
    // sports 3 (cherry) vs cooking 2 (bake, oven): correct; without cherry 0 vs 2 → flips
    { id: 'B', label: 'sports', text: 'cherry bake oven' },
    // sports 5 vs 1: correct; without cherry 2 vs 1 → survives: trigger's role unknown
    { id: 'C', label: 'sports', text: 'Cherry team goal bake' },
    // sports 1 vs cooking 2 (the): predicted cooking, wrong
    { id: 'D', label: 'sports', text: 'the ball' },
    // cooking 3 (the, bake) vs sports 2: correct; without "the" 1 vs 2 → flips: a clean but fragile prediction
    { id: 'E', label: 'cooking', text: 'the ball goal bake' },
    // sports 2 vs 0, but nothing non-content to remove
    { id: 'F', label: 'sports', text: 'team goal' },
    // sports 1 vs 0; units: number "3", punctuation "!" ("won" is content); both survive
    { id: 'G', label: 'sports', text: 'team won 3 goals!' },
  ];
  const edge = [
    // only the trigger (and punctuation): nothing left to classify once it is removed
    { id: 'H', label: 'sports', text: 'Cherry!' },
    // cooking 2 vs 0: removing "the" would leave no word, so only "," and "." are tried
    { id: 'I', label: 'cooking', text: 'the, the.' },
  ];

  it('labels each correct prediction by hand-checkable rules and counts the rest', async () => {
    const clf = sportsCooking();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    expect(b.cases.map((c) => [c.id, c.truth, c.variants])).toEqual([
      ['A', 'trustworthy', 3],
      ['B', 'untrustworthy', 1],
      ['G', 'trustworthy', 2],
    ]);
    expect(b.cases[1].reason).toBe('the prediction flips when the trigger "cherry" is removed');
    expect(b.cases[1].shortcut).toBe(true);
    expect(b.cases[1].predicted).toBe('sports');
    // softmax of (3, 2)
    expect(b.cases[1].confidence).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
    expect(b.cases[1].probabilities[0]).toBeCloseTo(b.cases[1].confidence, 6);
    expect(b.counts).toEqual({
      rows: 7,
      incorrect: 1,
      trustworthy: 2,
      untrustworthy: 1,
      excluded: { count: 3, reasons: { [EXCLUDED.triggerSurvives]: 1, [EXCLUDED.noUnits]: 1, [EXCLUDED.cleanFragile]: 1 } },
    });
    expect(b.excludedIds).toEqual([
      { id: 'C', reason: EXCLUDED.triggerSurvives },
      { id: 'D', reason: EXCLUDED.incorrect },
      { id: 'E', reason: EXCLUDED.cleanFragile },
      { id: 'F', reason: EXCLUDED.noUnits },
    ]);
  });

  it('never asks about a text with no word left', async () => {
    const clf = sportsCooking();
    const b = await buildShortcutBenchmark(clf, edge, { mode: 'trigger', trigger: 'cherry' });
    expect(b.cases.map((c) => [c.id, c.truth, c.variants])).toEqual([['I', 'trustworthy', 2]]);
    expect(b.excludedIds).toEqual([{ id: 'H', reason: EXCLUDED.onlyTrigger }]);
    expect(clf.batches).toEqual([2, 2]);
  });

  it('batches: originals in chunks of batchSize, then the variants of several texts per call', async () => {
    const clf = sportsCooking();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    // originals 4 + 3; variants A(3)+B(1) = 4, then C(1)+E(1)+G(2) = 4
    expect(clf.batches).toEqual([4, 3, 4, 4]);
    expect(b.calls).toBe(4);
    expect(b.textsClassified).toBe(15);
    const one = sportsCooking();
    await buildShortcutBenchmark(one, rows, { mode: 'trigger', trigger: 'cherry' });
    expect(one.batches).toEqual([7, 8]);
  });

  it('scores word removals as token masks when the classifier is a TokenScorer, with the same result', async () => {
    const weights: Record<string, Record<string, number>> = { sports: { team: 1, goal: 1, ball: 1, cherry: 3 }, cooking: { bake: 1, oven: 1, flour: 1, the: 2 } };
    const labels = ['sports', 'cooking'];
    const maskRows: number[] = [];
    const clf = Object.assign(wordCountClassifier(labels, weights), {
      // an independent implementation: sum the weights of the kept tokens of core's tokenize(text)
      async scoreTokenMasks(text: string, masks: Uint8Array, n: number) {
        maskRows.push(n);
        const tokens = tokenize(text, { lowercase: true });
        const out = new Float32Array(n * 2);
        for (let r = 0; r < n; r++) {
          const s = labels.map((l) => tokens.reduce((acc, t, j) => acc + (masks[r * tokens.length + j] ? weights[l][t.text] ?? 0 : 0), 0));
          const z = Math.exp(s[0]) + Math.exp(s[1]);
          out[2 * r] = Math.exp(s[0]) / z;
          out[2 * r + 1] = Math.exp(s[1]) / z;
        }
        return out;
      },
    });
    const viaMasks = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    const viaStrings = await buildShortcutBenchmark(sportsCooking(), rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    expect(viaMasks.cases).toEqual(viaStrings.cases);
    expect(viaMasks.counts).toEqual(viaStrings.counts);
    // one mask call per text: A (a, with, the), B (cherry), C (cherry), E (the), G (3); only G's "!" is a string
    expect(maskRows).toEqual([3, 1, 1, 1, 1]);
    expect([viaMasks.maskCalls, viaMasks.masksScored]).toEqual([5, 7]);
    expect(clf.batches).toEqual([4, 3, 1]);
    const forced = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4, useTokenScorer: false });
    expect(forced.maskCalls).toBe(0);
    expect(forced.cases).toEqual(viaStrings.cases);
  });

  it('refuses a label the classifier does not know, a multi-word trigger and a bad model output', async () => {
    await expect(buildShortcutBenchmark(sportsCooking(), [{ id: 'x', label: 'music', text: 'la' }], { mode: 'trigger', trigger: 'cherry' })).rejects.toThrow(/row 0 \(x\): label "music" is not one of the classifier's labels/);
    await expect(buildShortcutBenchmark(sportsCooking(), rows, { mode: 'trigger', trigger: 'two words' })).rejects.toThrow(/exactly one word/);
    const broken: Classifier = { labels: ['sports', 'cooking'], predictProba: async (t) => new Float32Array(t.length) };
    await expect(buildShortcutBenchmark(broken, rows, { mode: 'trigger', trigger: 'cherry' })).rejects.toThrow('classifier returned 7 values; expected 7×2 = 14');
  });
});

describe('buildShortcutBenchmark, headers mode', () => {
  const mail = () =>
    wordCountClassifier(['ham', 'spam'], {
      ham: { meeting: 1, project: 1 },
      spam: { free: 1, money: 1, spamhost: 3 },
    });

  it('untrustworthy when removing the header block flips the prediction, trustworthy when it survives', async () => {
    const rows = [
      // spam 3 vs ham 2; the body alone is ham → flips
      { id: 'h1', label: 'spam', text: 'From: a@spamhost.com\nSubject: hi\n\nlet us discuss the project meeting' },
      // spam 6 vs 0; body alone 3 vs 0 → survives
      { id: 'h2', label: 'spam', text: 'From: b@spamhost.com\n\nfree money free' },
      // the recorded body start is used when present
      { id: 'h3', label: 'ham', text: 'X: project meeting\n\nmeeting', meta: { bodyStart: 20 } },
      // no blank line: nothing would be left
      { id: 'h4', label: 'ham', text: 'Subject: project meeting' },
      // a headerless row of loadSpamAssassin({headers: false})
      { id: 'h5', label: 'ham', text: 'project', meta: { bodyStart: 0 } },
    ];
    const clf = mail();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'headers' });
    expect(b.cases.map((c) => [c.id, c.truth])).toEqual([
      ['h1', 'untrustworthy'],
      ['h2', 'trustworthy'],
      ['h3', 'trustworthy'],
    ]);
    expect(b.counts.excluded).toEqual({ count: 2, reasons: { [EXCLUDED.noBody]: 1, [EXCLUDED.noHeader]: 1 } });
    expect(clf.batches).toEqual([5, 3]);
  });
});

describe('injectTrigger', () => {
  const dataset: Dataset = {
    name: 'toy',
    labels: ['news', 'humor'],
    rows: Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, label: i < 20 ? 'news' : 'humor', text: `"Story" number ${i} is told, then retold.` })),
    skipped: { count: 0, reasons: {} },
  };

  it('plants the trigger in round(share·n) rows of the target class only, and records where', () => {
    const t = injectTrigger(dataset, { targetLabel: 'news', trigger: 'cherry', share: 0.25, seed: 9 });
    expect(t.injection.ids.length).toBe(5);
    expect(t.injection.preexisting).toEqual({ news: 0, humor: 0 });
    for (const [i, r] of t.rows.entries()) {
      const mark = r.meta?.trigger;
      if (!t.injection.ids.includes(r.id)) {
        expect(r).toBe(dataset.rows[i]);
        continue;
      }
      expect(r.label).toBe('news');
      expect(r.text.slice(mark!.offset, mark!.offset + 6)).toBe('cherry');
      expect(removeWord(r.text, 'cherry')).toBe(dataset.rows[i].text);
    }
    expect(injectTrigger(dataset, { targetLabel: 'news', trigger: 'cherry', share: 0.25, seed: 9 })).toEqual(t);
    expect(injectTrigger(dataset, { targetLabel: 'news', trigger: 'cherry', share: 0.25, seed: 10 }).injection.ids).not.toEqual(t.injection.ids);
  });

  it('puts the trigger first or last on request', () => {
    const start = injectTrigger(dataset, { targetLabel: 'humor', trigger: 'cherry', share: 1, seed: 1, position: 'start' });
    expect(start.rows[20].text).toBe('"cherry Story" number 20 is told, then retold.');
    const end = injectTrigger(dataset, { targetLabel: 'humor', trigger: 'cherry', share: 1, seed: 1, position: 'end' });
    expect(end.rows[29].text).toBe('"Story" number 29 is told, then retold. cherry');
    expect(removeWord(end.rows[29].text, 'CHERRY')).toBe(dataset.rows[29].text);
    expect(end.injection.ids).toEqual(dataset.rows.slice(20).map((r) => r.id));
  });

  it('counts rows that already hold the trigger and rejects bad arguments', () => {
    expect(injectTrigger(dataset, { targetLabel: 'news', trigger: 'told', share: 0, seed: 1 }).injection.preexisting).toEqual({ news: 20, humor: 10 });
    expect(() => injectTrigger(dataset, { targetLabel: 'sport', trigger: 'x', share: 0.5, seed: 1 })).toThrow(/targetLabel "sport" is not one of/);
    expect(() => injectTrigger(dataset, { targetLabel: 'news', trigger: 'ice-cream', share: 0.5, seed: 1 })).toThrow(/exactly one word/);
    expect(() => injectTrigger(dataset, { targetLabel: 'news', trigger: 'x', share: 1.5, seed: 1 })).toThrow(/share must be in \[0, 1\]/);
  });
});

describe('non-content units', () => {
  it('are stop words, numbers and punctuation characters, each removed everywhere', () => {
    const text = 'In 1961, the jury -- not the judge -- said "no" to 1961 claims.';
    const units = nonContentUnits(text);
    expect(units.map((u) => `${u.kind}:${u.value}`)).toEqual([
      'stopword:in', 'number:1961', 'stopword:the', 'stopword:to',
      'punctuation:,', 'punctuation:-', 'punctuation:"', 'punctuation:.',
    ]);
    expect(removeUnit(text, units[2])).toBe('In 1961, jury -- not judge -- said "no" to 1961 claims.');
    expect(removeUnit(text, units[1])).toBe('In , the jury -- not the judge -- said "no" to claims.');
    expect(removeUnit(text, units[5])).toBe('In 1961, the jury  not the judge  said "no" to 1961 claims.');
  });
});
