import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import {
  checkProbabilities,
  hiddenSizeOf,
  readHfConfig,
  tokenize,
  XtrustError,
  type AttentionMap,
  type Classifier,
  type GradientOptions,
  type InputGradients,
  type TextLimit,
  type TokenScorer,
} from '@xtrust/core';
import { alignTokens, findAttentionOutput, findLayerAttentionOutputs, splitAttention } from './attention.js';
import { encodeBatch, loadLocalTokenizer, piecesOf, reverseVocab, type EncodedBatch } from './hf-tokenizer-loader.js';
import { requireFile, requirePositiveInt, requireText, requireTexts } from './inputs.js';
import { labelsFromConfig } from './labels.js';
import { defaultBatchTokens, scoreIdRows, type PaddedBatch, type ScoringStats } from './length-batches.js';
import {
  MaskedIds,
  encodeIds,
  pieceTokenizer,
  removeTokens,
  seenWordCount,
  type IdRows,
  type PieceTokenizer,
} from './masked-ids.js';
import { GRADIENT_GRAPH_FILE, OnnxGradientGraph, transformerInputGradients } from './onnx-gradients.js';
import { readOnnxGraph } from './onnx-external-data.js';
import { quantizeMatMulWeights } from './quantize-int8.js';
import { SessionPool } from './session-pool.js';
import { sessionOptions, type SessionTuning } from './session-options.js';

export interface OnnxClassifierOptions {
  /** Label order of the logits (default: config.json's id2label). */
  labels?: readonly string[];
  /** Texts per ONNX run, at most. Default 32. */
  batchSize?: number;
  /**
   * Positions (rows × padded length) per ONNX run, at most, for the length-sorted scoring batches:
   * long rows go in fewer-row batches, keeping a batch's activations in cache. Default
   * DEFAULT_BATCH_ACTIVATIONS / the hidden size in config.json (1,024 on a 768-wide model, 3,072 on a
   * 256-wide one), row batches only when config.json gives no width; Infinity for row batches only.
   */
  batchTokens?: number;
  /** Path of the graph inside the folder. Default `onnx/model.onnx`. */
  modelFile?: string;
  /** Name used in error messages. Default `ONNX model <folder>`. */
  name?: string;
  /** onnxruntime intra-op threads, in all. Default: onnxruntime's choice (with `sessions`, one per session). */
  threads?: number;
  /**
   * onnxruntime sessions that score batches in parallel, each in its own worker thread on `threads /
   * sessions` intra-op threads (at least one). Default 1: one session on `threads`. Several single-thread
   * sessions use the cores better than one session on all of them on a small transformer (session-pool.ts);
   * the probabilities are the same bytes either way (tested). Scoring only: attention and gradients use
   * the main session.
   */
  sessions?: number;
  /** onnxruntime session settings beyond the thread count (see session-options.ts for the measured defaults). */
  session?: SessionTuning;
  /** Sort rows by length and score duplicates once (default true); false only to measure what it saves. */
  sortByLength?: boolean;
  /**
   * Optional faster mode, off by default: `int8` rewrites the graph's weight matrix products to dynamic
   * int8 at load (quantize-int8.ts). Approximate — its agreement with the float model is measured in
   * apps/bench (transformer-lime), not assumed.
   */
  quantize?: 'int8';
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
export class OnnxClassifier implements Classifier, TokenScorer, TextLimit {
  readonly attentions?: (texts: readonly string[]) => Promise<AttentionMap[]>;
  /** Every layer's maps (LayerAttentionProvider), when the graph outputs them (`attentions.N` per layer, or a stacked `attentions`). */
  readonly layerAttentions?: (texts: readonly string[]) => Promise<AttentionMap[][]>;
  readonly inputGradients?: (text: string, labelIndex: number, options?: GradientOptions) => Promise<InputGradients>;
  private gradientGraph: Promise<OnnxGradientGraph> | null = null;
  private reverse: Map<number, string> | null = null;
  private readonly pieces: PieceTokenizer;
  private readonly pieceCache = new Map<string, Int32Array>();
  /** Running totals of the scoring calls (rows, distinct rows, graph runs, positions, time in the graph). */
  readonly scoringStats: ScoringStats = { rows: 0, distinct: 0, runs: 0, positions: 0, tokens: 0, runMs: 0 };
  /** onnxruntime's profiler is on (OnnxClassifierOptions.session.profileFilePrefix) and not yet ended. */
  private profiling = false;

