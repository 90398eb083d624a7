import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { KeywordStore, TOKI_PAPER } from '@xtrust/oracle';
import { describe, expect, it } from 'vitest';
import { compareWithTruth, confidenceBuckets, poolsOf } from '../src/audit.js';
import type { AuditedPrediction, AuditSummary } from '../src/audit-records.js';
import { formatAudit } from '../src/output.js';
import { escapeHtml, jsonForScript, scriptSafe } from '../src/report/escape.js';
import { highlightText, markSubstitutions } from '../src/report/highlight.js';

/** A prediction with only what the figures read. */
function prediction(
  confidence: number,
  verdict: AuditedPrediction['verdict'],
  trustworthy?: boolean,
  isRel = 1,
  isUnr = 0,
): AuditedPrediction {
  return {
    index: 0,
    text: 't',
    truth: 'a',
    predicted: 'a',
    confidence,
    verdict,
    isRel,
    isUnr,
    related: [],
    unrelated: [],
    features: [],
    ...(trustworthy === undefined ? {} : { trustworthy }),
  };
}

describe('escaping', () => {
  it('escapes the five HTML metacharacters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('JSON in a script block cannot close the block', () => {
    const s = jsonForScript({ t: '</script><script>alert(1)</script>', u: '\u2028' });
    expect(s.includes('<')).toBe(false);
    expect(JSON.parse(s)).toEqual({ t: '</script><script>alert(1)</script>', u: '\u2028' });
  });

  it('inline library code cannot close its script element', () => {
    expect(scriptSafe('var a = "</script>"; <!-- x')).toBe('var a = "<\\/script>"; <\\!-- x');
  });
});

describe('highlighting', () => {
  const labels = ['ham', 'spam'];

  it('marks explained words by colour of the class they push towards, shade by weight, and escapes the rest', () => {
    const html = highlightText(
      '<b>Free</b> money & more',
      [
        { word: 'Free', weight: 0.5 },
        { word: 'money', weight: -0.25 },
      ],
      1,
      labels,
    );
    expect(html).toBe(
      '&lt;b&gt;<mark class="w" style="background:rgba(214, 39, 40,0.90)" title="Free: +0.5000 towards spam">Free</mark>&lt;/b&gt; ' +
        '<mark class="w" style="background:rgba(31, 119, 180,0.53)" title="money: -0.2500 towards ham">money</mark> &amp; more',
    );
  });

  it('matches words case-insensitively and leaves unexplained text alone', () => {
    expect(highlightText('FREE offer', [{ word: 'free', weight: 1 }], 0, labels)).toContain('>FREE</mark>');
    expect(highlightText('nothing here', [], 0, labels)).toBe('nothing here');
  });

  it('marks substitutions of a perturbed text, escaped', () => {
    const m = markSubstitutions('a <good> film', 'a <great> film');
    expect(m.changed).toBe(1);
    expect(m.original).toBe('a &lt;<del>good</del>&gt; film');
    expect(m.perturbed).toBe('a &lt;<ins>great</ins>&gt; film');
    expect(markSubstitutions('a b', 'a b c').changed).toBe(-1);
  });
});

describe('figures', () => {
  it('Figure 6: correct predictions per confidence bucket by verdict and by ground truth', () => {
    const b = confidenceBuckets(
      [
        prediction(0.55, 'trustworthy', true),
        prediction(0.95, 'untrustworthy', true),
        prediction(1, 'untrustworthy', false),
        prediction(0.99, 'incorrect'),
      ],
      2,
    );
    expect(b.map((x) => [x.lo, x.hi])).toEqual([
      [0.5, 0.6],
      [0.6, 0.7],
      [0.7, 0.8],
      [0.8, 0.9],
      [0.9, 1],
    ]);
    expect(b[0]).toMatchObject({ trustworthy: 1, untrustworthy: 0, truthTrustworthy: 1, truthUntrustworthy: 0 });
    expect(b[4]).toMatchObject({ trustworthy: 0, untrustworthy: 2, truthTrustworthy: 1, truthUntrustworthy: 1 });
  });

  it('buckets start at 1/k for k classes', () => {
    expect(confidenceBuckets([], 4)[0].lo).toBe(0.2);
  });

  it('Naive vs TOKI needs 100 predictions of each kind; a perfect TOKI has AUC 1', () => {
    expect(compareWithTruth([prediction(0.9, 'trustworthy', true)], 0.9)).toMatchObject({
      cases: 1,
      trustworthy: 1,
      untrustworthy: 0,
      tooSmall: true,
      rows: [],
      roc: [],
    });
    const times = <T>(n: number, x: T) => Array.from({ length: n }, () => x);
    const c = compareWithTruth(
      [
        ...times(50, prediction(0.95, 'trustworthy', true, 1, 0)),
        ...times(100, prediction(0.99, 'untrustworthy', false, 0, 1)),
        ...times(50, prediction(0.7, 'trustworthy', true, 2, 1)),
      ],
      0.9,
    )!;
    expect([c.cases, c.tooSmall]).toEqual([200, false]);
    const toki = c.rows.find((r) => r.method === 'TOKI')!;
    expect(toki.accuracy).toBe(1);
    expect(c.roc.find((r) => r.method.startsWith('TOKI'))!.auc).toBe(1);
    // Naive calls 0.95 and 0.99 trustworthy, 0.7 not: right on the 50 at 0.95 of 200
    expect(c.rows[0].accuracy).toBeCloseTo(50 / 200, 10);
  });
});

