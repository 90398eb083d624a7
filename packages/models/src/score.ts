import { scoreMasksTs, type MaskScoringNet } from '@xtrust/core';

/**
 * Class probabilities of a built-in net for token-presence masks of one text. Routed through one
 * function so the native kernel (when @xtrust/native provides it) replaces the TS twin everywhere.
 */
export function scoreMasks(net: MaskScoringNet, tokenIds: Int32Array, masks: Uint8Array, rows: number): Float32Array {
  return scoreMasksTs(net, tokenIds, masks, rows);
}
