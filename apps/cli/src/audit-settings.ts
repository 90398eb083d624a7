// An audit's settings (one flag each) and what they mean for the steps every audit-like run shares:
// the LIME explainer and the options of TOKI's keyword identification (`xtrust audit`, `keywords`, the
// demo's scored check and the queue's workers all explain and identify keywords the same way).
import type { Explainer, WordEmbedding } from '@xtrust/core';
import { LimeExplainer, explainerByName } from '@xtrust/explainers';
import { resolveOracle, type IdentifyKeywordsOptions, type OracleName } from '@xtrust/oracle';
import type { ClassDescriptionsFile } from './class-descriptions-file.js';
import type { EnsembleMemberName } from './ensemble.js';
import { adaptiveRuleKey, limeOptionsOf, type LimeMode } from './lime-mode.js';
import type { AuditMode } from './audit-mode.js';

/**
 * The settings as a run directory's key (run-dir.ts): the oracle by its whole configuration, not its name,
 * so a run started under an earlier meaning of a name (`toki` before the class descriptions) is refused on
 * --resume, naming the field that changed, instead of being finished with another oracle; likewise an adaptive
 * mode's stopping rule once it is not the rule runs were made under before it was keyed (adaptiveRuleKey).
 */
export function runKeySettings(settings: AuditSettings): Omit<AuditSettings, 'oracle'> & { oracle: object } {
  return {
    ...settings,
    oracle: { ...resolveOracle(settings.oracle) },
    ...adaptiveRuleKey(settings.limeMode, settings.samples),
  };
}

/** Settings of an audit (each one a flag; see README). */
export interface AuditSettings {
  /** Training texts sampled for keyword identification (TOKI §3.1; paper: 2,000). */
  readonly trainSample: number;
  /** Test texts whose predictions are explained and labelled. */
  readonly testSample: number;
  /** LIME neighbourhood size (paper: 5,000). */
  readonly samples: number;
  /** Decision-contributing words per explanation. */
  readonly topK: number;
  /** The TOKI configuration (`--oracle`): `toki` (default), `toki-phrase`, `toki-cluster`, `toki-name` or `toki-paper`. */
  readonly oracle?: OracleName;
  /** Dendrogram cut in cosine distance (paper: 0.3). */
  readonly thetaDist: number;
  /** Naive baseline's confidence threshold (paper: 0.9). */
  readonly thetaConf: number;
  readonly seed: number;
  /** Names standing for labels in similarities, e.g. { ham: 'legitimate' }. */
  readonly classNames: Readonly<Record<string, string>>;
  /** `--class-descriptions FILE`: words describing classes beside their names (TOKI's Eq. 4 relatedness; @xtrust/oracle classDescriptions). */
  readonly classDescriptions?: ClassDescriptionsFile;
  /** Members of TOKI's embedding ensemble, by `--embeddings` name (see ENSEMBLE_MEMBERS). */
  readonly ensemble: readonly EnsembleMemberName[];
  /** `--lime-mode`: exact (undefined too), or a faster approximate mode (lime-mode.ts). */
  readonly limeMode?: LimeMode;
  /** `--audit-mode`: exact (undefined too), or fast — adaptive keyword pass (folded into limeMode) and verdict-aware labelling (audit-mode.ts). */
  readonly auditMode?: AuditMode;
  /** `--keyword-method`: the explainer of the keyword pass when it is not LIME (undefined: LIME, the paper's). */
  readonly keywordMethod?: KeywordMethod;
}

/**
 * Explainers the keyword pass may use instead of LIME (`--keyword-method`; issue 30, "a cheaper keyword
 * pass"). TOKI's §3.1 takes any explanation method; the test predictions are always labelled with LIME.
 * `gradient` and `integrated-gradients` need a model with gradients (an ONNX folder with
 * `onnx/model_grad.onnx`, or a built-in model).
 */
export const KEYWORD_METHODS = ['lime', 'omission', 'gradient', 'integrated-gradients', 'attention'] as const;
export type KeywordMethod = (typeof KEYWORD_METHODS)[number];

/** Integrated-gradients steps of a keyword pass: the setting measured in apps/bench keyword-pass (20). */
export const KEYWORD_IG_STEPS = 20;

/** The keyword pass's explainer: `lime` (the given LIME explainer, local or queued) or the named method. */
export function keywordPassExplainer(settings: Pick<AuditSettings, 'keywordMethod'>, lime: Explainer): Explainer {
  const method = settings.keywordMethod ?? 'lime';
  if (method === 'lime') return lime;
  return explainerByName(method, method === 'integrated-gradients' ? { steps: KEYWORD_IG_STEPS } : {});
}

/** The audit's LIME options: the settings' neighbourhood size, word count and seed, and the mode's (`adaptive`). */
export function auditLimeOptions(
  settings: Pick<AuditSettings, 'samples' | 'topK' | 'seed' | 'limeMode'>,
): Record<string, unknown> {
  return {
    numSamples: settings.samples,
    numFeatures: settings.topK,
    seed: settings.seed,
    ...limeOptionsOf(settings.limeMode),
  };
}

/** The audit's explainer: LIME with auditLimeOptions (the model's int8, when the mode has it, is the loader's). */
export function auditExplainer(settings: Pick<AuditSettings, 'samples' | 'topK' | 'seed' | 'limeMode'>): Explainer {
  return new LimeExplainer(auditLimeOptions(settings)) as unknown as Explainer;
}

/**
 * identifyKeywords' options from an audit's settings: the audit and the demo's scored check identify
 * keywords the same way. The explainer's options are recorded in the store's provenance, so
 * `xtrust label` explains the same way by default.
 */
export function keywordOptions(
  settings: AuditSettings,
  context: {
    readonly explainer: Explainer;
    readonly embeddings: readonly WordEmbedding[];
    readonly thetaRelate: Record<string, number>;
    readonly batchSeconds?: number;
  },
  checkpoint: string,
): IdentifyKeywordsOptions {
  return {
    batchSeconds: context.batchSeconds,
    explainer: keywordPassExplainer(settings, context.explainer),
    // recorded in the store's provenance: `xtrust label` explains with the same options by default
    explainerOptions: auditLimeOptions(settings),
    embeddings: context.embeddings,
    thetaRelate: context.thetaRelate,
    // a described class: the configuration with the user's descriptions (saved in the store with it)
    oracle: settings.classDescriptions
      ? { ...resolveOracle(settings.oracle), classDescriptions: settings.classDescriptions.descriptions }
      : settings.oracle,
    thetaDist: settings.thetaDist,
    topK: settings.topK,
    sampleSize: settings.trainSample,
    classNames: settings.classNames,
    seed: settings.seed,
    checkpoint,
  };
}
