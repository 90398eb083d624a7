import { describe, expect, it } from 'vitest';
import { compareWithTruth, confidenceBuckets } from '../src/audit.js';
import type { AuditedPrediction } from '../src/audit-records.js';
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
