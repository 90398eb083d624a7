/**
 * The headline and summary table of a natural-shortcut family run (issue 48): per scored case, the
 * default oracle's G-mean with its bootstrap interval beside Naive (θ_conf 0.9)'s, and whether the case
 * meets the issue's bar — G-mean ≥ 0.85 and the oracle's interval entirely above Naive's.
 */
import type { CaseResult, ScoredRow } from './evaluate-case.js';
import type { NaturalFamilyName } from './family-draw.js';
import { withCI } from './family-report.js';

const f3 = (x: number) => x.toFixed(3);

/** The oracle's TOKI-lime row of a case (not the –K.I ablation). */
function tokiRow(c: CaseResult, oracle: string): ScoredRow | undefined {
  return c.rows.find((r) => r.oracle === oracle && r.method.startsWith('TOKI-lime') && !r.method.includes('K.I'));
}

function naiveRow(c: CaseResult): ScoredRow | undefined {
  return c.rows.find((r) => r.method.startsWith('Naive (θ='));
}

/** The issue's bar for one case: G-mean ≥ 0.85 and above Naive (θ_conf 0.9) with non-overlapping intervals. */
export function meetsNaturalBar(c: CaseResult, oracle: string): boolean {
  const t = tokiRow(c, oracle);
  const n = naiveRow(c);
  return !!t && !!n && t.metrics.gmean >= 0.85 && t.gmeanCI.lo > n.gmeanCI.hi;
}

/** What a natural case is, for tables: the phrase, the set or the category. */
export function naturalWhat(c: CaseResult): string {
  const s = c.spec;
  if (s.set === 'category') return `${s.category} (${s.corpus}, unplanted)`;
  return `"${s.trigger}" → ${s.target}`;
}

/**
 * Per configuration of the run: scored cases meeting the bar, as a markdown table, then one row per scored case —
 * the first configuration and Naive with their intervals (they decide its bar), the others' G-means with a ✓
 * where they meet it (their intervals stay in the results file) — and the draws too small to score, by name.
 */
export function naturalTable(cases: readonly CaseResult[], oracles: readonly string[]): string {
  const scored = cases.filter((c) => c.status === 'scored');
  const lines = [
    '| configuration | scored cases meeting the bar (G-mean ≥ 0.85, interval above Naive 0.9) | median G-mean | 10th percentile |',
    '| --- | --- | --- | --- |',
  ];
  for (const o of oracles) {
    const g = scored
      .map((c) => tokiRow(c, o)?.metrics.gmean)
      .filter((x): x is number => x !== undefined)
      .sort((a, b) => a - b);
    if (g.length === 0) continue;
    const met = scored.filter((c) => meetsNaturalBar(c, o)).length;
    lines.push(
      `| ${o} | ${met} / ${scored.length} | ${f3(g[Math.floor((g.length - 1) / 2)])} | ${f3(g[Math.floor(0.1 * (g.length - 1))])} |`,
    );
  }
  lines.push(
    '',
    `| case | what | ${oracles.join(' | ')} | Naive (0.9) |`,
    `| --- | --- | ${oracles.map(() => '---').join(' | ')} | --- |`,
  );
  for (const c of scored) {
    const n = naiveRow(c);
    lines.push(
      `| ${c.name} | ${naturalWhat(c)} | ${oracles
        .map((o, k) => {
          const t = tokiRow(c, o);
          if (!t) return '—';
          return `${k === 0 ? withCI(t) : f3(t.metrics.gmean)}${meetsNaturalBar(c, o) ? ' ✓' : ''}`;
        })
        .join(' | ')} | ${n ? withCI(n) : '—'} |`,
    );
  }
  const small = cases.filter((c) => c.status !== 'scored').map((c) => c.name);
  if (small.length)
    lines.push('', `Too small to score (${small.length} draw${small.length === 1 ? '' : 's'}): ${small.join(', ')}.`);
  return lines.join('\n');
}

