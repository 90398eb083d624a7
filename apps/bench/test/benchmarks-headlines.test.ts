// BENCHMARKS.md read in a minute (issue 50): every headline cell ≤ 30 words, no row left "not yet re-read",
// every section in an area, and the root README's results block exactly what the stored sections render.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/harness/areas.js';
import { RESULTS_BEGIN, RESULTS_END, withReadmeResults } from '../src/harness/readme-results.js';
import { MAX_CELL_WORDS, STALE_MARK, wordCount } from '../src/harness/render.js';
import { loadSections } from '../src/harness/store.js';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
const sections = loadSections(join(root, 'apps/bench/results/sections'));
const page = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');

describe('the headline of every committed section', () => {
  it(`keeps each cell (question, xtrust, peer, goal) to ${MAX_CELL_WORDS} words: the rest goes to its notes`, () => {
    const long = sections.flatMap((s) =>
      (['question', 'xtrust', 'peer', 'goal'] as const)
        .filter((k) => wordCount(s.headline?.[k] ?? '') > MAX_CELL_WORDS)
        .map((k) => `${s.name}.${k}: ${wordCount(s.headline?.[k] ?? '')} words`),
    );
    expect(long).toEqual([]);
  });

  it('is read from the run its section shows (re-read the section and set `from` after a re-run)', () => {
    const stale = sections.filter((s) => s.headline && s.headline.from !== s.date).map((s) => s.name);
    expect(stale).toEqual([]);
    expect(page).not.toContain(STALE_MARK);
  });

  it('sits in one of the areas', () => {
    for (const s of sections) expect(AREAS, s.name).toContain(s.area);
  });
});

describe('the committed BENCHMARKS.md rows', () => {
  it(`hold no cell over ${MAX_CELL_WORDS} words and no hand-written script command`, () => {
    const rows = page.split('\n').filter((l) => /^\| \[[^\]]+\]\(/.test(l));
    expect(rows.length).toBe(sections.length);
    for (const row of rows) {
      const cells = row.split(/(?<!\\)\|/).slice(1, -1);
      for (const c of cells) expect(wordCount(c), row.slice(0, 60)).toBeLessThanOrEqual(MAX_CELL_WORDS);
      expect(row).not.toContain('node apps/bench/dist');
    }
  });
});

describe("the root README's results block", () => {
  it('is what the stored sections render (pnpm bench --render writes it between the markers)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(RESULTS_BEGIN);
    expect(readme).toContain(RESULTS_END);
    expect(readme).toBe(withReadmeResults(readme, sections));
  });
});
