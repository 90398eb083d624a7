import { XtrustError, type Explanation, type FeatureWeight } from '@xtrust/core';

/**
 * Features sorted by |weight| descending; equal magnitudes keep their input order (a stable sort,
 * as Python's `sorted(..., key=abs, reverse=True)` in the reference LIME).
 */
export function sortByMagnitude<T extends FeatureWeight>(features: readonly T[]): T[] {
  return features
    .map((f, i) => ({ f, i }))
    .sort((a, b) => Math.abs(b.f.weight) - Math.abs(a.f.weight) || a.i - b.i)
    .map((e) => e.f);
}

/** Everything an explainer knows about one explanation; `makeExplanation` sorts and freezes it. */
export interface ExplanationParts {
  text: string;
  method: string;
  params: Record<string, unknown>;
  seed?: number;
  labels: readonly string[];
  /** Class probabilities of the unperturbed text (k values). */
  probabilities: ArrayLike<number>;
  predicted: number;
  explained: number;
  features: readonly FeatureWeight[];
  diagnostics?: Record<string, number>;
  /** How much of the text the model saw, when a TextLimit model cut it (`textSeen`); omitted otherwise. */
  seen?: { words: number; of: number } | null;
}

/** Builds the one `Explanation` shape every method returns (DESIGN.md): word-level, sorted by |weight|. */
export function makeExplanation(p: ExplanationParts): Explanation {
  const exp: Explanation = {
    text: p.text,
    method: p.method,
    params: p.params,
    ...(p.seed === undefined ? {} : { seed: p.seed }),
    predictedLabel: p.labels[p.predicted],
    explainedLabel: p.labels[p.explained],
    features: sortByMagnitude(p.features),
    probabilities: Array.from(p.probabilities, Number),
    ...(p.diagnostics ? { diagnostics: p.diagnostics } : {}),
    ...(p.seen ? { seen: { words: p.seen.words, of: p.seen.of } } : {}),
  };
  return exp;
}

export type TopWordsOptions = {
  /** Keep only words that push towards the explained label (weight > 0). Default false. */
  positiveOnly?: boolean;
};

/**
 * The first `k` words of an explanation by |weight| (features are already sorted), optionally only
 * those with a positive weight — the "top decision-contributing words" that TOKI's keyword
 * identification reads (000_6d314fe57d39eb4c §3.1).
 */
export function topWords(exp: Explanation, k: number, options: TopWordsOptions = {}): string[] {
  if (!Number.isInteger(k) || k < 0) {
    throw new XtrustError('INVALID_ARGUMENT', `topWords(exp, k): k must be a non-negative integer, got ${String(k)}`, {
      argument: 'k',
    });
  }
  const out: string[] = [];
  for (const f of exp.features) {
    if (out.length >= k) break;
    if (options.positiveOnly && !(f.weight > 0)) continue;
    out.push(f.word);
  }
  return out;
}
