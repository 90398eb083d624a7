import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../src/index.js';
import { anchor, benchmarksMarkdown, resultsTable, saveSection, spread, toMarkdown, writeBenchmarks, type Section } from '../src/report.js';

const machine = { cpuModel: 'Test CPU', cores: 2, memoryGiB: 8, freeMemoryGiB: 4, loadAverage: [1, 1, 1], os: 'linux', node: 'v20', kernels: 'cpu (2 threads)', commit: 'abc1234' };
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

describe('BENCHMARKS.md', () => {
  it('shows medians with the spread, never only the best run', () => {
    expect(spread([3, 1, 2])).toBe('2.00 s (1.00–3.00, 3 runs)');
    expect(spread([0.5])).toBe('0.500 s (1 run)');
  });

  it('labels reported and extrapolated peers as such', () => {
    const t = resultsTable([
      { name: 'a', ours: { label: 'xtrust', seconds: [1, 1.2, 0.8] }, peer: { label: 'paper', seconds: [100], kind: 'reported' }, ratio: 100, notes: 'n|1' },
      { name: 'b', ours: { label: 'xtrust', seconds: [2] }, peer: { label: 'ts', seconds: [8], kind: 'extrapolated' }, ratio: 4, notes: '' },
    ]);
    expect(t).toContain('**reported, not measured**');
    expect(t).toContain('**extrapolated**');
    expect(t).toContain('**100×**');
    expect(t).toContain('n\\|1');
  });

  it('writes machine, command and date per section, and the reason of a section that did not run', () => {
    const md = benchmarksMarkdown([section({}), section({ name: 'y', title: 'Y bench', status: 'skipped', reason: 'no peer here', order: 1 })]);
    expect(md).toContain('- Command: `pnpm bench --only x`');
    expect(md).toContain('2 × Test CPU, 8 GiB memory');
    expect(md).toContain('2026-01-02 03:04 UTC');
    expect(md).toContain('**Not run:** no peer here');
    expect(md).toContain(`(#${anchor('Y bench')})`);
  });

  it('rebuilds the file from stored sections, so --only keeps the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    saveSection(join(dir, 's'), section({ name: 'b', title: 'Second', order: 2 }));
    saveSection(join(dir, 's'), section({ name: 'a', title: 'First', order: 1 }));
    writeBenchmarks(join(dir, 'B.md'), join(dir, 's'));
    const md = readFileSync(join(dir, 'B.md'), 'utf8');
    expect(md.indexOf('## First')).toBeLessThan(md.indexOf('## Second'));
  });

  it('keeps tables and drops progress lines from a script output', () => {
    expect(toMarkdown('[12:00:01] loading\nsome figure\nand another\n| a | b |\n| --- | --- |\n| 1 | 2 |\n')).toBe('some figure  \nand another\n\n| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(toMarkdown('Method    Acc\n-------------\nTOKI      .9\n\nnote')).toBe('```\nMethod    Acc\n-------------\nTOKI      .9\n```\n\nnote');
  });

  it('registers every benchmark area of apps/bench/src once', () => {
    const names = BENCHMARKS.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['native', 'lime-parity', 'transformer-lime', 'transformer-audit', 'explainers-speed', 'oracle-speed', 'table3', 'table4', 'cea-tef', 'similarity', 'synonymity', 'ndcg', 'scale']) expect(names).toContain(n);
  });
});
