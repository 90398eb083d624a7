import { XtrustError, type Explainer } from '@xtrust/core';
import { AttentionExplainer } from './attention.js';
import { ExactShapleyExplainer } from './exact-shapley.js';
import { GradientExplainer } from './gradient.js';
import { IntegratedGradientsExplainer } from './integrated-gradients.js';
import { KernelShapExplainer } from './kernel-shap.js';
import { LimeExplainer } from './lime.js';
import { OmissionExplainer } from './omission.js';

export const EXPLAINER_NAMES = [
  'lime',
  'omission',
  'gradient',
  'integrated-gradients',
  'kernel-shap',
  'exact-shapley',
  'attention',
] as const;
export type ExplainerName = (typeof EXPLAINER_NAMES)[number];

/** A new explainer by its name (the `method` of the explanations it makes), with default options. */
export function explainerByName(name: string, defaults: Record<string, unknown> = {}): Explainer {
  switch (name) {
    case 'lime':
      return new LimeExplainer(defaults);
    case 'omission':
      return new OmissionExplainer(defaults);
    case 'gradient':
      return new GradientExplainer(defaults);
    case 'integrated-gradients':
      return new IntegratedGradientsExplainer(defaults);
    case 'kernel-shap':
      return new KernelShapExplainer(defaults);
    case 'exact-shapley':
      return new ExactShapleyExplainer(defaults);
    case 'attention':
      return new AttentionExplainer(defaults);
    default:
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `unknown explanation method "${name}"; expected one of ${EXPLAINER_NAMES.join(', ')}`,
        { argument: 'method' },
      );
  }
}
