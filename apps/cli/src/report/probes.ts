// Category probes in an audit's summary, text output and report: CheckList invariance tests (Ribeiro et
// al. 2020, "Beyond Accuracy: Behavioral Testing of NLP Models with CheckList") of @xtrust/datasets'
// probeCategories over the audited predictions' texts.
import type { CategoryProbe, CategoryProbeResult, FlipRate } from '@xtrust/datasets';
import type { AuditSummary } from '../audit-records.js';
import { escapeHtml } from './escape.js';

/** `categoryProbes` of summary.json: probeCategories' result, the lean threshold and the categories leaned on. */
export interface CategoryProbesSummary extends CategoryProbeResult {
  /** A category is leaned on when its removal flip rate's Wilson 95 % lower bound exceeds this (LEAN_THRESHOLD). */
  readonly threshold: number;
  /** The categories leaned on (leansOn), most flips first. */
  readonly leansOn: readonly string[];
}

/** An audit summary with its category probes (absent when turned off, or in a summary written before them). */
export type ProbedSummary = AuditSummary & { readonly categoryProbes?: CategoryProbesSummary };

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** "12.5 % [6.1, 24.0] of 40" — a flip rate with its Wilson 95 % interval, or '–'. */
export function flipRateText(f: FlipRate | null): string {
  if (!f) return '–';
  return `${pct(f.rate)} [${(100 * f.lo).toFixed(1)}, ${(100 * f.hi).toFixed(1)}] of ${f.texts}`;
}

/** The probed categories that occur in some text (the others are only counted). */
function occurring(p: CategoryProbesSummary): CategoryProbe[] {
  return p.categories.filter((c) => c.texts > 0);
}

/** "the model leans on: mail-headers, urls" or why none, with the rule. */
export function leansOnSentence(p: CategoryProbesSummary): string {
  const rule = `removal changes the prediction, Wilson 95 % lower bound > ${pct(p.threshold)}`;
  return p.leansOn.length > 0
    ? `the model leans on: ${p.leansOn.join(', ')} (${rule})`
    : `the model leans on none of the probed categories (${rule})`;
}

/** The text lines of the probes: a short table and the "leans on" line. */
export function probeLines(s: ProbedSummary): string[] {
  const p = s.categoryProbes;
  if (!p) return [];
  const rows = occurring(p);
  const lines = [
    `category probes       CheckList invariance: how often the prediction changes when a category is removed or swapped for its kind (${p.texts} texts, ${p.cost.modelCalls} model calls, ${p.cost.seconds.toFixed(1)} s)`,
  ];
  if (rows.length === 0) {
    lines.push(`  none of ${p.categories.map((c) => c.category).join(', ')} occurs in the audited texts`);
    return lines;
  }
  const width = Math.max(14, ...rows.map((c) => c.category.length + 1));
  lines.push(`  ${'category'.padEnd(width)} ${'removed'.padEnd(28)} swapped`);
  for (const c of rows)
    lines.push(`  ${c.category.padEnd(width)} ${flipRateText(c.removal).padEnd(28)} ${flipRateText(c.swap)}`);
  lines.push(`  ${leansOnSentence(p)}`);
  return lines;
}

/** The report's "Category probes" section ('' without probes). */
export function probesSection(s: ProbedSummary): string {
  const p = s.categoryProbes;
  if (!p) return '';
  const rows = occurring(p);
  const absent = p.categories.filter((c) => c.texts === 0).map((c) => c.category);
  const drop = (f: FlipRate | null) => (f ? f.meanDrop.toFixed(3) : '–');
  const leaned = new Set(p.leansOn);
  const body = rows
    .map(
      (c) =>
        `<tr${leaned.has(c.category) ? ' class="leans"' : ''}><td title="${escapeHtml(c.description)}">${escapeHtml(c.category)}</td><td>${c.texts}</td><td>${escapeHtml(flipRateText(c.removal))}</td><td>${drop(c.removal)}</td><td>${escapeHtml(flipRateText(c.swap))}</td><td>${drop(c.swap)}</td></tr>`,
    )
    .join('');
  return `<section id="category-probes"><h2>Category probes</h2>
<p>CheckList invariance tests (Ribeiro et al. 2020) beside TOKI's verdicts: for each category of tokens a prediction should not depend on, over the audited texts that contain it, how often the predicted class changes when all its tokens are <b>removed</b>, and when they are <b>swapped</b> for others of the same kind (names for names, years for years). Rates with Wilson 95 % intervals; mean drop of the original class's probability. ${p.texts} texts, ${p.cost.modelCalls} model calls, ${p.cost.seconds.toFixed(1)} s, seed ${p.seed}.</p>
<p class="leans-on"><b>${escapeHtml(leansOnSentence(p))}</b>.</p>
${rows.length ? `<table class="grid"><thead><tr><th>category</th><th>texts with it</th><th>removed: prediction changed</th><th>mean drop</th><th>swapped: prediction changed</th><th>mean drop</th></tr></thead><tbody>${body}</tbody></table>` : ''}
${absent.length ? `<p class="muted">Not in any audited text: ${escapeHtml(absent.join(', '))}.</p>` : ''}</section>`;
}
