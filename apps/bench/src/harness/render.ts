/**
 * Section rendering. BENCHMARKS.md is one page: a headline table with a row per benchmark — the question,
 * xtrust's figure, the peer's (or the paper's) figure, the goal, met or not, the date and the command — each
 * row linking to the benchmark's full section, one Markdown file per section in apps/bench/results/<name>.md
 * (description, command, machine, every table). Both are rendered from the section JSON in
 * apps/bench/results/sections/, by `pnpm bench` after each section it runs and, without running anything,
 * by `node apps/bench/dist/report.js`.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { formatMachine } from './machine.js';
import type { BenchResult } from './result.js';
import { loadSections, writeFileAtomic, type Headline, type Section } from './store.js';
import { median } from './timing.js';

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

/** A table cell: pipes escaped, line breaks flattened. */
export const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The comparison table of a section's BenchResults. */
export function resultsTable(results: readonly BenchResult[]): string {
  const lines = [
    '| benchmark | xtrust | peer | peer time | peer / xtrust | notes |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const kind =
      r.peer.kind === 'measured'
        ? 'measured here'
        : r.peer.kind === 'reported'
          ? '**reported, not measured**'
          : '**extrapolated** from a smaller measured run';
    lines.push(
      `| ${cell(r.name)} | ${cell(r.ours.label)}: ${spread(r.ours.seconds)} | ${cell(r.peer.label)} (${kind}) | ${spread(r.peer.seconds)} | **${r.ratio.toFixed(r.ratio >= 10 ? 0 : 2)}×** | ${cell(r.notes)} |`,
    );
  }
  return lines.join('\n');
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
    else if (b.some((l) => /^[-=]{10,}$/.test(l) || /\S {2,}\S/.test(l.trim())))
      out.push(['```', ...b, '```'].join('\n'));
    else out.push(b.map((l, i) => (i < b.length - 1 ? `${l}  ` : l)).join('\n'));
  }
  return out.join('\n\n');
}

/** The first line of every page this renderer writes: it marks the file as generated (and removable when its section is gone). */
export const GENERATED_MARK = '<!-- Written by apps/bench from results/sections/';

const MET: Record<Headline['met'], string> = {
  yes: '**met**',
  no: '**not met**',
  partly: '**partly**',
  'n/a': 'no goal',
};
const day = (iso: string) => iso.slice(0, 10);

/** A relative link in Markdown form (forward slashes on every platform). */
const link = (from: string, to: string) => relative(from, to).split(sep).join('/');

/** The run cell: the date, the mode, and — when the headline's figures come from an earlier run — which. */
function runCell(s: Section): string {
  const stale =
    s.headline && s.headline.from !== s.date
      ? ` (headline figures from the run of ${day(s.headline.from)}: not yet re-read)`
      : '';
  return `${day(s.date)}${s.quick ? ', **quick**' : ''}${stale}`;
}

/** The headline's cells (question, xtrust, peer, goal, met) of a section. */
function headlineCells(s: Section): [string, string, string, string, string] {
  const h = s.headline;
  const met = s.status === 'ok' ? (h ? MET[h.met] : '—') : s.status === 'skipped' ? 'not run' : '**failed**';
  if (!h) return [s.title, 'no headline yet: see the section', '—', '—', met];
  return [h.question, h.xtrust, h.peer, h.goal, met];
}

/** The headline table (the heart of BENCHMARKS.md and the top of each section's page). */
export function headlineTable(sections: readonly Section[], pageLink: (s: Section) => string): string {
  const lines = [
    '| benchmark | question | xtrust | peer or paper (same run) | goal | met | run | command |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const s of sections) {
    const [question, xtrust, peer, goal, met] = headlineCells(s).map(cell);
    lines.push(
      `| [${s.name}](${pageLink(s)}) | ${question} | ${xtrust} | ${peer} | ${goal} | ${met} | ${runCell(s)} | \`${cell(s.command)}\` |`,
    );
  }
  return lines.join('\n');
}

export interface PageLinks {
  /** Folder the section pages are in (apps/bench/results). */
  readonly pagesDir: string;
  /** Folder of the section JSON (apps/bench/results/sections). */
  readonly sectionsDir: string;
  /** The BENCHMARKS.md file. */
  readonly benchmarksFile: string;
}

/** The path of a section's page. */
export const pagePath = (pagesDir: string, name: string) => join(pagesDir, `${name}.md`);

