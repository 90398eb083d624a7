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
import { rng, tokenize, type Rng } from '@xtrust/core';
import {
  BANDS,
  corpusVocabulary,
  drawTrigger,
  leansOnTarget,
  type Band,
  type CorpusVocabulary,
  type DrawEmbedding,
} from '@xtrust/datasets';
import type { CaseSpec, CorpusName } from './family.js';
import { loadCorpus, type CorpusRows } from './case-data.js';
import { heldOutRelated, relatedTo } from './related-triggers.js';
import { familyPhrases } from './boilerplate-phrases.js';

/** The natural-shortcut families of issue 48: boilerplate phrases, scattered word sets, categories on unplanted models. */
export const NATURAL_FAMILIES = [
  'phrase-validation',
  'phrase-test',
  'scattered-validation',
  'scattered-test',
  'category-validation',
  'category-test',
] as const;
export type NaturalFamilyName = (typeof NATURAL_FAMILIES)[number];
/** The unrelated families (shortcut.js --family): single planted words, and the natural-shortcut families. */
export type FamilyName = 'validation' | 'test' | NaturalFamilyName;
/** The related-trigger control families (related-controls.js --family). */
export type RelatedFamilyName = 'related-validation' | 'related-test';
/** The family a seed belongs to. */
export type DrawFamily = FamilyName | RelatedFamilyName;
export const FAMILY_NAMES: readonly DrawFamily[] = [
  'validation',
  'test',
  'related-validation',
  'related-test',
  ...NATURAL_FAMILIES,
];
export const FAMILY_SEEDS: Readonly<Record<DrawFamily, number>> = {
  validation: 1000,
  test: 2000,
  'related-validation': 3000,
  'related-test': 4000,
  'phrase-validation': 5000,
  'phrase-test': 6000,
  'scattered-validation': 7000,
  'scattered-test': 8000,
  'category-validation': 9000,
  'category-test': 10000,
};
/** Seeds per family: the ranges [1000, 1999], [2000, 2999], … [10000, 10999] never overlap. */
export const FAMILY_SIZE = 1000;

/** Whether a family is one of issue 48's natural-shortcut families. */
export function isNaturalFamily(family: DrawFamily): family is NaturalFamilyName {
  return (NATURAL_FAMILIES as readonly string[]).includes(family);
}

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
  readonly band: Band | 'related' | 'category';
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

/** The bands a scattered set's words come from (a made-up word set is as easy as one made-up word: left out). */
export const SCATTERED_BANDS: readonly Band[] = ['everyday', 'mid', 'rare'];
/** A scattered set holds 2 to 10 words (issue 48). */
export const SCATTERED_SIZE = [2, 10] as const;

/**
 * Category cases on **unplanted** models (issue 48): the corpus, the token category whose removal is the
 * intervention (token-categories of @xtrust/datasets, by name), and the window lengths drawn from.
 *
 * Revised once, after the first 12 validation draws (seeds 9,000–9,011) and before any test draw: with
 * windows of 20–60 words an unplanted model almost never rests on a category (4 of the 12 draws had fewer
 * than 10 untrustworthy predictions: names and e-mail addresses in SpamAssassin bodies, numbers in bodies
 * cut to 10 words behind the headers), and the header block was over-determined nearly everywhere. Since:
 * shorter windows (10–40 words, up to CATEGORY_WINDOWS_PER_TEXT windows per text), the hopeless pairs left
 * out, and the header case's pools carry a twin of each e-mail with another class's header block
 * (case-data.ts withSwappedHeaders) with bodies of 20–80 words, so that a body can outweigh foreign headers.
 */
