import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pipeline, Tensor, type TextClassificationPipeline } from '@huggingface/transformers';
import { checkProbabilities, XtrustError, type AttentionMap, type Classifier, type TextLimit } from '@xtrust/core';
import { alignTokens, findAttentionOutput, splitAttention } from './attention.js';
import { encodeBatch, piecesOf, reverseVocab } from './hf-tokenizer-loader.js';
import { requireFile, requirePositiveInt, requireText, requireTexts } from './inputs.js';
import { labelsFromId2Label } from './labels.js';
import { pieceTokenizer, seenWordCount, type PieceTokenizer } from './masked-ids.js';

export interface HfClassifierOptions {
  /** Allow a Hugging Face hub id (downloads). Default false: only a local folder loads. */
  allowRemote?: boolean;
  /** Texts per pipeline call. Default 32. */
  batchSize?: number;
  /** Weights variant transformers.js loads (`fp32` = onnx/model.onnx). Default `fp32`. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';
  /** Name used in error messages. Default `Hugging Face model <path>`. */
  name?: string;
}

type RawModel = {
  config: { id2label?: Record<string, string> };
  sessions: Record<string, { outputNames: string[] }>;
  forward(inputs: Record<string, Tensor>): Promise<Record<string, Tensor>>;
};

/**
 * A classifier run by transformers.js' `text-classification` pipeline. By default only a local
 * folder in Hugging Face layout loads (no network: `local_files_only`); a hub id needs
 * `allowRemote: true`. `predictProba` returns every class score in config.json's id2label order.
 *
 * When the ONNX graph also outputs attention weights (`last_attention`, `attentions`, `attentions.N`),
 * the instance has `attentions(texts)` (an AttentionProvider); otherwise it has no such method.
 *
 * A TextLimit: the pipeline cuts a text's ids at the tokenizer's `model_max_length`, and `seenWords`
 * says how many of its words the model still sees.
 */
export class HfClassifier implements Classifier, TextLimit {
  readonly attentions?: (texts: readonly string[]) => Promise<AttentionMap[]>;
  private reverse: Map<number, string> | null = null;
  private pieces: PieceTokenizer | null = null;

  private constructor(
    readonly name: string,
    readonly labels: readonly string[],
    private readonly pipe: TextClassificationPipeline,
    private readonly batchSize: number,
    readonly attentionOutput: string | null,
  ) {
    if (attentionOutput) this.attentions = (texts) => this.computeAttentions(texts);
  }

  /** Loads a local model folder, or (with `allowRemote`) a hub id. FILE_NOT_FOUND names a missing file. */
  static async load(modelPathOrId: string, options: HfClassifierOptions = {}): Promise<HfClassifier> {
    if (typeof modelPathOrId !== 'string' || modelPathOrId.length === 0)
      throw new XtrustError('INVALID_ARGUMENT', 'HfClassifier: a model folder (or hub id) is required', {
        argument: 'model',
      });
    const batchSize = requirePositiveInt(options.batchSize ?? 32, 'batchSize');
    const dtype = options.dtype ?? 'fp32';
    const local = isAbsolute(modelPathOrId) ? modelPathOrId : resolve(modelPathOrId);
    const isFolder = existsSync(local) && statSync(local).isDirectory();
    let target: string;
    let name: string;
    if (isFolder) {
      target = local;
      name = options.name ?? `Hugging Face model ${local}`;
      for (const f of [
        'config.json',
        'tokenizer.json',
        'tokenizer_config.json',
        dtype === 'fp32' ? 'onnx/model.onnx' : `onnx/model_${dtype === 'q8' ? 'quantized' : dtype}.onnx`,
      ])
        requireFile(local, f, name);
    } else if (options.allowRemote) {
      target = modelPathOrId;
      name = options.name ?? `Hugging Face model ${modelPathOrId}`;
    } else {
      throw new XtrustError(
        'FILE_NOT_FOUND',
        `HfClassifier: model folder ${local} does not exist (remote loading is disabled; pass allowRemote: true to load "${modelPathOrId}" from the Hugging Face hub)`,
        { file: local },
      );
    }
    let pipe: TextClassificationPipeline;
    try {
      pipe = (await pipeline('text-classification', target, {
        local_files_only: isFolder || !options.allowRemote,
        dtype,
      })) as TextClassificationPipeline;
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${name}: transformers.js cannot load it: ${(e as Error).message}`,
        { file: target },
        { cause: e },
      );
    }
    const model = pipe.model as unknown as RawModel;
    const labels = labelsFromId2Label(model.config.id2label, `${name} config.json`);
    const outputs = model.sessions.model?.outputNames ?? [];
    return new HfClassifier(name, labels, pipe, batchSize, findAttentionOutput(outputs));
  }

  /** n×k probabilities (labels order), `batchSize` texts per pipeline call. */
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    requireTexts(texts, this.name);
    const k = this.labels.length;
    const index = new Map(this.labels.map((l, i) => [l, i]));
    const out = new Float32Array(texts.length * k).fill(NaN);
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const result = (await this.pipe([...batch], { top_k: k })) as unknown;
      const rows = (k === 1 ? (result as unknown[]).map((r) => [r]) : result) as { label: string; score: number }[][];
      if (!Array.isArray(rows) || rows.length !== batch.length) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${this.name} returned ${Array.isArray(rows) ? rows.length : typeof rows} results for ${batch.length} texts`,
          { source: this.name },
        );
      }
      rows.forEach((scores, j) => {
        for (const { label, score } of scores) {
          const c = index.get(label);
          if (c === undefined)
            throw new XtrustError(
              'BAD_MODEL_OUTPUT',
              `${this.name} returned label "${label}", not one of ${this.labels.join(', ')}`,
              { source: this.name },
            );
          out[(s + j) * k + c] = score;
        }
      });
    }
    return checkProbabilities(out, texts.length, k, this.name);
  }

  /**
   * TextLimit: how many leading words of core's `tokenize(text)` the model sees whole — fewer than the
   * text has when its ids (special tokens included) pass the tokenizer's `model_max_length`, where the
   * `text-classification` pipeline (`truncation: true`) cuts them, keeping the start; see `seenWordCount`.
   * That is the limit transformers.js truncates at (config.json's `max_position_embeddings` is not read
   * by it); a tokenizer_config.json without `model_max_length` cuts nothing, so every word counts as seen.
   */
  seenWords(text: string): number {
    requireText(text, this.name);
    this.pieces ??= pieceTokenizer(this.pipe.tokenizer);
    return seenWordCount(this.pieces, text);
  }

  private async computeAttentions(texts: readonly string[]): Promise<AttentionMap[]> {
    requireTexts(texts, this.name);
    const name = this.attentionOutput!;
    const tokenizer = this.pipe.tokenizer;
    const model = this.pipe.model as unknown as RawModel;
    this.reverse ??= reverseVocab(tokenizer);
    const maps: AttentionMap[] = [];
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const enc = encodeBatch(tokenizer, batch);
      const dims = [enc.batch, enc.sequence];
      const out = await model.forward({
        input_ids: new Tensor('int64', enc.inputIds, dims),
        attention_mask: new Tensor('int64', enc.attentionMask, dims),
      });
      const t = out[name];
      if (!t)
        throw new XtrustError('BAD_MODEL_OUTPUT', `${this.name}: the model returned no "${name}" output`, {
          source: this.name,
        });
      const tokens = enc.ids.map((ids, b) => alignTokens(batch[b], piecesOf(tokenizer, ids, this.reverse!)));
      maps.push(...splitAttention(t.data as Float32Array, t.dims, tokens, this.name));
    }
    return maps;
  }
}
