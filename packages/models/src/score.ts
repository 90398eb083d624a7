import type { MaskScoringNet } from '@xtrust/core';
import { scoreMasks as nativeScoreMasks } from '@xtrust/native';

/**
 * Class probabilities of a built-in net for token-presence masks of one text. Routed through one
 * function so that @xtrust/native's kernel (the C++ addon when built, core's TS twin otherwise) serves
 * predictProba and scoreTokenMasks alike.
 */
export function scoreMasks(net: MaskScoringNet, tokenIds: Int32Array, masks: Uint8Array, rows: number): Float32Array {
  return nativeScoreMasks(net, tokenIds, masks, rows);
}
