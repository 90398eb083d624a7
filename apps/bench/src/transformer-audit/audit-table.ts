/**
 * Issue 30's audit table: every way of auditing one model at the paper's scale in one table — hours (wall
 * and CPU, at 2,000 + 1,000), labels equal to the exact audit's, each class's keyword set against the exact
 * audit's (Jaccard) — so a reader compares exact, fast, queued and the peer without collecting figures from
 * several paragraphs. The rows come from transformer-audit's own runs and, when keyword-pass has recorded
 * whole fast audits of the same model (apps/bench/results/keyword-pass.json.gz), from those.
 */
import { resolve } from 'node:path';
import { jaccard } from '@xtrust/metrics';
import type { PredictionDigest } from './predictions.js';

/**
 * Each class's keyword-set Jaccard of `other` against `exact` (@xtrust/metrics' jaccard: |A ∩ B| / |A ∪ B|, 1 for
 * two empty sets), classes in sorted order; a class one side lacks counts as an empty set.
 */
export function keywordJaccards(
  exact: Record<string, readonly string[]>,
  other: Record<string, readonly string[]>,
): { label: string; jaccard: number }[] {
  return [...new Set([...Object.keys(exact), ...Object.keys(other)])].sort().map((label) => ({
    label,
    jaccard: jaccard([...(exact[label] ?? [])], [...(other[label] ?? [])], { duplicates: 'dedupe' }),
  }));
}

/** Labels of `other` against `exact` on the same test predictions (matched by their text's digest). */
export interface LabelAgreement {
  /** Predictions both runs made. */
  readonly shared: number;
  readonly equal: number;
  /** Of those, the ones the exact run judged (trustworthy or untrustworthy), and how many `other` labels alike. */
  readonly judged: number;
  readonly judgedEqual: number;
}

/** Compares two runs' verdicts on the texts both audited (a text audited twice in one run counts once). */
export function labelAgreement(
  exact: readonly Pick<PredictionDigest, 'text' | 'verdict'>[],
  other: readonly Pick<PredictionDigest, 'text' | 'verdict'>[],
): LabelAgreement {
  const byText = new Map(other.map((p) => [p.text, p.verdict]));
  let shared = 0;
  let equal = 0;
  let judged = 0;
  let judgedEqual = 0;
  const seen = new Set<string>();
  for (const p of exact) {
    const v = byText.get(p.text);
    if (v === undefined || seen.has(p.text)) continue;
    seen.add(p.text);
    shared++;
    if (v === p.verdict) equal++;
    if (p.verdict === 'trustworthy' || p.verdict === 'untrustworthy') {
      judged++;
      if (v === p.verdict) judgedEqual++;
    }
  }
  return { shared, equal, judged, judgedEqual };
}

/** One row of the table. Hours are at the paper's 2,000 + 1,000. */
export interface AuditRow {
  readonly audit: string;
  readonly how: string;
  readonly wallHours: number;
  readonly cpuHours: number;
  /** Whether the hours were measured on the whole 2,000 + 1,000 rather than extrapolated from a part. */
  readonly whole: boolean;
  /** Null for the exact run itself and for the peer (which computes exact LIME, not labels). */
  readonly labels: LabelAgreement | null;
  /** The labels were compared on the exact run's judged predictions only (keyword-pass's whole runs). */
  readonly judgedOnly?: boolean;
  readonly keywords: { label: string; jaccard: number }[] | null;
  /** Why the row's keyword column reads as it does, when it needs saying. */
  readonly keywordsNote?: string;
  /** What qualifies the row's label and keyword comparisons (e.g. another oracle configuration than exact's). */
  readonly caveat?: string;
}

/**
 * The fields in which two runs' oracle configurations (keywords.json's `oracle`) differ, sorted; empty when
 * they are the same. A label compared across configurations mixes the mode's effect with the oracle's.
 */
export function oracleDifference(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();
}

const pct = (x: number, of: number) => (of ? `${((100 * x) / of).toFixed(1)} %` : '—');
const hours = (h: number) => h.toFixed(h < 10 ? 2 : 1);

/**
 * The table as markdown (a header row, a rule, one line per row). With the peer's wall hours, a column gives
 * each row's speed-up over it (peer wall ÷ the row's wall; the peer's hours are its explanations alone).
 */
