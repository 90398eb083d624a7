// The committed results: BENCHMARKS.md is one page of headlines whose every row links to a section page, and
// both are exactly what the renderer makes of the committed section JSON (edit the JSON, then re-render with
// `node apps/bench/dist/report.js`; apps/bench/README.md, "Before merge").
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarksPage, sectionPage } from '../src/harness/render.js';
import { loadSections } from '../src/harness/store.js';

describe('the committed BENCHMARKS.md', () => {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
  const page = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');

  it('is one page of at most 150 lines whose every row links to an existing section page with its command and tables', () => {
    expect(page.split('\n').length).toBeLessThanOrEqual(150);
    const rows = page.split('\n').filter((l) => /^\| \[[^\]]+\]\(/.test(l));
    const stored = loadSections(join(root, 'apps/bench/results/sections'));
    expect(rows.length).toBe(stored.length);
    for (const row of rows) {
      const target = /^\| \[([^\]]+)\]\(([^)]+)\)/.exec(row)!;
      const file = join(root, target[2]);
      expect(existsSync(file), `${target[2]} (row ${target[1]})`).toBe(true);
      const sectionMd = readFileSync(file, 'utf8');
      expect(sectionMd).toContain('- Command: `');
      expect(sectionMd).toContain('- Machine: ');
    }
  });

  it('is what the renderer makes of the committed section JSON (re-render after editing a section: node apps/bench/dist/report.js)', () => {
    const sections = loadSections(join(root, 'apps/bench/results/sections'));
    const l = {
      pagesDir: join(root, 'apps/bench/results'),
      sectionsDir: join(root, 'apps/bench/results/sections'),
      benchmarksFile: join(root, 'BENCHMARKS.md'),
    };
    expect(page).toBe(benchmarksPage(sections, l));
    for (const s of sections)
      expect(readFileSync(join(root, 'apps/bench/results', `${s.name}.md`), 'utf8'), s.name).toBe(sectionPage(s, l));
  });

  it('gives every committed section a headline with all its cells', () => {
    for (const s of loadSections(join(root, 'apps/bench/results/sections'))) {
      expect(s.headline, s.name).toBeDefined();
      const h = s.headline!;
      for (const k of ['question', 'xtrust', 'peer', 'goal'] as const)
        expect(h[k].trim(), `${s.name}: ${k}`).not.toBe('');
      expect(['yes', 'no', 'partly', 'n/a']).toContain(h.met);
    }
  });
});

describe('results in git are data, not run directories', () => {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
  const tracked = (() => {
    try {
      return execFileSync('git', ['ls-files', '-z', 'apps/bench/results'], { cwd: root, encoding: 'utf8' })
        .split('\0')
        .filter((f) => f !== '');
    } catch {
      return undefined; // not a git checkout (a packed copy): nothing to check
    }
  })();

  it.skipIf(tracked === undefined)(
    'keeps apps/bench/results under 2 MB in git, no file over 256 KB, no run directory, report HTML or JSONL',
    () => {
      let blocks = 0;
      for (const f of tracked!) {
        const file = join(root, f);
        if (!existsSync(file)) continue; // deleted in the working tree, not yet committed
        const size = statSync(file).size;
        // a section's data: the drawn oracle families keep every configuration's per-case G-mean (≈ 170 KB for eleven)
        expect(size, f).toBeLessThanOrEqual(256 * 1024);
        expect(f).not.toMatch(/(^|\/)work\/|report\.html$|\.jsonl$/);
        blocks += Math.ceil(size / 4096) * 4096; // as `du` counts them
      }
      expect(blocks).toBeLessThan(2 * 1024 * 1024);
    },
  );
});
