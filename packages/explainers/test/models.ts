// Small real classifiers for the tests: analytic, so every expected value can be computed by hand.
import {
  tokenize,
  type AttentionMap,
  type AttentionProvider,
  type Classifier,
  type GradientOptions,
  type GradientProvider,
  type InputGradients,
  type ModelToken,
  type TokenScorer,
} from '@xtrust/core';

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * A two-class logistic model over word counts: z = bias + Σ_tokens w(token), p(pos) = σ(z),
 * labels ['neg', 'pos']. Implements Classifier, TokenScorer and GradientProvider (each token's input
 * is the 1-vector [1]; the model is z = bias + Σ_t w_t·x_t, so ∂p/∂x_t = p(1−p)·w_t).
 */
export class LinearBowModel implements Classifier, TokenScorer, GradientProvider {
  readonly labels = ['neg', 'pos'] as const;
  calls = { predictProba: 0, scoreTokenMasks: 0, rows: 0 };
  constructor(
    readonly weights: Record<string, number>,
    readonly bias = 0,
  ) {}

  w(word: string): number {
    return this.weights[word] ?? 0;
  }

  logit(text: string): number {
    let z = this.bias;
    for (const t of tokenize(text)) z += this.w(t.text);
    return z;
  }

  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    this.calls.predictProba++;
    this.calls.rows += texts.length;
    const out = new Float32Array(texts.length * 2);
    texts.forEach((t, i) => {
      const p = sigmoid(this.logit(t));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    });
    return out;
  }

  async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    this.calls.scoreTokenMasks++;
    this.calls.rows += rows;
    const toks = tokenize(text);
    const T = toks.length;
    const out = new Float32Array(rows * 2);
    for (let r = 0; r < rows; r++) {
      let z = this.bias;
      for (let t = 0; t < T; t++) if (masks[r * T + t]) z += this.w(toks[t].text);
      const p = sigmoid(z);
      out[2 * r] = 1 - p;
      out[2 * r + 1] = p;
    }
    return out;
  }

  async inputGradients(text: string, labelIndex: number, options: GradientOptions = {}): Promise<InputGradients> {
    const scales = Array.from(options.scales ?? [1]);
    const toks: ModelToken[] = tokenize(text).map((t) => ({ ...t, special: false }));
    const T = toks.length;
    const inputs = new Float32Array(T).fill(1);
    const gradients = new Float32Array(scales.length * T);
    const sign = labelIndex === 1 ? 1 : -1;
    scales.forEach((a, s) => {
      let z = this.bias;
      for (const t of toks) z += a * this.w(t.text);
      const p = sigmoid(z);
      for (let t = 0; t < T; t++) {
        const wt = this.w(toks[t].text);
        // logits are [−z/2, z/2], so softmax equals the sigmoid
        gradients[s * T + t] = options.output === 'logit' ? (sign * wt) / 2 : sign * p * (1 - p) * wt;
      }
    });
    return { tokens: toks, dim: 1, inputs, gradients };
  }
}

/** The same model without its optional capabilities: only strings reach it. */
export function stringsOnly(m: Classifier): Classifier {
  return { labels: m.labels, predictProba: (texts) => m.predictProba(texts) };
}

/** A deterministic 2-d vector of a string (for sub-word embeddings). */
export function vec2(s: string): [number, number] {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return [((h & 0xffff) / 0xffff) * 2 - 1, ((h >>> 16) / 0xffff) * 2 - 1];
}

/**
 * A "transformer-like" model for the gradient and attention paths: words longer than 4 characters
 * are split into two sub-word tokens (offsets kept), [CLS] and [SEP] specials wrap the text; every
 * token's input vector is vec2(token) (specials: [0.5, −0.5]); z = bias + Σ_t u·v_t, p(pos) = σ(z).
 * Attention: 2 heads, weights given by a function of (head, i, j), rows normalised.
 */
export class SubwordModel implements Classifier, GradientProvider, AttentionProvider {
  readonly labels = ['neg', 'pos'] as const;
  constructor(
    readonly u: [number, number] = [1.5, -0.7],
    readonly bias = 0.2,
  ) {}

  modelTokens(text: string): ModelToken[] {
    const out: ModelToken[] = [{ text: '[CLS]', start: 0, end: 0, special: true }];
    for (const t of tokenize(text)) {
      if (t.text.length > 4) {
        const mid = t.start + 3;
        out.push({ text: text.slice(t.start, mid), start: t.start, end: mid, special: false });
        out.push({ text: `##${text.slice(mid, t.end)}`, start: mid, end: t.end, special: false });
      } else out.push({ ...t, special: false });
    }
    out.push({ text: '[SEP]', start: text.length, end: text.length, special: true });
    return out;
  }

  inputVector(tok: ModelToken): [number, number] {
    return tok.special ? [0.5, -0.5] : vec2(tok.text);
  }

  logitAt(text: string, scale: number): number {
    let z = this.bias;
    for (const t of this.modelTokens(text)) {
      const v = this.inputVector(t);
      z += scale * (this.u[0] * v[0] + this.u[1] * v[1]);
    }
    return z;
  }

  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(texts.length * 2);
    texts.forEach((t, i) => {
      const p = sigmoid(this.logitAt(t, 1));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    });
    return out;
  }

  async inputGradients(text: string, labelIndex: number, options: GradientOptions = {}): Promise<InputGradients> {
    const scales = Array.from(options.scales ?? [1]);
    const tokens = this.modelTokens(text);
    const T = tokens.length;
    const inputs = new Float32Array(T * 2);
    tokens.forEach((t, i) => inputs.set(this.inputVector(t), 2 * i));
    const gradients = new Float32Array(scales.length * T * 2);
    const sign = labelIndex === 1 ? 1 : -1;
    scales.forEach((a, s) => {
      const p = sigmoid(this.logitAt(text, a));
      const f = options.output === 'logit' ? sign / 2 : sign * p * (1 - p);
      for (let t = 0; t < T; t++) {
        gradients[(s * T + t) * 2] = f * this.u[0];
        gradients[(s * T + t) * 2 + 1] = f * this.u[1];
      }
    });
    return { tokens, dim: 2, inputs, gradients };
  }

  attentionWeight(h: number, i: number, j: number): number {
    return 1 + (((h + 1) * (i + 2 * j)) % 5);
  }

  async attentions(texts: readonly string[]): Promise<AttentionMap[]> {
    return texts.map((text) => {
      const tokens = this.modelTokens(text);
      const T = tokens.length;
      const weights = new Float32Array(2 * T * T);
      for (let h = 0; h < 2; h++) {
        for (let i = 0; i < T; i++) {
          let sum = 0;
          for (let j = 0; j < T; j++) sum += this.attentionWeight(h, i, j);
          for (let j = 0; j < T; j++) weights[h * T * T + i * T + j] = this.attentionWeight(h, i, j) / sum;
        }
      }
      return { tokens, heads: 2, weights };
    });
  }
}
