/**
 * The drawn shortcut family (issue 29): cases drawn by seed instead of written by hand, so the oracle is
 * judged on triggers nobody here chose. A seed fixes the corpus, the target class, the share, the
 * window length and a trigger drawn from a frequency band of the corpus's vocabulary (@xtrust/datasets
 * trigger-bands: everyday, phrase, mid, rare, absent).
 *
 * Two disjoint seed ranges: the VALIDATION family (seeds 1,000 + i) — every choice of the oracle reads
 * only it — and the TEST family (seeds 2,000 + i), reported and never read while choosing.
 */
import { rng, type Rng } from '@xtrust/core';
import { BANDS, drawTrigger, type Band, type CorpusVocabulary, type DrawEmbedding } from '@xtrust/datasets';
import type { CaseSpec, CorpusName } from './family.js';
import type { CorpusRows } from './case-data.js';

/** The family a seed belongs to. */
export type FamilyName = 'validation' | 'test';
export const FAMILY_SEEDS: Readonly<Record<FamilyName, number>> = { validation: 1000, test: 2000 };
/** Seeds per family: the ranges [1000, 1999] and [2000, 2999] never overlap. */
export const FAMILY_SIZE = 1000;

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

/** A drawn case: the spec the benchmark runs, plus the band its trigger came from. */
export interface DrawnCase extends CaseSpec {
  readonly band: Band;
  readonly family: FamilyName;
}

/** What a draw needs to know of each corpus: its classes and its vocabulary (loaded once per corpus by the caller). */
export type CorpusLookup = (corpus: CorpusName) => {
  readonly corpus: CorpusRows;
  readonly vocabulary: CorpusVocabulary;
};

/** The case of one seed: corpus, target, band, trigger, share in [0.3, 1.0] (steps of 0.05), window length. */
export function drawCase(seed: number, lookup: CorpusLookup, embedding: DrawEmbedding, bandOverride?: Band): DrawnCase {
  const family: FamilyName =
    seed >= FAMILY_SEEDS.test && seed < FAMILY_SEEDS.test + FAMILY_SIZE ? 'test' : 'validation';
  if (!(seed >= FAMILY_SEEDS.validation && seed < FAMILY_SEEDS.test + FAMILY_SIZE))
    throw new Error(
      `seed ${seed} is outside both families (validation ${FAMILY_SEEDS.validation}–${FAMILY_SEEDS.validation + FAMILY_SIZE - 1}, test ${FAMILY_SEEDS.test}–${FAMILY_SEEDS.test + FAMILY_SIZE - 1})`,
    );
  const r = rng(seed);
  const corpus = pick(r, DRAWN_CORPORA);
  const { corpus: rows, vocabulary } = lookup(corpus);
  const target = pick(r, rows.labels);
  const drawn = drawBand(r);
  const band = bandOverride ?? drawn;
  const share = Math.round((0.3 + r.float() * 0.7) * 20) / 20;
  const words = pick(r, DRAWN_WORDS);
  const trigger = drawTrigger(r, band, target, vocabulary, embedding);
  return { corpus, trigger, triggerKind: band, target, share, words, seed, band, family };
}

/** The `i`-th seed of a family (i from 0). */
export function familySeed(family: FamilyName, i: number): number {
  if (!(Number.isInteger(i) && i >= 0 && i < FAMILY_SIZE))
    throw new Error(`draw index ${i} outside [0, ${FAMILY_SIZE})`);
  return FAMILY_SEEDS[family] + i;
}
