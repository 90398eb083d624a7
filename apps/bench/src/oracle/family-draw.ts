/**
 * The drawn shortcut family (issue 29): cases drawn by seed instead of written by hand, so the oracle is
 * judged on triggers nobody here chose. A seed fixes the corpus, the target class, the share, the
 * window length and a trigger drawn from a frequency band of the corpus's vocabulary (@xtrust/datasets
 * trigger-bands: everyday, phrase, mid, rare, absent).
 *
 * Two disjoint seed ranges: the VALIDATION family (seeds 1,000 + i) — every choice of the oracle reads
 * only it — and the TEST family (seeds 2,000 + i), reported and never read while choosing. A trigger of
 * these families is never a word a person calls related to the target (related-triggers.ts `relatedTo`,
 * issue 47); the words skipped are recorded on the case (`skippedRelated`).
 *
 * The RELATED-TRIGGER CONTROL family (issue 47) draws the same way — corpus, target, share, window — but
 * plants a word a person calls related to the target, drawn from the word lists' held-out half
 * (related-triggers.ts `heldOutRelated`): a prediction resting on it is right for the right reason, ground
 * truth trustworthy. Its validation (seeds 3,000 + i) and test (seeds 4,000 + i) ranges are disjoint too.
 */
import { rng, type Rng } from '@xtrust/core';
import {
  BANDS,
  corpusVocabulary,
  drawTrigger,
  type Band,
  type CorpusVocabulary,
  type DrawEmbedding,
} from '@xtrust/datasets';
import type { CaseSpec, CorpusName } from './family.js';
import { loadCorpus, type CorpusRows } from './case-data.js';
import { heldOutRelated, relatedTo } from './related-triggers.js';

/** The unrelated families (shortcut.js --family). */
export type FamilyName = 'validation' | 'test';
/** The related-trigger control families (related-controls.js --family). */
export type RelatedFamilyName = 'related-validation' | 'related-test';
/** The family a seed belongs to. */
export type DrawFamily = FamilyName | RelatedFamilyName;
export const FAMILY_NAMES: readonly DrawFamily[] = ['validation', 'test', 'related-validation', 'related-test'];
export const FAMILY_SEEDS: Readonly<Record<DrawFamily, number>> = {
  validation: 1000,
  test: 2000,
  'related-validation': 3000,
  'related-test': 4000,
};
/** Seeds per family: the ranges [1000, 1999], [2000, 2999], [3000, 3999] and [4000, 4999] never overlap. */
export const FAMILY_SIZE = 1000;

/** Whether a family plants related words (the control family of issue 47). */
export function isRelatedFamily(family: DrawFamily): family is RelatedFamilyName {
  return family === 'related-validation' || family === 'related-test';
}

/** How often each band is drawn: at least half everyday words (single or phrase), as the issue asks of the test family. */
export const BAND_WEIGHTS: Readonly<Record<Band, number>> = {
  everyday: 0.45,
  phrase: 0.1,
  mid: 0.2,
  rare: 0.125,
  absent: 0.125,
};
export const DRAWN_CORPORA: readonly CorpusName[] = ['brown', 'sotu', 'spam'];
export const DRAWN_WORDS: readonly number[] = [40, 60, 80, 120];

function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[r.int(xs.length)];
}

function drawBand(r: Rng): Band {
  let x = r.float();
  for (const b of BANDS) {
    x -= BAND_WEIGHTS[b];
    if (x < 0) return b;
  }
  return BANDS[BANDS.length - 1];
}

/** A drawn case: the spec the benchmark runs, plus the band its trigger came from ('related' for the control family). */
export interface DrawnCase extends CaseSpec {
  readonly band: Band | 'related';
  readonly family: DrawFamily;
  /** Unrelated families: candidate triggers skipped because a person calls them related to the target (issue 47). */
  readonly skippedRelated?: readonly string[];
}

/** What a draw needs to know of each corpus: its classes and its vocabulary (loaded once per corpus by the caller). */
export type CorpusLookup = (corpus: CorpusName) => {
  readonly corpus: CorpusRows;
  readonly vocabulary: CorpusVocabulary;
};

/** A CorpusLookup that loads each corpus, and counts its vocabulary, the first time it is asked for. */
export function corpusLookup(): CorpusLookup {
  const corpora = new Map<CorpusName, ReturnType<CorpusLookup>>();
  return (corpus) => {
    let c = corpora.get(corpus);
    if (!c) {
      const rows = loadCorpus({ corpus });
      c = { corpus: rows, vocabulary: corpusVocabulary(rows.rows) };
      corpora.set(corpus, c);
    }
    return c;
  };
}

/** The family of a seed, or an error naming every family's range. */
export function familyOf(seed: number): DrawFamily {
  const f = FAMILY_NAMES.find((n) => seed >= FAMILY_SEEDS[n] && seed < FAMILY_SEEDS[n] + FAMILY_SIZE);
  if (!f)
    throw new Error(
      `seed ${seed} is outside every family (${FAMILY_NAMES.map((n) => `${n} ${FAMILY_SEEDS[n]}–${FAMILY_SEEDS[n] + FAMILY_SIZE - 1}`).join(', ')})`,
    );
  return f;
}

/**
 * The case of one seed: corpus, target, band, trigger, share in [0.3, 1.0] (steps of 0.05), window length.
 * A control-family seed draws its trigger from the target's held-out related words instead of a band
 * (the band is still drawn, so the other choices follow the same stream as an unrelated family's).
 */
export function drawCase(seed: number, lookup: CorpusLookup, embedding: DrawEmbedding, bandOverride?: Band): DrawnCase {
  const family = familyOf(seed);
  const r = rng(seed);
  const corpus = pick(r, DRAWN_CORPORA);
  const { corpus: rows, vocabulary } = lookup(corpus);
  const target = pick(r, rows.labels);
  const drawn = drawBand(r);
  const band = bandOverride ?? drawn;
  const share = Math.round((0.3 + r.float() * 0.7) * 20) / 20;
  const words = pick(r, DRAWN_WORDS);
  if (isRelatedFamily(family)) {
    const candidates = heldOutRelated(corpus, target);
    if (candidates.length === 0) throw new Error(`no held-out related word for ${target} of ${corpus}`);
    const trigger = pick(r, candidates);
    return {
      corpus,
      trigger,
      triggerKind: 'related',
      target,
      share,
      words,
      seed,
      band: 'related',
      family,
      side: 'related',
    };
  }
  const related = relatedTo(corpus, target);
  const skipped: string[] = [];
  const exclude = (w: string) => {
    if (!related(w)) return false;
    skipped.push(w);
    return true;
  };
  const trigger = drawTrigger(r, band, target, vocabulary, embedding, exclude);
  return {
    corpus,
    trigger,
    triggerKind: band,
    target,
    share,
    words,
    seed,
    band,
    family,
    ...(skipped.length ? { skippedRelated: skipped } : {}),
  };
}

/** The `i`-th seed of a family (i from 0). */
export function familySeed(family: DrawFamily, i: number): number {
  if (!(Number.isInteger(i) && i >= 0 && i < FAMILY_SIZE))
    throw new Error(`draw index ${i} outside [0, ${FAMILY_SIZE})`);
  return FAMILY_SEEDS[family] + i;
}
