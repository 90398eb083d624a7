import { describe, expect, it } from 'vitest';
import {
  chooseReference,
  pairedVerdicts,
  referenceFileName,
  REFERENCE_FILE,
  slimReference,
  type ExactReference,
} from '../src/transformer-audit/exact-reference.js';
import { labelAgreement } from '../src/transformer-audit/audit-table.js';
import type { PredictionDigest } from '../src/transformer-audit/predictions.js';

const p = (text: string, verdict: string): PredictionDigest => ({
  index: 0,
  predicted: 'spam',
  verdict,
  top: [['free', 0.4]],
  words: 3,
  text,
  line: `${text}:${verdict}`,
});
const KEY = { model: 'probe-sha256:abc', trainSample: 200, testSample: 100, samples: 5000, mode: 'exact' };
const OLD = { name: 'toki', thetaDist: 0.3, verdictRule: 'decisive' };
const NEW = { ...OLD, functionWordsNeverKeywords: true };

const ref = (
  measured: string,
  oracle: Record<string, unknown> | undefined,
  verdicts: string[],
  key: Record<string, unknown> = KEY,
): ExactReference =>
  slimReference(measured, key, {
    predictions: verdicts.map((v, i) => p(`t${i}`, v)),
    keywords: { spam: ['free'] },
    ...(oracle ? { oracle } : {}),
  });

describe('transformer-audit: which exact run a run is read against', () => {
  it('keeps labels, keywords and oracle of a stored exact run, not its explanations or line digests', () => {
    const r = ref('2026-11-25T09:46:08.233Z', OLD, ['trustworthy', 'untrustworthy']);
    expect(r).toEqual({
      measured: '2026-11-25T09:46:08.233Z',
      key: KEY,
      oracle: OLD,
      keywords: { spam: ['free'] },
      predictions: [
        { text: 't0', predicted: 'spam', verdict: 'trustworthy' },
        { text: 't1', predicted: 'spam', verdict: 'untrustworthy' },
      ],
    });
    expect(referenceFileName(r.measured)).toBe('exact-reference-2026-11-25.json.gz');
    expect(REFERENCE_FILE.test(referenceFileName(r.measured))).toBe(true);
    expect(REFERENCE_FILE.test('exact.json.gz')).toBe(false);
  });

  it("today's exact run when the oracle configurations agree, or when either is unknown", () => {
    const current = ref('2026-11-26T19:00:00.000Z', NEW, ['trustworthy']);
    expect(chooseReference(NEW, current, [])).toEqual({ reference: current, current: true });
    expect(chooseReference(undefined, current, [])).toEqual({ reference: current, current: true });
    const unknown = ref('2026-11-26T19:00:00.000Z', undefined, ['trustworthy']);
    expect(chooseReference(OLD, unknown, [])).toEqual({ reference: unknown, current: true });
  });

  it('a kept exact run of the same oracle and key for a run labelled under an earlier oracle, said in the caveat', () => {
    const current = ref('2026-11-26T19:00:00.000Z', NEW, ['trustworthy', 'trustworthy']);
    const otherModel = ref('2026-11-20T00:00:00.000Z', OLD, ['untrustworthy', 'untrustworthy'], {
      ...KEY,
      model: 'probe-sha256:other',
    });
    const kept = ref('2026-11-25T09:46:08.233Z', OLD, ['untrustworthy', 'trustworthy']);
    const c = chooseReference(OLD, current, [otherModel, kept]);
    expect(c.reference).toBe(kept);
    expect(c.current).toBe(false);
    expect(c.caveat).toContain('2026-11-25');
    expect(c.caveat).toContain('functionWordsNeverKeywords');
    // the labels then compare like for like: the old-oracle run equals its own exact run, not today's
    const run = [p('t0', 'untrustworthy'), p('t1', 'trustworthy')];
    expect(labelAgreement(c.reference.predictions, run)).toEqual({ shared: 2, equal: 2, judged: 2, judgedEqual: 2 });
    expect(labelAgreement(current.predictions, run)).toEqual({ shared: 2, equal: 1, judged: 2, judgedEqual: 1 });
  });

  it("today's exact run with the differing fields named when no kept run matches", () => {
    const current = ref('2026-11-26T19:00:00.000Z', NEW, ['trustworthy']);
    const c = chooseReference({ ...OLD, thetaDist: 0.5 }, current, [
      ref('2026-11-25T09:46:08.233Z', OLD, ['trustworthy']),
    ]);
    expect(c.reference).toBe(current);
    expect(c.current).toBe(true);
    expect(c.caveat).toBe(
      "another oracle configuration than exact's (functionWordsNeverKeywords, thetaDist): mixes the oracle's change in",
    );
  });

  it('pairs verdicts position by position only when each position holds the same text', () => {
    const kept = ref('2026-11-25T09:46:08.233Z', OLD, ['trustworthy', 'untrustworthy', 'unknown']);
    expect(
      pairedVerdicts(kept, [p('t0', 'trustworthy'), p('t1', 'trustworthy'), p('t2', 'unknown')], 'exact vs fast'),
    ).toEqual([
      ['trustworthy', 'trustworthy'],
      ['untrustworthy', 'trustworthy'],
      ['unknown', 'unknown'],
    ]);
    // the same texts shifted by one: every label would be compared with its neighbour's
    expect(() =>
      pairedVerdicts(kept, [p('t1', 'untrustworthy'), p('t2', 'unknown'), p('t0', 'trustworthy')], 'exact vs fast'),
    ).toThrow(
      'exact vs fast: the exact run of 2026-11-25 audited other test texts than this run (3 vs 3 predictions, first different at prediction 1)',
    );
    expect(() => pairedVerdicts(kept, [p('t0', 'trustworthy')], 'exact vs audit-fast')).toThrow(
      '(3 vs 1 predictions, first different at prediction 2)',
    );
  });
});
