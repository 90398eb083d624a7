import * as ort from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { XtrustError, type GradientOptions, type InputGradients } from '@xtrust/core';
import { alignTokens } from './attention.js';
import { encodeBatch, piecesOf } from './hf-tokenizer-loader.js';
import { gradientRequest } from './inputs.js';

/** Where a classifier folder keeps its gradient graph (the kit contract's `model_grad.onnx`). */
export const GRADIENT_GRAPH_FILE = 'onnx/model_grad.onnx';

const GRAPH_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids', 'embedding_scale', 'output_weights'] as const;
const GRAPH_OUTPUTS = ['logits', 'inputs_embeds', 'gradients'] as const;

/** One run of the gradient graph over R rows of one token sequence. */
export interface GradientGraphResult {
  /** R×k logits at each row's scaled input. */
  readonly logits: Float32Array;
  /** Length of a word-piece embedding. */
  readonly dim: number;
  /** T×dim unscaled word-piece embeddings (the same for every row). */
  readonly embeddings: Float32Array;
  /** R×T×dim: ∂(Σ_c w[r,c]·logits[r,c]) / ∂(scaled word-piece embedding), or empty when not fetched. */
  readonly gradients: Float32Array;
}

/**
 * A gradient graph in the kit contract's form (inputs `input_ids`, `attention_mask`, `token_type_ids`,
 * `embedding_scale`, `output_weights`; outputs `logits`, `inputs_embeds`, `gradients`), run by
 * onnxruntime-node. The backward pass lives in the graph itself, so no autodiff is needed here.
 */
export class OnnxGradientGraph {
  private constructor(
    readonly source: string,
    private readonly session: ort.InferenceSession,
    readonly labels: number,
  ) {}

