import { isAbsolute, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { existsSync } from 'node:fs';
import { checkProbabilities, XtrustError, type AttentionMap, type Classifier, type GradientOptions, type InputGradients } from '@xtrust/core';
import { alignTokens, findAttentionOutput, splitAttention } from './attention.js';
import { encodeBatch, loadLocalTokenizer, piecesOf, reverseVocab, type EncodedBatch } from './hf-tokenizer-loader.js';
import { requireFile, requirePositiveInt, requireTexts } from './inputs.js';
import { labelsFromConfig, softmaxLogits } from './labels.js';
import { GRADIENT_GRAPH_FILE, OnnxGradientGraph, transformerInputGradients } from './onnx-gradients.js';

export interface OnnxClassifierOptions {
  /** Label order of the logits (default: config.json's id2label). */
  labels?: readonly string[];
  /** Texts per ONNX run. Default 32. */
  batchSize?: number;
  /** Path of the graph inside the folder. Default `onnx/model.onnx`. */
  modelFile?: string;
  /** Name used in error messages. Default `ONNX model <folder>`. */
  name?: string;
  /** onnxruntime intra-op threads. Default: onnxruntime's choice. */
  threads?: number;
  /** Gradient graph inside the folder (kit contract). Default `onnx/model_grad.onnx`; used when present. */
  gradientFile?: string;
  /** Scales per gradient-graph run (integrated gradients' steps are batched). Default 64. */
  gradientBatchSize?: number;
}

/**
 * A classifier from a folder in Hugging Face layout (onnx/model.onnx, tokenizer.json,
 * tokenizer_config.json, config.json), run by onnxruntime-node; texts are tokenised by
 * transformers.js from the folder's tokenizer.json, never from the network. The graph takes
 * `input_ids`, `attention_mask` (and `token_type_ids`, fed zeros) and outputs `logits`.
 *
 * When the graph also outputs attention weights (`last_attention`, `attentions`, `attentions.N`),
 * the instance has `attentions(texts)` and is an AttentionProvider; otherwise it has no such method.
 * When the folder has a gradient graph (`onnx/model_grad.onnx`, see onnx-gradients.ts), the instance
 * has `inputGradients` and is a GradientProvider (the graph is loaded on first use).
 */
export class OnnxClassifier implements Classifier {
  readonly attentions?: (texts: readonly string[]) => Promise<AttentionMap[]>;
  readonly inputGradients?: (text: string, labelIndex: number, options?: GradientOptions) => Promise<InputGradients>;
  private gradientGraph: Promise<OnnxGradientGraph> | null = null;
  private reverse: Map<number, string> | null = null;

  private constructor(
    readonly name: string,
    readonly labels: readonly string[],
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly batchSize: number,
    private readonly logitsName: string,
    readonly attentionOutput: string | null,
    readonly gradientGraphPath: string | null = null,
    private readonly gradientOptions: { threads?: number; batchSize: number } = { batchSize: 64 },
  ) {
    if (attentionOutput) this.attentions = (texts) => this.computeAttentions(texts);
    if (gradientGraphPath) this.inputGradients = (text, labelIndex, options) => this.computeGradients(text, labelIndex, options);
  }

  /** Loads a model folder. FILE_NOT_FOUND names a missing file. */
  static async load(folder: string, options: OnnxClassifierOptions = {}): Promise<OnnxClassifier> {
    const dir = isAbsolute(folder) ? folder : resolve(folder);
    const name = options.name ?? `ONNX model ${dir}`;
    const modelPath = requireFile(dir, options.modelFile ?? 'onnx/model.onnx', name);
    requireFile(dir, 'tokenizer.json', name);
    requireFile(dir, 'tokenizer_config.json', name);
    const labels = options.labels ? [...options.labels] : await labelsFromConfig(dir, name);
    if (labels.length < 1) throw new XtrustError('INVALID_ARGUMENT', `${name}: no labels`, { argument: 'labels' });
    const batchSize = requirePositiveInt(options.batchSize ?? 32, 'batchSize');
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(modelPath, options.threads ? { intraOpNumThreads: options.threads } : {});
    } catch (e) {
      throw new XtrustError('FILE_UNREADABLE', `${name}: onnxruntime cannot load ${modelPath}: ${(e as Error).message}`, { file: modelPath }, { cause: e });
    }
    for (const input of session.inputNames) {
      if (!['input_ids', 'attention_mask', 'token_type_ids'].includes(input)) {
        throw new XtrustError('UNSUPPORTED', `${name}: graph input "${input}" is not one of input_ids, attention_mask, token_type_ids`, { input });
      }
    }
    const logitsName = session.outputNames.includes('logits') ? 'logits' : null;
    if (!logitsName) throw new XtrustError('UNSUPPORTED', `${name}: the graph has no "logits" output (outputs: ${session.outputNames.join(', ')})`);
    const tokenizer = await loadLocalTokenizer(dir, name);
    const gradientPath = resolve(dir, options.gradientFile ?? GRADIENT_GRAPH_FILE);
    if (options.gradientFile !== undefined) requireFile(dir, options.gradientFile, name);
    const gradientBatchSize = requirePositiveInt(options.gradientBatchSize ?? 64, 'gradientBatchSize');
    return new OnnxClassifier(name, labels, session, tokenizer, batchSize, logitsName, findAttentionOutput(session.outputNames), existsSync(gradientPath) ? gradientPath : null, {
      threads: options.threads,
      batchSize: gradientBatchSize,
    });
  }

  private feeds(enc: EncodedBatch): Record<string, ort.Tensor> {
    const dims = [enc.batch, enc.sequence];
    const feeds: Record<string, ort.Tensor> = {};
    for (const input of this.session.inputNames) {
      if (input === 'input_ids') feeds[input] = new ort.Tensor('int64', enc.inputIds, dims);
      else if (input === 'attention_mask') feeds[input] = new ort.Tensor('int64', enc.attentionMask, dims);
      else feeds[input] = new ort.Tensor('int64', new BigInt64Array(enc.batch * enc.sequence), dims);
    }
    return feeds;
  }

  /** n×k probabilities: softmax of the logits, batched `batchSize` texts per run. */
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    requireTexts(texts, this.name);
    const k = this.labels.length;
    const out = new Float32Array(texts.length * k);
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const enc = encodeBatch(this.tokenizer, batch);
      const result = await this.session.run(this.feeds(enc), [this.logitsName]);
      const logits = result[this.logitsName];
      if (logits.dims.length !== 2 || logits.dims[0] !== batch.length || logits.dims[1] !== k) {
        throw new XtrustError('BAD_MODEL_OUTPUT', `${this.name} returned logits of shape [${logits.dims.join(', ')}]; expected [${batch.length}, ${k}] (one logit per label: ${this.labels.join(', ')})`, { source: this.name });
      }
      out.set(softmaxLogits(logits.data as Float32Array, batch.length, k), s * k);
    }
    return checkProbabilities(out, texts.length, k, this.name);
  }

  private async computeAttentions(texts: readonly string[]): Promise<AttentionMap[]> {
    requireTexts(texts, this.name);
    const name = this.attentionOutput!;
    this.reverse ??= reverseVocab(this.tokenizer);
    const maps: AttentionMap[] = [];
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const enc = encodeBatch(this.tokenizer, batch);
      const result = await this.session.run(this.feeds(enc), [name]);
      const t = result[name];
      const tokens = enc.ids.map((ids, b) => alignTokens(batch[b], piecesOf(this.tokenizer, ids, this.reverse!)));
      maps.push(...splitAttention(t.data as Float32Array, t.dims, tokens, this.name));
    }
    return maps;
  }

  private async computeGradients(text: string, labelIndex: number, options?: GradientOptions): Promise<InputGradients> {
    this.gradientGraph ??= OnnxGradientGraph.load(this.gradientGraphPath!, this.labels.length, this.name, this.gradientOptions.threads);
    this.reverse ??= reverseVocab(this.tokenizer);
    const ctx = { source: this.name, labels: this.labels, tokenizer: this.tokenizer, reverse: this.reverse, graph: await this.gradientGraph, batchSize: this.gradientOptions.batchSize };
    return transformerInputGradients(ctx, text, labelIndex, options);
  }

  /** Frees the onnxruntime sessions. */
  async release(): Promise<void> {
    await this.session.release();
    // A gradient graph that failed to load has nothing to free.
    if (this.gradientGraph) await this.gradientGraph.then((g) => g.release(), () => undefined);
  }
}
