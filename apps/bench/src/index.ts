#!/usr/bin/env node
/**
 * `pnpm bench`: runs the benchmarks of the repository and writes BENCHMARKS.md at the root.
 *
 *   pnpm bench                       every section, full sizes (hours on 2 cores)
 *   pnpm bench --quick               reduced sizes (minutes), figures marked quick
 *   pnpm bench --only table3,scale   some sections; the others stay as last written
 *   pnpm bench --list                the section names, by area
 *   pnpm bench --only transformer-lime --stored   render a section from its stored parts only (measures nothing new)
 *   pnpm bench --render              re-render BENCHMARKS.md, the section pages and the README's results block from the stored JSON, running nothing
 *   pnpm bench --help                every option
 *
 * This file is the runner: the command line, running each benchmark (in process, or as child processes of
 * apps/bench/dist scripts whose stdout is the section's Markdown), storing the section as JSON under
 * apps/bench/results/sections/ and re-rendering the pages after each. What each benchmark is — its area,
 * script, sizes, what it needs — is defined in src/sections/<area>.ts; the set-up they share is
 * src/harness/setup.ts.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AREA_TITLES, AREAS } from './harness/areas.js';
import { machineInfo } from './harness/machine.js';
import { defineScript, type Options, runScript, UsageError } from './harness/options.js';
import { runChild } from './harness/processes.js';
import { sectionCommand, toMarkdown, writeBenchmarks } from './harness/render.js';
import { RESULTS, ROOT, SECTIONS } from './harness/setup.js';
import { loadSection, type Section, saveSection } from './harness/store.js';
import { BENCHMARKS, type Benchmark, type Produced, type RunContext, type Step } from './sections/index.js';

export { KIT_BROWN, KIT_GPT2, KIT_MLM, KIT_SPAM, ROOT } from './harness/setup.js';
export {
  BENCHMARKS,
  NDCG_TRANSFORMER,
  TABLE3_TRANSFORMER_CASES,
  table3TransformerArgs,
  VALIDATION_ORACLES,
} from './sections/index.js';

/** `node -e BASH_SHIM file args…` runs a shell script through the shared child runner (which starts Node). */
const BASH_SHIM =
  "const r = require('node:child_process').spawnSync('bash', process.argv.slice(1), { stdio: 'inherit' }); process.exit(r.status ?? 1);";

/** Runs a step (`node dist/<file> args`, `bash <file> args` for a shell script) from the repository root; its stdout is kept. */
async function runStep(
  step: Step,
  limitS: number,
  log: (l: string) => void,
): Promise<{ stdout: string; code: number | null; timedOut: boolean }> {
  const path = join(ROOT, step.file);
  if (!existsSync(path)) return { stdout: `${relative(ROOT, path)} is missing`, code: 127, timedOut: false };
  const r = await runChild(step.file.endsWith('.sh') ? ['-e', BASH_SHIM, path, ...step.args] : [path, ...step.args], {
    cwd: ROOT,
    env: step.env,
    stdout: 'capture',
    echo: 'all',
    limitS,
    onTimeout: () => log(`time limit of ${limitS} s reached: stopping ${step.file}`),
  });
  return { stdout: r.code === 0 ? r.stdout : `${r.stdout}\n${r.stderrTail}`, code: r.code, timedOut: r.timedOut };
}

/** A path inside the repository relative to it; each item of a comma-separated list (`--from A,B`) alike. */
const shownPath = (a: string): string =>
  a
    .split(',')
    .map((p) => (p.startsWith(ROOT) ? relative(ROOT, p) || '.' : p))
    .join(',');

