import { XtrustError, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { explainWithGradients, requireGradients } from './gradient.js';
import type { LabelOptions } from './labels.js';
import { checkInputs, type ModelCallOptions } from './model-calls.js';
import { intOption } from './options.js';

/** Quadrature rules on [0, 1], named as Captum names them. */
export type IntegrationMethod =
  | 'gausslegendre'
  | 'riemann_left'
  | 'riemann_right'
  | 'riemann_middle'
  | 'riemann_trapezoid';

export type IntegratedGradientsOptions = ModelCallOptions &
  LabelOptions & {
    /** Points on the path from the zero baseline to the input. Default 50. */
    steps?: number;
    /** Default `gausslegendre` (Captum's default). */
    method?: IntegrationMethod;
    /** Differentiate the class probability (default) or logit. */
    output?: 'probability' | 'logit';
    bow?: boolean;
  };

/** Nodes α and weights of an m-point rule for ∫₀¹ f(α) dα. */
export function integrationRule(method: IntegrationMethod, m: number): { alphas: Float64Array; weights: Float64Array } {
  const alphas = new Float64Array(m);
  const weights = new Float64Array(m);
  switch (method) {
    case 'riemann_left':
    case 'riemann_right':
    case 'riemann_middle': {
      const shift = method === 'riemann_left' ? 0 : method === 'riemann_right' ? 1 : 0.5;
      for (let i = 0; i < m; i++) {
        alphas[i] = (i + shift) / m;
        weights[i] = 1 / m;
      }
      return { alphas, weights };
    }
    case 'riemann_trapezoid': {
      if (m < 2)
        throw new XtrustError('INVALID_ARGUMENT', 'steps must be ≥ 2 for riemann_trapezoid', { argument: 'steps' });
      for (let i = 0; i < m; i++) {
        alphas[i] = i / (m - 1);
        weights[i] = (i === 0 || i === m - 1 ? 0.5 : 1) / (m - 1);
      }
      return { alphas, weights };
    }
    case 'gausslegendre': {
      // Newton's method on the Legendre polynomial P_m from Chebyshev-like starting points.
      for (let i = 0; i < m; i++) {
        let x = Math.cos((Math.PI * (i + 0.75)) / (m + 0.5));
        let dp = 1;
        for (let it = 0; it < 100; it++) {
          let p0 = 1;
          let p1 = x;
          for (let j = 2; j <= m; j++) {
            const p2 = ((2 * j - 1) * x * p1 - (j - 1) * p0) / j;
            p0 = p1;
            p1 = p2;
          }
          const pm = m === 1 ? x : p1;
          const pm1 = m === 1 ? 1 : p0;
          dp = (m * (x * pm - pm1)) / (x * x - 1);
          const dx = pm / dp;
          x -= dx;
          if (Math.abs(dx) < 1e-15) break;
        }
        alphas[m - 1 - i] = (x + 1) / 2;
        weights[m - 1 - i] = 1 / ((1 - x * x) * dp * dp);
      }
      return { alphas, weights };
    }
    default:
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `method must be one of gausslegendre, riemann_left, riemann_right, riemann_middle, riemann_trapezoid; got ${String(method)}`,
        { argument: 'method' },
      );
  }
}

/**
 * Integrated gradients (Sundararajan, Taly & Yan, 2017, "Axiomatic Attribution for Deep Networks")
 * with a zero baseline: attribution of input x_i = x_i · ∫₀¹ ∂F(αx)/∂x_i dα, by an m-point quadrature
 * from one `inputGradients` call (all scales at once) per text and label. Completeness: the
 * attributions sum to F(x) − F(0) up to the quadrature error; `diagnostics.attributionSum` holds the
 * sum over all tokens (words plus `droppedAttribution` of special or unaligned tokens).
 */
export class IntegratedGradientsExplainer implements Explainer<IntegratedGradientsOptions> {
  readonly name = 'integrated-gradients';
  constructor(private readonly defaults: IntegratedGradientsOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: IntegratedGradientsOptions = {},
  ): Promise<Explanation[]> {
    const o: IntegratedGradientsOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'integrated-gradients');
    requireGradients(classifier, 'integrated-gradients');
    const steps = intOption('steps', o.steps, 50, 1);
    const method = o.method ?? 'gausslegendre';
    const { alphas, weights } = integrationRule(method, steps);
    return explainWithGradients('integrated-gradients', classifier, texts, o, {
      scales: alphas,
      combine: 'sum',
      params: (output, bow) => ({ steps, method, output, baseline: 'zero', bow }),
      tokenScores(g, T) {
        const dim = g.dim;
        const scores = new Float64Array(T);
        for (let t = 0; t < T; t++) {
          let s = 0;
          for (let j = 0; j < dim; j++) {
            let avg = 0;
            for (let a = 0; a < steps; a++) avg += weights[a] * g.gradients[(a * T + t) * dim + j];
            s += avg * g.inputs[t * dim + j];
          }
          scores[t] = s;
        }
        return scores;
      },
      diagnostics: (scores, dropped) => ({
        attributionSum: scores.reduce((a, b) => a + b, 0),
        droppedAttribution: dropped,
      }),
    });
  }
}
