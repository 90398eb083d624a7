import { words, type SentenceEncoder, type TokenizeOptions } from '@xtrust/core';
import { pairCosines } from './sentence-cosine.js';
import { checkStringArray, invalid } from './validate.js';

/** The result of attacking one input (TOKI-guided attack, A2T, CEA, …). */
export interface AttackOutcome {
  readonly original: string;
  /** The adversarial text the attack ended with; required for successful attacks. */
  readonly adversarial?: string | null;
  /** Whether the attack reached its goal (e.g. flipped the prediction). */
  readonly success: boolean;
  /** Words the attack changed; when absent, `countPerturbedWords(original, adversarial)`. */
  readonly perturbedWords?: number;
}

function checkOutcomes(outcomes: readonly AttackOutcome[]): void {
  if (!Array.isArray(outcomes) || outcomes.length === 0)
    throw invalid('outcomes', 'a non-empty array of attack outcomes', outcomes);
  outcomes.forEach((o, i) => {
    if (typeof o?.original !== 'string') throw invalid(`outcomes[${i}].original`, 'a string', o?.original);
    if (typeof o.success !== 'boolean') throw invalid(`outcomes[${i}].success`, 'a boolean', o.success);
    if (o.success && typeof o.adversarial !== 'string')
      throw invalid(`outcomes[${i}].adversarial`, 'the adversarial text of a successful attack', o.adversarial);
    if (o.adversarial !== undefined && o.adversarial !== null && typeof o.adversarial !== 'string') {
      throw invalid(`outcomes[${i}].adversarial`, 'a string, null or absent', o.adversarial);
    }
    if (o.perturbedWords !== undefined && (!Number.isInteger(o.perturbedWords) || o.perturbedWords < 0)) {
      throw invalid(`outcomes[${i}].perturbedWords`, 'a non-negative integer', o.perturbedWords);
    }
  });
}

/**
 * Attack success rate ASR = # successful attacks / # attacks.
 * Source: 000_6d314fe57d39eb4c.txt §6.3 ("Adversarial attack"), Table 4 (SAR). Empty → INVALID_ARGUMENT.
 */
export function attackSuccessRate(outcomes: readonly AttackOutcome[]): number {
  checkOutcomes(outcomes);
  let s = 0;
  for (const o of outcomes) if (o.success) s++;
  return s / outcomes.length;
}

/**
 * Number of words an attack changed, on core's word tokens: position-wise differences when both texts
 * have the same number of words (word substitution, the attacks of xtrust), otherwise the word-level
 * Levenshtein distance (insertions and deletions count one each).
 */
export function countPerturbedWords(original: string, adversarial: string, options: TokenizeOptions = {}): number {
  if (typeof original !== 'string') throw invalid('original', 'a string', original);
  if (typeof adversarial !== 'string') throw invalid('adversarial', 'a string', adversarial);
  const a = words(original, options);
  const b = words(adversarial, options);
  if (a.length === b.length) {
    let d = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++;
    return d;
  }
  let prev = Uint32Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

export interface PerturbedWordsOptions {
  /** Average over the successful attacks (default, as TextAttack and Table 4 report it) or over all. */
  over?: 'successful' | 'all';
}

/**
 * Average number of perturbed words (Avg. NP of 000 Table 4).
 * Source: 000_6d314fe57d39eb4c.txt §6.3. Returns null — not NaN — when there is nothing to average
 * (no successful attack under `over: 'successful'`). An unsuccessful attack without an adversarial
 * text and without `perturbedWords` counts 0 under `over: 'all'`.
 */
export function averagePerturbedWords(
  outcomes: readonly AttackOutcome[],
  options: PerturbedWordsOptions = {},
): number | null {
  checkOutcomes(outcomes);
  const over = options.over ?? 'successful';
  if (over !== 'successful' && over !== 'all') throw invalid('options.over', "'successful' or 'all'", over);
  let sum = 0;
  let n = 0;
  for (const o of outcomes) {
    if (over === 'successful' && !o.success) continue;
    n++;
    if (o.perturbedWords !== undefined) sum += o.perturbedWords;
    else if (typeof o.adversarial === 'string') sum += countPerturbedWords(o.original, o.adversarial);
  }
  return n === 0 ? null : sum / n;
}

/**
 * Mean cosine similarity between original and adversarial texts under a sentence encoder — the "USE"
 * and "Bert" scores of 000 Table 4 (with a USE or a BERT-based encoder). One batched encode call.
 * Source: 000_6d314fe57d39eb4c.txt §6.3. Empty → INVALID_ARGUMENT; lengths differ → DIMENSION_MISMATCH.
 */
export async function meanSentenceCosine(
  encoder: SentenceEncoder,
  originals: readonly string[],
  adversarials: readonly string[],
): Promise<number> {
  checkStringArray('originals', originals);
  if (originals.length === 0) throw invalid('originals', 'at least one text pair', originals);
  const cos = await pairCosines(encoder, originals, adversarials);
  let s = 0;
  for (let i = 0; i < cos.length; i++) s += cos[i];
  return s / cos.length;
}

/** Table 4's row for one attack method. */
export interface AttackSummary {
  readonly total: number;
  readonly successful: number;
  readonly successRate: number;
  /** Over successful attacks; null when none succeeded. */
  readonly averagePerturbedWords: number | null;
  /** Mean original/adversarial cosine over successful attacks, per encoder name; null when none succeeded. */
  readonly cosine: Readonly<Record<string, number | null>>;
}

/**
 * ASR, Avg. NP and the mean cosine under each given sentence encoder (e.g. USE and a BERT encoder),
 * over the successful attacks — one row of 000 Table 4.
 */
export async function summarizeAttacks(
  outcomes: readonly AttackOutcome[],
  encoders: readonly SentenceEncoder[] = [],
): Promise<AttackSummary> {
  checkOutcomes(outcomes);
  if (!Array.isArray(encoders)) throw invalid('encoders', 'an array of SentenceEncoder', encoders);
  const won = outcomes.filter((o) => o.success);
  const cosine: Record<string, number | null> = {};
  for (const enc of encoders) {
    if (!enc || typeof enc.encode !== 'function' || typeof enc.name !== 'string')
      throw invalid('encoders', 'SentenceEncoder objects', enc);
    if (enc.name in cosine) throw invalid('encoders', 'encoders with distinct names', enc.name);
    cosine[enc.name] =
      won.length === 0
        ? null
        : await meanSentenceCosine(
            enc,
            won.map((o) => o.original),
            won.map((o) => o.adversarial as string),
          );
  }
  return {
    total: outcomes.length,
    successful: won.length,
    successRate: won.length / outcomes.length,
    averagePerturbedWords: averagePerturbedWords(outcomes),
    cosine,
  };
}
