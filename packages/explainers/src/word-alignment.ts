import type { ModelToken } from '@xtrust/core';
import type { TextFeatures } from './text-features.js';

/**
 * Maps a model's tokens (words or sub-words, with offsets into the text) to the features of
 * `textFeatures(text)`: a token belongs to the word whose character span it overlaps (the first such
 * word when it spans several). Special tokens, tokens with an empty span and tokens that overlap no
 * word (punctuation, padding) map to −1.
 */
export function alignTokens(tf: TextFeatures, tokens: readonly ModelToken[]): Int32Array {
  const words = tf.tokens;
  const out = new Int32Array(tokens.length).fill(-1);
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t];
    if (tok.special || !(tok.end > tok.start)) continue;
    // last word starting before the token ends
    let lo = 0;
    let hi = words.length - 1;
    let w = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (words[mid].start < tok.end) {
        w = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // walk back to the first word overlapping the token
    while (w > 0 && words[w - 1].end > tok.start) w--;
    if (w >= 0 && words[w].end > tok.start && words[w].start < tok.end) out[t] = tf.tokenToFeature[w];
  }
  return out;
}

/** How token scores combine into a word's score. */
export type Aggregation = 'sum' | 'mean' | 'root-sum-square';

/**
 * Word-level scores from token-level ones through an alignment: `sum` (additive attributions:
 * gradient·input, integrated gradients), `mean` (attention), `root-sum-square` (`scores` hold squared
 * norms; the word's score is the L2 norm of all its tokens' vectors together). Returns the per-feature
 * scores, which features some token covered, and the total of the scores of unaligned tokens.
 */
export function aggregateToFeatures(
  d: number,
  alignment: Int32Array,
  scores: ArrayLike<number>,
  how: Aggregation,
): { weights: Float64Array; covered: Uint8Array; dropped: number } {
  const weights = new Float64Array(d);
  const counts = new Float64Array(d);
  let dropped = 0;
  for (let t = 0; t < alignment.length; t++) {
    const f = alignment[t];
    if (f < 0) {
      dropped += scores[t];
      continue;
    }
    weights[f] += scores[t];
    counts[f] += 1;
  }
  const covered = new Uint8Array(d);
  for (let f = 0; f < d; f++) {
    if (counts[f] === 0) continue;
    covered[f] = 1;
    if (how === 'mean') weights[f] /= counts[f];
    else if (how === 'root-sum-square') weights[f] = Math.sqrt(weights[f]);
  }
  return { weights, covered, dropped };
}
