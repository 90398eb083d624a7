/**
 * The exact audit each other run is read against. A label compared across two oracle configurations mixes the
 * mode's effect with the oracle's, so when the exact run is measured again under today's oracle the run it
 * replaces is kept as a slim reference (`<out>/runs/exact-reference-<date>.json.gz`: its labels, keywords and
 * oracle — about 6 KB gzipped, where the whole stored run is 25 KB and the results folder has a git budget),
 * and every run is compared with the exact run of its own oracle configuration: today's exact run when the
 * configurations agree, else a kept one that labelled like it, else today's with the difference said.
 */
import type { PredictionDigest } from './predictions.js';
import { oracleDifference } from './audit-table.js';

/** What a comparison needs of an exact run. */
export interface ExactReference {
  /** When the exact run was measured (ISO time). */
  readonly measured: string;
  /** The key it was stored under (model fingerprint, sample sizes, LIME samples, mode): a kept reference is used only under the same key. */
  readonly key: Record<string, unknown>;
  /** keywords.json's oracle configuration; undefined for a run stored before it was kept. */
  readonly oracle?: Record<string, unknown>;
  /** Each class's keywords; undefined when not kept. */
  readonly keywords?: Record<string, string[]>;
  readonly predictions: readonly Pick<PredictionDigest, 'text' | 'predicted' | 'verdict'>[];
}

/** The slim reference of a stored exact run (its predictions' text digests, predicted labels and verdicts; keywords; oracle). */
export function slimReference(
  measured: string,
  key: Record<string, unknown>,
  files: {
    predictions: readonly PredictionDigest[];
    keywords?: Record<string, string[]>;
    oracle?: Record<string, unknown>;
  },
): ExactReference {
  return {
    measured,
    key,
    ...(files.oracle ? { oracle: files.oracle } : {}),
    ...(files.keywords ? { keywords: files.keywords } : {}),
    predictions: files.predictions.map((p) => ({ text: p.text, predicted: p.predicted, verdict: p.verdict })),
  };
}

/** The file a kept reference is stored in, named by the day it was measured (`exact-reference-2026-11-25.json.gz`). */
export const referenceFileName = (measured: string) => `exact-reference-${measured.slice(0, 10)}.json.gz`;
export const REFERENCE_FILE = /^exact-reference-\d{4}-\d{2}-\d{2}\.json\.gz$/;

/** How a run is compared: against which exact run, and what qualifies the comparison. */
export interface ReferenceChoice {
  readonly reference: ExactReference;
  /** Whether it is today's exact run (the table's first row) rather than a kept one. */
  readonly current: boolean;
  /** Said beside the row's labels and keywords; absent when it is today's exact run under the same oracle. */
  readonly caveat?: string;
}

/**
 * The exact run that `oracle` (the compared run's configuration) is read against: `current` when the two
 * configurations agree or either is unknown; else the first of `kept` with the same configuration and the same
 * key as `current`; else `current`, with a caveat naming the fields that differ.
 */
export function chooseReference(
  oracle: Record<string, unknown> | undefined,
  current: ExactReference,
  kept: readonly ExactReference[],
): ReferenceChoice {
  if (!oracle || !current.oracle) return { reference: current, current: true };
  const differ = oracleDifference(current.oracle, oracle);
  if (differ.length === 0) return { reference: current, current: true };
  const sameKey = (r: ExactReference) => JSON.stringify(r.key) === JSON.stringify(current.key);
  const match = kept.find((r) => r.oracle && sameKey(r) && oracleDifference(r.oracle, oracle).length === 0);
  if (match) {
    return {
      reference: match,
      current: false,
      caveat: `against the exact run of ${match.measured.slice(0, 10)}, which labelled with this run's oracle configuration (today's exact run labels with another: ${differ.join(', ')})`,
    };
  }
  return {
    reference: current,
    current: true,
    caveat: `another oracle configuration than exact's (${differ.join(', ')}): mixes the oracle's change in`,
  };
}

/**
 * The (reference, run) verdicts of each test prediction, paired by position. A kept reference is chosen by its key
 * (same texts drawn by the same seed), so its predictions are the run's in the same order; the text digests are
 * checked all the same, since a pairing that slipped by one would compare every label with its neighbour's.
 */
export function pairedVerdicts(
  reference: Pick<ExactReference, 'measured' | 'predictions'>,
  predictions: readonly Pick<PredictionDigest, 'text' | 'verdict'>[],
  what: string,
): (readonly [string, string])[] {
  const mismatch = reference.predictions.findIndex((p, i) => p.text !== predictions[i]?.text);
  if (reference.predictions.length !== predictions.length || mismatch >= 0) {
    throw new Error(
      `${what}: the exact run of ${reference.measured.slice(0, 10)} audited other test texts than this run (${reference.predictions.length} vs ${predictions.length} predictions${mismatch >= 0 ? `, first different at prediction ${mismatch + 1}` : ''})`,
    );
  }
  return reference.predictions.map((p, i) => [p.verdict, predictions[i].verdict] as const);
}