  private constructor(
    readonly name: string,
    readonly labels: readonly string[],
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly batchSize: number,
    /** Positions per scoring run, at most (OnnxClassifierOptions.batchTokens, resolved). */
    readonly batchTokens: number,
    private readonly logitsName: string,
    readonly attentionOutput: string | null,
    private readonly sortByLength = true,
    readonly gradientGraphPath: string | null = null,
    private readonly gradientOptions: { threads?: number; batchSize: number } = { batchSize: 64 },
    /** Parallel scoring sessions (OnnxClassifierOptions.sessions > 1), else null. */
    private readonly pool: SessionPool | null = null,
  ) {
    if (attentionOutput) this.attentions = (texts) => this.computeAttentions(texts);
    const layerOutputs = findLayerAttentionOutputs(session.outputNames);
    if (layerOutputs.length > 0) this.layerAttentions = (texts) => this.computeLayerAttentions(texts, layerOutputs);
    if (gradientGraphPath)
      this.inputGradients = (text, labelIndex, options) => this.computeGradients(text, labelIndex, options);
    this.pieces = pieceTokenizer(tokenizer);
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
    const batchTokens = options.batchTokens ?? defaultBatchTokens(hiddenSizeOf(readHfConfig(dir)));
    if (batchTokens !== Infinity) requirePositiveInt(batchTokens, 'batchTokens');
    const sessions = requirePositiveInt(options.sessions ?? 1, 'sessions');
    if (options.session?.profileFilePrefix !== undefined && sessions > 1) {
      // the pool's sessions live in worker threads, out of reach of endProfiling()
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${name}: session.profileFilePrefix profiles the main session only, so it needs sessions: 1 (got ${sessions})`,
        { argument: 'sessions' },
      );
    }
    let session: ort.InferenceSession;
    let graph: string | Uint8Array = modelPath;
    try {
      if (options.quantize === 'int8') {
        graph = quantizeMatMulWeights(readOnnxGraph(modelPath, name)).bytes;
        session = await ort.InferenceSession.create(graph, sessionOptions(options.threads, options.session));
      } else session = await ort.InferenceSession.create(modelPath, sessionOptions(options.threads, options.session));
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${name}: onnxruntime cannot load ${modelPath}: ${(e as Error).message}`,
        { file: modelPath },
        { cause: e },
      );
    }
    for (const input of session.inputNames) {
      if (!['input_ids', 'attention_mask', 'token_type_ids'].includes(input)) {
        throw new XtrustError(
          'UNSUPPORTED',
          `${name}: graph input "${input}" is not one of input_ids, attention_mask, token_type_ids`,
          { input },
        );
      }
    }
    const logitsName = session.outputNames.includes('logits') ? 'logits' : null;
    if (!logitsName)
      throw new XtrustError(
        'UNSUPPORTED',
        `${name}: the graph has no "logits" output (outputs: ${session.outputNames.join(', ')})`,
      );
    const tokenizer = await loadLocalTokenizer(dir, name);
    const gradientPath = resolve(dir, options.gradientFile ?? GRADIENT_GRAPH_FILE);
    if (options.gradientFile !== undefined) requireFile(dir, options.gradientFile, name);
    const gradientBatchSize = requirePositiveInt(options.gradientBatchSize ?? 64, 'gradientBatchSize');
    const threadsEach = Math.max(1, Math.floor((options.threads ?? sessions) / sessions));
    const pool =
      sessions > 1
        ? await SessionPool.create(graph, sessions, sessionOptions(threadsEach, options.session), logitsName, name)
        : null;
    const classifier = new OnnxClassifier(
      name,
      labels,
      session,
      tokenizer,
      batchSize,
      batchTokens,
      logitsName,
      findAttentionOutput(session.outputNames),
      options.sortByLength ?? true,
      existsSync(gradientPath) ? gradientPath : null,
      {
        threads: options.threads,
        batchSize: gradientBatchSize,
      },
      pool,
    );
    classifier.profiling = options.session?.profileFilePrefix !== undefined;
    return classifier;
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

  /**
   * n×k probabilities: softmax of the logits. Each text is tokenised once; identical id sequences are
   * run once and the rest sorted by length into batches of `batchSize` (README, "Transformer
   * scoring"), so a short text is never padded to a long one.
   */
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    requireTexts(texts, this.name);
    const rows = texts.map((t) => encodeIds(this.pieces, t));
    return this.scoreRows(stackRows(rows));
  }