describe('the report page', () => {
  it('lists at most maxPredictions predictions and says where the rest are', async () => {
    const { renderReport } = await import('../src/report/render.js');
    const predictions = Array.from({ length: 5 }, (_, i) => ({
      ...prediction(0.9, 'trustworthy'),
      index: i,
      text: `text number ${i}`,
    }));
    const summary = {
      format: 'xtrust-audit',
      version: 1,
      model: {},
      accuracy: 1,
      untrustworthyShare: 0,
      data: {
        dataset: 'd',
        labels: ['a', 'b'],
        trainRows: 1,
        testRows: 5,
        auditedTestRows: 5,
        labelCounts: { train: {}, test: {} },
      },
      settings: {
        trainSample: 1,
        testSample: 5,
        samples: 10,
        topK: 3,
        thetaDist: 0.3,
        thetaConf: 0.9,
        seed: 0,
        classNames: {},
        explainer: 'lime',
        embeddings: [],
      },
      verdicts: { trustworthy: 5, untrustworthy: 0, incorrect: 0, unknown: 0 },
      pools: {},
      confidence: confidenceBuckets(predictions, 2),
      seconds: { keywords: 0, labelling: 0, total: 0 },
    } as const;
    const html = renderReport({ summary: summary as never, predictions, maxPredictions: 3 });
    expect(html.match(/<article class="pred"/g)).toHaveLength(3);
    expect(html).toContain('Listing the first 3 of 5 predictions');
  });
});

/** Unit vectors at hand-picked angles in the plane: cosines known in advance. */
function handEmbedding(angles: Record<string, number>): WordEmbedding {
  return {
    name: 'hand',
    dim: 2,
    has: (w) => w in angles,
    async vectors(words) {
      const out = new Float32Array(words.length * 2);
      words.forEach((w, i) => {
        if (!(w in angles)) throw new XtrustError('OUT_OF_VOCABULARY', w);
        const r = (angles[w] * Math.PI) / 180;
        out.set([Math.cos(r), Math.sin(r)], i * 2);
      });
      return out;
    },
  };
}

/** A store for class "spam" (and "ham"): "offer" and "free" near the name, "kettle" far, "the" a function word near it too. */
async function handStore(
  functionWordLean: number | null = null,
  phraseFunctionWordLean: number | null = null,
): Promise<KeywordStore> {
  const e = handEmbedding({ spam: 0, offer: 10, free: 20, kettle: 170, the: 340, ham: 180, letter: 185 });
  const store = KeywordStore.create({
    fingerprint: 'hand',
    labels: ['spam', 'ham'],
    thetaDist: 0.05,
    topK: 10,
    ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
    oracle: { ...TOKI_PAPER, name: 'test', functionWordsNeverKeywords: true, functionWordLean, phraseFunctionWordLean },
    provenance: {
      explainer: { method: 'hand', params: {} },
      seed: 0,
      sampleSize: 2,
      sampled: 2,
      explained: 2,
      keywordIdentificationSeconds: 0,
      createdAt: '',
    },
  });
  const fs = (weights: Record<string, number>) => Object.entries(weights).map(([word, weight]) => ({ word, weight }));
  const explanation = (label: string, weights: Record<string, number>) => ({
    text: Object.keys(weights).join(' '),
    method: 'hand',
    params: {},
    predictedLabel: label,
    explainedLabel: label,
    features: fs(weights),
  });
  await store.addExplanations(
    [explanation('spam', { kettle: 0.5, offer: 0.3, free: 0.1, the: 0.4 }), explanation('ham', { letter: 0.5 })],
    [e],
  );
  return store;
}

