/**
 * Writes the machine-readable summary of the audit modes (issue 49; modes-summary.ts) from the stored results —
 * measures nothing, so it takes seconds:
 *
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/transformer-audit/modes-summary-cli.js [--results apps/bench/results/transformer-audit]
 *        [--keyword-pass apps/bench/results/keyword-pass.json.gz] [--whole apps/bench/results/keyword-pass-whole-gradient.json,…]
 *        [--out apps/bench/results/sections/transformer-audit-modes.json.gz]
 *
 * The output is gzipped JSON (`zcat FILE`, or readJson of harness/store.ts): apps/bench/results has a 2 MB git
 * budget, and a `.json` in sections/ would be read as a bench section. One line per mode is printed on stdout.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { readJson, writeJsonAtomic } from '../harness/store.js';
import { REFERENCE_FILE, type ExactReference } from './exact-reference.js';
import {
  buildModesSummary,
  type AuditSummaryFile,
  type KeywordPassFile,
  type StoredAuditRun,
  type WholeAuditRecordFile,
} from './modes-summary.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const RESULTS = 'apps/bench/results';
const rel = (p: string) => (p.startsWith(`${ROOT}/`) ? relative(ROOT, p) : p);

const spec = defineScript({
  usage: 'node apps/bench/dist/transformer-audit/modes-summary-cli.js [options]',
  summary:
    "A machine-readable summary of the audit modes (issue 49) from transformer-audit's and keyword-pass's stored results: per mode hours, CPU hours, labels equal / compared, keyword Jaccard per class against exact, exact's seed-to-seed per class, host. Measures nothing.",
  options: {
    results: {
      kind: 'string',
      placeholder: 'DIR',
      help: `transformer-audit's results: summary.json.gz and runs/ (default ${RESULTS}/transformer-audit)`,
    },
    'keyword-pass': {
      kind: 'string',
      placeholder: 'FILE',
      help: `keyword-pass's results: its passes and exact's seed-to-seed pass (default ${RESULTS}/keyword-pass.json.gz; left out when absent)`,
    },
    whole: {
      kind: 'list',
      default: [],
      help: `keyword-pass's whole-audit records (default: every ${RESULTS}/keyword-pass-*.json; records of another model are named and left out)`,
    },
    out: {
      kind: 'string',
      placeholder: 'FILE',
      help: `the summary, gzipped when the name ends in .gz (default ${RESULTS}/sections/transformer-audit-modes.json.gz)`,
    },
  },
});

await runScript(spec, (o) => {
  const dir = resolve(ROOT, o.results ?? `${RESULTS}/transformer-audit`);
  const summaryFile = join(dir, 'summary.json.gz');
  if (!existsSync(summaryFile)) throw new UsageError(`--results ${rel(dir)}: no summary.json.gz`);
  const summary = readJson<AuditSummaryFile>(summaryFile);
  const runsDir = join(dir, 'runs');
  const runs = summary.runs
    .map((r) => ({ name: r.name, path: join(runsDir, `${r.name}.json.gz`) }))
    .filter((r) => existsSync(r.path))
    .map((r) => ({ name: r.name, file: rel(r.path), data: readJson<StoredAuditRun>(r.path) }));
  const kept = existsSync(runsDir)
    ? readdirSync(runsDir)
        .filter((f) => REFERENCE_FILE.test(f))
        .sort()
        .reverse()
        .map((f) => ({ file: rel(join(runsDir, f)), data: readJson<ExactReference>(join(runsDir, f)) }))
    : [];
  const kpFile = resolve(ROOT, o['keyword-pass'] ?? `${RESULTS}/keyword-pass.json.gz`);
  const keywordPass = existsSync(kpFile) ? { file: rel(kpFile), data: readJson<KeywordPassFile>(kpFile) } : undefined;
  const wholeFiles = o.whole.length
    ? o.whole.map((f) => resolve(ROOT, f))
    : readdirSync(resolve(ROOT, RESULTS))
        .filter((f) => /^keyword-pass-.+\.json$/.test(f))
        .sort()
        .map((f) => resolve(ROOT, RESULTS, f));
  const whole = wholeFiles.map((f) => {
    if (!existsSync(f)) throw new UsageError(`--whole ${rel(f)}: no such record`);
    return { file: rel(f), data: readJson<WholeAuditRecordFile>(f) };
  });
  const result = buildModesSummary({
    summary: { file: rel(summaryFile), data: summary },
    runs,
    kept,
    keywordPass,
    whole,
  });
  const out = resolve(ROOT, o.out ?? `${RESULTS}/sections/transformer-audit-modes.json.gz`);
  writeJsonAtomic(out, result, 2);
  const f = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '—' : x.toFixed(d));
  for (const m of result.modes) {
    const jac = m.keywordJaccard
      ? Object.entries(m.keywordJaccard)
          .map(([c, v]) => `${c} ${f(v, 3)}`)
          .join(' / ')
      : '—';
    console.log(
      `${m.name}: ${f(m.hours.extrapolated)} h (${f(m.cpuHours.extrapolated)} CPU h)${m.extrapolated ? ' extrapolated' : ''}; labels ${m.labelsEqual ?? '—'} of ${m.labelsCompared ?? '—'}; Jaccard ${jac}; faithful ${m.faithful}; ${m.host ?? 'host —'}`,
    );
  }
  console.log(`wrote ${rel(out)}`);
});
