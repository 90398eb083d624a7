import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareOutcomes, readAuditOutcome } from '../src/keyword-pass/whole-compare.js';

const tmp = mkdtempSync(join(tmpdir(), 'whole-compare-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runDir(
  name: string,
  keywords: Record<string, string[]> | null,
  predictions: { text: string; verdict: string }[] | null,
  checkpoints: string[] = [],
): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  if (checkpoints.length) writeFileSync(join(dir, 'predictions.explanations.jsonl'), `${checkpoints.join('\n')}\n`);
  if (keywords)
    writeFileSync(
      join(dir, 'keywords.json'),
      JSON.stringify({ classes: Object.entries(keywords).map(([label, kw]) => ({ label, keywords: kw })) }),
    );
  if (predictions)
    writeFileSync(
      join(dir, 'predictions.jsonl'),
      `${predictions.map((p) => JSON.stringify({ index: 0, ...p })).join('\n')}\n`,
    );
  return dir;
}

describe('keyword-pass: one audit made two ways', () => {
  it('compares labels on the texts both runs labelled (first copy of a repeated text) and keyword sets per class', () => {
    const a = {
      checkpoints: [
        { key: 'test:0', predicted: 'spam', side: 1 },
        { key: 'test:1', predicted: 'ham', side: 1 },
        { key: 'test:2', predicted: 'ham' },
      ],
      keywords: { ham: ['a', 'b'], spam: ['s', 't'] },
      predictions: [
        { text: 'x', verdict: 'trustworthy' },
        { text: 'y', verdict: 'untrustworthy' },
        { text: 'x', verdict: 'unknown' },
        { text: 'z', verdict: 'incorrect' },
      ],
    };
    // b stopped part-way: no z; its y differs
    const b = {
      checkpoints: [
        { key: 'test:1', predicted: 'ham', side: -1 },
        { key: 'test:0', predicted: 'spam', side: 1 },
        { key: 'test:2', predicted: 'spam', side: 1 },
        { key: 'test:3', predicted: 'ham', side: 1 },
      ],
      keywords: { ham: ['a', 'b'], spam: ['s'] },
      predictions: [
        { text: 'y', verdict: 'trustworthy' },
        { text: 'x', verdict: 'trustworthy' },
      ],
    };
    expect(compareOutcomes(a, b)).toEqual({
      shared: 2,
      equal: 1,
      differs: ['untrustworthy → trustworthy'],
      keywords: [
        { label: 'ham', a: 2, b: 2, jaccard: 1 },
        { label: 'spam', a: 2, b: 1, jaccard: 0.5 },
      ],
      // test:0–2 both explained; test:2 predicted differently and unsided in a; test:1 on the other side
      explained: { shared: 3, samePrediction: 2, sided: 2, sameSide: 1 },
    });
  });

  it('reads a run stopped after its keyword pass (no predictions yet) and refuses one without keywords.json', () => {
    const started = runDir('started', { ham: ['a'] }, null, [
      JSON.stringify({
        key: 'test:0',
        explanation: { predictedLabel: 'ham', diagnostics: { samples: 500, verdictSide: -1 } },
      }),
      JSON.stringify({ key: 'test:1', explanation: { predictedLabel: 'spam', diagnostics: { samples: 5000 } } }),
      JSON.stringify({ key: 'test:2' }), // a line without an explanation (an unexplainable text) is skipped
    ]);
    expect(readAuditOutcome(started)).toEqual({
      predictions: [],
      keywords: { ham: ['a'] },
      checkpoints: [
        { key: 'test:0', predicted: 'ham', side: -1 },
        { key: 'test:1', predicted: 'spam' },
      ],
    });
    const done = runDir('done', { ham: ['a'], spam: [] }, [{ text: 't', verdict: 'trustworthy' }]);
    expect(readAuditOutcome(done).predictions).toHaveLength(1);
    expect(() => readAuditOutcome(runDir('empty', null, null))).toThrow(/no keywords\.json/);
  });
});
