import type { Classifier } from '@xtrust/core';
import type { KeywordStore } from '@xtrust/oracle';
import type { Attack } from '../attack.js';
import { tokiPools, type TokiPoolOptions } from '../transformations/index.js';
import { a2t, type A2TOptions } from './a2t.js';

export interface TokiGuidedOptions extends A2TOptions, TokiPoolOptions {
  /** The saved keyword store of this classifier (word pools W_c, keywords K_c, importances s̄_w). */
  store: KeywordStore;
}

/**
 * The TOKI-guided attack (000 §4, Table 1): A2T in every part — goal, gradient word ranking, greedy
 * search, modification rate, POS and sentence-encoder constraints — except the candidates, which come from
 * TOKI's word pools (see `tokiPools`): a keyword of the predicted class with low importance for a related
 * word, a non-keyword of another class with high importance for an unrelated one. Similarity of pool words
 * is the transformation's cosine threshold (`minCos`, default 0.5) in `embedding`, in place of A2T's
 * word-cosine constraint, which Table 1 does not list for either method.
 */
export function tokiGuided(classifier: Classifier, options: TokiGuidedOptions): Attack {
  return a2t(classifier, {
    ...options,
    name: 'toki-guided',
    transformation: tokiPools(options.store, options.embedding, {
      maxCandidates: options.maxCandidates,
      neighbours: options.neighbours,
      minCos: options.minCos,
    }),
  });
}
