import { describe, expect, it } from 'vitest';
import {
  keywordJaccards,
  labelAgreement,
  oracleDifference,
  renderAuditTable,
  wholeAuditRows,
  type KeywordPassResults,
} from '../src/transformer-audit/audit-table.js';
import type { PredictionDigest } from '../src/transformer-audit/predictions.js';

const p = (text: string, verdict: string): PredictionDigest => ({
  index: 0,
  predicted: 'spam',
  verdict,
  top: [],
  words: 3,
  text,
  line: `${text}:${verdict}`,
});

describe('transformer-audit: the audit table', () => {
  it('names the oracle fields in which two runs differ (none for the same configuration)', () => {
    expect(oracleDifference({ name: 'toki', thetaDist: 0.3 }, { name: 'toki', thetaDist: 0.3 })).toEqual([]);
    expect(
      oracleDifference(
        { name: 'toki', thetaDist: 0.3, b: { x: 1 } },
        { name: 'toki', thetaDist: 0.3, b: { x: 2 }, a: true },
      ),
    ).toEqual(['a', 'b']);
  });

  it('keyword Jaccard: |A ∩ B| / |A ∪ B| per class, 1 for two empty sets, a class missing on one side counts as empty', () => {
    expect(keywordJaccards({ c: ['a', 'b', 'c'], e: [] }, { c: ['b', 'c', 'd'], e: [] })).toEqual([
      { label: 'c', jaccard: 0.5 },
      { label: 'e', jaccard: 1 },
    ]);
    expect(keywordJaccards({ spam: ['x', 'y'], ham: ['h'] }, { spam: ['y'] })).toEqual([
      { label: 'ham', jaccard: 0 },
      { label: 'spam', jaccard: 0.5 },
    ]);
  });

  it('labels are compared by text, on the predictions both runs made; judged = trustworthy or untrustworthy in the exact run', () => {
    const exact = [
      p('t1', 'trustworthy'),
      p('t2', 'untrustworthy'),
      p('t3', 'incorrect'),
      p('t4', 'unknown'),
      p('t5', 'trustworthy'),
      p('t1', 'trustworthy'),
    ];
    // another order, one text missing (t5), one label changed (t2), one unjudged label changed (t4)
    const other = [p('t4', 'trustworthy'), p('t3', 'incorrect'), p('t2', 'trustworthy'), p('t1', 'trustworthy')];
    expect(labelAgreement(exact, other)).toEqual({ shared: 4, equal: 2, judged: 2, judgedEqual: 1 });
  });

  it('renders one row per audit: hours, whole or not, labels (all / judged), keyword Jaccard; — where a figure does not apply', () => {
    const md = renderAuditTable([
      { audit: 'exact', how: 'x', wallHours: 16.49, cpuHours: 32.2, whole: false, labels: null, keywords: null },
      {
        audit: 'fast',
        how: 'y',
        wallHours: 0.772,
        cpuHours: 1.49,
        whole: true,
        labels: { shared: 100, equal: 99, judged: 92, judgedEqual: 91 },
        keywords: [
          { label: 'ham', jaccard: 0.5 },
          { label: 'spam', jaccard: 0.25 },
        ],
      },
      {
        audit: 'whole',
        how: 'z',
        wallHours: 3.18,
        cpuHours: 6.15,
        whole: false,
        labels: { shared: 93, equal: 93, judged: 93, judgedEqual: 93 },
        judgedOnly: true,
        keywords: null,
        keywordsNote: 'n',
      },
    ]).split('\n');
    expect(md).toHaveLength(5);
    expect(md[2]).toBe('| exact | x | **16.5** | 32.2 | — | — |');
    expect(md[3]).toBe(
      '| fast | y | **0.77** (whole) | 1.49 | 99 of 100 (99.0 %) / 91 of 92 (98.9 %) | ham 0.500 / spam 0.250 |',
    );
    expect(md[4]).toBe('| whole | z | **3.18** | 6.15 | — / 93 of 93 (100.0 %) | — (n) |');
    const flagged = renderAuditTable([
      {
        audit: 'f',
        how: 'h',
        wallHours: 1,
        cpuHours: 2,
        whole: false,
        labels: { shared: 1, equal: 1, judged: 1, judgedEqual: 1 },
        keywords: [{ label: 'ham', jaccard: 1 }],
        caveat: 'c',
      },
    ]).split('\n');
    expect(flagged[2]).toBe('| f | h | **1.00** | 2.00 | 1 of 1 (100.0 %) / 1 of 1 (100.0 %) — c | ham 1.000 — c |');
    // with the peer's wall hours: peer ÷ this per row (the peer's own row reads 1.0×)
    const withPeer = renderAuditTable(
      [
        { audit: 'f', how: 'h', wallHours: 0.5, cpuHours: 1, whole: true, labels: null, keywords: null },
        { audit: 'p', how: 'q', wallHours: 60, cpuHours: 120, whole: false, labels: null, keywords: null },
      ],
      60,
    ).split('\n');
    expect(withPeer[0]).toContain('| CPU h | peer ÷ this, wall | labels');
    expect(withPeer[2]).toBe('| f | h | **0.50** (whole) | 1.00 | 120.0× | — | — |');
    expect(withPeer[3]).toBe('| p | q | **60.0** | 120.0 | 1.0× | — | — |');
  });

  it("takes keyword-pass's whole runs of this model only, scales a part to the paper's size, and reads the same pass's keywords", () => {
    const results: KeywordPassResults = {
      model: 'models/m',
      reference: { keywords: { ham: ['a'], spam: ['s'] } },
      passes: [{ name: 'gradient', keywords: { ham: ['a', 'b'], spam: ['s'] } }],
      whole: [
        {
          command: 'xtrust audit --model models/m --train t --audit-mode fast --keyword-method gradient --out o',
          keywordMethod: 'gradient',
          wall: 3600,
          cpu: 7200,
          trainSample: 2000,
          testSample: 1000,
          shared: 10,
          sharedEqual: 9,
        },
        {
          command: 'xtrust audit --model models/m --audit-mode fast --keyword-method gradient --lime-mode int8 --out o',
          keywordMethod: 'gradient',
          wall: 360,
          cpu: 720,
          trainSample: 400,
          testSample: 200,
          shared: 0,
          sharedEqual: 0,
        },
        {
          command: 'xtrust audit --model models/other --audit-mode fast --keyword-method gradient',
          keywordMethod: 'gradient',
          wall: 1,
          cpu: 1,
          trainSample: 2000,
          testSample: 1000,
          shared: 0,
          sharedEqual: 0,
        },
      ],
    };
    const rows = wholeAuditRows(results, '/r/models/m', '/r', { train: 2000, test: 1000 });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      wallHours: 1,
      cpuHours: 2,
      whole: true,
      labels: { judged: 10, judgedEqual: 9 },
      judgedOnly: true,
      keywords: [
        { label: 'ham', jaccard: 0.5 },
        { label: 'spam', jaccard: 1 },
      ],
    });
    expect(rows[0].how).toBe('`xtrust audit … --audit-mode fast --keyword-method gradient`');
    expect(rows[1]).toMatchObject({ wallHours: 0.5, cpuHours: 1, whole: false });
    expect(rows[1].how).toBe(
      '`xtrust audit … --audit-mode fast --keyword-method gradient --lime-mode int8`, 400 + 200 × 5',
    );
  });
});
