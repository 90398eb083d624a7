import { XtrustError } from '@xtrust/core';

/** One labelled text. `id` is stable across runs (derived from the source, never from load order). */
export interface Row<M = Record<string, unknown>> {
  readonly text: string;
  readonly label: string;
  readonly id: string;
  readonly meta?: M;
}

/** What a loader left out: how many rows, and how many for each reason (reason → count). */
export interface SkipReport {
  readonly count: number;
  readonly reasons: Readonly<Record<string, number>>;
}

/**
 * A labelled corpus. `labels` lists every label in a fixed order (a classifier trained on the dataset
 * uses this order); every row's label is one of them. Nothing is dropped silently: `skipped` says
 * how many source items a loader left out and why.
 */
export interface Dataset<M = Record<string, unknown>> {
  readonly name: string;
  readonly labels: readonly string[];
  readonly rows: readonly Row<M>[];
  readonly skipped: SkipReport;
}

/** Collects skipped items by reason while a loader runs. */
export class SkipCounter {
  private readonly counts = new Map<string, number>();
  private total = 0;

  add(reason: string, n = 1): void {
    if (n <= 0) return;
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + n);
    this.total += n;
  }

  report(): SkipReport {
    const reasons: Record<string, number> = {};
    for (const [k, v] of [...this.counts].sort((a, b) => a[0].localeCompare(b[0]))) reasons[k] = v;
    return { count: this.total, reasons };
  }
}

/** Number of rows per label, in the dataset's label order (labels with no row included, as 0). */
export function labelCounts(dataset: Pick<Dataset<unknown>, 'labels' | 'rows'>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of dataset.labels) counts[l] = 0;
  for (const r of dataset.rows) {
    if (!(r.label in counts)) {
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `row ${r.id}: label "${r.label}" is not one of the dataset's labels (${dataset.labels.join(', ')})`,
        { id: r.id, label: r.label },
      );
    }
    counts[r.label]++;
  }
  return counts;
}