describe('how much of each pool is related to its class', () => {
  it('poolsOf counts the content words of the whole pool that are keywords, their importance share, and says why', async () => {
    const store = await handStore();
    expect(store.isKeyword('spam', 'offer')).toBe(true);
    expect(store.isKeyword('spam', 'kettle')).toBe(false);
    const p = poolsOf(store, 1).spam;
    // "the" is a function word: not counted in the pool; offer and free (one cluster at 15°, cos .966) of
    // offer, free, kettle are keywords
    expect(p.related).toEqual({ words: 2, pool: 3, importanceShare: expect.closeTo(0.4 / 0.9, 10) });
    // only the top n are listed, the share counts them all
    expect(p.keywords.map((w) => w.word)).toEqual(['offer']);
    expect(p.keywords[0].why).toMatch(
      /^related: cluster score 0\.97 ≥ θ_relate 0\.60 \(nearest item “spam”, cos 0\.98\)$/,
    );
    expect(p.spurious.map((w) => w.word)).toEqual(['kettle']);
    expect(p.spurious[0].why).toMatch(/^not related: cluster score -0\.98 < θ_relate 0\.60/);
    expect(poolsOf(store, 10).spam.spurious.find((w) => w.word === 'the')?.why).toMatch(/^demoted: function word/);
  });

  it('poolsOf and the report name the function words the model leans on for a class', async () => {
    // "the" is a decision word of spam's one explanation and of none of ham's: a lean of 1 ≥ 0.5
    const p = poolsOf(await handStore(0.5), 1);
    expect(p.spam.leanedFunctionWords).toEqual(['the']);
    expect(p.ham.leanedFunctionWords).toBeUndefined();
    expect(poolsOf(await handStore(), 1).spam.leanedFunctionWords).toBeUndefined();
    const { renderReport } = await import('../src/report/render.js');
    const html = renderReport({ summary: minimalSummary({ a: p.spam, b: p.ham }), predictions: [] });
    expect(html.match(/<p class="related-share">The model [^<]*<\/p>/)?.[0]).toBe(
      '<p class="related-share">The model leans on the function word the (counted as unrelated in its verdicts).</p>',
    );
    // the terminal summary says the same on the class's related line, and nothing for a class without a lean
    const files = { runDir: 'r', report: 'r/report.html', summary: 'r/summary.json', predictions: '', keywords: '' };
    const lines = formatAudit(minimalSummary({ a: p.spam, b: p.ham }), files as never).split('\n');
    const related = (label: string) => lines.find((l) => l.startsWith(`  ${label} `) && l.includes('pool words'));
    const a = related('a');
    expect(a).toMatch(/; the model leans on the function word the \(counted as unrelated in its verdicts\)$/);
    expect(related('b')).toBeDefined();
    expect(related('b')).not.toContain('leans on');
  });

  it('names the function words counted only inside phrases apart from those counted anywhere', async () => {
    // "the" leans towards spam by 1: below no lean, at least the phrase lean 0.5
    const p = poolsOf(await handStore(null, 0.5), 1);
    expect(p.spam.leanedFunctionWords).toBeUndefined();
    expect(p.spam.phraseFunctionWords).toEqual(['the']);
    expect(p.ham.phraseFunctionWords).toBeUndefined();
    expect(poolsOf(await handStore(0.5, 0.3), 1).spam).toMatchObject({ leanedFunctionWords: ['the'] });
    expect(poolsOf(await handStore(0.5, 0.3), 1).spam.phraseFunctionWords).toBeUndefined();
    const { leanedSentence, renderReport } = await import('../src/report/render.js');
    expect(leanedSentence(['you'], ['of', 'a'])).toBe(
      'leans on the function word you (counted as unrelated in its verdicts), and less on the function words of, a (counted as unrelated only inside a phrase with other unrelated words)',
    );
    const html = renderReport({ summary: minimalSummary({ a: p.spam, b: p.ham }), predictions: [] });
    expect(html).toContain(
      'The model leans on the function word the (counted as unrelated only inside a phrase with other unrelated words).',
    );
  });

  it('the report says "N of M pool words (X %) are related" per class and puts the why, escaped, in each tooltip', async () => {
    const { renderReport, relatedShareSentence } = await import('../src/report/render.js');
    expect(relatedShareSentence({ words: 2, pool: 3, importanceShare: 0.4 })).toBe(
      "2 of 3 pool words (40.0 % of the pool's importance) are related to the class",
    );
    const summary = minimalSummary({
      a: {
        className: 'a',
        explanations: 2,
        keywords: [{ word: 'offer', importance: 0.3, why: 'related: nearest item “<b>x</b>”' }],
        spurious: [{ word: 'kettle', importance: 0.5 }],
        related: { words: 9, pool: 10, importanceShare: 0.9 },
      },
      // an older summary: no related share, no why
      b: { className: 'b', explanations: 1, keywords: [], spurious: [{ word: 'letter', importance: 0.5 }] },
    });
    const html = renderReport({ summary, predictions: [] });
    expect(html.includes('9 of 10 pool words (90.0 % of the pool&#39;s importance) are related to the class.')).toBe(
      true,
    );
    expect(html.includes('title="offer: importance 0.3000\nrelated: nearest item “&lt;b&gt;x&lt;/b&gt;”"')).toBe(true);
    expect(html.includes('title="letter: importance 0.5000"')).toBe(true);
    expect(html.includes('<b>x</b>')).toBe(false);
    expect(html.match(/class="related-share"/g)).toHaveLength(1);
  });

  it("an untrustworthy prediction's unrelated words carry their why, escaped, as a tooltip", async () => {
    const { renderReport } = await import('../src/report/render.js');
    const summary = minimalSummary({ a: { className: 'a', explanations: 1, keywords: [], spurious: [] } });
    const flagged: AuditedPrediction = {
      ...prediction(0.9, 'untrustworthy', undefined, 0, 0.5),
      text: 'win kettle now',
      unrelated: ['kettle', 'now'],
      why: { kettle: 'not related: beats 12 % of subjects (needs 75 %) <i>' },
    };
    const html = renderReport({ summary, predictions: [flagged] });
    expect(html).toContain(
      '<span class="unr" title="not related: beats 12 % of subjects (needs 75 %) &lt;i&gt;">kettle</span>',
    );
    // a word without a recorded reason has no tooltip
    expect(html).toContain('<span class="unr">now</span>');
  });

  it('the text summary has one related line per class, none for an older summary', () => {
    const files = { runDir: 'r', report: 'r/report.html', summary: 'r/summary.json', predictions: '', keywords: '' };
    const withShare = minimalSummary({
      a: {
        className: 'a',
        explanations: 2,
        keywords: [],
        spurious: [],
        related: { words: 1, pool: 4, importanceShare: 0.1 },
      },
    });
    const text = formatAudit(withShare, files as never);
    expect(text).toContain(
      "  a            1 of 4 pool words (10.0 % of the pool's importance) are related to the class",
    );
    expect(text).toContain('  b            (no pool)');
    const old = formatAudit(
      minimalSummary({ a: { className: 'a', explanations: 2, keywords: [], spurious: [] } }),
      files as never,
    );
    expect(old).not.toContain('related to the class');
  });
});

