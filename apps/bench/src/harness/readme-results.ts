/**
 * The root README's results block: one row per area — how many of its benchmarks meet their goal, partly
 * meet it, miss it or have none — and one or two headline figures, each the first clause (up to the first
 * `;`) of a named section's `xtrust` cell. Rendered from the stored sections between the markers
 * `<!-- results:begin -->` and `<!-- results:end -->`; a README without both markers is left untouched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { AREA_TITLES, AREAS, type Area } from './areas.js';
import type { Section } from './store.js';
import { writeFileAtomic } from './store.js';

export const RESULTS_BEGIN = '<!-- results:begin -->';
export const RESULTS_END = '<!-- results:end -->';

/** The sections whose headline figure stands for each area in the README (first clause of their `xtrust` cell). */
export const README_FIGURES: Readonly<Record<Area, readonly string[]>> = {
  explanations: ['lime-parity'],
  oracle: ['oracle-drawn', 'table3'],
  attacks: ['attack-transformer-full', 'cea-tef-transformer-full'],
  speed: ['transformer-lime', 'native'],
  scale: ['transformer-audit', 'scale'],
};

/** The first clause of a headline's xtrust cell (up to the first `;`), pipes escaped for a table. */
export const firstClause = (text: string): string => text.split(';')[0].trim().replace(/\|/g, '\\|');

/** The block's Markdown (without the markers): a table, one row per area. */
export function readmeResults(sections: readonly Section[], benchmarksLink = 'BENCHMARKS.md'): string {
  const lines = [
    `Results from [${benchmarksLink}](${benchmarksLink}) (written by \`pnpm bench --render\`; every figure is a section headline's):`,
    '',
    '| area | met | partly | not met | no goal | headline figures |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const area of AREAS) {
    const of = sections.filter((s) => s.area === area);
    if (of.length === 0) continue;
    const count = (m: string) => of.filter((s) => s.headline?.met === m).length;
    const figures = README_FIGURES[area]
      .map((name) => of.find((s) => s.name === name))
      .filter((s): s is Section => s?.headline !== undefined)
      .map((s) => `${s.name}: ${firstClause(s.headline?.xtrust ?? '')}`);
    lines.push(
      `| ${AREA_TITLES[area]} (${of.length}) | ${count('yes')} | ${count('partly')} | ${count('no')} | ${count('n/a')} | ${figures.join('<br>')} |`,
    );
  }
  return lines.join('\n');
}

/** The README text with its block renewed, or undefined when the text lacks the markers (in order). */
export function withReadmeResults(text: string, sections: readonly Section[]): string | undefined {
  const begin = text.indexOf(RESULTS_BEGIN);
  const end = text.indexOf(RESULTS_END);
  if (begin < 0 || end < begin) return undefined;
  return `${text.slice(0, begin + RESULTS_BEGIN.length)}\n${readmeResults(sections)}\n${text.slice(end)}`;
}

/** Renews the results block of `file`; returns false (and writes nothing) when the file or its markers are missing. */
export function updateReadme(file: string, sections: readonly Section[]): boolean {
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const next = withReadmeResults(text, sections);
  if (next === undefined) return false;
  if (next !== text) writeFileAtomic(file, next);
  return true;
}
