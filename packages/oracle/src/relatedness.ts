/**
 * r(w, c) of TOKI's labelling step (Eq. 5, and TOKI(–K.I)'s name cosine): whether a word of an explanation
 * is related to a class. A module of its own because both the labelling (trust-labels.ts) and verdict-aware
 * sampling (verdict-sampling.ts) need it, and the labelling calls the sampling.
 */
import type { WordEmbedding } from '@xtrust/core';
import { cosineMatrix } from '@xtrust/native';
import { ABSTAIN, pluralityColumns } from './ensemble-vote.js';
import { isFunctionWord } from './function-words.js';
import type { KeywordStore } from './keyword-store.js';
import { otherClassVectors, relatesToClass } from './keyword-selection.js';
import { classNameVector, knownVectors } from './word-vectors.js';

/**
 * 'toki': r(w,c) from the nearest pool word being a keyword (Eq. 5).
 * 'toki-ki-ablated': TOKI(–K.I) of §6.1 — r(w,c) = sim(w, class name) ≥ θ_relate, no keywords.
 */
export type OracleMode = 'toki' | 'toki-ki-ablated';

/**
 * r(w,c) for many words of one class, all methods at once: one cosine matrix per method (queries × pool
 * or queries × class vector), then the plurality vote across methods. A word every method abstains on
 * (missing from all vocabularies) cannot be shown related: r = 0.
 */
export async function relatedness(
  store: KeywordStore,
  label: string,
  words: readonly string[],
  members: readonly WordEmbedding[],
  mode: OracleMode,
): Promise<Uint8Array> {
  const q = words.length;
  const ballots = new Int8Array(members.length * q).fill(ABSTAIN);
  const pool = mode === 'toki' ? store.pool(label).map((w) => w.word) : [];
  for (let m = 0; m < members.length; m++) {
    const e = members[m];
    const qv = await knownVectors(e, words);
    if (qv.known.length === 0) continue;
    if (mode === 'toki-ki-ablated') {
      const cv = await classNameVector(e, store.className(label));
      if (!cv) continue;
      const theta = store.ensemble.find((x) => x.name === e.name)!.thetaRelate;
      const others = store.oracle.classContrast
        ? await otherClassVectors(
            e,
            store.labels.filter((l) => l !== label).map((l) => store.className(l)),
          )
        : null;
      const rel = relatesToClass(qv.vectors, qv.known.length, e.dim, cv, others, theta);
      for (let r = 0; r < qv.known.length; r++) ballots[m * q + qv.known[r]] = rel[r] as 0 | 1;
      continue;
    }
    const pv = await knownVectors(e, pool);
    const n = pv.known.length;
    if (n === 0) continue;
    const isKey = new Uint8Array(n);
    for (let j = 0; j < n; j++) isKey[j] = store.isKeyword(label, pool[pv.known[j]]) ? 1 : 0;
    const sims = cosineMatrix(qv.vectors, pv.vectors, e.dim);
    for (let r = 0; r < qv.known.length; r++) {
      let maxK = -Infinity;
      let maxF = -Infinity;
      const row = r * n;
      for (let j = 0; j < n; j++) {
        const s = sims[row + j];
        if (isKey[j]) {
          if (s > maxK) maxK = s;
        } else if (s > maxF) maxF = s;
      }
      // Eq. 5: related when the nearest keyword is at least as close as the nearest non-keyword
      ballots[m * q + qv.known[r]] = maxK >= maxF ? 1 : 0;
    }
  }
  const out = pluralityColumns(ballots, members.length, q, 0);
  // function words relate to no class when the configuration says they are never keywords
  if (store.oracle.functionWordsNeverKeywords) words.forEach((w, i) => (out[i] = isFunctionWord(w) ? 0 : out[i]));
  return out;
}