describe('untrustworthy predictions resting on token categories', () => {
  it('are counted per category in the text summary and the report, heaviest first; nothing when none', () => {
    const files = { runDir: 'r', report: 'r/report.html', summary: 'r/summary.json', predictions: '', keywords: '' };
    const base = minimalSummary({ a: { className: 'a', explanations: 2, keywords: [], spurious: [] } });
    const s = {
      ...base,
      verdicts: { ...base.verdicts, untrustworthy: 5 },
      untrustworthyByCategory: { urls: 1, numbers: 3 },
    };
    expect(formatAudit(s, files as never)).toContain(
      '  resting on tokens of no class: numbers 3, urls 1 of the 5 untrustworthy (--unrelated-categories)',
    );
    expect(formatAudit(base, files as never)).not.toContain('resting on tokens of no class');
  });
});

describe("an untrustworthy prediction's decisive reason", () => {
  it('counts the bounds in the text summary and the report, and names the reason on each prediction', async () => {
    const { renderReport } = await import('../src/report/render.js');
    const files = { runDir: 'r', report: 'r/report.html', summary: 'r/summary.json', predictions: '', keywords: '' };
    const base = minimalSummary({ a: { className: 'a', explanations: 2, keywords: [], spurious: [] } });
    const s = {
      ...base,
      verdicts: { ...base.verdicts, untrustworthy: 3 },
      untrustworthyByBound: { margin: 1, share: 2 },
    };
    const line =
      "  decided by: 1 with an unrelated reason above half the margin, 2 with one carrying half the explanation's weight";
    expect(formatAudit(s, files as never)).toContain(line);
    expect(formatAudit(base, files as never)).not.toContain('decided by');
    const flagged: AuditedPrediction = {
      ...prediction(0.99, 'untrustworthy', undefined, 0, 0.36),
      text: 'keep calm and carry on',
      related: [],
      unrelated: ['calm', 'carry', 'keep'],
      decisive: { words: ['calm', 'carry', 'keep'], weight: 0.356, bound: 0.19, by: 'share' },
    };
    const html = renderReport({ summary: s, predictions: [flagged] });
    expect(html).toContain('decisive: calm, carry, keep weigh 0.356 &gt; 0.190, half the explanation&#39;s weight');
    expect(html).toContain('untrustworthy decided by: 1 with an unrelated reason above half the margin');
    const byMargin = renderReport({
      summary: s,
      predictions: [{ ...flagged, decisive: { words: ['kettle'], weight: 0.3, bound: 0.25, by: 'margin' } }],
    });
    expect(byMargin).toContain('decisive: kettle weighs 0.300 &gt; 0.250, half the margin to the runner-up');
    // a reason that had to outweigh the related words (OracleConfig.relatedCounterweight) says so
    const byRelated = renderReport({
      summary: { ...s, untrustworthyByBound: { margin: 1, share: 2, related: 1 } },
      predictions: [{ ...flagged, decisive: { words: ['kettle'], weight: 0.3, bound: 0.2, by: 'related' } }],
    });
    expect(byRelated).toContain('decisive: kettle weighs 0.300 &gt; 0.200, the related words&#39; weight');
    expect(byRelated).toContain('weight, 1 with one outweighing the related words');
  });

  it('says what the model predicts without a confirmed reason, and shows the reasons a prediction survives', async () => {
    const { renderReport } = await import('../src/report/render.js');
    const files = { runDir: 'r', report: 'r/report.html', summary: 'r/summary.json', predictions: '', keywords: '' };
    const base = minimalSummary({ a: { className: 'a', explanations: 2, keywords: [], spurious: [] } });
    const s = { ...base, verdicts: { ...base.verdicts, trustworthy: 4, untrustworthy: 1 }, overruledByRemoval: 3 };
    const line =
      '  3 leaned on unrelated words above the bound but keep their class once those words are removed: trustworthy (removal check)';
    expect(formatAudit(s, files as never)).toContain(line);
    expect(formatAudit({ ...s, overruledByRemoval: 0 }, files as never)).not.toContain('removal check');
    const flagged: AuditedPrediction = {
      ...prediction(0.99, 'untrustworthy', undefined, 0, 0.36),
      text: 'keep calm and carry on',
      related: [],
      unrelated: ['calm', 'keep'],
      decisive: {
        words: ['calm', 'keep'],
        weight: 0.356,
        bound: 0.19,
        by: 'share',
        without: { predicted: 'b', probability: 0.874 },
      },
    };
    const kept: AuditedPrediction = {
      ...prediction(0.98, 'trustworthy', undefined, 0, 0.3),
      text: 'From: x\n\nhello',
      related: ['hello'],
      unrelated: ['from'],
      overruled: {
        words: ['from'],
        weight: 0.3,
        bound: 0.2,
        by: 'margin',
        without: { predicted: 'a', probability: 0.97 },
      },
    };
    const html = renderReport({ summary: s, predictions: [flagged, kept] });
    expect(html).toContain(
      'decisive: calm, keep weigh 0.356 &gt; 0.190, half the explanation&#39;s weight; without them: b (0.87)',
    );
    expect(html).toContain(
      'survives removal: from weighs 0.300 &gt; 0.200, half the margin to the runner-up; without it: a (0.97)',
    );
    expect(html).toContain('3 leaned on unrelated words above the bound but keep their class');
  });
});

/** A summary of classes a and b with the given pools and nothing else of note. */
function minimalSummary(pools: AuditSummary['pools']): AuditSummary {
  return {
    format: 'xtrust-audit',
    version: 1,
    model: {},
    accuracy: 1,
    untrustworthyShare: 0,
    data: {
      dataset: 'd',
      labels: ['a', 'b'],
      trainRows: 1,
      testRows: 0,
      auditedTestRows: 0,
      labelCounts: { train: {}, test: {} },
    },
    settings: {
      trainSample: 1,
      testSample: 0,
      samples: 10,
      topK: 3,
      thetaDist: 0.3,
      thetaConf: 0.9,
      seed: 0,
      classNames: {},
      explainer: 'lime',
      embeddings: [],
    },
    verdicts: { trustworthy: 0, untrustworthy: 0, incorrect: 0, unknown: 0 },
    pools,
    confidence: [],
    seconds: { keywords: 0, labelling: 0, total: 0 },
  } as unknown as AuditSummary;
}
