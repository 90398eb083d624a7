/**
 * BENCHMARKS.md: one section per benchmark, each with its figures, the machine and date it ran on and
 * the command that reproduces it. Sections are stored as JSON under apps/bench/results/sections/, so
 * `pnpm bench --only X` re-runs X and rewrites the file with the other sections as they were.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMachine, type MachineInfo } from './machine.js';
import { median, type BenchResult } from './result.js';

/** What one benchmark left after a run. */
export interface Section {
  readonly name: string;
  readonly title: string;
  /** What is compared, with what, and where the numbers of a paper come from. */
  readonly description: string;
  /** Shell command that re-runs this section alone. */
  readonly command: string;
  /** The benchmark script and arguments that command runs (script benchmarks). */
  readonly script?: string;
  readonly date: string;
  readonly seconds: number;
  readonly quick: boolean;
  readonly machine: MachineInfo;
  readonly status: 'ok' | 'failed' | 'skipped';
  /** Why failed or skipped. */
  readonly reason?: string;
  /** Timed comparisons (ours vs a peer). */
  readonly results?: readonly BenchResult[];
  /** Tables and lines the benchmark printed (already Markdown). */
  readonly markdown?: string;
  /** Order in BENCHMARKS.md (registry position). */
  readonly order: number;
}

/** Stores a section atomically (temporary file, then rename): two runs side by side never read half a file. */
export function saveSection(dir: string, s: Section): void {
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `${s.name}.json`);
  writeFileSync(`${target}.${process.pid}.tmp`, `${JSON.stringify(s, null, 2)}\n`);
  renameSync(`${target}.${process.pid}.tmp`, target);
}

export function loadSections(dir: string): Section[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Section)
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

/** Seconds with sensible precision (3 significant digits, never exponent notation). */
export function secs(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  if (x >= 0.01) return x.toFixed(3);
  return x.toPrecision(2);
}

/** `median s (min–max, n runs)`: the spread is shown, never only the best run. */
export function spread(xs: readonly number[]): string {
  if (xs.length === 0) return '—';
  const m = secs(median(xs));
  if (xs.length === 1) return `${m} s (1 run)`;
  return `${m} s (${secs(Math.min(...xs))}–${secs(Math.max(...xs))}, ${xs.length} runs)`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The comparison table of a section's BenchResults. */
export function resultsTable(results: readonly BenchResult[]): string {
  const lines = ['| benchmark | xtrust | peer | peer time | peer / xtrust | notes |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of results) {
    const kind = r.peer.kind === 'measured' ? 'measured here' : r.peer.kind === 'reported' ? '**reported, not measured**' : '**extrapolated** from a smaller measured run';
    lines.push(
      `| ${cell(r.name)} | ${cell(r.ours.label)}: ${spread(r.ours.seconds)} | ${cell(r.peer.label)} (${kind}) | ${spread(r.peer.seconds)} | **${r.ratio.toFixed(r.ratio >= 10 ? 0 : 2)}×** | ${cell(r.notes)} |`,
    );
  }
  return lines.join('\n');
}

function sectionMarkdown(s: Section): string {
  const out = [`## ${s.title}`, '', s.description, ''];
  out.push(`- Command: \`${s.command}\`${s.script ? ` (runs \`${s.script.trim()}\` after building)` : ''}`);
  out.push(`- Run: ${s.date.slice(0, 16).replace('T', ' ')} UTC, ${secs(s.seconds)} s${s.quick ? ', **quick mode** (reduced sizes; figures indicative)' : ''}`);
  out.push(`- Machine: ${formatMachine(s.machine)}`);
  out.push('');
  if (s.status !== 'ok') {
    out.push(`**${s.status === 'skipped' ? 'Not run' : 'Failed'}:** ${s.reason ?? 'no reason recorded'}`, '');
  }
  if (s.results && s.results.length > 0) out.push(resultsTable(s.results), '');
  if (s.markdown && s.markdown.trim() !== '') out.push(s.markdown.trim(), '');
  return out.join('\n');
}

/** The whole BENCHMARKS.md from the stored sections. */
export function benchmarksMarkdown(sections: readonly Section[]): string {
  const head = [
    '# Benchmarks',
    '',
    'Written by `pnpm bench` (apps/bench; `pnpm bench --quick` for reduced sizes, `pnpm bench --only NAME[,NAME]` for some sections, `pnpm bench --list` for the names).',
    'Where a section compares xtrust with a peer, both sides are measured **in the same run on the same machine**; repeated runs are shown as the median with the range (min–max, number of runs); a peer that cannot run here is labelled **reported** (a paper\'s own figure) or **extrapolated** (scaled from a smaller measured run), never passed off as measured.',
    'Ratios are peer time over xtrust time: above 1, xtrust is faster. The machine may be shared with other work: the load average at the start of each section is recorded.',
    '',
    '| section | status | run | mode |',
    '| --- | --- | --- | --- |',
    ...sections.map((s) => `| [${s.title}](#${anchor(s.title)}) | ${s.status} | ${s.date.slice(0, 10)} | ${s.quick ? 'quick' : 'full'} |`),
    '',
  ];
  return [...head, ...sections.map(sectionMarkdown)].join('\n');
}

/** GitHub's heading anchor. */
export function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

export function writeBenchmarks(file: string, sectionsDir: string): void {
  writeFileSync(`${file}.${process.pid}.tmp`, benchmarksMarkdown(loadSections(sectionsDir)));
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * A script's stdout as Markdown: Markdown tables stay tables, fixed-width tables (columns aligned with
 * spaces, dashed rules) go into code blocks so their columns survive, other lines keep their line
 * breaks; progress lines (`[hh:mm:ss] …`) are dropped.
 */
export function toMarkdown(stdout: string): string {
  const lines = stdout
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !/^\[\d\d:\d\d:\d\d\]/.test(l));
  // blocks: runs of lines of one kind (Markdown table, heading, other), split at blank lines
  const blocks: string[][] = [];
  let cur: string[] = [];
  const kind = (l: string) => (l.startsWith('|') ? 'table' : l.startsWith('#') ? 'heading' : 'text');
  for (const l of lines) {
    if (l === '' || (cur.length > 0 && kind(cur[0]) !== kind(l))) {
      if (cur.length) blocks.push(cur);
      cur = [];
    }
    if (l !== '') cur.push(l);
  }
  if (cur.length) blocks.push(cur);
  const out: string[] = [];
  for (const b of blocks) {
    const k = kind(b[0]);
    if (k !== 'text') out.push(b.join('\n'));
    else if (b.some((l) => /^[-=]{10,}$/.test(l) || /\S {2,}\S/.test(l.trim()))) out.push(['```', ...b, '```'].join('\n'));
    else out.push(b.map((l, i) => (i < b.length - 1 ? `${l}  ` : l)).join('\n'));
  }
  return out.join('\n\n');
}
