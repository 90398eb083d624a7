/**
 * Adam (Kingma & Ba, 2015) over a set of Float32Array parameters, with L2 regularisation added to
 * the gradient (λ·w). Dense parameters are updated every step; the first layer of a bag-of-words
 * model is updated lazily — only the rows a mini-batch touched — as PyTorch's SparseAdam does,
 * because touching all V×h weights every step would dominate training time.
 */
export interface AdamOptions {
  learningRate: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
}

export class Adam {
  private readonly m: Float32Array[];
  private readonly v: Float32Array[];
  private t = 0;
  private readonly lr: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly eps: number;

  constructor(
    private readonly params: readonly Float32Array[],
    options: AdamOptions,
  ) {
    this.m = params.map((p) => new Float32Array(p.length));
    this.v = params.map((p) => new Float32Array(p.length));
    this.lr = options.learningRate;
    this.b1 = options.beta1 ?? 0.9;
    this.b2 = options.beta2 ?? 0.999;
    this.eps = options.epsilon ?? 1e-8;
  }

  /** Starts a new step (advances the bias-correction counter). Call once per mini-batch. */
  nextStep(): void {
    this.t++;
  }

  /** Updates every entry of parameter `i` from its gradient `grad` (same length). */
  updateDense(i: number, grad: Float64Array, l2: number): void {
    const all = new Int32Array([0]);
    this.updateRows(i, grad, all, 1, this.params[i].length, l2);
  }

  /** Updates only the given rows (of width `rowLen`) of parameter `i`; other rows keep their moments. */
  updateRows(i: number, grad: Float64Array, rows: Int32Array, nRows: number, rowLen: number, l2: number): void {
    const p = this.params[i];
    const m = this.m[i];
    const v = this.v[i];
    const { b1, b2, eps } = this;
    const a1 = 1 - b1;
    const a2 = 1 - b2;
    const c1 = 1 - b1 ** this.t;
    const invC2 = 1 / (1 - b2 ** this.t);
    const step = this.lr / c1;
    for (let r = 0; r < nRows; r++) {
      const start = rows[r] * rowLen;
      const end = start + rowLen;
      for (let j = start; j < end; j++) {
        const g = grad[j] + l2 * p[j];
        const mj = b1 * m[j] + a1 * g;
        const vj = b2 * v[j] + a2 * g * g;
        m[j] = mj;
        v[j] = vj;
        p[j] -= (step * mj) / (Math.sqrt(vj * invC2) + eps);
      }
    }
  }
}
