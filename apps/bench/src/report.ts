#!/usr/bin/env node
/**
 * Re-renders BENCHMARKS.md and every section page (apps/bench/results/<name>.md) from the stored section
 * JSON (apps/bench/results/sections/), measuring nothing:
 *
 *   node apps/bench/dist/report.js [--sections DIR] [--out FILE] [--pages DIR]
 *
 * The rendering itself is the harness's (src/harness/render.ts); the section store is src/harness/store.ts.
 * Both are re-exported here for the scripts that write a section themselves (src/oracle/shortcut.ts).
 */
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineScript, runScript } from './harness/options.js';
import { writeBenchmarks } from './harness/render.js';

export { loadSections, saveSection, type Headline, type Section } from './harness/store.js';
export {
  benchmarksPage,
  resultsTable,
  secs,
  sectionPage,
  spread,
  toMarkdown,
  writeBenchmarks,
} from './harness/render.js';

/** Repository root (this file is apps/bench/dist/report.js). */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export const REPORT_SCRIPT = defineScript({
  usage: 'node apps/bench/dist/report.js [options]',
  summary:
    'Re-renders BENCHMARKS.md and the section pages apps/bench/results/<name>.md from the stored section JSON; runs no benchmark.',
  options: {
    sections: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'the section JSON folder (default: apps/bench/results/sections)',
    },
    out: {
      kind: 'string',
      placeholder: 'FILE',
      help: 'the one-page summary to write (default: BENCHMARKS.md at the repository root)',
    },
    pages: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'where the section pages go (default: the folder holding --sections)',
    },
  },
});

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await runScript(REPORT_SCRIPT, (o) => {
    // given paths are the caller's (relative to the working directory); the defaults are the repository's
    const sections = o.sections ? resolve(o.sections) : join(ROOT, 'apps/bench/results/sections');
    const out = o.out ? resolve(o.out) : join(ROOT, 'BENCHMARKS.md');
    const pagesDir = o.pages ? resolve(o.pages) : join(sections, '..');
    const pages = writeBenchmarks(out, sections, pagesDir);
    process.stderr.write(
      `wrote ${relative(process.cwd(), out) || out} and ${pages.length} section pages in ${relative(process.cwd(), pagesDir) || '.'}\n`,
    );
  });
}
