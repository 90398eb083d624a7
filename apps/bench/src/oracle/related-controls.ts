/**
 * The related-trigger control family (issue 47, deliverable 1): cases drawn by seed like the drawn shortcut
 * family (family-draw.ts), but the planted word is one a person calls *related* to the target class (the
 * word lists' held-out half, related-triggers.ts). A prediction resting on it is right for the right reason:
 * ground truth trustworthy. The score that matters is the share of trigger-reliant predictions the oracle
 * labels trustworthy, per case and pooled per corpus, with percentile-bootstrap intervals.
 *
 *   node apps/bench/dist/oracle/related-controls.js [--family related-test] [--draws 12] [--until-scored 9]
 *        [--oracle toki] [--out FILE] [--cache DIR]
 *   node apps/bench/dist/oracle/related-controls.js --from FILE          # the tables of a results file
 *   node apps/bench/dist/oracle/related-controls.js --skipped [--count 100]
 *        # how many draws of the unrelated families (validation, test) the related-word exclusion changes
 */
import { basename } from 'node:path';
import { GloveEmbedding } from '@xtrust/embeddings';
import { buildCase } from './case-data.js';
import { corpusLookup, drawCase, familySeed, type DrawFamily } from './family-draw.js';
import { caseName } from './family.js';
import { evaluateCase, shareInterval, type CaseResult } from './evaluate-case.js';
import { oracleSetups } from './oracle-setups.js';
import {
  defineScript,
  machineInfo,
  readJson,
  runScript,
  UsageError,
  writeJsonAtomic,
  type Options,
} from '../harness/index.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/related-controls.js [options]',
  summary:
    'The related-trigger control family (issue 47): planted words a person calls related to the target; the share of predictions resting on them that the oracle labels trustworthy.',
  options: {
    family: {
      kind: 'string',
      default: 'related-test',
      help: 'related-validation (seeds 3000+i; every choice reads only it) or related-test (seeds 4000+i; reported)',
    },
    first: { kind: 'integer', default: 0, min: 0, help: 'index of the first draw' },
    draws: { kind: 'integer', default: 12, min: 1, help: 'draws to make' },
    'until-scored': { kind: 'integer', default: 0, min: 0, help: 'keep drawing until this many cases are scored' },
    'max-draws': { kind: 'integer', default: 40, min: 1, help: 'never more draws than this' },
    oracle: { kind: 'list', default: ['toki'], help: 'oracle configurations (oracle-setups.ts)' },
    samples: { kind: 'integer', default: 5000, min: 10, help: 'LIME samples per explanation' },
    train: { kind: 'integer', default: 2000, min: 10, help: 'training texts explained for keyword identification' },
    'min-per-side': {
      kind: 'integer',
      default: 100,
      min: 1,
      help: 'a case is scored with at least this many predictions resting on the trigger and this many not',
    },
    'per-side': { kind: 'integer', default: 250, min: 1, help: 'at most this many predictions per side explained' },
    resamples: { kind: 'integer', default: 1000, min: 10, help: 'bootstrap resamples' },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results, rewritten after every case' },
    cache: { kind: 'string', placeholder: 'DIR', help: 'per-case explanation caches' },
    from: {
      kind: 'list',
      placeholder: 'FILE,...',
      help: 'print the tables of results files instead of running (each under a heading naming its family)',
    },
    skipped: {
      kind: 'flag',
      help: 'count the draws of the unrelated families whose trigger the related-word exclusion changed',
    },
    count: { kind: 'integer', default: 100, min: 1, help: 'with --skipped: draws per family counted' },
  },
});

/** A results file of this script. */
export interface ControlResults {
  readonly argv: readonly string[];
  readonly startedAt: string;
  finishedAt?: string;
  readonly machine: ReturnType<typeof machineInfo>;
  readonly cases: CaseResult[];
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '—');

/** One row per scored case and configuration: the share labelled trustworthy of those resting on the trigger, and of the others. */
export function controlMarkdown(cases: readonly CaseResult[]): string {
  const lines = [
    '| seed | corpus | trigger → target | share | words | configuration | resting on the trigger: labelled trustworthy [95 % CI] | not resting: labelled trustworthy [95 % CI] |',
    '| ---: | --- | --- | ---: | ---: | --- | --- | --- |',
  ];
  cases.forEach((c) => {
    if (c.status !== 'scored' || !c.control) return;
    for (const row of c.control)
      lines.push(
        `| ${c.spec.seed} | ${c.spec.corpus} | ${c.spec.trigger} → ${c.spec.target} | ${c.spec.share} | ${c.spec.words} | ${row.oracle} | ${pct(row.rests.share)} of ${row.rests.n} [${pct(row.rests.lo)}, ${pct(row.rests.hi)}] | ${pct(row.other.share)} of ${row.other.n} [${pct(row.other.lo)}, ${pct(row.other.hi)}] |`,
      );
  });
  const scored = cases.filter((c) => c.status === 'scored').length;
  return `${lines.join('\n')}\n\n${cases.length} draws, ${scored} scored, ${cases.length - scored} too small.`;
}

