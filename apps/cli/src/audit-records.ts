// The audit's records: what predictions.jsonl and summary.json hold (read by the report, `xtrust gate`,
// the demo's scored check and the output writers). Types, their constants and the count that fills
// GroundTruthCounts — no step of the audit — so every module that reads or writes the records imports them here.
import type { FeatureWeight } from '@xtrust/core';
import type { ShortcutBenchmark } from '@xtrust/datasets';
import type { CategoryReason, DecisiveReason, TrustLabel } from '@xtrust/oracle';
import type { AuditSettings } from './audit-settings.js';

/** Untrustworthy predictions per bound their decisive reason exceeded (`related` absent in summaries written before it existed). */
export type DecisiveCounts = Readonly<Pick<Record<DecisiveReason['by'], number>, 'margin' | 'share'>> & {
  readonly related?: number;
};

/** A labelled text; `trustworthy` is ground truth of trustworthiness when the caller knows it. */
export interface AuditRow {
  readonly text: string;
  readonly label: string;
  readonly trustworthy?: boolean;
}

/** One audited test prediction (a line of predictions.jsonl). */
export interface AuditedPrediction {
  readonly index: number;
  readonly text: string;
  /** The true label (null for unlabelled texts, `xtrust label --unlabelled`). */
  readonly truth: string | null;
  readonly predicted: string;
  readonly confidence: number;
  readonly verdict: TrustLabel['verdict'];
  readonly reason?: string;
  readonly isRel: number;
  readonly isUnr: number;
  readonly related: readonly string[];
  readonly unrelated: readonly string[];
  /** An untrustworthy prediction's unrelated words: why each is not related to the predicted class (when the keyword store recorded it). */
  readonly why?: Readonly<Record<string, string>>;
  /** The unrelated token categories (--unrelated-categories) among the decision words, each weighed as one reason. */
  readonly categories?: readonly CategoryReason[];
  /**
   * An untrustworthy prediction's decisive reason (TOKI's decisive-word rule): its words, their summed weight
   * and the bound they exceeded — half the margin, or half the explanation's supporting weight (`by`).
   */
  readonly decisive?: DecisiveReason;
  /**
   * A trustworthy prediction whose heaviest unrelated reason outweighed the bound but whose removal from the
   * text left the prediction standing (TOKI's removal check): the reason, and what the model predicts without it.
   */
  readonly overruled?: DecisiveReason;
  /** The explanation's words and weights towards the predicted label (LIME). */
  readonly features: readonly FeatureWeight[];
  /** LIME samples the explanation used, under `--audit-mode fast` (verdict-aware sampling); absent in exact mode (all `--samples`). */
  readonly samples?: number;
  /** Last-layer self-attention word weights, when the model is an AttentionProvider (shown beside LIME). */
  readonly attention?: readonly FeatureWeight[];
  /** Ground truth of trustworthiness, when given. */
  readonly trustworthy?: boolean;
}

/** A pool word with its averaged importance s̄_w. */
export interface PoolWord {
  readonly word: string;
  readonly importance: number;
  /** Why it is or is not a keyword, in a sentence (reasonSentence), when the store recorded a reason. */
  readonly why?: string;
}

/**
 * How much of a class's pool is related to the class: its content words (function words left out) that
 * are keywords, of all the content words the store's pool holds, and their share of the pool's summed
 * averaged importance (positive parts). A pool that is almost all "related" is itself a signal to check.
 */
export interface RelatedShare {
  readonly words: number;
  readonly pool: number;
  readonly importanceShare: number;
}

/** Figure 6 of the TOKI paper: correct predictions by confidence bucket and verdict. */
export interface ConfidenceBucket {
  readonly lo: number;
  readonly hi: number;
  readonly trustworthy: number;
  readonly untrustworthy: number;
  /** The same bucket counted by ground truth, when given. */
  readonly truthTrustworthy?: number;
  readonly truthUntrustworthy?: number;
}

/** An oracle's accuracy or G-mean is printed only on at least this many trustworthy and untrustworthy predictions. */
export const MIN_CASES_PER_SIDE = 100;

/** The ground truth of issue 14's definition, counted. */
export interface GroundTruthCounts {
  /** What was removed: 'the headers' or 'the trigger "papaya"'. */
  readonly spurious: string;
  readonly correct: number;
  readonly trustworthy: number;
  readonly untrustworthy: number;
  /** Correct predictions without a ground truth, by reason (e.g. survives-but-spurious-alone-suffices). */
  readonly ambiguous: Readonly<Record<string, number>>;
  readonly incorrect: number;
}

/** Counts of a benchmark, for the summary. */
export function groundTruthCounts(bench: ShortcutBenchmark): GroundTruthCounts {
  const c = bench.counts;
  return {
    spurious: bench.mode === 'headers' ? 'the headers' : `the trigger "${bench.trigger}"`,
    correct: c.rows - c.incorrect,
    trustworthy: c.trustworthy,
    untrustworthy: c.untrustworthy,
    ambiguous: c.ambiguous.reasons,
    incorrect: c.incorrect,
  };
}

