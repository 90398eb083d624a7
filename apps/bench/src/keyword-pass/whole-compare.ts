/**
 * One fast audit of one model made two ways — e.g. float32 and `--lime-mode int8` — compared on what both
 * runs produced: the labels of the predictions both made (matched by text) and each class's keyword set.
 * A run stopped part-way still has its keyword store (written before labelling starts) and the checkpoints
 * of the predictions it explained (predicted label, side of the verdict statistic), so a slow variant can be
 * compared on a part without being run to the end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keywordJaccards } from '../transformer-audit/audit-table.js';

/** What a run directory holds that the comparison reads. */
export interface AuditOutcome {
  /** predictions.jsonl in order: one line per finished prediction. */
  readonly predictions: readonly { readonly text: string; readonly verdict: string }[];
  /** keywords.json: class label → keywords. */
  readonly keywords: Record<string, string[]>;
  /**
   * predictions.explanations.jsonl, the checkpoints (written as each prediction is explained, so a run stopped
   * part-way has them before predictions.jsonl exists): the predicted label and the side of the verdict-aware
   * statistic (diagnostics.verdictSide: 1 trustworthy, −1 not; absent outside `--audit-mode fast`).
   */
  readonly checkpoints: readonly { readonly key: string; readonly predicted: string; readonly side?: number }[];
}

/** Reads a run directory's predictions.jsonl (empty when no prediction finished) and keywords.json. */
export function readAuditOutcome(dir: string): AuditOutcome {
  const keywordsFile = join(dir, 'keywords.json');
  if (!existsSync(keywordsFile))
    throw new Error(`${dir}: no keywords.json (the run has not finished its keyword pass)`);
  const store = JSON.parse(readFileSync(keywordsFile, 'utf8')) as { classes: { label: string; keywords: string[] }[] };
  const predictionsFile = join(dir, 'predictions.jsonl');
  const predictions = existsSync(predictionsFile)
    ? readFileSync(predictionsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { text: string; verdict: string })
    : [];
  const checkpointsFile = join(dir, 'predictions.explanations.jsonl');
  const checkpoints = existsSync(checkpointsFile)
    ? readFileSync(checkpointsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(
          (l) =>
            JSON.parse(l) as {
              key: string;
              explanation?: { predictedLabel: string; diagnostics?: { verdictSide?: number } };
            },
        )
        .filter((c) => c.explanation)
        .map((c) => ({
          key: c.key,
          predicted: c.explanation!.predictedLabel,
          ...(c.explanation!.diagnostics?.verdictSide !== undefined
            ? { side: c.explanation!.diagnostics.verdictSide }
            : {}),
        }))
    : [];
  return { predictions, keywords: Object.fromEntries(store.classes.map((c) => [c.label, c.keywords])), checkpoints };
}

/** The comparison of run B with run A. */
export interface OutcomeComparison {
  /** Distinct texts both runs labelled. */
  readonly shared: number;
  readonly equal: number;
  /** "A's label → B's label" for each text labelled differently. */
  readonly differs: string[];
  readonly keywords: { label: string; a: number; b: number; jaccard: number }[];
  /**
   * The checkpointed explanations both runs made (same key: the same test prediction of the same sample): how
   * many predict the same label, and of those with a verdict side on both, how many fall on the same side.
   */
  readonly explained: {
    readonly shared: number;
    readonly samePrediction: number;
    readonly sided: number;
    readonly sameSide: number;
  };
}

/** Labels on the texts both runs labelled (the first prediction of a text repeated in the test set) and keyword Jaccard per class. */
export function compareOutcomes(a: AuditOutcome, b: AuditOutcome): OutcomeComparison {
  const first = (o: AuditOutcome) => {
    const m = new Map<string, string>();
    for (const p of o.predictions) if (!m.has(p.text)) m.set(p.text, p.verdict);
    return m;
  };
  const byA = first(a);
  const byB = first(b);
  const differs: string[] = [];
  let shared = 0;
  for (const [text, va] of byA) {
    const vb = byB.get(text);
    if (vb === undefined) continue;
    shared++;
    if (va !== vb) differs.push(`${va} → ${vb}`);
  }
  const keywords = keywordJaccards(a.keywords, b.keywords).map(({ label, jaccard }) => ({
    label,
    a: a.keywords[label]?.length ?? 0,
    b: b.keywords[label]?.length ?? 0,
    jaccard,
  }));
  const bByKey = new Map(b.checkpoints.map((c) => [c.key, c]));
  const explained = { shared: 0, samePrediction: 0, sided: 0, sameSide: 0 };
  for (const ca of a.checkpoints) {
    const cb = bByKey.get(ca.key);
    if (!cb) continue;
    explained.shared++;
    if (ca.predicted === cb.predicted) explained.samePrediction++;
    if (ca.side !== undefined && cb.side !== undefined) {
      explained.sided++;
      if (ca.side === cb.side) explained.sameSide++;
    }
  }
  return { shared, equal: shared - differs.length, differs, keywords, explained };
}
