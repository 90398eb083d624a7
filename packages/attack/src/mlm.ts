import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { XtrustError } from '@xtrust/core';
import { isSingleToken } from './text.js';

/**
 * A masked language model: for one text with several words masked at once, the `topK` most probable
 * whole-word fillers of each mask, best first (CEA's L(s_{b→[MASK]}), 002 Algorithm 1 line 6).
 */
export interface MaskedWordModel {
  readonly name: string;
  fill(
    words: readonly string[],
    separators: readonly string[],
    masked: readonly number[],
    topK: number,
  ): Promise<string[][]>;
}

interface HfTokenizer {
  (
    text: string,
    options?: Record<string, unknown>,
  ): { input_ids: { data: ArrayLike<bigint | number> } } & Record<string, unknown>;
  mask_token?: string;
  mask_token_id?: number;
  decode(ids: number[], options?: Record<string, unknown>): string;
}
interface HfFillMaskPipe {
  tokenizer: HfTokenizer;
  model: (inputs: Record<string, unknown>) => Promise<{ logits: { data: Float32Array; dims: number[] } }>;
}

/**
 * A fill-mask model (DistilBERT-MLM in the paper; any BERT-style MLM) loaded through
 * @huggingface/transformers from a local folder in Hugging Face layout (config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model.onnx), or from the hub when `allowRemote` is set and there is network.
 * All masks of a block are filled from one forward pass (batch masking). Only fillers that are whole words
 * (no `##` continuation piece, letters/digits only) are kept.
 */
export class HfMaskedWordModel implements MaskedWordModel {
  private constructor(
    readonly name: string,
    private readonly pipe: HfFillMaskPipe,
  ) {}

  static async load(folderOrId: string, options: { allowRemote?: boolean } = {}): Promise<HfMaskedWordModel> {
    if (typeof folderOrId !== 'string' || folderOrId.length === 0)
      throw new XtrustError('INVALID_ARGUMENT', 'masked language model: a model folder (or hub id) is required', {
        argument: 'mlm',
      });
    const local = isAbsolute(folderOrId) ? folderOrId : resolve(folderOrId);
    const isFolder = existsSync(local) && statSync(local).isDirectory();
    if (isFolder) {
      for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
        if (!existsSync(join(local, f))) {
          const what = f.startsWith('tokenizer')
            ? 'its tokenizer'
            : f === 'config.json'
              ? 'its config'
              : 'its ONNX graph';
          throw new XtrustError(
            'FILE_NOT_FOUND',
            `masked language model folder ${local} is missing ${what}: ${f} (expected Hugging Face layout: config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx)`,
            { file: join(local, f) },
          );
        }
      }
    } else if (!options.allowRemote) {
      throw new XtrustError(
        'FILE_NOT_FOUND',
        `masked language model folder ${local} does not exist (remote loading is disabled; pass allowRemote to fetch "${folderOrId}" from the hub)`,
        { file: local },
      );
    }
    const { pipeline } = await import('@huggingface/transformers');
    let pipe: HfFillMaskPipe;
    try {
      pipe = (await pipeline('fill-mask', isFolder ? local : folderOrId, {
        local_files_only: isFolder || !options.allowRemote,
        dtype: 'fp32',
      })) as unknown as HfFillMaskPipe;
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `masked language model ${folderOrId}: transformers.js cannot load it: ${(e as Error).message}`,
        { file: local },
        { cause: e },
      );
    }
    if (pipe.tokenizer.mask_token === undefined || pipe.tokenizer.mask_token_id === undefined) {
      throw new XtrustError('UNSUPPORTED', `masked language model ${folderOrId}: its tokenizer defines no mask token`, {
        file: local,
      });
    }
    return new HfMaskedWordModel(`mlm:${folderOrId}`, pipe);
  }

  async fill(
    words: readonly string[],
    separators: readonly string[],
    masked: readonly number[],
    topK: number,
  ): Promise<string[][]> {
    const tok = this.pipe.tokenizer;
    const maskSet = new Set(masked);
    let text = separators[0] ?? '';
    words.forEach((w, i) => {
      text += (maskSet.has(i) ? tok.mask_token : w) + (separators[i + 1] ?? ' ');
    });
    const inputs = tok(text.trim(), { truncation: true });
    const ids = Array.from(inputs.input_ids.data, Number);
    const { logits } = await this.pipe.model(inputs);
    const V = logits.dims[logits.dims.length - 1];
    const positions: number[] = [];
    ids.forEach((id, t) => {
      if (id === tok.mask_token_id) positions.push(t);
    });
    // masks in text order ↔ masked indices in ascending order; a truncated text loses its late masks
    const order = [...masked].map((m, n) => ({ m, n })).sort((a, b) => a.m - b.m);
    const out: string[][] = masked.map(() => []);
    order.forEach(({ m, n }, r) => {
      const t = positions[r];
      if (t === undefined) return;
      const row = logits.data.subarray(t * V, (t + 1) * V);
      const idx = Array.from({ length: V }, (_, j) => j).sort((a, b) => row[b] - row[a]);
      const seen = new Set<string>();
      for (const j of idx) {
        if (out[n].length >= topK || seen.size > topK * 20) break;
        const piece = tok.decode([j], { skip_special_tokens: true }).trim();
        if (seen.has(piece)) continue;
        seen.add(piece);
        if (piece.startsWith('##') || !isSingleToken(piece) || piece.toLowerCase() === words[m].toLowerCase()) continue;
        out[n].push(piece);
      }
    });
    return out;
  }
}
