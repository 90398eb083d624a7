import type { AuditedPrediction, AuditSummary } from './audit-records.js';
import { boundSentence, decisiveTotal, overruledLine } from './decisive-text.js';
import { comparisonTooSmall, decidedSentence, overDeterminedSentence, tooSmallSentence } from './ground-truth-text.js';
import { leanedSentence, relatedShareSentence, renderReport, type AttackExample } from './report/render.js';
import { probeLines, type ProbedSummary } from './report/probes.js';
import type { RunDir } from './run-dir.js';

/** Prints a command's result: JSON on stdout with --json, else the human lines. */
export function emit(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** JSONL text of some records (one JSON object a line). */
export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

/** Files an audit leaves in its run directory. */
export interface AuditFiles {
  readonly runDir: string;
  readonly report: string;
  readonly summary: string;
  readonly predictions: string;
  readonly keywords: string;
}

/**
 * Writes an audit's final files (predictions.jsonl, summary.json, report.html), each atomically,
 * then marks the run complete — in that order, so an interrupted run never looks finished.
 */
export function writeAuditFiles(
  run: RunDir,
  summary: ProbedSummary,
  predictions: readonly AuditedPrediction[],
  attacks?: readonly AttackExample[],
): AuditFiles {
  const files = {
    runDir: run.dir,
    predictions: run.writeFile('predictions.jsonl', toJsonl(predictions)),
    summary: run.writeFile('summary.json', `${JSON.stringify(summary, null, 2)}\n`),
    keywords: run.path('keywords.json'),
    report: run.writeFile('report.html', renderReport({ summary, predictions, attacks })),
  };
  run.complete();
  return files;
}

/** The top `n` words of each class's spurious pool, as "label: w1, w2, …" lines. */
function spuriousLines(s: AuditSummary, n: number): string[] {
  const width = Math.max(12, ...s.data.labels.map((l) => l.length + 1));
  return s.data.labels.map((l) => {
    const p = s.pools[l];
    const words = p?.spurious.slice(0, n).map((w) => w.word) ?? [];
    return `  ${l.padEnd(width)} ${words.length ? words.join(', ') : '(no pool)'}`;
  });
}

/** Per class, how much of its pool is related to it ("label  N of M pool words (X % of the pool's importance) …"); none for an older summary. */
function relatedLines(s: AuditSummary): string[] {
  const width = Math.max(12, ...s.data.labels.map((l) => l.length + 1));
  if (!s.data.labels.some((l) => s.pools[l]?.related)) return [];
  const described = s.settings.classDescriptions?.file;
  return [
    described
      ? `related to the class, described by ${described} beside its name (--class-descriptions FILE to say otherwise; a pool almost all related is worth a second look):`
      : 'related to the class (a pool almost all related is worth a second look):',
    ...s.data.labels.map((l) => {
      const pool = s.pools[l];
      const leaned =
        pool?.leanedFunctionWords?.length || pool?.phraseFunctionWords?.length
          ? `; the model ${leanedSentence(pool.leanedFunctionWords, pool.phraseFunctionWords)}`
          : '';
      return `  ${l.padEnd(width)} ${relatedShareSentence(pool?.related) || '(no pool)'}${leaned}`;
    }),
  ];
}

/**
 * The ground-truth part of the summary: what the interventions decided (demo), Naive vs TOKI against it
 * — or why it is too small to score — and the scored planted-trigger check, when one ran.
 */
export function groundTruthLines(s: AuditSummary): string[] {
  const lines: string[] = [];
  if (s.groundTruth) {
    const over = overDeterminedSentence(s.groundTruth);
    if (over) lines.push(`ground truth          ${over}`);
    lines.push(`${over ? ' '.repeat(22) : 'ground truth          '}${decidedSentence(s.groundTruth)}`);
  }
  const c = s.comparison;
  if (c?.tooSmall) lines.push(`against ground truth  ${comparisonTooSmall(c)}`);
  else if (c) {
    lines.push(`against ground truth (${c.trustworthy} trustworthy, ${c.untrustworthy} untrustworthy):`);
    for (const r of c.rows)
      lines.push(`  ${r.method.padEnd(20)} accuracy ${r.accuracy.toFixed(3)}  G-mean ${r.gmean.toFixed(3)}`);
  }
  const sc = s.scoredCase;
  if (sc) {
    lines.push(`scored check          ${sc.description} (model ${sc.model}, trained for the check).`);
    const scOver = overDeterminedSentence(sc.groundTruth);
    if (scOver) lines.push(`                      ${scOver}`);
    lines.push(`                      ${decidedSentence(sc.groundTruth)}`);
    if (sc.tooSmall)
      lines.push(
        `                      ${tooSmallSentence(sc.groundTruth.trustworthy, sc.groundTruth.untrustworthy, sc.minPerSide)}`,
      );
    else {
      lines.push(
        `                      scored on ${sc.scored!.trustworthy} trustworthy + ${sc.scored!.untrustworthy} untrustworthy predictions (G-mean with its bootstrap 95 % interval):`,
      );
      for (const r of sc.rows)
        lines.push(
          `  ${r.method.padEnd(20)} accuracy ${r.accuracy.toFixed(3)}  G-mean ${r.gmean.toFixed(3)} [${r.gmeanLo.toFixed(3)}, ${r.gmeanHi.toFixed(3)}]`,
        );
    }
  }
  return lines;
}

/**
 * How many untrustworthy predictions rest on each unrelated token category (none when no category was
 * applied or none occurs), and how many were decided by a reason above half the margin or by one carrying
 * half the explanation's weight (none when no verdict named its decisive reason).
 */
export function categoryVerdictLines(
  s: Pick<AuditSummary, 'untrustworthyByCategory' | 'untrustworthyByBound' | 'overruledByRemoval' | 'verdicts'>,
): string[] {
  const lines: string[] = [];
  const by = Object.entries(s.untrustworthyByCategory ?? {}).sort((a, b) => b[1] - a[1]);
  if (by.length > 0)
    lines.push(
      `  resting on tokens of no class: ${by.map(([c, n]) => `${c} ${n}`).join(', ')} of the ${s.verdicts.untrustworthy} untrustworthy (--unrelated-categories)`,
    );
  const bound = s.untrustworthyByBound;
  if (bound && decisiveTotal(bound) > 0) lines.push(`  decided by: ${boundSentence(bound)}`);
  const overruled = overruledLine(s.overruledByRemoval);
  if (overruled) lines.push(`  ${overruled}`);
  return lines;
}

/** The human summary of an audit: accuracy, share of untrustworthy correct predictions, top spurious words, category probes, where the report is. */
export function formatAudit(s: ProbedSummary, files: AuditFiles): string {
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);
  const v = s.verdicts;
  const lines = [
    `accuracy              ${pct(s.accuracy)} on ${s.data.auditedTestRows} audited test texts`,
    `untrustworthy         ${pct(s.untrustworthyShare)} of correct predictions (${v.untrustworthy} untrustworthy, ${v.trustworthy} trustworthy, ${v.unknown} unknown, ${v.incorrect} incorrect)`,
    ...categoryVerdictLines(s),
    `top spurious words per class:`,
    ...spuriousLines(s, 8),
    ...relatedLines(s),
  ];
  lines.push(...probeLines(s));
  lines.push(...groundTruthLines(s));
  lines.push(`report                ${files.report}`);
  return lines.join('\n');
}
