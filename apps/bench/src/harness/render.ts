/**
 * Section rendering. BENCHMARKS.md is one page read in a minute: a status line (how many goals are met), then
 * a headline table per area with a row per benchmark — the question, xtrust's figure, the peer's (or the
 * paper's), the goal, met or not, the run date; each cell ≤ 30 words — each row linking to the benchmark's
 * full section, one Markdown file per section in apps/bench/results/<name>.md (the headline's notes, the
 * description, command, machine, every table). Both are rendered from the section JSON in
 * apps/bench/results/sections/, by `pnpm bench` after each section it runs and, without running anything,
 * by `pnpm bench --render` (or `node apps/bench/dist/report.js`), which also renews the root README's results block.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { formatMachine } from './machine.js';
import type { BenchResult } from './result.js';
import { AREA_TITLES, AREAS, type Area } from './areas.js';
import { updateReadme } from './readme-results.js';
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

/** The most words a headline cell may hold: BENCHMARKS.md is read in a minute; the rest goes to the section page (`notes`). */
export const MAX_CELL_WORDS = 30;

/** A cell's words, as the page's limit counts them (runs of non-space characters). */
export const wordCount = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/** What a stale headline's run cell says: its figures are from an earlier run than the section's tables. */
export const STALE_MARK = 'not yet re-read';

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
      ? ` (headline from the run of ${day(s.headline.from)}: ${STALE_MARK})`
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

/**
 * The command that re-runs a section: always `pnpm bench --only NAME` (with the flags the runner stored, such as
 * `--stored`). A script that writes its own section records the command it ran; that is shown as what the
 * runner runs, never as the way to run it.
 */
export function sectionCommand(s: Section): { command: string; script?: string } {
  if (s.command.startsWith('pnpm bench ')) return { command: s.command, script: s.script };
  const ran = s.command.replace(/^pnpm turbo run build --filter=@xtrust\/bench && /, '');
  const script = s.script && !s.script.startsWith('node ') ? `node apps/bench/dist/${s.script}` : s.script;
  return { command: `pnpm bench --only ${s.name}`, script: script ?? ran };
}

/** How many headlines are met, partly met, not met and without a goal (the status line of BENCHMARKS.md). */
export function metCounts(sections: readonly Section[]): Record<Headline['met'] | 'none', number> {
  const n = { yes: 0, partly: 0, no: 0, 'n/a': 0, none: 0 };
  for (const s of sections) n[s.headline?.met ?? 'none']++;
  return n;
}

/** The status line: `32 benchmarks: 10 met · 12 partly · 4 not met · 6 no goal`. */
export function statusLine(sections: readonly Section[]): string {
  const n = metCounts(sections);
  const failed = sections.filter((s) => s.status === 'failed').length;
  const notRun = sections.filter((s) => s.status === 'skipped').length;
  return [
    `**${sections.length} benchmarks: ${n.yes} met · ${n.partly} partly · ${n.no} not met · ${n['n/a']} no goal**`,
    n.none ? ` · ${n.none} without a headline` : '',
    failed ? ` · ${failed} failed at their last run` : '',
    notRun ? ` · ${notRun} not run at their last run` : '',
  ].join('');
}

/** The sections of an area, in page order; sections stored without an area come last, under "Other". */
export function byArea(sections: readonly Section[]): { area: Area | undefined; title: string; sections: Section[] }[] {
  const groups: { area: Area | undefined; title: string; sections: Section[] }[] = AREAS.map((a) => ({
    area: a,
    title: AREA_TITLES[a],
    sections: sections.filter((s) => s.area === a),
  }));
  groups.push({
    area: undefined,
    title: 'Other',
    sections: sections.filter((s) => !s.area || !AREAS.includes(s.area)),
  });
  return groups.filter((g) => g.sections.length > 0);
}

