import { isAbsolute, resolve } from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { XtrustError } from '@xtrust/core';
import type { TokenPiece } from './attention.js';

/** Loads tokenizer.json + tokenizer_config.json from a local folder with transformers.js, never from the network. */
export async function loadLocalTokenizer(folder: string, source: string): Promise<PreTrainedTokenizer> {
  // An absolute path is read as a folder, not a hub id, and local_files_only forbids any download.
  const path = isAbsolute(folder) ? folder : resolve(folder);
  try {
    return await AutoTokenizer.from_pretrained(path, { local_files_only: true });
  } catch (e) {
    throw new XtrustError(
      'FILE_UNREADABLE',
      `${source}: cannot load the tokenizer in ${path}: ${(e as Error).message}`,
      { file: path },
      { cause: e },
    );
  }
}

/** A tokenised batch, right-padded, as int64 arrays for ONNX. */
export interface EncodedBatch {
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  readonly batch: number;
  readonly sequence: number;
  /** Unpadded ids of each text. */
  readonly ids: number[][];
}

/**
 * Tokenises texts with padding and the tokenizer's truncation. A batch whose texts all tokenise to
 * nothing gets one padding position (mask 0), so the graph never sees a zero-length axis.
 */
export function encodeBatch(tokenizer: PreTrainedTokenizer, texts: readonly string[]): EncodedBatch {
  const enc = tokenizer([...texts], { padding: true, truncation: true, return_tensor: false }) as unknown as {
    input_ids: number[][];
    attention_mask: number[][];
  };
  const B = texts.length;
  const ids = enc.input_ids.map((row, b) => row.filter((_, s) => Number(enc.attention_mask[b][s]) === 1).map(Number));
  const S = Math.max(1, ...ids.map((r) => r.length));
  const pad = BigInt(tokenizer.pad_token_id ?? 0);
  const inputIds = new BigInt64Array(B * S).fill(pad);
  const attentionMask = new BigInt64Array(B * S);
  ids.forEach((row, b) => {
    row.forEach((id, s) => {
      inputIds[b * S + s] = BigInt(id);
      attentionMask[b * S + s] = 1n;
    });
  });
  return { inputIds, attentionMask, batch: B, sequence: S, ids };
}

/** The tokenizer's pieces for ids, with special / unknown flags. */
export function piecesOf(
  tokenizer: PreTrainedTokenizer,
  ids: readonly number[],
  reverse: Map<number, string>,
): TokenPiece[] {
  const special = new Set<number>(tokenizer.all_special_ids as number[]);
  const unk = tokenizer.unk_token_id;
  return ids.map((id) => ({
    token: reverse.get(id) ?? String(id),
    id,
    special: special.has(id) && id !== unk,
    unknown: id === unk,
  }));
}

/** id → token of a tokenizer's vocabulary. */
export function reverseVocab(tokenizer: PreTrainedTokenizer): Map<number, string> {
  const rev = new Map<number, string>();
  const vocab = tokenizer.get_vocab() as Map<string, number> | Record<string, number>;
  const entries = vocab instanceof Map ? vocab.entries() : Object.entries(vocab);
  for (const [t, id] of entries) rev.set(Number(id), t);
  return rev;
}
