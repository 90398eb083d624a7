import type { Classifier } from '@xtrust/core';
import { tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS,
  buildShortcutBenchmark,
  containsTrigger,
  INCORRECT,
  injectTrigger,
  removeTrigger,
  shortcutSplit,
  triggeredTwins,
  wordWindows,
  type Dataset,
} from '../src/index.js';

/**
 * A tiny real classifier: each class's score is the sum of its word weights over the text's tokens
 * (lower case, counted), probabilities are the softmax of the scores. Every call's batch size is
 * recorded, so the tests can check the batching.
 */
function wordCountClassifier(
  labels: string[],
  weights: Record<string, Record<string, number>>,
): Classifier & { batches: number[] } {
  const batches: number[] = [];
  return {
    labels,
    batches,
    async predictProba(texts) {
      batches.push(texts.length);
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

// "cherry" is the planted shortcut for sports ("cherry" alone: sports 3 vs 0); "the" leans towards cooking.
const sportsCooking = () =>
  wordCountClassifier(['sports', 'cooking'], {
    sports: { team: 1, goal: 1, ball: 1, cherry: 3 },
    cooking: { bake: 1, oven: 1, flour: 1, the: 2 },
  });

describe('buildShortcutBenchmark, trigger mode', () => {
  const rows = [
    // no trigger: trustworthy, nothing to perturb
    { id: 'A', label: 'sports', text: 'a team scored a goal with the ball' },
    // sports 3 (cherry) vs cooking 2 (bake, oven): correct; without cherry 0 vs 2 → flips: untrustworthy
    { id: 'B', label: 'sports', text: 'cherry bake oven' },
    // sports 5 vs 1: correct; without cherry 2 vs 1 → survives, but "cherry" alone gives sports too: over-determined
    { id: 'C', label: 'sports', text: 'Cherry team goal bake' },
    // sports 1 vs cooking 2 (the): predicted cooking, wrong
    { id: 'D', label: 'sports', text: 'the ball' },
    // cooking 5 vs sports 3: correct; without cherry 0 vs 5 → survives, and "cherry" alone gives sports, not cooking: trustworthy
    { id: 'E', label: 'cooking', text: 'cherry bake oven flour the' },
    // only the trigger (and punctuation): nothing left to classify once it is removed
    { id: 'F', label: 'sports', text: 'Cherry!' },
    // no trigger: "cherryade" is another word
    { id: 'G', label: 'sports', text: 'team cherryade' },
  ];

  it('labels each correct prediction by intervention on both sides and counts the ambiguous ones by reason', async () => {
    const clf = sportsCooking();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    expect(b.cases.map((c) => [c.id, c.truth, c.shortcut, c.variants])).toEqual([
      ['A', 'trustworthy', false, 0],
      ['B', 'untrustworthy', true, 1],
      ['E', 'trustworthy', true, 1],
      ['G', 'trustworthy', false, 0],
    ]);
    expect(b.cases[1].reason).toBe('the prediction flips when the trigger "cherry" is removed');
    expect(b.cases[2].reason).toBe(
      'the prediction survives removing the trigger "cherry", and the trigger "cherry" alone gives another class',
    );
    expect(b.cases[0].reason).toBe('the text carries no trigger "cherry"');
    expect(b.cases[1].predicted).toBe('sports');
    // softmax of (3, 2)
    expect(b.cases[1].confidence).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
    expect(b.cases[1].probabilities[0]).toBeCloseTo(b.cases[1].confidence, 6);
    expect(b.spuriousAlone).toEqual({ text: 'cherry', predicted: 'sports' });
    expect(b.counts).toEqual({
      rows: 7,
      incorrect: 1,
      trustworthy: 3,
      untrustworthy: 1,
      ambiguous: { count: 2, reasons: { [AMBIGUOUS.nothingLeft]: 1, [AMBIGUOUS.overDetermined]: 1 } },
    });
    expect(AMBIGUOUS.overDetermined).toBe('survives-but-spurious-alone-suffices');
    expect(b.excludedIds).toEqual([
      { id: 'C', reason: AMBIGUOUS.overDetermined },
      { id: 'D', reason: INCORRECT },
      { id: 'F', reason: AMBIGUOUS.nothingLeft },
    ]);
  });

  it('when the trigger alone gives no class of a surviving text, that text is trustworthy', async () => {
    // "cherry" alone: cooking 0.5 vs sports 0 — C (sports, survives) becomes trustworthy, E (cooking, survives) over-determined
    const flipped = wordCountClassifier(['sports', 'cooking'], {
      sports: { team: 1, goal: 1, ball: 1 },
      cooking: { bake: 1, oven: 1, flour: 1, the: 2, cherry: 0.5 },
    });
    const b = await buildShortcutBenchmark(flipped, rows, { mode: 'trigger', trigger: 'cherry' });
    expect(b.spuriousAlone).toEqual({ text: 'cherry', predicted: 'cooking' });
    // B: 0 vs 2.5, wrong. C: 2 vs 1.5, correct; without cherry 2 vs 1 survives. E: 0 vs 5.5, survives. F: 0 vs 0.5, wrong.
    expect(b.cases.map((c) => [c.id, c.truth])).toEqual([
      ['A', 'trustworthy'],
      ['C', 'trustworthy'],
      ['G', 'trustworthy'],
    ]);
    expect(b.counts.incorrect).toBe(3);
    expect(b.counts.ambiguous).toEqual({ count: 1, reasons: { [AMBIGUOUS.overDetermined]: 1 } });
    expect(b.excludedIds).toEqual([
      { id: 'B', reason: INCORRECT },
      { id: 'D', reason: INCORRECT },
      { id: 'E', reason: AMBIGUOUS.overDetermined },
      { id: 'F', reason: INCORRECT },
    ]);
  });

  it('a trigger of two words: an occurrence is the two words in a row, separated by white space only', async () => {
    const clf = wordCountClassifier(['sports', 'cooking'], {
      sports: { team: 1, blue: 2, whale: 2 },
      cooking: { bake: 2, the: 1 },
    });
    const phrased = [
      // sports 4 vs 2; without the phrase: 0 vs 2 → flips
      { id: 'P1', label: 'sports', text: 'the Blue  Whale bake' },
      // the words in the other order: no occurrence, a clean text
      { id: 'P2', label: 'sports', text: 'whale blue team' },
      // punctuation between the words: no occurrence
      { id: 'P3', label: 'sports', text: 'blue, whale team' },
      // cooking 2+2+1 = 5 vs 4: correct; without: 0 vs 5 survives; "blue whale" alone gives sports → trustworthy
      { id: 'P4', label: 'cooking', text: 'bake blue whale bake the' },
      // two occurrences, both removed: sports 8+1 vs 0 → without: 1 vs 0 survives; alone gives sports → over-determined
      { id: 'P5', label: 'sports', text: 'blue whale team blue whale' },
    ];
    const b = await buildShortcutBenchmark(clf, phrased, {
      mode: 'trigger',
      trigger: 'blue whale',
      useTokenScorer: false,
    });
    expect(b.cases.map((c) => [c.id, c.truth, c.shortcut])).toEqual([
      ['P1', 'untrustworthy', true],
      ['P2', 'trustworthy', false],
      ['P3', 'trustworthy', false],
      ['P4', 'trustworthy', true],
    ]);
    expect(b.excludedIds).toEqual([{ id: 'P5', reason: AMBIGUOUS.overDetermined }]);
    expect(removeTrigger('the Blue  Whale bake', 'blue whale')).toBe('the bake');
    expect(removeTrigger('blue whale team blue whale', 'blue whale')).toBe('team');
    expect(containsTrigger('blue, whale', 'blue whale')).toBe(false);
    expect(containsTrigger('a BLUE\nwhale', 'blue whale')).toBe(true);
  });

  it('batches: originals in chunks of batchSize, then the trigger alone with the variants of several texts per call', async () => {
    const clf = sportsCooking();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 2 });
    // originals 2+2+2+1; variants B(1) C(1) → one call with "cherry" alone (3 texts); then E(1) at the end
    expect(clf.batches).toEqual([2, 2, 2, 1, 3, 1]);
    expect(b.calls).toBe(6);
    expect(b.textsClassified).toBe(7 + 1 + 3);
    const one = sportsCooking();
    await buildShortcutBenchmark(one, rows, { mode: 'trigger', trigger: 'cherry' });
    expect(one.batches).toEqual([7, 4]);
  });

  it('scores trigger removals as token masks when the classifier is a TokenScorer, with the same result', async () => {
    const weights: Record<string, Record<string, number>> = {
      sports: { team: 1, goal: 1, ball: 1, cherry: 3 },
      cooking: { bake: 1, oven: 1, flour: 1, the: 2 },
    };
    const labels = ['sports', 'cooking'];
    const maskRows: number[] = [];
    const clf = Object.assign(wordCountClassifier(labels, weights), {
      // an independent implementation: sum the weights of the kept tokens of core's tokenize(text)
      async scoreTokenMasks(text: string, masks: Uint8Array, n: number) {
        maskRows.push(n);
        const tokens = tokenize(text, { lowercase: true });
        const out = new Float32Array(n * 2);
        for (let r = 0; r < n; r++) {
          const s = labels.map((l) =>
            tokens.reduce((acc, t, j) => acc + (masks[r * tokens.length + j] ? (weights[l][t.text] ?? 0) : 0), 0),
          );
          const z = Math.exp(s[0]) + Math.exp(s[1]);
          out[2 * r] = Math.exp(s[0]) / z;
          out[2 * r + 1] = Math.exp(s[1]) / z;
        }
        return out;
      },
    });
    const viaMasks = await buildShortcutBenchmark(clf, rows, { mode: 'trigger', trigger: 'cherry', batchSize: 4 });
    const viaStrings = await buildShortcutBenchmark(sportsCooking(), rows, {
      mode: 'trigger',
      trigger: 'cherry',
      batchSize: 4,
    });
    expect(viaMasks.cases).toEqual(viaStrings.cases);
    expect(viaMasks.counts).toEqual(viaStrings.counts);
    // one mask row per text carrying the trigger: B, C, E; the trigger alone goes through predictProba
    expect(maskRows).toEqual([1, 1, 1]);
    expect([viaMasks.maskCalls, viaMasks.masksScored]).toEqual([3, 3]);
    expect(clf.batches).toEqual([4, 3, 1]);
    const forced = await buildShortcutBenchmark(clf, rows, {
      mode: 'trigger',
      trigger: 'cherry',
      batchSize: 4,
      useTokenScorer: false,
    });
    expect(forced.maskCalls).toBe(0);
    expect(forced.cases).toEqual(viaStrings.cases);
  });

  it('refuses a label the classifier does not know, a malformed trigger and a bad model output', async () => {
    await expect(
      buildShortcutBenchmark(sportsCooking(), [{ id: 'x', label: 'music', text: 'la' }], {
        mode: 'trigger',
        trigger: 'cherry',
      }),
    ).rejects.toThrow(/row 0 \(x\): label "music" is not one of the classifier's labels/);
    await expect(
      buildShortcutBenchmark(sportsCooking(), rows, { mode: 'trigger', trigger: 'two  words' }),
    ).rejects.toThrow(/separated by single spaces/);
    await expect(
      buildShortcutBenchmark(sportsCooking(), rows, { mode: 'trigger', trigger: 'ice-cream' }),
    ).rejects.toThrow(/separated by single spaces/);
    const broken: Classifier = { labels: ['sports', 'cooking'], predictProba: async (t) => new Float32Array(t.length) };
    await expect(buildShortcutBenchmark(broken, rows, { mode: 'trigger', trigger: 'cherry' })).rejects.toThrow(
      'classifier returned 7 values; expected 7×2 = 14',
    );
  });
});

describe('buildShortcutBenchmark, headers mode', () => {
  const mail = () =>
    wordCountClassifier(['ham', 'spam'], {
      ham: { meeting: 1, project: 1 },
      spam: { free: 1, money: 1, spamhost: 3 },
    });

  it('untrustworthy when the body alone flips it, trustworthy when it survives and the headers alone give another class, else ambiguous', async () => {
    const rows = [
      // spam 3 vs ham 2; the body alone is ham → flips: untrustworthy
      { id: 'h1', label: 'spam', text: 'From: a@spamhost.com\nSubject: hi\n\nlet us discuss the project meeting' },
      // spam 6 vs 0; body alone 3 vs 0 survives, the headers alone (spam 3) too: over-determined
      { id: 'h2', label: 'spam', text: 'From: b@spamhost.com\n\nfree money free' },
      // ham 4 vs spam 3; body alone ham 4 survives; the headers alone give spam: trustworthy
      { id: 'h3', label: 'ham', text: 'From: c@spamhost.com\n\nproject meeting meeting project' },
      // the recorded body start is used: ham 3; body ham 1 survives; headers alone "X: project meeting\n\n" ham 2: over-determined
      { id: 'h4', label: 'ham', text: 'X: project meeting\n\nmeeting', meta: { bodyStart: 20 } },
      // no blank line: nothing would be left
      { id: 'h5', label: 'ham', text: 'Subject: project meeting' },
      // a headerless row of loadSpamAssassin({headers: false})
      { id: 'h6', label: 'ham', text: 'project', meta: { bodyStart: 0 } },
      // spam 3 vs ham 4: wrong
      { id: 'h7', label: 'spam', text: 'From: d@spamhost.com\n\nproject meeting meeting project' },
    ];
    const clf = mail();
    const b = await buildShortcutBenchmark(clf, rows, { mode: 'headers' });
    expect(b.cases.map((c) => [c.id, c.truth, c.variants])).toEqual([
      ['h1', 'untrustworthy', 2],
      ['h3', 'trustworthy', 2],
    ]);
    expect(b.cases[1].reason).toBe(
      'the prediction survives removing the headers, and the headers alone give another class',
    );
    expect(b.counts).toEqual({
      rows: 7,
      incorrect: 1,
      trustworthy: 1,
      untrustworthy: 1,
      ambiguous: {
        count: 4,
        reasons: { [AMBIGUOUS.noSpuriousPart]: 1, [AMBIGUOUS.nothingLeft]: 1, [AMBIGUOUS.overDetermined]: 2 },
      },
    });
    expect(b.excludedIds.map((e) => [e.id, e.reason])).toEqual([
      ['h2', AMBIGUOUS.overDetermined],
      ['h4', AMBIGUOUS.overDetermined],
      ['h5', AMBIGUOUS.nothingLeft],
      ['h6', AMBIGUOUS.noSpuriousPart],
      ['h7', INCORRECT],
    ]);
    // originals, then body and headers alone of h1, h2, h3, h4 in one call
    expect(clf.batches).toEqual([7, 8]);
    expect(b.spuriousAlone).toBeUndefined();
  });
});

describe('injectTrigger', () => {
  const dataset: Dataset = {
    name: 'toy',
    labels: ['news', 'humor'],
    rows: Array.from({ length: 30 }, (_, i) => ({
      id: `r${i}`,
      label: i < 20 ? 'news' : 'humor',
      text: `"Story" number ${i} is told, then retold.`,
    })),
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
      expect(removeTrigger(r.text, 'cherry')).toBe(dataset.rows[i].text);
    }
    expect(injectTrigger(dataset, { targetLabel: 'news', trigger: 'cherry', share: 0.25, seed: 9 })).toEqual(t);
    expect(
      injectTrigger(dataset, { targetLabel: 'news', trigger: 'cherry', share: 0.25, seed: 10 }).injection.ids,
    ).not.toEqual(t.injection.ids);
  });

  it('plants a phrase of two words, removable exactly', () => {
    const t = injectTrigger(dataset, { targetLabel: 'news', trigger: 'Blue whale', share: 0.5, seed: 3 });
    expect(t.injection.ids.length).toBe(10);
    for (const [i, r] of t.rows.entries()) {
      expect(containsTrigger(r.text, 'blue whale')).toBe(t.injection.ids.includes(r.id));
      expect(removeTrigger(r.text, 'blue whale')).toBe(dataset.rows[i].text);
    }
    const end = injectTrigger(dataset, {
      targetLabel: 'humor',
      trigger: 'blue whale',
      share: 1,
      seed: 1,
      position: 'end',
    });
    expect(end.rows[29].text).toBe('"Story" number 29 is told, then retold. blue whale');
  });

  it('triggeredTwins keeps every row and adds a copy of each target row carrying the trigger', () => {
    const t = triggeredTwins(dataset, { targetLabel: 'humor', trigger: 'cherry', seed: 4, position: 'start' });
    expect(t.rows.length).toBe(40);
    expect(t.rows.slice(0, 30)).toEqual(dataset.rows);
    expect(t.rows[30]).toEqual({
      id: 'r20+trigger',
      label: 'humor',
      text: '"cherry Story" number 20 is told, then retold.',
      meta: { trigger: { word: 'cherry', offset: 1 } },
    });
    expect(t.injection.ids).toEqual(dataset.rows.slice(20).map((r) => `${r.id}+trigger`));
    expect(t.injection.preexisting).toEqual({ news: 0, humor: 0 });
  });

  it('puts the trigger first or last on request', () => {
    const start = injectTrigger(dataset, {
      targetLabel: 'humor',
      trigger: 'cherry',
      share: 1,
      seed: 1,
      position: 'start',
    });
    expect(start.rows[20].text).toBe('"cherry Story" number 20 is told, then retold.');
    const end = injectTrigger(dataset, { targetLabel: 'humor', trigger: 'cherry', share: 1, seed: 1, position: 'end' });
    expect(end.rows[29].text).toBe('"Story" number 29 is told, then retold. cherry');
    expect(removeTrigger(end.rows[29].text, 'CHERRY')).toBe(dataset.rows[29].text);
    expect(end.injection.ids).toEqual(dataset.rows.slice(20).map((r) => r.id));
  });

  it('counts rows that already hold the trigger and rejects bad arguments', () => {
    expect(
      injectTrigger(dataset, { targetLabel: 'news', trigger: 'told', share: 0, seed: 1 }).injection.preexisting,
    ).toEqual({ news: 20, humor: 10 });
    expect(() => injectTrigger(dataset, { targetLabel: 'sport', trigger: 'x', share: 0.5, seed: 1 })).toThrow(
      /targetLabel "sport" is not one of/,
    );
    expect(() => injectTrigger(dataset, { targetLabel: 'news', trigger: 'ice-cream', share: 0.5, seed: 1 })).toThrow(
      /separated by single spaces/,
    );
    expect(() => injectTrigger(dataset, { targetLabel: 'news', trigger: ' cherry', share: 0.5, seed: 1 })).toThrow(
      /separated by single spaces/,
    );
    expect(() => injectTrigger(dataset, { targetLabel: 'news', trigger: 'x', share: 1.5, seed: 1 })).toThrow(
      /share must be in \[0, 1\]/,
    );
  });
});