/** Naive vs TOKI against ground truth (rows and curves only with at least MIN_CASES_PER_SIDE predictions of each kind). */
export interface OracleComparison {
  readonly cases: number;
  readonly trustworthy: number;
  readonly untrustworthy: number;
  readonly minPerSide: number;
  /** Fewer than minPerSide trustworthy or untrustworthy predictions: no accuracy or G-mean is given. */
  readonly tooSmall: boolean;
  readonly thetaConf: number;
  readonly rows: readonly {
    method: string;
    accuracy: number;
    precision: number;
    sensitivity: number;
    specificity: number;
    f1: number;
    gmean: number;
  }[];
  readonly roc: readonly { method: string; auc: number; fpr: number[]; tpr: number[] }[];
}

/** The summary of an audit (summary.json): everything the report and `xtrust gate` read. */
export interface AuditSummary {
  readonly format: 'xtrust-audit';
  readonly version: 1;
  readonly model: Record<string, unknown>;
  readonly data: {
    readonly dataset: string;
    readonly labels: readonly string[];
    readonly trainRows: number;
    readonly testRows: number;
    readonly auditedTestRows: number;
    readonly labelCounts: { readonly train: Record<string, number>; readonly test: Record<string, number> };
  };
  readonly settings: AuditSettings & {
    readonly explainer: string;
    readonly embeddings: readonly { name: string; thetaRelate: number }[];
    /** The token categories counted as no reason for any class (--unrelated-categories); absent in summaries from before it. */
    readonly unrelatedCategories?: readonly string[];
  };
  readonly accuracy: number;
  readonly verdicts: Record<TrustLabel['verdict'], number>;
  /** Untrustworthy ÷ (trustworthy + untrustworthy) among correct predictions; null when none was labelled. */
  readonly untrustworthyShare: number | null;
  /**
   * Of the untrustworthy predictions, how many rest on each unrelated token category (--unrelated-categories;
   * a prediction resting on two counts for both); absent in summaries from before it.
   */
  readonly untrustworthyByCategory?: Readonly<Record<string, number>>;
  /**
   * Of the untrustworthy predictions, how many were decided by a reason above half the margin (`margin`) and
   * how many by one carrying the decisive share of the explanation's weight (`share`) and how many by one
   * outweighing the related words where that bound was the larger (`related`, OracleConfig.relatedCounterweight;
   * absent before it); absent in summaries from before it.
   */
  readonly untrustworthyByBound?: DecisiveCounts;
  /**
   * Trustworthy predictions whose unrelated reason outweighed the bound but that keep their class once the
   * reason is removed from the text (TOKI's removal check); absent in summaries from before it.
   */
  readonly overruledByRemoval?: number;
  readonly pools: Record<
    string,
    {
      className: string;
      explanations: number;
      keywords: PoolWord[];
      spurious: PoolWord[];
      /** Absent in summaries written before it existed. */
      related?: RelatedShare;
      /**
       * Function words the model leans on for the class (KeywordStore.leanedFunctionWords): counted as
       * unrelated in its verdicts. Absent when none, or in summaries written before it existed.
       */
      leanedFunctionWords?: string[];
      /**
       * Function words the model leans on for the class less strongly (KeywordStore.phraseFunctionWords):
       * counted as unrelated only inside a phrase with other unrelated words. Absent when none.
       */
      phraseFunctionWords?: string[];
    }
  >;
  readonly confidence: ConfidenceBucket[];
  readonly comparison?: OracleComparison;
  /** The ground truth behind `comparison` when xtrust derived it (demo: by removing the headers), counted by kind. */
  readonly groundTruth?: GroundTruthCounts;
  /** A planted-trigger case scored beside the audit (demo), when one ran. */
  readonly scoredCase?: ScoredCaseSummary;
  /** Summary of the attack step, when one ran (@xtrust/attack's RunSummary). */
  readonly attack?: Record<string, unknown>;
  readonly seconds: { keywords: number; labelling: number; total: number };
}

/** One oracle's scores against the scored case's ground truth. */
export interface ScoredRow {
  readonly method: string;
  readonly accuracy: number;
  readonly precision: number;
  readonly sensitivity: number;
  readonly specificity: number;
  readonly f1: number;
  readonly gmean: number;
  /** Percentile-bootstrap 95 % interval of the G-mean (1,000 resamples, seeded). */
  readonly gmeanLo: number;
  readonly gmeanHi: number;
}

/** The scored check in the audit summary. */
export interface ScoredCaseSummary {
  readonly description: string;
  readonly trigger: string;
  /** The trigger's frequency band in the corpus (@xtrust/datasets trigger bands). */
  readonly band: string;
  readonly target: string;
  readonly words: number;
  readonly model: string;
  readonly groundTruth: GroundTruthCounts;
  readonly minPerSide: number;
  /** Too few predictions on a side: nothing is scored. */
  readonly tooSmall: boolean;
  /** Predictions explained and scored per side (a seeded sample of at most `perSide` each). */
  readonly scored?: { readonly trustworthy: number; readonly untrustworthy: number };
  readonly rows: readonly ScoredRow[];
  readonly seconds: number;
}
