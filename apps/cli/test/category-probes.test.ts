import { describe, expect, it } from 'vitest';
import { leansOn, LEAN_THRESHOLD, probeCategories } from '@xtrust/datasets';
import type { Classifier } from '@xtrust/core';
import { categoryListArg } from '../src/commands/audit-options.js';
import { probeLines, probesSection, type CategoryProbesSummary, type ProbedSummary } from '../src/report/probes.js';

/** A model that says spam exactly when the text starts with a header block's Received: line. */
const headerModel: Classifier = {
  labels: ['ham', 'spam'],
  async predictProba(texts) {
    return Float32Array.from(texts.flatMap((t) => (/^Received:/.test(t) ? [0.2, 0.8] : [0.9, 0.1])));
  },
};

async function probes(texts: string[]): Promise<CategoryProbesSummary> {
  const r = await probeCategories(headerModel, texts, { seed: 0 });
  return { ...r, threshold: LEAN_THRESHOLD, leansOn: leansOn(r).map((p) => p.category) };
}

const MAILS = Array.from({ length: 20 }, (_, i) => `Received: from host${i}\nSubject: offer ${i}\n\nbuy <b>now</b>`);

describe('category probes in the audit output', () => {
  it('prints a short table and the categories the model leans on', async () => {
    const s = { categoryProbes: await probes(MAILS) } as unknown as ProbedSummary;
    const lines = probeLines(s);
    expect(lines[0]).toMatch(/^category probes {7}CheckList invariance: .*\(20 texts, 2 model calls, /);
    const header = lines.find((l) => l.trimStart().startsWith('mail-headers'));
    expect(header).toMatch(/mail-headers +100\.0 % \[83\.9, 100\.0\] of 20 +–$/);
    expect(lines.find((l) => l.trimStart().startsWith('markup'))).toMatch(/0\.0 % \[0\.0, 16\.1\] of 20 +0\.0 %/);
    expect(lines.at(-1)).toBe(
      '  the model leans on: mail-headers (removal changes the prediction, Wilson 95 % lower bound > 5.0 %)',
    );
    const html = probesSection(s);
    expect(html).toContain('<tr class="leans"><td title="an e-mail&#39;s header block');
    expect(html).toContain('Not in any audited text: person-names, years, urls, emails.');
    expect(probeLines({} as ProbedSummary)).toEqual([]);
    expect(probesSection({} as ProbedSummary)).toBe('');
  });

  it('says when nothing is leaned on or nothing occurs', async () => {
    const none = probeLines({ categoryProbes: await probes(['plain words only']) } as unknown as ProbedSummary);
    expect(none[1]).toBe(
      '  none of person-names, numbers, years, urls, emails, markup, mail-headers occurs in the audited texts',
    );
    const year = probeLines({ categoryProbes: await probes(['in 1999 we met']) } as unknown as ProbedSummary);
    expect(year.at(-1)).toMatch(/^ {2}the model leans on none of the probed categories/);
  });

  it('parses --category-probes: all, none or known names', () => {
    expect(categoryListArg('all')).toBeUndefined();
    expect(categoryListArg('none')).toBe(false);
    expect(categoryListArg('years, urls,years')).toEqual(['years', 'urls']);
    expect(() => categoryListArg('dates')).toThrow(/unknown token category "dates" \(expected all, none or/);
  });
});