/** A step as a shell command, paths inside the repository shown relative to it. */
const shown = (s: Step): string =>
  [
    ...Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${shownPath(v)}`),
    s.file.endsWith('.sh') ? 'bash' : 'node',
    s.file,
    ...s.args.map(shownPath),
  ].join(' ');

/** The steps a benchmark runs here, or why it does not. */
function plan(b: Benchmark, ctx: RunContext): Step[] | { skipped: string; keep?: boolean } | undefined {
  const p = b.steps?.(ctx) ?? b.script?.(ctx);
  if (p === undefined) return undefined;
  if ('skipped' in p) return p;
  return Array.isArray(p) ? p : [p];
}

/** Section names, checked against the registry. */
const sectionNames = (raw: string): string[] => {
  const names = raw.split(',').filter((n) => n !== '');
  const known = BENCHMARKS.map((b) => b.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new Error(`unknown benchmark ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${known.join(', ')}`);
  return names;
};

export const RUNNER_SCRIPT = defineScript({
  usage: 'pnpm bench [options]   (or node apps/bench/dist/index.js [options] after building)',
  summary:
    'Runs the benchmarks and writes BENCHMARKS.md (one page: a status line and a headline table per area) and apps/bench/results/<name>.md (one page per section) from the section JSON in apps/bench/results/sections/.',
  options: {
    quick: { kind: 'flag', help: 'reduced sizes (minutes); the sections are marked quick' },
    only: {
      kind: 'custom',
      placeholder: 'NAME[,NAME]',
      parse: sectionNames,
      help: 'run these sections only (the others stay as stored)',
    },
    skip: {
      kind: 'custom',
      placeholder: 'NAME[,NAME]',
      parse: sectionNames,
      default: [] as string[],
      shownDefault: 'none',
      help: 'run all but these',
    },
    list: { kind: 'flag', help: 'print the section names, by area, and exit' },
    stored: {
      kind: 'flag',
      help: 'sections measured in stored parts (transformer-lime, ndcg-transformer, native-cuda) render what is stored, measuring nothing new',
    },
    render: {
      kind: 'flag',
      help: "re-render BENCHMARKS.md, the section pages and the root README's results block from the stored JSON; run nothing",
    },
    'lime-src': {
      kind: 'string',
      placeholder: 'DIR',
      env: 'LIME_SRC',
      help: 'the reference Python LIME source (a folder holding lime/lime_text.py; also /tmp/lime-ref)',
    },
    'kit-out': {
      kind: 'string',
      placeholder: 'DIR',
      help: "the model kit's generated models (default models/transformers/out)",
    },
    kit: { kind: 'string', placeholder: 'DIR', help: "the model kit's Python package (transformer-lime's peer)" },
    out: {
      kind: 'string',
      placeholder: 'FILE',
      help: 'the one-page summary to write (default BENCHMARKS.md at the repository root)',
    },
  },
});

/** What one benchmark left: its Markdown or results, or why it did not run or failed. */
interface Outcome {
  produced: Produced;
  status: Section['status'];
  reason?: string;
  script?: string;
  /** The stored section stays as it is (a benchmark that writes its own section, or keeps it when it cannot run here). */
  keep?: boolean;
}

async function runOne(b: Benchmark, ctx: RunContext, limit: number): Promise<Outcome> {
  if (b.run) return { produced: await b.run(ctx), status: 'ok' };
  const steps = plan(b, ctx);
  if (steps === undefined) return { produced: {}, status: 'failed', reason: 'nothing to run' };
  if (!Array.isArray(steps)) return { produced: {}, status: 'skipped', reason: steps.skipped, keep: steps.keep };
  const script = steps.map(shown).join(' && ');
  let stdout = '';
  for (const step of steps) {
    const r = await runStep(step, limit, ctx.log);
    if (r.code !== 0) {
      const reason = r.timedOut
        ? `stopped at the time limit of ${limit} s`
        : `exit code ${r.code}: ${r.stdout.trim().split('\n').slice(-3).join(' / ')}`;
      return {
        produced: { markdown: toMarkdown(r.stdout.split('\n').slice(0, -3).join('\n')) },
        status: 'failed',
        reason,
        script,
        keep: b.writesSection,
      };
    }
    stdout = r.stdout;
  }
  return { produced: { markdown: toMarkdown(stdout) }, status: 'ok', script, keep: b.writesSection };
}

async function main(o: Options<typeof RUNNER_SCRIPT.options>): Promise<void> {
  if (o.list) {
    for (const area of AREAS) {
      process.stdout.write(`${AREA_TITLES[area]}\n`);
      for (const b of BENCHMARKS.filter((x) => x.area === area))
        process.stdout.write(`  ${b.name.padEnd(30)} ${b.title}\n`);
    }
    return;
  }
  const out = o.out ? resolve(o.out) : join(ROOT, 'BENCHMARKS.md');
  const log = (l: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${l}\n`);
  if (o.render) {
    if (o.only || o.skip.length || o.quick || o.stored)
      throw new UsageError('--render runs nothing: it takes no --only, --skip, --quick or --stored');
    const pages = writeBenchmarks(out, SECTIONS);
    log(
      `wrote ${relative(process.cwd(), out) || out} and ${pages.length} section pages in ${relative(process.cwd(), RESULTS)}`,
    );
    return;
  }
  const ctx: RunContext = {
    quick: o.quick,
    stored: o.stored,
    limeSrc: o['lime-src'] ? resolve(o['lime-src']) : undefined,
    kitOut: o['kit-out'] ? resolve(o['kit-out']) : undefined,
    kit: o.kit ? resolve(o.kit) : undefined,
    log,
  };
  const chosen = BENCHMARKS.filter((b) => (o.only ? o.only.includes(b.name) : true) && !o.skip.includes(b.name));
  let failed = 0;
  for (const b of chosen) {
    const machine = machineInfo();
    const date = new Date().toISOString();
    const t0 = performance.now();
    const limit = b.limit[o.quick ? 1 : 0];
    const command = `pnpm bench --only ${b.name}${o.quick ? ' --quick' : ''}${o.stored ? ' --stored' : ''}`;
    log(`${b.name}: ${b.title}`);
    let r: Outcome;
    try {
      r = await runOne(b, ctx, limit);
    } catch (e) {
      r = { produced: {}, status: 'failed', reason: e instanceof Error ? e.message : String(e) };
    }
    if (r.produced.skipped) r = { ...r, status: 'skipped', reason: r.produced.skipped };
    if (r.status === 'failed') failed++;
    const seconds = (performance.now() - t0) / 1000;
    log(`${b.name}: ${r.status}${r.reason ? ` (${r.reason.slice(0, 300)})` : ''} in ${seconds.toFixed(1)} s`);
    const storedFile = join(SECTIONS, `${b.name}.json`);
    if (r.keep && existsSync(storedFile)) {
      // the script wrote the section itself (or it cannot run here and keeps what is stored): on success it is
      // marked with the command that re-runs it and its area; otherwise it stays as it was
      if (r.status === 'ok') {
        const s = loadSection(SECTIONS, b.name)!;
        saveSection(SECTIONS, { ...s, area: b.area, command, script: sectionCommand(s).script });
      }
    } else {
      // the stored headline is kept (saveSection), marked as read from its run until someone reads the new figures into it
      saveSection(SECTIONS, {
        name: b.name,
        area: b.area,
        title: b.title,
        description: b.description,
        command,
        script: r.script,
        date,
        seconds,
        quick: o.quick,
        machine,
        status: r.status,
        reason: r.reason,
        results: r.produced.results,
        markdown: r.produced.markdown,
        order: BENCHMARKS.indexOf(b),
        regenerated: b.regenerated,
      });
    }
    writeBenchmarks(out, SECTIONS);
  }
  log(
    `wrote ${relative(process.cwd(), out) || out} and the section pages (${chosen.length} sections run, ${failed} failed)`,
  );
  if (failed > 0) process.exitCode = 1;
}

// run when executed (`node apps/bench/dist/index.js`), not when imported (tests read BENCHMARKS)
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await runScript(RUNNER_SCRIPT, main);
}