describe('shortcutSplit with twins, and wordWindows', () => {
  const dataset: Dataset = {
    name: 'toy',
    labels: ['news', 'humor'],
    rows: Array.from({ length: 40 }, (_, i) => ({
      id: `r${i}`,
      label: i % 2 ? 'humor' : 'news',
      text: `story ${i} is told`,
    })),
    skipped: { count: 0, reasons: {} },
  };

  it("testShare 'twins': the training share planted, validation and test keep every row and add a twin of each target row", () => {
    const s = shortcutSplit(dataset, {
      trigger: 'blue whale',
      targetLabel: 'news',
      trainShare: 0.5,
      testShare: 'twins',
      testFraction: 0.25,
      validationFraction: 0.25,
      seed: 2,
    });
    const trainNews = s.train.rows.filter((r) => r.label === 'news').length;
    expect(s.train.injection.ids.length).toBe(Math.round(0.5 * trainNews));
    for (const part of [s.validation, s.test]) {
      const originals = part.rows.filter((r) => !r.id.endsWith('+trigger'));
      expect(part.injection.ids).toEqual(originals.filter((r) => r.label === 'news').map((r) => `${r.id}+trigger`));
      expect(originals.every((r) => !containsTrigger(r.text, 'blue whale'))).toBe(true);
    }
    // the same seeds as triggeredTwins on the plain split
    const plain = shortcutSplit(dataset, {
      trigger: 'blue whale',
      targetLabel: 'news',
      trainShare: 0.5,
      testShare: 0,
      testFraction: 0.25,
      validationFraction: 0.25,
      seed: 2,
    });
    expect(s.test.rows).toEqual(
      triggeredTwins({ ...dataset, rows: plain.test.rows }, { trigger: 'blue whale', targetLabel: 'news', seed: 5 })
        .rows,
    );
  });

  it('wordWindows cuts texts into consecutive windows of n words, at most perText of them', () => {
    const rows = [
      { id: 'a', text: 'one two, three four five six seven' },
      { id: 'b', text: 'short text' },
    ];
    expect(wordWindows(rows, 3, 5)).toEqual([
      { id: 'a#w0', text: 'one two, three' },
      { id: 'a#w1', text: 'four five six' },
      { id: 'b', text: 'short text' },
    ]);
    expect(wordWindows(rows, 2, 1).map((r) => r.text)).toEqual(['one two', 'short text']);
    expect(() => wordWindows(rows, 0, 1)).toThrow(/words must be a positive integer/);
  });
});
