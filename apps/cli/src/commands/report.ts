import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import type { AttackRecord } from '@xtrust/attack';
import type { AuditedPrediction, AuditSummary } from '../audit-records.js';
import { UsageError } from '../exit.js';
import { emit } from '../output.js';
import { examples, withCommonOptions } from '../options.js';
import { renderReport } from '../report/render.js';
import { RunDir } from '../run-dir.js';
import { attackExamples } from './attack.js';

/** Reads a JSONL file written by xtrust (whole lines only). */
function readJsonlFile<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The files of a finished demo or audit run. */
export function readAuditRun(dir: string): {
  summary: AuditSummary;
  predictions: AuditedPrediction[];
  attacks: AttackRecord[];
} {
  RunDir.readComplete(dir, ['demo', 'audit']);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as AuditSummary;
  if (summary.format !== 'xtrust-audit')
    throw new UsageError(`${join(dir, 'summary.json')} is not an xtrust audit summary`);
  const predictions = readJsonlFile<AuditedPrediction>(join(dir, 'predictions.jsonl'));
  const attackFile = join(dir, 'attack-records.jsonl');
  const attacks = existsSync(attackFile) ? readJsonlFile<AttackRecord>(attackFile) : [];
  return { summary, predictions, attacks };
}

/** Renders the HTML report of a finished run again (e.g. after upgrading xtrust), atomically. */
export function rerenderReport(dir: string, output?: string): string {
  const { summary, predictions, attacks } = readAuditRun(dir);
  const target = resolve(output ?? join(dir, 'report.html'));
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, renderReport({ summary, predictions, attacks: attackExamples(attacks) }));
  renameSync(tmp, target);
  return target;
}

/** Registers `xtrust report`. */
export function reportCommand(): Command {
  const c = new Command('report').description(
    'write the self-contained HTML report of a finished demo or audit run again',
  );
  c.option('--run <dir>', 'the run directory', 'xtrust-report').option(
    '--output <file>',
    'where to write the HTML (default <run>/report.html)',
  );
  withCommonOptions(c);
  examples(c, ['xtrust report --run xtrust-report', 'xtrust report --run runs/audit --output audit.html']);
  return c.action(async (opts: { run: string; output?: string; json: boolean }) => {
    const report = rerenderReport(opts.run, opts.output);
    emit(opts.json, { report }, () => `report ${report}`);
  });
}