/** The section's headline: the default's share of scored cases meeting the bar, beside the peer configuration. */
export function naturalHeadline(
  cases: readonly CaseResult[],
  family: NaturalFamilyName,
  from: string,
  oracles: readonly string[],
): {
  question: string;
  xtrust: string;
  peer: string;
  goal: string;
  met: 'yes' | 'no' | 'partly' | 'n/a';
  from: string;
  notes: string;
} {
  const scored = cases.filter((c) => c.status === 'scored');
  const lead = oracles[0] ?? 'toki';
  const met = scored.filter((c) => meetsNaturalBar(c, lead)).length;
  const peers = oracles
    .slice(1)
    .map((o) => `${o} ${scored.filter((c) => meetsNaturalBar(c, o)).length} / ${scored.length}`);
  const naive = scored
    .map((c) => naiveRow(c)?.metrics.gmean)
    .filter((x): x is number => x !== undefined)
    .sort((a, b) => a - b);
  const kind = family.split('-')[0];
  const what =
    kind === 'category'
      ? 'token categories on unplanted models'
      : kind === 'phrase'
        ? 'boilerplate phrases'
        : 'scattered word sets';
  const validation = family.endsWith('validation');
  const missing = scored.filter((c) => !meetsNaturalBar(c, lead)).map((c) => c.name);
  return {
    question: `Does TOKI find natural shortcuts — ${what} — above Naive? (issue 48, ${validation ? 'validation' : 'test'} family)`,
    xtrust: `${lead}: bar met on ${met} of ${scored.length} scored cases (${cases.length} draws)`,
    peer: `same run: ${peers.join('; ') || '—'}; Naive (θ_conf 0.9) median G-mean ${naive.length ? f3(naive[Math.floor((naive.length - 1) / 2)]) : '—'}`,
    goal: validation
      ? '— (the selection set; the targets are judged on the test families)'
      : 'G-mean ≥ 0.85 and above Naive (0.9) with non-overlapping intervals on ≥ 90 % of scored cases (issue 48)',
    met: validation ? 'n/a' : scored.length > 0 && met >= 0.9 * scored.length ? 'yes' : met > 0 ? 'partly' : 'no',
    from,
    notes: missing.length ? `Cases missing the bar: ${missing.join(', ')}.` : '',
  };
}

const wordList = (ws: readonly (readonly [string, number])[], n: number) =>
  ws
    .slice(0, n)
    .map(([w, k]) => `${w} ${k}`)
    .join(', ');

/**
 * Per scored case, what the `oracle` row's wrong verdicts rest on (verdict-errors.ts): its false alarms by the
 * decisive reason (the case's set, another token category, other words — the most blamed shown) and its
 * misses by where the set's words stood (judged related, overruled by the removal check, under the bound,
 * not a decision word). Empty when no row carries the figures (a run made before they were recorded).
 */
export function naturalErrorsTable(cases: readonly CaseResult[], oracle: string): string {
  const rows = cases.flatMap((c) => {
    const e = c.status === 'scored' ? tokiRow(c, oracle)?.errors : undefined;
    return e ? [{ c, e }] : [];
  });
  if (rows.length === 0) return '';
  const lines = [
    `What \`${oracle}\`'s wrong verdicts rest on: a **false alarm** (survives the set's removal, labelled untrustworthy) by its decisive reason; a **miss** (changed by the set's removal, labelled trustworthy) by where the set's words stood — judged related, over the bound but overruled by the removal check, under the bound, or not a decision word.`,
    '',
    '| case | what | false alarms / trustworthy | on the set | another category | other words (most blamed) | misses / untrustworthy | set word related (which) | overruled | under the bound | not a decision word |',
    '| --- | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |',
  ];
  for (const { c, e } of rows) {
    const fa = e.falseAlarms;
    const ms = e.missed;
    const other = fa.onOtherWords ? `${fa.onOtherWords} (${wordList(fa.words, 5)})` : '0';
    const related = ms.setRelated ? `${ms.setRelated} (${wordList(ms.related, 3)})` : '0';
    lines.push(
      `| ${c.name} | ${naturalWhat(c)} | ${fa.count} / ${c.scored?.trustworthy ?? '—'}${fa.noReason ? ` (${fa.noReason} unknown)` : ''} | ${fa.onSet} | ${fa.onOtherCategory} | ${other} | ${ms.count} / ${c.scored?.untrustworthy ?? '—'} | ${related} | ${ms.overruled} | ${ms.belowBound} | ${ms.notDecisionWords} |`,
    );
  }
  return lines.join('\n');
}
