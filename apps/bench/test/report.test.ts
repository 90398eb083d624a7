import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../src/index.js';
import { AREAS } from '../src/harness/areas.js';
import {
  benchmarksPage,
  resultsTable,
  saveSection,
  sectionPage,
  spread,
  toMarkdown,
  writeBenchmarks,
  type Section,
} from '../src/report.js';
import { GENERATED_MARK } from '../src/harness/render.js';
import { loadSections, type Headline } from '../src/harness/store.js';

const machine = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryGiB: 8,
  freeMemoryGiB: 4,
  loadAverage: [1, 1, 1],
  os: 'linux',
  node: 'v20',
  kernels: 'cpu (2 threads)',
  commit: 'abc1234',
};
const section = (over: Partial<Section>): Section => ({
  name: 'x',
  title: 'X bench',
  description: 'what it measures',
  command: 'pnpm bench --only x',
  date: '2026-01-02T03:04:05.000Z',
  seconds: 12.3,
  quick: false,
  machine,
  status: 'ok',
  order: 0,
  ...over,
});
const headline = (over: Partial<Headline> = {}): Headline => ({
  question: 'Is X fast?',
  xtrust: '1.0 s',
  peer: 'peer 10 s',
  goal: '≥ 5×',
  met: 'yes',
  from: '2026-01-02T03:04:05.000Z',
  ...over,
});
const links = (dir: string) => ({
  pagesDir: join(dir, 'apps/bench/results'),
  sectionsDir: join(dir, 'apps/bench/results/sections'),
  benchmarksFile: join(dir, 'BENCHMARKS.md'),
});

describe('section pages', () => {
  it('shows medians with the spread, never only the best run', () => {
    expect(spread([3, 1, 2])).toBe('2.00 s (1.00–3.00, 3 runs)');
    expect(spread([0.5])).toBe('0.500 s (1 run)');
  });

  it('labels reported and extrapolated peers as such', () => {
    const t = resultsTable([
      {
        name: 'a',
        ours: { label: 'xtrust', seconds: [1, 1.2, 0.8] },
        peer: { label: 'paper', seconds: [100], kind: 'reported' },
        ratio: 100,
        notes: 'n|1',
      },
      {
        name: 'b',
        ours: { label: 'xtrust', seconds: [2] },
        peer: { label: 'ts', seconds: [8], kind: 'extrapolated' },
        ratio: 4,
        notes: '',
      },
    ]);
    expect(t).toContain('**reported, not measured**');
    expect(t).toContain('**extrapolated**');
    expect(t).toContain('**100×**');
    expect(t).toContain('n\\|1');
  });

  it('writes machine, command, date, what git does not keep, and the reason of a section that did not run', () => {
    const page = sectionPage(
      section({ headline: headline(), regenerated: 'run folders, by the command above' }),
      links('/r'),
    );
    expect(page.startsWith(GENERATED_MARK)).toBe(true);
    expect(page).toContain('# X bench');
    expect(page).toContain('- Command: `pnpm bench --only x`');
    expect(page).toContain('2 × Test CPU, 8 GiB memory');
    expect(page).toContain('2026-01-02 03:04 UTC');
    expect(page).toContain('- Not in git: run folders, by the command above');
    expect(page).toContain('[All benchmarks](../../../BENCHMARKS.md)');
    expect(page).toContain('| Is X fast? | 1.0 s | peer 10 s | ≥ 5× | **met** |');
    expect(sectionPage(section({ status: 'skipped', reason: 'no peer here' }), links('/r'))).toContain(
      '**Not run:** no peer here',
    );
  });

  it('keeps tables and drops progress lines from a script output', () => {
    expect(toMarkdown('[12:00:01] loading\nsome figure\nand another\n| a | b |\n| --- | --- |\n| 1 | 2 |\n')).toBe(
      'some figure  \nand another\n\n| a | b |\n| --- | --- |\n| 1 | 2 |',
    );
    expect(toMarkdown('Method    Acc\n-------------\nTOKI      .9\n\nnote')).toBe(
      '```\nMethod    Acc\n-------------\nTOKI      .9\n```\n\nnote',
    );
  });
});

