/**
 * One benchmark comparison: our side and a peer, timed in the same run. `ratio` is the peer's median
 * time over ours (above 1: we are faster). A peer's `kind` says whether its seconds were measured
 * here, taken from a report, or extrapolated from a smaller measured run (the notes say how).
 */
import { median } from './timing.js';

export interface BenchResult {
  readonly name: string;
  readonly ours: { readonly label: string; readonly seconds: number[] };
  readonly peer: {
    readonly label: string;
    readonly seconds: number[];
    readonly kind: 'measured' | 'reported' | 'extrapolated';
  };
  readonly ratio: number;
  readonly notes: string;
}

/** A fixed-width table of results, for logs. */
export function formatResults(results: readonly BenchResult[]): string {
  const rows = results.map((r) => [
    r.name,
    `${r.ours.label}: ${median(r.ours.seconds).toFixed(3)} s`,
    `${r.peer.label} (${r.peer.kind}): ${median(r.peer.seconds).toFixed(3)} s`,
    `${r.ratio.toFixed(2)}×`,
  ]);
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => row[c].length))) ?? [];
  return rows
    .map((row, i) => `${row.map((cell, c) => cell.padEnd(widths[c])).join('  ')}\n    ${results[i].notes}`)
    .join('\n');
}