/** One section's page: its headline, what it measures, the command, run, machine, and every table. */
export function sectionPage(s: Section, links: PageLinks): string {
  const out = [
    `${GENERATED_MARK}${s.name}.json by \`node apps/bench/dist/report.js\` (and \`pnpm bench\`): edit the JSON, not this file -->`,
    `# ${s.title}`,
    '',
    `[All benchmarks](${link(links.pagesDir, links.benchmarksFile)}) · section \`${s.name}\` · data: [${link(links.pagesDir, join(links.sectionsDir, `${s.name}.json`))}](${link(links.pagesDir, join(links.sectionsDir, `${s.name}.json`))})`,
    '',
  ];
  if (s.headline) {
    const [question, xtrust, peer, goal, met] = headlineCells(s).map(cell);
    out.push(
      '| question | xtrust | peer or paper (same run) | goal | met |',
      '| --- | --- | --- | --- | --- |',
      `| ${question} | ${xtrust} | ${peer} | ${goal} | ${met} |`,
      '',
    );
    if (s.headline.from !== s.date)
      out.push(
        `*The headline's figures were read from the run of ${day(s.headline.from)}; the tables below are from the run of ${day(s.date)}.*`,
        '',
      );
  }
  out.push(s.description, '');
  out.push(`- Command: \`${s.command}\`${s.script ? ` (runs \`${s.script.trim()}\` after building)` : ''}`);
  out.push(
    `- Run: ${s.date.slice(0, 16).replace('T', ' ')} UTC, ${secs(s.seconds)} s${s.quick ? ', **quick mode** (reduced sizes; figures indicative)' : ''}`,
  );
  out.push(`- Machine: ${formatMachine(s.machine)}`);
  if (s.regenerated) out.push(`- Not in git: ${s.regenerated}`);
  out.push('');
  if (s.status !== 'ok')
    out.push(`**${s.status === 'skipped' ? 'Not run' : 'Failed'}:** ${s.reason ?? 'no reason recorded'}`, '');
  if (s.results && s.results.length > 0) out.push(resultsTable(s.results), '');
  if (s.markdown && s.markdown.trim() !== '') out.push(s.markdown.trim(), '');
  return out.join('\n');
}

/** BENCHMARKS.md: the headline table, each row linking to its section's page. */
export function benchmarksPage(sections: readonly Section[], links: PageLinks): string {
  const sectionsDir = links.sectionsDir;
  const from = dirname(links.benchmarksFile);
  const readme = link(from, join(links.pagesDir, '..', 'README.md'));
  return [
    '# Benchmarks',
    '',
    'Each row answers one question with figures; its link opens the full section — what is compared, the command, the machine and every table.',
    'Where a peer is named, both sides were measured **in the same run on the same machine**; a figure a paper reported is labelled **reported**, never passed off as measured.',
    'Ratios are peer time over xtrust time (above 1: xtrust is faster). The machines are shared: each section records the load average.',
    '',
    headlineTable(sections, (s) => link(from, pagePath(links.pagesDir, s.name))),
    '',
    `*met*: the goal holds on the figures shown; *partly*: a goal of several parts, the xtrust cell says which hold; *no goal*: a reproduction or a measurement with no target set.`,
    '',
    '## Running and re-rendering',
    '',
    '```sh',
    'pnpm bench --list                      # the sections',
    'pnpm bench --only NAME[,NAME]          # re-run some sections (others stay as stored); --quick for reduced sizes',
    'node apps/bench/dist/report.js         # re-render this page and every section page from the stored JSON, measuring nothing',
    '```',
    '',
    `Sections are stored as JSON in [${link(from, sectionsDir)}/](${link(from, sectionsDir)}) and rendered to one page each in [${link(from, links.pagesDir)}/](${link(from, links.pagesDir)}).`,
    'Run directories, caches, report HTML and explanation JSONL are not committed: each section page says what its command regenerates.',
    `A re-run keeps the row's headline, marked as read from the earlier run, until its figures are read again into the section's \`headline\` ([${readme}](${readme}#before-merge)).`,
    '',
  ].join('\n');
}

/** True when `file` is a page this renderer wrote. */
function isGeneratedPage(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').startsWith(GENERATED_MARK);
  } catch {
    return false;
  }
}

/**
 * Writes BENCHMARKS.md (`file`) and one page per stored section (in `pagesDir`, by default the folder
 * holding `sectionsDir`), and removes the pages of sections no longer stored. Returns the pages written.
 */
export function writeBenchmarks(file: string, sectionsDir: string, pagesDir = dirname(sectionsDir)): string[] {
  const sections = loadSections(sectionsDir);
  const links: PageLinks = { pagesDir, sectionsDir, benchmarksFile: file };
  const written: string[] = [];
  for (const s of sections) {
    const page = pagePath(pagesDir, s.name);
    writeFileAtomic(page, sectionPage(s, links));
    written.push(page);
  }
  const names = new Set(sections.map((s) => `${s.name}.md`));
  if (existsSync(pagesDir)) {
    for (const f of readdirSync(pagesDir)) {
      if (f.endsWith('.md') && !names.has(f) && isGeneratedPage(join(pagesDir, f))) rmSync(join(pagesDir, f));
    }
  }
  writeFileAtomic(file, benchmarksPage(sections, links));
  return written.map((p) => basename(p));
}