  /**
   * TokenScorer: rows×k probabilities of `text` with the tokens of core's `tokenize(text)` whose mask
   * byte is 0 removed (separators kept). The text is tokenised once; each row's ids are assembled from
   * its words' pieces (MaskedIds), which equals tokenising the rebuilt string — a text for which that
   * cannot be guaranteed (see PieceTokenizer) is scored by rebuilding its strings instead. Rows then go
   * through the same length-sorted, de-duplicated batches as `predictProba`.
   */
  async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    return this.scoreRows(this.maskedIds(text, masks, rows));
  }

  /**
   * TextLimit: how many leading words of core's `tokenize(text)` the model sees whole — fewer than the
   * text has when its ids pass the tokenizer's `model_max_length` and are cut (see `seenWordCount`).
   */
  seenWords(text: string): number {
    requireText(text, this.name);
    return seenWordCount(this.pieces, text);
  }

  /** The id rows `scoreTokenMasks` runs (exposed for the equivalence tests and the profile). */
  maskedIds(text: string, masks: Uint8Array, rows: number): IdRows & { readonly path: 'pieces' | 'strings' } {
    requireText(text, this.name);
    const tokens = tokenize(text);
    if (
      !(masks instanceof Uint8Array) ||
      !Number.isInteger(rows) ||
      rows < 0 ||
      masks.length !== rows * tokens.length
    ) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${this.name}: masks must be a Uint8Array of rows × tokens = ${rows} × ${tokens.length} bytes (one per word of tokenize(text)), got ${masks instanceof Uint8Array ? masks.length : typeof masks}`,
        { argument: 'masks' },
      );
    }
    const prepared = MaskedIds.prepare(this.pieces, text, this.pieceCache);
    if (this.pieceCache.size > 200_000) this.pieceCache.clear();
    if (prepared) return { ...prepared.build(masks, rows), path: 'pieces' };
    const built: Int32Array[] = [];
    for (let r = 0; r < rows; r++) built.push(encodeIds(this.pieces, removeTokens(text, tokens, masks, r)));
    return { ...stackRows(built), path: 'strings' };
  }

  private async scoreRows(rows: IdRows): Promise<Float32Array> {
    const k = this.labels.length;
    if (rows.rows === 0) return new Float32Array(0);
    const check = (dims: readonly number[], batch: number) => {
      if (dims.length !== 2 || dims[0] !== batch || dims[1] !== k) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${this.name} returned logits of shape [${dims.join(', ')}]; expected [${batch}, ${k}] (one logit per label: ${this.labels.join(', ')})`,
          { source: this.name },
        );
      }
    };
    const pool = this.pool;
    const run = pool
      ? async (b: PaddedBatch) => {
          const batch = b.batch;
          const { logits, dims } = await pool.run(b);
          check(dims, batch);
          return logits;
        }
      : async (b: PaddedBatch) => {
          const result = await this.session.run(
            this.feeds({
              inputIds: b.inputIds,
              attentionMask: b.attentionMask,
              batch: b.batch,
              sequence: b.sequence,
              ids: [],
            }),
            [this.logitsName],
          );
          const logits = result[this.logitsName];
          check(logits.dims, b.batch);
          return logits.data as Float32Array;
        };
    const out = await scoreIdRows(
      rows,
      k,
      run,
      {
        batchSize: this.batchSize,
        batchTokens: this.batchTokens,
        padId: this.tokenizer.pad_token_id ?? 0,
        sortByLength: this.sortByLength,
        concurrency: pool?.size ?? 1,
      },
      this.scoringStats,
    );
    return checkProbabilities(out, rows.rows, k, this.name);
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

  /** Per text, one map per layer (first to last): separate `attentions.N` outputs, or the layers of a stacked `attentions`. */
  private async computeLayerAttentions(texts: readonly string[], names: readonly string[]): Promise<AttentionMap[][]> {
    requireTexts(texts, this.name);
    this.reverse ??= reverseVocab(this.tokenizer);
    const out: AttentionMap[][] = [];
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const enc = encodeBatch(this.tokenizer, batch);
      const result = await this.session.run(this.feeds(enc), [...names]);
      const tokens = enc.ids.map((ids, b) => alignTokens(batch[b], piecesOf(this.tokenizer, ids, this.reverse!)));
      const perLayer: AttentionMap[][] = [];
      for (const name of names) {
        const t = result[name];
        if (t.dims.length === 5)
          for (let l = 0; l < t.dims[0]; l++)
            perLayer.push(splitAttention(t.data as Float32Array, t.dims, tokens, this.name, l));
        else perLayer.push(splitAttention(t.data as Float32Array, t.dims, tokens, this.name));
      }
      for (let b = 0; b < batch.length; b++) out.push(perLayer.map((layer) => layer[b]));
    }
    return out;
  }

  private async computeGradients(text: string, labelIndex: number, options?: GradientOptions): Promise<InputGradients> {
    this.gradientGraph ??= OnnxGradientGraph.load(
      this.gradientGraphPath!,
      this.labels.length,
      this.name,
      this.gradientOptions.threads,
    );
    this.reverse ??= reverseVocab(this.tokenizer);
    const ctx = {
      source: this.name,
      labels: this.labels,
      tokenizer: this.tokenizer,
      reverse: this.reverse,
      graph: await this.gradientGraph,
      batchSize: this.gradientOptions.batchSize,
    };
    return transformerInputGradients(ctx, text, labelIndex, options);
  }

  /**
   * Ends onnxruntime's profiler (the load's `session.profileFilePrefix`) and writes its trace, one event
   * per node run (`cat: 'Node'`, `dur` in µs, `args.op_name`), to `<prefix>_<date and time>.json`. Without
   * profiling it does nothing.
   */
  endProfiling(): void {
    if (this.profiling) this.session.endProfiling();
    this.profiling = false;
  }

  /** Frees the onnxruntime sessions. */
  async release(): Promise<void> {
    await this.session.release();
    if (this.pool) await this.pool.release();
    // A gradient graph that failed to load has nothing to free.
    if (this.gradientGraph)
      await this.gradientGraph.then(
        (g) => g.release(),
        () => undefined,
      );
  }
}

/** Id rows of separate arrays, as one flat IdRows. */
function stackRows(rows: readonly Int32Array[]): IdRows {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + r.length));
  const ids = new Int32Array(offsets[rows.length]);
  rows.forEach((r, i) => ids.set(r, offsets[i]));
  return { ids, offsets, rows: rows.length };
}
