import { isAbsolute, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { XtrustError } from '@xtrust/core';
import { encodeBatch, loadLocalTokenizer } from './hf-tokenizer-loader.js';
import { requireFile, requirePositiveInt, requireTexts } from './inputs.js';

export interface CausalLanguageModelOptions {
  /** Texts per ONNX run. Default 16. */
  batchSize?: number;
  /** Path of the graph inside the folder. Default `onnx/model.onnx`. */
  modelFile?: string;
  /** onnxruntime intra-op threads. Default: onnxruntime's choice. */
  threads?: number;
}

/** Per-text log-likelihood of a causal LM over the positions after the first. */
export interface TextLikelihood {
  /** Σ_{t≥1} log p(x_t | x_<t) (natural log). */
  readonly logLikelihood: number;
  /** Number of predicted positions (tokens after the first). */
  readonly positions: number;
}

/**
 * A causal (left-to-right) language model from a folder in Hugging Face layout — GPT-2 architecture in
 * the model kit (`model_type: "gpt2"`, `onnx/model.onnx` with inputs `input_ids`, `attention_mask` and
 * output `logits` [batch, sequence, vocab]) — run by onnxruntime-node. Texts are tokenised by the
 * folder's tokenizer.json (through transformers.js, never the network); the kit's tokenizer wraps a text
 * in [CLS] (beginning of sequence) … [SEP], so the first predicted token is the text's first word and the
 * last is the end marker. Batched, right-padded (a causal model's positions never see the padding after
 * them, so padding does not change a text's score).
 */
export class CausalLanguageModel {
  private constructor(
    readonly name: string,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly batchSize: number,
  ) {}

  /** Loads a model folder. FILE_NOT_FOUND names a missing file; UNSUPPORTED a graph of another shape. */
  static async load(folder: string, options: CausalLanguageModelOptions = {}): Promise<CausalLanguageModel> {
    const dir = isAbsolute(folder) ? folder : resolve(folder);
    const name = `causal LM ${dir}`;
    const modelPath = requireFile(dir, options.modelFile ?? 'onnx/model.onnx', name);
    requireFile(dir, 'tokenizer.json', name);
    requireFile(dir, 'tokenizer_config.json', name);
    const batchSize = requirePositiveInt(options.batchSize ?? 16, 'batchSize');
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(
        modelPath,
        options.threads ? { intraOpNumThreads: options.threads } : {},
      );
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${name}: onnxruntime cannot load ${modelPath}: ${(e as Error).message}`,
        { file: modelPath },
        { cause: e },
      );
    }
    const unknown = session.inputNames.filter((n) => n !== 'input_ids' && n !== 'attention_mask');
    if (!session.inputNames.includes('input_ids') || unknown.length > 0 || !session.outputNames.includes('logits')) {
      await session.release();
      throw new XtrustError(
        'UNSUPPORTED',
        `${name}: expected a graph with inputs input_ids (and attention_mask) and output logits [batch, sequence, vocab]; it has inputs ${session.inputNames.join(', ')} and outputs ${session.outputNames.join(', ')}`,
        { file: modelPath },
      );
    }
    const tokenizer = await loadLocalTokenizer(dir, name);
    return new CausalLanguageModel(name, session, tokenizer, batchSize);
  }

  /** The token ids a text is scored on (with the tokenizer's begin/end markers and truncation). */
  tokenIds(text: string): number[] {
    return encodeBatch(this.tokenizer, [text]).ids[0];
  }

  /**
   * Log-likelihood of each text: Σ over positions t ≥ 1 of log softmax(logits_{t−1})[x_t] (the first
   * token is given, not predicted). Computed in float64 with a max-shifted log-sum-exp.
   */
  async logLikelihoods(texts: readonly string[]): Promise<TextLikelihood[]> {
    requireTexts(texts, this.name);
    const out: TextLikelihood[] = [];
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      const enc = encodeBatch(this.tokenizer, batch);
      const dims = [enc.batch, enc.sequence];
      const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', enc.inputIds, dims) };
      if (this.session.inputNames.includes('attention_mask'))
        feeds.attention_mask = new ort.Tensor('int64', enc.attentionMask, dims);
      const result = await this.session.run(feeds, ['logits']);
      const logits = result.logits;
      const [B, S, V] = logits.dims;
      if (logits.dims.length !== 3 || B !== enc.batch || S !== enc.sequence) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${this.name} returned logits of shape [${logits.dims.join(', ')}]; expected [${enc.batch}, ${enc.sequence}, vocab]`,
          { source: this.name },
        );
      }
      const data = logits.data as Float32Array;
      enc.ids.forEach((ids, b) => {
        let ll = 0;
        for (let t = 1; t < ids.length; t++) {
          const row = (b * S + t - 1) * V;
          let max = -Infinity;
          for (let v = 0; v < V; v++) if (data[row + v] > max) max = data[row + v];
          let z = 0;
          for (let v = 0; v < V; v++) z += Math.exp(data[row + v] - max);
          const lp = data[row + ids[t]] - max - Math.log(z);
          if (!Number.isFinite(lp))
            throw new XtrustError(
              'BAD_MODEL_OUTPUT',
              `${this.name}: log-probability ${lp} at position ${t} of text ${s + b}`,
              { source: this.name },
            );
          ll += lp;
        }
        out.push({ logLikelihood: ll, positions: Math.max(0, ids.length - 1) });
      });
    }
    return out;
  }

  /**
   * Perplexity of each text, PP = exp(−(1/N) Σ_{t=1}^{N} log p(x_t | x_<t)) over the N positions after
   * the first — the fluency score of 002 Eq. 6 (GPT-2 there). A text with fewer than two tokens has no
   * predicted position and gets 1.
   */
  async perplexity(texts: readonly string[]): Promise<Float64Array> {
    const lls = await this.logLikelihoods(texts);
    return Float64Array.from(lls, (l) => (l.positions === 0 ? 1 : Math.exp(-l.logLikelihood / l.positions)));
  }

  /** Frees the onnxruntime session. */
  async release(): Promise<void> {
    await this.session.release();
  }
}