/** Pooled per corpus and configuration: every trigger-reliant prediction of the corpus's scored cases, with a bootstrap interval over them. */
export function corpusSummary(cases: readonly CaseResult[], seed = 47, resamples = 1000): string {
  const groups = new Map<string, { cases: number; ones: number; n: number; atLeast80: number }>();
  for (const c of cases) {
    if (c.status !== 'scored' || !c.control) continue;
    for (const row of c.control) {
      const key = `${c.spec.corpus}|${row.oracle}`;
      const g = groups.get(key) ?? { cases: 0, ones: 0, n: 0, atLeast80: 0 };
      g.cases++;
      g.ones += row.rests.trustworthy;
      g.n += row.rests.n;
      g.atLeast80 += row.rests.share >= 0.8 ? 1 : 0;
      groups.set(key, g);
    }
  }
  const lines = [
    '| corpus | configuration | scored cases | cases ≥ 80 % | resting on the trigger: labelled trustworthy, pooled [95 % CI] |',
    '| --- | --- | ---: | ---: | --- |',
  ];
  for (const [key, g] of [...groups].sort()) {
    const [corpus, oracle] = key.split('|');
    const v = new Uint8Array(g.n);
    v.fill(1, 0, g.ones);
    const s = shareInterval(
      v,
      Array.from({ length: g.n }, (_, i) => i),
      seed,
      resamples,
    );
    lines.push(
      `| ${corpus} | ${oracle} | ${g.cases} | ${g.atLeast80} | ${pct(s.share)} of ${g.n} [${pct(s.lo)}, ${pct(s.hi)}] |`,
    );
  }
  return lines.join('\n');
}

/** How many draws of each unrelated family the exclusion of related words changed (the words skipped, per draw). */
async function skipped(count: number): Promise<void> {
  const glove = await GloveEmbedding.load();
  const lookup = corpusLookup();
  const out: Record<string, unknown> = {};
  for (const family of ['validation', 'test'] as const) {
    const changed: { seed: number; case: string; skipped: readonly string[] }[] = [];
    for (let i = 0; i < count; i++) {
      const c = drawCase(familySeed(family, i), lookup, glove);
      if (c.skippedRelated?.length) changed.push({ seed: c.seed, case: caseName(c), skipped: c.skippedRelated });
    }
    out[family] = { draws: count, changed: changed.length, cases: changed };
    console.log(
      `${family}: ${changed.length} of the first ${count} draws skipped a related word (${changed.map((c) => `${c.case}: ${c.skipped.join(', ')}`).join('; ')})`,
    );
  }
  console.log(JSON.stringify(out));
}

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  if (o.from && o.from.length > 0) {
    for (const file of o.from) {
      const r = readJson<ControlResults>(file);
      // a file merged from several invocations keeps each one's argv
      const args = [r.argv].flat(2) as string[];
      const family = args[args.indexOf('--family') + 1] ?? 'related-test';
      const when = `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC`;
      if (o.from.length > 1) console.log(`### ${family} (${basename(file)}, run of ${when})\n`);
      console.log(`${corpusSummary(r.cases)}\n\n${controlMarkdown(r.cases)}\n`);
    }
    return;
  }
  if (o.skipped) return skipped(o.count);
  if (o.family !== 'related-validation' && o.family !== 'related-test')
    throw new UsageError(`--family: expected related-validation | related-test, got ${o.family}`);
  const family = o.family as DrawFamily;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const setups = oracleSetups(o.oracle, { embeddings: ['glove'] });
  const glove = await GloveEmbedding.load();
  const lookup = corpusLookup();
  const results: ControlResults = {
    argv: process.argv.slice(2),
    startedAt: new Date().toISOString(),
    machine: machineInfo(),
    cases: [],
  };
  let scored = 0;
  for (let i = o.first; i < o.first + o['max-draws'] && (i < o.first + o.draws || scored < o['until-scored']); i++) {
    const spec = drawCase(familySeed(family, i), lookup, glove);
    log(`draw ${i}: ${caseName(spec)}`);
    const built = await buildCase(spec, {
      kind: 'bow-logistic',
      testFractions: [0.3, 0.5],
      validationFraction: 0.15,
      windowsPerText: 3,
      minPerSide: o['min-per-side'],
      validation: false,
      log,
    });
    const result = await evaluateCase(built, setups, {
      explainers: ['lime'],
      samples: o.samples,
      train: o.train,
      perSide: o['per-side'],
      resamples: o.resamples,
      cacheDir: o.cache,
      log,
    });
    results.cases.push(result);
    if (result.status === 'scored') scored++;
    if (o.out) writeJsonAtomic(o.out, results);
    log(`draw ${i} ${result.status} in ${result.seconds.toFixed(0)} s`);
  }
  results.finishedAt = new Date().toISOString();
  if (o.out) writeJsonAtomic(o.out, results);
  console.log(`${corpusSummary(results.cases)}\n\n${controlMarkdown(results.cases)}`);
}

runScript(SPEC, main);