  /** Loads `path`; UNSUPPORTED when the graph lacks one of the contract's inputs or outputs. */
  static async load(path: string, labels: number, source: string, threads?: number): Promise<OnnxGradientGraph> {
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(path, threads ? { intraOpNumThreads: threads } : {});
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${source}: onnxruntime cannot load the gradient graph ${path}: ${(e as Error).message}`,
        { file: path },
        { cause: e },
      );
    }
    const missingIn = GRAPH_INPUTS.filter((n) => !session.inputNames.includes(n));
    const missingOut = GRAPH_OUTPUTS.filter((n) => !session.outputNames.includes(n));
    if (missingIn.length > 0 || missingOut.length > 0) {
      await session.release();
      throw new XtrustError(
        'UNSUPPORTED',
        `${source}: ${path} is not a gradient graph: it lacks ${[...missingIn.map((n) => `input ${n}`), ...missingOut.map((n) => `output ${n}`)].join(', ')} (expected inputs ${GRAPH_INPUTS.join(', ')}; outputs ${GRAPH_OUTPUTS.join(', ')})`,
        { file: path },
      );
    }
    return new OnnxGradientGraph(source, session, labels);
  }

  /**
   * Runs the graph on R copies of one id sequence: `scales` is R×T (each token's word-piece embedding
   * multiplier), `weights` R×k (the output weights). `withGradients` false fetches only the logits.
   */
  async run(
    ids: readonly number[],
    scales: Float32Array,
    weights: Float32Array,
    withGradients = true,
  ): Promise<GradientGraphResult> {
    const T = ids.length;
    const k = this.labels;
    const R = scales.length / T;
    if (T === 0 || !Number.isInteger(R) || R < 1 || weights.length !== R * k) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${this.source}: gradient graph run needs R×T scales and R×k weights (T = ${T}, k = ${k}); got ${scales.length} scales and ${weights.length} weights`,
      );
    }
    const dims = [R, T];
    const inputIds = new BigInt64Array(R * T);
    for (let r = 0; r < R; r++) for (let t = 0; t < T; t++) inputIds[r * T + t] = BigInt(ids[t]);
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, dims),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(R * T).fill(1n), dims),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(R * T), dims),
      embedding_scale: new ort.Tensor('float32', scales, dims),
      output_weights: new ort.Tensor('float32', weights, [R, k]),
    };
    const fetch = withGradients ? ['logits', 'inputs_embeds', 'gradients'] : ['logits', 'inputs_embeds'];
    const out = await this.session.run(feeds, fetch);
    const logits = out.logits;
    if (logits.dims.length !== 2 || logits.dims[0] !== R || logits.dims[1] !== k) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.source}: gradient graph returned logits of shape [${logits.dims.join(', ')}]; expected [${R}, ${k}]`,
        { source: this.source },
      );
    }
    const emb = out.inputs_embeds;
    if (emb.dims.length !== 3 || emb.dims[0] !== R || emb.dims[1] !== T) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.source}: gradient graph returned inputs_embeds of shape [${emb.dims.join(', ')}]; expected [${R}, ${T}, hidden]`,
        { source: this.source },
      );
    }
    const dim = emb.dims[2];
    let gradients: Float32Array = new Float32Array(0);
    if (withGradients) {
      const g = out.gradients;
      if (g.dims.length !== 3 || g.dims[0] !== R || g.dims[1] !== T || g.dims[2] !== dim) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${this.source}: gradient graph returned gradients of shape [${g.dims.join(', ')}]; expected [${R}, ${T}, ${dim}]`,
          { source: this.source },
        );
      }
      gradients = g.data as Float32Array;
    }
    return {
      logits: logits.data as Float32Array,
      dim,
      embeddings: (emb.data as Float32Array).slice(0, T * dim),
      gradients,
    };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/** Softmax of one row of logits, in float64. */
function softmaxRow(logits: Float32Array, offset: number, k: number): Float64Array {
  let max = -Infinity;
  for (let c = 0; c < k; c++) max = Math.max(max, logits[offset + c]);
  const p = new Float64Array(k);
  let z = 0;
  for (let c = 0; c < k; c++) z += p[c] = Math.exp(logits[offset + c] - max);
  for (let c = 0; c < k; c++) p[c] /= z;
  return p;
}

export interface TransformerGradientContext {
  readonly source: string;
  readonly labels: readonly string[];
  readonly tokenizer: PreTrainedTokenizer;
  readonly reverse: Map<number, string>;
  readonly graph: OnnxGradientGraph;
  /** Scales per gradient-graph run. */
  readonly batchSize: number;
}

/**
 * Gradients of a transformer classifier's class score with respect to each word-piece embedding, from
 * the folder's gradient graph (GradientProvider.inputGradients).
 *
 * Scale α multiplies the word-piece embedding e_t of every non-special token; position and token-type
 * embeddings are added after the scaling, and [CLS]/[SEP] keep scale 1. So α = 0 is the usual BERT
 * baseline of integrated gradients (Sundararajan et al., 2017, with Captum's practice of keeping the
 * special tokens and positions): zero word-piece embeddings in the text's positions, between the real
 * [CLS] and [SEP]. Because special tokens do not move on that path, their `inputs` rows are reported as
 * zeros (gradient·input and integrated gradients give them nothing; their gradients are reported as
 * computed). Logit output: one-hot output weights. Probability output p_t: for each scale one run of
 * the graph gives the logits at that scaled input, then weights p_t(δ_tc − p_c) give ∂p_t (the softmax
 * Jacobian's row t). All scales go in one batched run (per `batchSize` scales).
 */
export async function transformerInputGradients(
  ctx: TransformerGradientContext,
  text: string,
  labelIndex: number,
  options: GradientOptions = {},
): Promise<InputGradients> {
  const { output, scales } = gradientRequest(ctx.source, ctx.labels, text, labelIndex, options);
  const k = ctx.labels.length;
  const enc = encodeBatch(ctx.tokenizer, [text]);
  const ids = enc.ids[0];
  const tokens = alignTokens(text, piecesOf(ctx.tokenizer, ids, ctx.reverse));
  const T = ids.length;
  if (T === 0) return { tokens, dim: 1, inputs: new Float32Array(0), gradients: new Float32Array(0) };
  const S = scales.length;
  let dim = 0;
  let inputs: Float32Array = new Float32Array(0);
  let gradients: Float32Array = new Float32Array(0);
  for (let s0 = 0; s0 < S; s0 += ctx.batchSize) {
    const R = Math.min(ctx.batchSize, S - s0);
    const scaleRows = new Float32Array(R * T);
    for (let r = 0; r < R; r++)
      for (let t = 0; t < T; t++) scaleRows[r * T + t] = tokens[t].special ? 1 : scales[s0 + r];
    const weights = new Float32Array(R * k);
    if (output === 'logit') {
      for (let r = 0; r < R; r++) weights[r * k + labelIndex] = 1;
    } else {
      const first = await ctx.graph.run(ids, scaleRows, new Float32Array(R * k), false);
      for (let r = 0; r < R; r++) {
        const p = softmaxRow(first.logits, r * k, k);
        for (let c = 0; c < k; c++) weights[r * k + c] = p[labelIndex] * ((c === labelIndex ? 1 : 0) - p[c]);
      }
    }
    const res = await ctx.graph.run(ids, scaleRows, weights, true);
    if (s0 === 0) {
      dim = res.dim;
      inputs = res.embeddings.slice();
      for (let t = 0; t < T; t++) if (tokens[t].special) inputs.fill(0, t * dim, (t + 1) * dim);
      gradients = new Float32Array(S * T * dim);
    }
    gradients.set(res.gradients, s0 * T * dim);
  }
  return { tokens, dim, inputs, gradients };
}