describe('BENCHMARKS.md, one page', () => {
  it('opens with the status line, groups rows by area, each linking to its page; a stale headline says which run it is from', () => {
    const md = benchmarksPage(
      [
        section({ name: 'a', area: 'speed', title: 'First', order: 1, headline: headline() }),
        section({
          name: 'b',
          area: 'oracle',
          title: 'Second',
          order: 2,
          date: '2026-02-01T00:00:00.000Z',
          headline: headline({ met: 'partly', xtrust: 'a | b' }),
        }),
        section({ name: 'c', area: 'speed', title: 'Third', order: 3, status: 'failed', reason: 'boom' }),
        section({ name: 'd', title: 'Fourth', order: 4, headline: headline({ met: 'n/a' }) }),
      ],
      links('/r'),
    );
    expect(md).toContain(
      '**4 benchmarks: 1 met · 1 partly · 0 not met · 1 no goal** · 1 without a headline · 1 failed',
    );
    expect(md).toContain(
      '| [a](apps/bench/results/a.md) | Is X fast? | 1.0 s | peer 10 s | ≥ 5× | **met** | 2026-01-02 |',
    );
    expect(md).toContain('| [b](apps/bench/results/b.md) | Is X fast? | a \\| b |');
    expect(md).toContain('2026-02-01 (headline from the run of 2026-01-02: not yet re-read)');
    expect(md).toContain(
      '| [c](apps/bench/results/c.md) | Third | no headline yet: see the section | — | — | **failed** |',
    );
    // areas in page order (oracle before speed), sections without an area last
    expect(md.indexOf('## Oracle')).toBeLessThan(md.indexOf('## Speed'));
    expect(md.indexOf('[b]')).toBeLessThan(md.indexOf('[a]'));
    expect(md.indexOf('[a]')).toBeLessThan(md.indexOf('[c]'));
    expect(md.indexOf('## Other')).toBeGreaterThan(md.indexOf('[c]'));
    expect(md).toContain('pnpm bench --render');
    expect(md).not.toContain('node apps/bench/dist');
  });

  it('shows `pnpm bench --only NAME` as the command of a section a script wrote itself, and the headline notes on its page', () => {
    const page = sectionPage(
      section({
        name: 'kp',
        command:
          'pnpm turbo run build --filter=@xtrust/bench && node apps/bench/dist/keyword-pass/run.js --whole a.json',
        headline: headline({ notes: 'the caveat' }),
      }),
      links('/r'),
    );
    expect(page).toContain(
      '- Command: `pnpm bench --only kp` (runs `node apps/bench/dist/keyword-pass/run.js --whole a.json` after building)',
    );
    expect(page).toContain('**Notes on the headline**\n\nthe caveat');
  });

  it('rebuilds the page and the section pages from stored sections, keeps a stored headline over a re-run and removes pages of sections gone', () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-'));
    const sections = join(root, 'apps/bench/results/sections');
    saveSection(sections, section({ name: 'b', area: 'scale', title: 'Second', order: 2, headline: headline() }));
    saveSection(sections, section({ name: 'a', area: 'scale', title: 'First', order: 1 }));
    // a page this renderer wrote for a section that no longer exists, and a hand-written file beside it
    writeFileSync(join(root, 'apps/bench/results/gone.md'), `${GENERATED_MARK}gone.json -->\n# Gone\n`);
    writeFileSync(join(root, 'apps/bench/results/notes.md'), '# kept: not generated\n');
    // a re-run writes no headline: the stored one stays, with the date of the run it was read from
    saveSection(sections, section({ name: 'b', title: 'Second', order: 2, date: '2026-03-01T00:00:00.000Z' }));
    expect(loadSections(sections).find((s) => s.name === 'b')?.headline?.from).toBe('2026-01-02T03:04:05.000Z');
    // and so does its area (a script writing its own section names none)
    expect(loadSections(sections).find((s) => s.name === 'b')?.area).toBe('scale');

    expect(writeBenchmarks(join(root, 'BENCHMARKS.md'), sections)).toEqual(['a.md', 'b.md']);
    const md = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');
    expect(md.indexOf('[a]')).toBeLessThan(md.indexOf('[b]'));
    expect(readFileSync(join(root, 'apps/bench/results/b.md'), 'utf8')).toContain(
      "*The headline's figures were read from the run of 2026-01-02; the tables below are from the run of 2026-03-01.*",
    );
    expect(existsSync(join(root, 'apps/bench/results/gone.md'))).toBe(false);
    expect(existsSync(join(root, 'apps/bench/results/notes.md'))).toBe(true);
  });
});

describe('the registry', () => {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
  it('registers every benchmark area of apps/bench/src once', () => {
    const names = BENCHMARKS.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of [
      'native',
      'lime-parity',
      'transformer-lime',
      'transformer-audit',
      'explainers-speed',
      'oracle-speed',
      'table3',
      'table4',
      'cea-tef',
      'similarity',
      'synonymity',
      'ndcg',
      'scale',
    ])
      expect(names).toContain(n);
  });

  it('registers every stored section, in the area its section shows, runnable by `pnpm bench --only NAME`', () => {
    const stored = loadSections(join(root, 'apps/bench/results/sections'));
    const byName = new Map(BENCHMARKS.map((b) => [b.name, b]));
    for (const s of stored) {
      expect(byName.has(s.name), `${s.name} is not registered`).toBe(true);
      expect(s.area, s.name).toBe(byName.get(s.name)?.area);
    }
    for (const b of BENCHMARKS) expect(AREAS).toContain(b.area);
    expect(BENCHMARKS.length).toBe(stored.length);
  });

  it('keeps the stored native-cuda section where no GPU is attached, and re-writes it from its device run with --stored', () => {
    const b = BENCHMARKS.find((x) => x.name === 'native-cuda')!;
    expect(b.writesSection).toBe(true);
    const stored = b.steps!({ quick: false, stored: true, log: () => {} });
    if ('skipped' in stored) throw new Error(stored.skipped);
    expect(stored.map((s) => s.file)).toEqual(['apps/bench/dist/native/cuda-section.js']);
    expect(stored[0].args).toContain('--write-section');
  });

  it('runs only scripts of apps/bench', () => {
    const ctx = { quick: false, log: () => {} };
    const files = BENCHMARKS.flatMap((b) => {
      const one = b.script?.(ctx);
      const many = b.steps?.(ctx);
      return [...(one && 'file' in one ? [one] : []), ...(Array.isArray(many) ? many : [])].map(
        (s) => [b.name, s.file] as const,
      );
    });
    // the check must have scripts to look at: most benchmarks are scripts
    expect(files.length).toBeGreaterThan(BENCHMARKS.length / 2);
    for (const [name, file] of files) expect(file, name).toMatch(/^apps\/bench\/dist\//);
  });
});