/** A headline table (BENCHMARKS.md has one per area): the benchmark (linked), its question and answer in figures, met, the run date. */
export function headlineTable(sections: readonly Section[], pageLink: (s: Section) => string): string {
  const lines = [
    '| benchmark | question | xtrust | peer | goal | met | run |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const s of sections) {
    const [question, xtrust, peer, goal, met] = headlineCells(s).map(cell);
    lines.push(
      `| [${s.name}](${pageLink(s)}) | ${question} | ${xtrust} | ${peer} | ${goal} | ${met} | ${runCell(s)} |`,
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

/** One section's page: its headline and the notes behind it, what it measures, the command, run, machine, and every table. */
export function sectionPage(s: Section, links: PageLinks): string {
  const out = [
    `${GENERATED_MARK}${s.name}.json by \`pnpm bench --render\` (and \`pnpm bench\`): edit the JSON, not this file -->`,
    `# ${s.title}`,
    '',
    `[All benchmarks](${link(links.pagesDir, links.benchmarksFile)}) · section \`${s.name}\`${s.area ? ` · area ${AREA_TITLES[s.area] ?? s.area}` : ''} · data: [${link(links.pagesDir, join(links.sectionsDir, `${s.name}.json`))}](${link(links.pagesDir, join(links.sectionsDir, `${s.name}.json`))})`,
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
    if (s.headline.notes?.trim()) out.push('**Notes on the headline**', '', s.headline.notes.trim(), '');
    if (s.headline.from !== s.date)
      out.push(
        `*The headline's figures were read from the run of ${day(s.headline.from)}; the tables below are from the run of ${day(s.date)}.*`,
        '',
      );
  }
  out.push(s.description, '');
  const { command, script } = sectionCommand(s);
  out.push(`- Command: \`${command}\`${script ? ` (runs \`${script.trim()}\` after building)` : ''}`);
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

/** BENCHMARKS.md: the status line, then a headline table per area, each row linking to its section's page. */
export function benchmarksPage(sections: readonly Section[], links: PageLinks): string {
  const sectionsDir = links.sectionsDir;
  const from = dirname(links.benchmarksFile);
  const readme = link(from, join(links.pagesDir, '..', 'README.md'));
  const out = [
    '# Benchmarks',
    '',
    statusLine(sections),
    '',
    'A row per benchmark, in figures; its link opens the section page — method, machine, every caveat and table.',
    "A named peer ran **in the same run on the same machine**; a paper's figure is labelled **reported**. Ratios are peer time over xtrust time.",
    '',
  ];
  for (const g of byArea(sections)) {
    out.push(
      `## ${g.title}`,
      '',
      headlineTable(g.sections, (s) => link(from, pagePath(links.pagesDir, s.name))),
      '',
    );
  }
  out.push(
    '*met*: the goal holds on the figures shown; *partly*: some parts of the goal hold (the section page says which); *no goal*: a reproduction or a measurement with no target.',
    '',
    '## Running and re-rendering',
    '',
    '```sh',
    'pnpm bench --list                 # every benchmark, by area',
    'pnpm bench --only NAME[,NAME]     # re-run some (the others stay as stored); --quick: reduced sizes; --stored: re-render stored parts',
    'pnpm bench --render               # re-render this page, the section pages and the README block, measuring nothing',
    '```',
    '',
    `Sections are stored as JSON in [${link(from, sectionsDir)}/](${link(from, sectionsDir)}) and rendered to one page each in [${link(from, links.pagesDir)}/](${link(from, links.pagesDir)}).`,
    `A re-run keeps the row's headline, marked as read from the earlier run, until its figures are read again into the section's \`headline\` ([${readme}](${readme}#headlines)).`,
    '',
  );
  return out.join('\n');
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
 * holding `sectionsDir`), removes the pages of sections no longer stored, and renews the results block of
 * `readme` (the README beside BENCHMARKS.md) when it has the block's markers. Returns the pages written.
 */
export function writeBenchmarks(
  file: string,
  sectionsDir: string,
  pagesDir = dirname(sectionsDir),
  readme = join(dirname(file), 'README.md'),
): string[] {
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
  updateReadme(readme, sections);
  return written.map((p) => basename(p));
}
