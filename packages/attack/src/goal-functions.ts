import {
  XtrustError,
  labelIndex as findLabel,
  words as wordsOf,
  type Classifier,
  type Explanation,
} from '@xtrust/core';
import {
  attributionDistance,
  attributionVector,
  rankedWords,
  standardMeasures,
  type PairMeasure,
  type PaperMeasureName,
} from '@xtrust/metrics';
import { argmax, predict, type ExplainFn } from './model.js';
import type { AttackedText } from './text.js';

/** How a perturbed text scores under a goal. */
export interface GoalResult {
  /** Higher is better for the attacker; the search keeps a swap only when it raises this. */
  readonly score: number;
  /** The goal is reached: the search stops here. */
  readonly succeeded: boolean;
  /** False when the text breaks a goal-side condition (the explanation attacks keep the prediction). */
  readonly valid: boolean;
  readonly predicted: number;
  readonly probabilities: readonly number[];
  /** Goal-specific figures recorded with the result (attribution distance, PCC, list similarity, lists). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A goal bound to one instance: its label, the original text's result and a batched evaluator. */
export interface InstanceGoal {
  /** The label index the attack works against (ground truth, or the prediction when none is given). */
  readonly label: number;
  readonly initial: GoalResult;
  /** Why the instance is not attacked (e.g. `already-misclassified`); undefined when it is. */
  readonly skip?: string;
  /** Results of many perturbed texts: one model call (and one explainer call) for the batch. */
  evaluate(texts: readonly AttackedText[]): Promise<GoalResult[]>;
}

/** A goal function (TextAttack's decomposition, Morris et al. 2020): what a successful perturbation is. */
export interface GoalFunction {
  readonly name: string;
  /** `reach`: stop at the first success (misclassification, similarity below τ); `maximize`: raise the score until the budget ends (CEA, TEF). */
  readonly mode: 'reach' | 'maximize';
  readonly params: Readonly<Record<string, unknown>>;
  forInstance(classifier: Classifier, text: AttackedText, groundTruth: string | undefined): Promise<InstanceGoal>;
}

function rowOf(p: Float32Array, i: number, k: number): number[] {
  return Array.from(p.subarray(i * k, (i + 1) * k));
}

async function originalPrediction(
  classifier: Classifier,
  text: AttackedText,
  groundTruth: string | undefined,
  where: string,
) {
  const k = classifier.labels.length;
  const probs = await predict(classifier, [text.text], where);
  const predicted = argmax(probs, 0, k);
  const label = groundTruth === undefined ? predicted : findLabel(classifier.labels, groundTruth, 'label');
  return {
    probs: rowOf(probs, 0, k),
    predicted,
    label,
    skip: predicted !== label ? 'already-misclassified' : undefined,
  };
}

/**
 * Untargeted misclassification (TextAttack's `UntargetedClassification`, the goal of A2T, Yoo & Qi
 * 2021, and of the TOKI-guided attack, 000 §4): score = 1 − p(label | s̃); reached when the argmax is no
 * longer the label. An instance the model already gets wrong is skipped (`already-misclassified`).
 */
export function untargetedClassification(): GoalFunction {
  return {
    name: 'untargeted-classification',
    mode: 'reach',
    params: {},
    async forInstance(classifier, text, groundTruth) {
      const k = classifier.labels.length;
      const o = await originalPrediction(classifier, text, groundTruth, 'attack goal: classifier');
      const label = o.label;
      const make = (p: readonly number[], predicted: number): GoalResult => ({
        score: 1 - p[label],
        succeeded: predicted !== label,
        valid: true,
        predicted,
        probabilities: p,
      });
      return {
        label,
        skip: o.skip,
        initial: make(o.probs, o.predicted),
        async evaluate(texts) {
          const probs = await predict(
            classifier,
            texts.map((t) => t.text),
            'attack goal: classifier',
          );
          return texts.map((_, i) => make(rowOf(probs, i, k), argmax(probs, i, k)));
        },
      };
    },
  };
}

/**
 * The first step of an explanation goal's evaluation: every candidate classified in one batch, and the
 * explanations (for `label`) of those whose prediction stayed `label`, in one batched call — a candidate
 * that changes the prediction is invalid under both CEA/TEF's and the ranked-list goal, so it is never
 * explained. `out` holds every candidate as invalid, with its prediction; the caller fills in the kept ones.
 */
async function explainWherePredictionStays(
  classifier: Classifier,
  texts: readonly AttackedText[],
  label: number,
  explain: ExplainFn,
): Promise<{ out: GoalResult[]; kept: number[]; expl: Explanation[] }> {
  const k = classifier.labels.length;
  const probs = await predict(
    classifier,
    texts.map((t) => t.text),
    'attack goal: classifier',
  );
  const kept: number[] = [];
  texts.forEach((_, i) => {
    if (argmax(probs, i, k) === label) kept.push(i);
  });
  const expl = await explain(
    classifier,
    kept.map((i) => texts[i].text),
    label,
  );
  const out: GoalResult[] = texts.map((_, i) => ({
    score: -Infinity,
    succeeded: false,
    valid: false,
    predicted: argmax(probs, i, k),
    probabilities: rowOf(probs, i, k),
  }));
  return { out, kept, expl };
}

/** The attribution map of an explanation laid on the text's token positions (metrics' attributionVector). */
export function attributionMap(text: string, e: Explanation): Float64Array {
  return attributionVector(wordsOf(text), e.features);
}

export interface AttributionDistanceOptions {
  /** Stop once the attribution distance reaches this (default: never — maximise under the budget, as CEA and TEF). */
  targetDistance?: number;
}

/**
 * Maximise the attribution distance d = 1 − (1 + PCC(A(s̃), A(s))) / 2 while the prediction stays
 * (002_20470d3eef4d9d3e §4.1 Eqs. 2–3 and §4.2; Algorithm 1 lines 12–17). A candidate that changes the
 * predicted class is invalid. The goal of CEA and TEF.
 */
export function attributionDistanceGoal(explain: ExplainFn, options: AttributionDistanceOptions = {}): GoalFunction {
  const target = options.targetDistance ?? Infinity;
  return {
    name: 'attribution-distance',
    mode: target === Infinity ? 'maximize' : 'reach',
    params: {
      targetDistance: options.targetDistance ?? null,
      explainer: (explain as { method?: string }).method ?? 'custom',
    },
    async forInstance(classifier, text, groundTruth) {
      const o = await originalPrediction(classifier, text, groundTruth, 'attack goal: classifier');
      const label = o.label;
      const [e0] = o.skip ? [undefined] : await explain(classifier, [text.text], label);
      const a0 = e0 ? attributionMap(text.text, e0) : new Float64Array(0);
      return {
        label,
        skip: o.skip,
        initial: {
          score: 0,
          succeeded: false,
          valid: true,
          predicted: o.predicted,
          probabilities: o.probs,
          details: { attributionDistance: 0, pcc: 1 },
        },
        async evaluate(texts) {
          const { out, kept, expl } = await explainWherePredictionStays(classifier, texts, label, explain);
          kept.forEach((i, j) => {
            const a = attributionMap(texts[i].text, expl[j]);
            if (a.length !== a0.length)
              throw new XtrustError(
                'DIMENSION_MISMATCH',
                `attribution maps of ${a0.length} and ${a.length} tokens: a word swap must keep the token count`,
              );
            const d = attributionDistance(a0, a);
            out[i] = {
              ...out[i],
              score: d,
              succeeded: d >= target,
              valid: true,
              details: { attributionDistance: d, pcc: 1 - 2 * d },
            };
          });
          return out;
        },
      };
    },
  };
}

/**
 * The mapping a → b of a text's substitutions, one-to-one as the weighted measures require (001 §3): when
 * one word was replaced at several positions, or two words by the same substitute, the first (leftmost)
 * pair is kept and the others are left out — those words then count as plain changes.
 */
export function oneToOne(substitutions: readonly { from: string; to: string }[]): [string, string][] {
  const from = new Set<string>();
  const to = new Set<string>();
  const out: [string, string][] = [];
  for (const s of substitutions) {
    if (from.has(s.from) || to.has(s.to) || s.from === s.to) continue;
    from.add(s.from);
    to.add(s.to);
    out.push([s.from, s.to]);
  }
  return out;
}

export interface RankedListGoalOptions {
  /** The ranked-list similarity guiding the search (one of the six measures of 001/004). Default `rbo0.5`. */
  measure?: PaperMeasureName;
  /** Success when similarity < τ (001 §5.2). Default 0.5. */
  tau?: number;
  /** Compare the top k words of each explanation. Default 10. */
  k?: number;
}

/**
 * Push the similarity between the original explanation's ranked list A and the perturbed one B below
 * τ while the prediction stays (004_87dc91cae9faa268 §2.1, the search of Burger et al. 2023 named
 * XAIFooler in the CLI): score = 1 − sim(A, B). Each result records A, B and the mapping a → b of the
 * substitutions made, so the synonymity-weighted measures can re-score it afterwards.
 */
export function rankedListGoal(explain: ExplainFn, options: RankedListGoalOptions = {}): GoalFunction {
  const measureName = options.measure ?? 'rbo0.5';
  const tau = options.tau ?? 0.5;
  const k = options.k ?? 10;
  const measures = standardMeasures({ k, duplicates: 'dedupe' });
  const measure: PairMeasure | undefined = measures[measureName];
  if (typeof measure !== 'function')
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `ranked-list goal: measure must be one of ${Object.keys(measures).join(', ')}, got ${String(measureName)}`,
      { argument: 'measure' },
    );
  if (!(tau > 0 && tau <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `ranked-list goal: tau must be in (0, 1], got ${tau}`, {
      argument: 'tau',
    });
  return {
    name: 'ranked-list-similarity',
    mode: 'reach',
    params: { measure: measureName, tau, k, explainer: (explain as { method?: string }).method ?? 'custom' },
    async forInstance(classifier, text, groundTruth) {
      const o = await originalPrediction(classifier, text, groundTruth, 'attack goal: classifier');
      const label = o.label;
      const [e0] = o.skip ? [undefined] : await explain(classifier, [text.text], label);
      const listA = e0 ? rankedWords(e0, k) : [];
      return {
        label,
        skip: o.skip,
        initial: {
          score: 0,
          succeeded: false,
          valid: true,
          predicted: o.predicted,
          probabilities: o.probs,
          details: { similarity: 1, originalList: listA },
        },
        async evaluate(texts) {
          const { out, kept, expl } = await explainWherePredictionStays(classifier, texts, label, explain);
          kept.forEach((i, j) => {
            const listB = rankedWords(expl[j], k);
            const mapping = oneToOne(texts[i].substitutions());
            const sim = measure({ original: listA, perturbed: listB, mapping });
            out[i] = {
              ...out[i],
              score: 1 - sim,
              succeeded: sim < tau,
              valid: true,
              details: { similarity: sim, originalList: listA, perturbedList: listB, mapping },
            };
          });
          return out;
        },
      };
    },
  };
}