export function renderAuditTable(rows: readonly AuditRow[], peerWallHours?: number): string {
  const ratio = (r: AuditRow) =>
    peerWallHours === undefined ? '' : ` ${r.wallHours > 0 ? `${(peerWallHours / r.wallHours).toFixed(1)}×` : '—'} |`;
  const lines = [
    `| audit | how | wall h | CPU h |${peerWallHours === undefined ? '' : ' peer ÷ this, wall |'} labels equal to exact (all / judged by exact) | keyword Jaccard against exact |`,
    `| --- | --- | --- | --- |${peerWallHours === undefined ? '' : ' --- |'} --- | --- |`,
  ];
  for (const r of rows) {
    const judged = r.labels
      ? `${r.labels.judgedEqual} of ${r.labels.judged} (${pct(r.labels.judgedEqual, r.labels.judged)})`
      : '';
    const labels = !r.labels
      ? '—'
      : r.judgedOnly
        ? `— / ${judged}`
        : `${r.labels.equal} of ${r.labels.shared} (${pct(r.labels.equal, r.labels.shared)}) / ${judged}`;
    const keywords = r.keywords ? r.keywords.map((k) => `${k.label} ${k.jaccard.toFixed(3)}`).join(' / ') : '—';
    const caveat = r.caveat ? ` — ${r.caveat}` : '';
    lines.push(
      `| ${r.audit} | ${r.how} | **${hours(r.wallHours)}**${r.whole ? ' (whole)' : ''} | ${hours(r.cpuHours)} |${ratio(r)} ${labels}${r.labels ? caveat : ''} | ${keywords}${r.keywordsNote ? ` (${r.keywordsNote})` : ''}${r.keywords ? caveat : ''} |`,
    );
  }
  return lines.join('\n');
}

/** What keyword-pass records of a whole fast audit (apps/bench/src/keyword-pass/run.ts, WholeResult). */
interface WholeRecord {
  readonly command: string;
  readonly keywordMethod: string;
  readonly wall: number;
  readonly cpu: number;
  readonly trainSample: number;
  readonly testSample: number;
  readonly shared: number;
  readonly sharedEqual: number;
}
/** The part of keyword-pass.json.gz these rows read. */
export interface KeywordPassResults {
  readonly model: string;
  /** The exact run's explanations relabelled with keyword-pass's oracle: the reference its passes and whole runs are read against. */
  readonly reference: { readonly keywords: Record<string, string[]> };
  readonly passes: readonly { readonly name: string; readonly keywords: Record<string, string[]> }[];
  readonly whole?: readonly WholeRecord[];
}

/** The `--model` a recorded command names, resolved against `root`. */
function modelOf(command: string, root: string): string | null {
  const m = /--model\s+(\S+)/.exec(command);
  return m ? resolve(root, m[1]) : null;
}

/**
 * Rows for keyword-pass's whole fast audits of `model`: hours measured (scaled when the run was a part),
 * labels on the judged predictions both made and the keyword Jaccard of the same keyword pass run on
 * transformer-audit's 10 % sample (a whole run's own store is built from ten times as many texts, so its set
 * is not comparable with the exact run's) — both against keyword-pass's reference, the exact run's
 * explanations relabelled with the oracle of today's runs, so the comparison holds the oracle fixed.
 */
export function wholeAuditRows(
  results: KeywordPassResults,
  model: string,
  root: string,
  full: { train: number; test: number },
): AuditRow[] {
  return (results.whole ?? [])
    .filter((w) => modelOf(w.command, root) === resolve(model))
    .map((w) => {
      const scale = Math.max(full.train / w.trainSample, full.test / w.testSample);
      const pass = results.passes.find((p) => p.name === w.keywordMethod);
      const flags = /--audit-mode\s+\S+(\s+--keyword-method\s+\S+)?(\s+--lime-mode\s+\S+)?/.exec(w.command)?.[0] ?? '';
      return {
        audit: `fast, ${w.keywordMethod} keyword pass`,
        how: `\`xtrust audit … ${flags}\`${scale > 1 ? `, ${w.trainSample} + ${w.testSample} × ${scale.toFixed(scale % 1 === 0 ? 0 : 2)}` : ''}`,
        wallHours: (w.wall * scale) / 3600,
        cpuHours: (w.cpu * scale) / 3600,
        whole: scale === 1,
        labels: { shared: w.shared, equal: w.sharedEqual, judged: w.shared, judgedEqual: w.sharedEqual },
        judgedOnly: true,
        keywords: pass ? keywordJaccards(results.reference.keywords, pass.keywords) : null,
        keywordsNote: pass ? 'its pass on the 10 % sample' : undefined,
        caveat: "against the exact explanations relabelled with this run's oracle (keyword-pass)",
      };
    });
}