export const CATEGORY_CASES: readonly {
  readonly corpus: CorpusName;
  readonly category: string;
  readonly words: readonly number[];
}[] = [
  { corpus: 'spam', category: 'numbers', words: [10, 20] },
  { corpus: 'spam', category: 'urls', words: [10, 20] },
  { corpus: 'headers', category: 'mail-headers', words: [20, 40, 80] },
  { corpus: 'sotu', category: 'years', words: [10, 20] },
  { corpus: 'sotu', category: 'person-names', words: [10, 20] },
  { corpus: 'sotu', category: 'numbers', words: [10, 20, 40] },
  { corpus: 'brown', category: 'person-names', words: [10, 20] },
  { corpus: 'brown', category: 'numbers', words: [10, 20] },
];

/** A phrase's or a set's word that a person calls related to the target, or that the target's texts already lean on. */
function spoiled(
  words: readonly string[],
  target: string,
  vocabulary: CorpusVocabulary,
  related: (w: string) => boolean,
) {
  return words.find((w) => related(w) || leansOnTarget(vocabulary, w, target));
}

/**
 * A case of a natural-shortcut family (issue 48), by seed:
 * - phrase: corpus, target, share, window as drawCase; a boilerplate phrase of the family's half of the
 *   list (boilerplate-phrases.ts), redrawn while one of its words is related to the target or already leans
 *   on it; ground truth by the phrase's words wherever they occur;
 * - scattered: K words (2–10) from one band, each planted target text receives one of them; ground truth
 *   by the K words;
 * - category: one of CATEGORY_CASES and one of its windows; nothing planted, ground truth by removing the
 *   category's tokens from the unplanted model's inputs.
 */
export function drawNaturalCase(
  seed: number,
  lookup: CorpusLookup,
  embedding: DrawEmbedding,
  bandOverride?: Band,
): DrawnCase {
  const family = familyOf(seed);
  if (!isNaturalFamily(family)) throw new Error(`seed ${seed} belongs to the ${family} family, not a natural one`);
  const r = rng(seed);
  if (family.startsWith('category')) {
    const c = pick(r, CATEGORY_CASES);
    const words = pick(r, c.words);
    return { corpus: c.corpus, set: 'category', category: c.category, share: 0, words, seed, band: 'category', family };
  }
  const corpus = pick(r, DRAWN_CORPORA);
  const { corpus: rows, vocabulary } = lookup(corpus);
  const target = pick(r, rows.labels);
  const share = Math.round((0.3 + r.float() * 0.7) * 20) / 20;
  const words = pick(r, DRAWN_WORDS);
  const related = relatedTo(corpus, target);
  const skipped: string[] = [];
  if (family.startsWith('phrase')) {
    const phrases = familyPhrases(family === 'phrase-validation' ? 'validation' : 'test');
    for (let tries = 0; tries < 100; tries++) {
      const phrase = pick(r, phrases);
      const bad = spoiled(
        tokenize(phrase).map((t) => t.text.toLowerCase()),
        target,
        vocabulary,
        related,
      );
      if (bad) {
        skipped.push(`${phrase} (${bad})`);
        continue;
      }
      return {
        corpus,
        trigger: phrase,
        triggerKind: 'boilerplate phrase',
        set: 'phrase',
        target,
        share,
        words,
        seed,
        band: 'phrase',
        family,
        ...(skipped.length ? { skippedRelated: skipped } : {}),
      };
    }
    throw new Error(`no boilerplate phrase is free of the target ${target} of ${corpus}`);
  }
  const drawnBand = pick(r, SCATTERED_BANDS);
  const band = bandOverride ?? drawnBand;
  const k = SCATTERED_SIZE[0] + r.int(SCATTERED_SIZE[1] - SCATTERED_SIZE[0] + 1);
  const set: string[] = [];
  const exclude = (w: string) => {
    if (set.includes(w)) return true;
    if (!related(w)) return false;
    skipped.push(w);
    return true;
  };
  while (set.length < k) set.push(drawTrigger(r, band, target, vocabulary, embedding, exclude));
  return {
    corpus,
    trigger: set.join(' '),
    triggerKind: `${k} ${band} words`,
    set: 'scattered',
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
