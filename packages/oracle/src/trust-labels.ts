import {
  XtrustError,
  argmaxRow,
  checkProbabilities,
  type Classifier,
  type Explainer,
  type Explanation,
  type FeatureWeight,
  type WordEmbedding,
} from '@xtrust/core';
import { explainTolerant, type ExplainAllOptions, type Progress, type TolerantExplanations } from './explaining.js';
import type { KeywordStore } from './keyword-store.js';
import type { VerdictRule } from './oracle-config.js';
import { decisionWords, requireExplainsPrediction } from './word-pool.js';
import { marginOf, verdictSampling, type VerdictSamplingOptions } from './verdict-sampling.js';
import { groupedWithPhraseWords } from './reason-groups.js';
import { removalConfirms, removalOutcomes, type RemovalCase, type RemovalOutcome } from './removal-check.js';
import { relatedness, type OracleMode } from './relatedness.js';
import {
  categoryWords,
  checkUnrelatedCategories,
  reasonSpans,
  type CategoryReason,
  type UnrelatedCategory,
} from './unrelated-categories.js';

export { relatedness, type OracleMode } from './relatedness.js';

export type Verdict = 'trustworthy' | 'untrustworthy' | 'incorrect' | 'unknown';

/** The oracle's answer for one prediction. */
export interface TrustLabel {
  readonly text: string;
  readonly predicted: string;
  /** The true label, when given. */
  readonly truth?: string;
  /** Whether the prediction is correct, when the true label is given. */
  readonly correct?: boolean;
  /** The model's probability of the predicted class, when the explanation carries probabilities. */
  readonly confidence?: number;
  readonly verdict: Verdict;
  /** Why the verdict is 'unknown' (no pool for the class, no supporting word). */
  readonly reason?: string;
  /**
   * LIME samples the explanation used, when it was made with verdict-aware sampling (LIME's `verdict`
   * option, e.g. labelPredictions' `verdictSampling`): how much of the budget settling this verdict took.
   */
  readonly samples?: number;
  /** Eq. 6: total importance of related and of unrelated decision-contributing words. */
  readonly isRel: number;
  readonly isUnr: number;
  readonly related: readonly FeatureWeight[];
  readonly unrelated: readonly FeatureWeight[];
  /**
   * The unrelated categories (LabelOptions.unrelatedCategories) among the decision-contributing words,
   * each weighed as one reason; absent when none was given or none occurs.
   */
  readonly categories?: readonly CategoryReason[];
  /**
   * Under `decisive-word`, an untrustworthy prediction's decisive reason: the heaviest unrelated reason's
   * words (one word, a group that travels together, or a category's words), their summed weight, and the
   * bound it exceeded — half the margin p_c − p_2 (`by: 'margin'`) or OracleConfig.decisiveShare of the
   * explanation's supporting weight (`by: 'share'`), whichever is smaller, unless OracleConfig.relatedCounterweight
   * times the related weight IS_rel is larger still (`by: 'related'`).
   */
  readonly decisive?: DecisiveReason;
  /**
   * With OracleConfig.removalCheck and the model given: the heaviest reason whose weight exceeded the bound
   * but whose removal left the prediction standing, so the verdict stayed trustworthy.
   */
  readonly overruled?: DecisiveReason;
}

/** The reason that made a `decisive-word` verdict untrustworthy (TrustLabel.decisive). */
export interface DecisiveReason {
  readonly words: readonly string[];
  readonly weight: number;
  readonly bound: number;
  readonly by: 'margin' | 'share' | 'related';
  /**
   * With OracleConfig.removalCheck and the model given: what the model predicts once every occurrence of
   * the reason's words, and of the unrelated categories they belong to (reasonSpans: the category naming them
   * under `outermost` nesting, every one covering them under `first`), is removed from the text (the class and
   * its probability). Absent when the verdict was decided by the weights alone.
   */
  readonly without?: { readonly predicted: string; readonly probability: number };
}

export interface LabelOptions {
  /** The store's ensemble (same names and dimensions), in any order. */
  readonly embeddings: readonly WordEmbedding[];
  readonly mode?: OracleMode;
  /** True labels: predictions that differ are reported 'incorrect' and not labelled (§2.3, Definition 4). */
  readonly trueLabels?: readonly string[];
  /**
   * Kinds of token that are no reason for a class (issue 47's rubric; e.g. @xtrust/datasets'
   * TOKEN_CATEGORIES: names, numbers, years, URLs, e-mail addresses, markup, mail header fields). A decision
   * word that is a category token wherever it occurs in the text is unrelated whatever its keyword status,
   * and a category's words are weighed as one reason by `decisive-word` — a shortcut spread over many
   * tokens of a kind (a header block, a text's numbers) is one reason, as a phrase is (issue 48). None by
   * default: the paper's oracle.
   */
  readonly unrelatedCategories?: readonly UnrelatedCategory[];
  /**
   * The model the explanations are of. With OracleConfig.removalCheck (the default `toki`'s), a reason the
   * weights call decisive is removed from the text and the model asked again: the prediction is untrustworthy
   * only when that changes it or costs more than the configured share of its margin (one batched model call
   * for all such reasons). Without it the weights alone decide. labelPredictions passes its classifier.
   */
  readonly classifier?: Classifier;
}

/**
 * TOKI's second pipeline (§3.2) on given explanations: for each correct prediction, split its
 * decision-contributing words into related (r = 1) and unrelated (r = 0), sum their importances
 * (Eq. 6) and label it trustworthy iff IS_rel ≥ IS_unr. Predictions of a class without a word pool
 * (no correct training prediction) and explanations with no supporting word are 'unknown'.
 */
export async function labelExplanations(
  store: KeywordStore,
  explanations: readonly Explanation[],
  options: LabelOptions,
): Promise<TrustLabel[]> {
  const mode = options.mode ?? 'toki';
  const categories = options.unrelatedCategories ?? [];
  checkUnrelatedCategories(categories, 'labelExplanations');
  const members = await store.members(options.embeddings);
  const truth = options.trueLabels;
  if (truth && truth.length !== explanations.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `labelExplanations: ${explanations.length} explanations but ${truth.length} true labels`,
    );
  }
  const wordsOf: (FeatureWeight[] | null)[] = explanations.map((e, i) => {
    store.className(e.predictedLabel); // unknown label → UNKNOWN_LABEL
    if (truth) store.className(truth[i]);
    if (truth && truth[i] !== e.predictedLabel) return null;
    requireExplainsPrediction(e, 'labelExplanations');
    return decisionWords(e, store.topK);
  });
  // one batch of distinct words per predicted class
  const perClass = new Map<string, Map<string, number>>();
  explanations.forEach((e, i) => {
    const ws = wordsOf[i];
    if (!ws || ws.length === 0) return;
    if (mode === 'toki' && !store.hasPool(e.predictedLabel)) return;
    let m = perClass.get(e.predictedLabel);
    if (!m) perClass.set(e.predictedLabel, (m = new Map()));
    for (const { word } of ws) if (!m.has(word)) m.set(word, m.size);
  });
  const r = new Map<string, Uint8Array>();
  for (const [label, index] of perClass)
    r.set(label, await relatedness(store, label, [...index.keys()], members, mode));

  const loss = store.oracle.removalCheck ?? null;
  const nesting = store.oracle.categoryNesting ?? 'first';
  const checker = loss !== null ? options.classifier : undefined;
  const pending: { at: number; case: RemovalCase; reasons: DecisiveReason[]; margin: number }[] = [];
  // with function words never keywords, they are neutral (neither excuse nor condemn a decision) unless the model leans on them
  const labels = explanations.map((e, i): TrustLabel => {
    const c = e.predictedLabel;
    const ci = store.labels.indexOf(c);
    const confidence = e.probabilities && ci >= 0 && ci < e.probabilities.length ? e.probabilities[ci] : undefined;
    const base = {
      text: e.text,
      predicted: c,
      truth: truth?.[i],
      correct: truth ? truth[i] === c : undefined,
      confidence,
      ...samplesOf(e),
    };
    const ws = wordsOf[i];
    if (!ws) return { ...base, verdict: 'incorrect', isRel: 0, isUnr: 0, related: [], unrelated: [] };
    if (mode === 'toki' && !store.hasPool(c)) {
      return {
        ...base,
        verdict: 'unknown',
        reason: `class "${c}" has no word pool: no training text of it was predicted correctly`,
        isRel: 0,
        isUnr: 0,
        related: [],
        unrelated: [],
      };
    }
    if (ws.length === 0) {
      return {
        ...base,
        verdict: 'unknown',
        reason: 'the explanation has no word supporting the prediction',
        isRel: 0,
        isUnr: 0,
        related: [],
        unrelated: [],
      };
    }
    const index = perClass.get(c)!;
    const rc = r.get(c)!;
    const related: FeatureWeight[] = [];
    const unrelated: FeatureWeight[] = [];
    const ofCategory = categories.length > 0 ? categoryWords(e.text, c, categories, nesting) : null;
    const phraseWords = store.phraseFunctionWords(c);
    const inPhrase: FeatureWeight[] = [];
    let isRel = 0;
    let isUnr = 0;
    for (const f of ws) {
      if (ofCategory?.has(f.word)) {
        unrelated.push(f);
        isUnr += f.weight;
        continue;
      }
      if (store.isNeutralWord(c, f.word)) {
        if (phraseWords.has(f.word)) inPhrase.push(f);
        continue;
      }
      if (rc[index.get(f.word)!] === 1) {
        related.push(f);
        isRel += f.weight;
      } else {
        unrelated.push(f);
        isUnr += f.weight;
      }
    }
    const { groups, kept } = groupedWithPhraseWords(unrelated, inPhrase, store.cooccurrence, ofCategory);
    for (const f of kept) {
      unrelated.push(f);
      isUnr += f.weight;
    }
    const n = store.oracle.decisiveWords ?? 1;
    const heaviest = heaviestSum(groups, n);
    const bound = shareBound(store, ws);
    const floor = relatedFloor(store, isRel);
    const trustworthy = verdictOf(store.oracle.verdictRule, isRel, isUnr, e, ci, heaviest, bound, floor);
    const decisive = trustworthy
      ? {}
      : decisiveReason(store.oracle.verdictRule, groups, n, heaviest, bound, floor, e, ci);
    if (checker && decisive.decisive) {
      const reasons = reasonsOverBound(groups, n, decisive.decisive);
      // a category is one reason wherever it occurs: its removal takes every occurrence, not only the explained words
      const spans = reasons.map((x) =>
        ofCategory && x.words.some((w) => ofCategory.has(w))
          ? reasonSpans(e.text, c, x.words, ofCategory, categories, nesting)
          : [],
      );
      pending.push({
        at: i,
        case: { text: e.text, predicted: checker.labels.indexOf(c), reasons: reasons.map((x) => x.words), spans },
        reasons,
        margin: marginOf(e.probabilities!, ci),
      });
    }
    return {
      ...base,
      verdict: trustworthy ? 'trustworthy' : 'untrustworthy',
      isRel,
      isUnr,
      related,
      unrelated,
      ...(ofCategory ? categoryReasons(unrelated, ofCategory, categories) : {}),
      ...decisive,
    };
  });
  if (!checker || pending.length === 0) return labels;
  const outcomes = await removalOutcomes(
    checker,
    pending.map((p) => p.case),
  );
  const withOutcome = (r: DecisiveReason, o: RemovalOutcome): DecisiveReason => ({
    ...r,
    without: { predicted: checker.labels[o.predicted], probability: o.probability },
  });
  pending.forEach((p, j) => {
    const confirmed = outcomes[j].findIndex((o) => removalConfirms(o, p.margin, loss!));
    const { decisive: _, ...rest } = labels[p.at];
    labels[p.at] =
      confirmed >= 0
        ? { ...rest, decisive: withOutcome(p.reasons[confirmed], outcomes[j][confirmed]) }
        : { ...rest, verdict: 'trustworthy', overruled: withOutcome(p.reasons[0], outcomes[j][0]) };
  });
  return labels;
}

/**
 * The reasons a removal check tries for one untrustworthy `decisive-word` verdict, heaviest first: each
 * reason heavier than the verdict's bound alone, or — when OracleConfig.decisiveWords sums n > 1 reasons —
 * the n heaviest together, as the verdict weighed them.
 */
function reasonsOverBound(
  groups: readonly { readonly words: readonly string[]; readonly weight: number }[],
  n: number,
  decisive: DecisiveReason,
): DecisiveReason[] {
  if (n > 1) return [decisive];
  return [...groups]
    .sort((a, b) => b.weight - a.weight)
    .filter((g) => g.weight > decisive.bound)
    .map((g) => ({ words: [...g.words], weight: g.weight, bound: decisive.bound, by: decisive.by }));
}

/**
 * OracleConfig.decisiveShare's bound on one explanation: the share times the summed weight of its decision
 * words `ws` (related, unrelated and neutral alike) — a reason heavier than this carries the explanation.
 * Infinity when the configuration has no share.
 */
export function shareBound(store: KeywordStore, ws: readonly { readonly weight: number }[]): number {
  const share = store.oracle.decisiveShare;
  if (share == null) return Number.POSITIVE_INFINITY;
  return share * ws.reduce((a, f) => a + f.weight, 0);
}

/**
 * OracleConfig.relatedCounterweight's floor under the decisive bound: the counterweight times the related
 * weight IS_rel of one explanation — a reason no heavier than this does not decide against the related
 * words. 0 when the configuration has no counterweight.
 */
export function relatedFloor(store: KeywordStore, isRel: number): number {
  const k = store.oracle.relatedCounterweight;
  return k == null ? 0 : k * isRel;
}

/** `{ decisive }` of an untrustworthy `decisive-word` verdict: the heaviest reasons' words and the bound they exceeded. */
function decisiveReason(
  rule: VerdictRule,
  groups: readonly { readonly words: readonly string[]; readonly weight: number }[],
  n: number,
  weight: number,
  shareBound: number,
  relatedFloor: number,
  e: Pick<Explanation, 'probabilities'>,
  ci: number,
): { decisive?: DecisiveReason } {
  const p = e.probabilities;
  if (rule !== 'decisive-word' || !p || ci < 0 || ci >= p.length) return {};
  const halfMargin = marginOf(p, ci) / 2;
  const words = [...groups]
    .sort((a, b) => b.weight - a.weight)
    .slice(0, n)
    .flatMap((g) => g.words);
  const bound = Math.min(halfMargin, shareBound);
  return {
    decisive:
      relatedFloor > bound
        ? { words, weight, bound: relatedFloor, by: 'related' }
        : shareBound < halfMargin
          ? { words, weight, bound: shareBound, by: 'share' }
          : { words, weight, bound: halfMargin, by: 'margin' },
  };
}

/** `{ samples }` of an explanation made with verdict-aware sampling (params.samplesUsed), else nothing. */
function samplesOf(e: Explanation): { samples?: number } {
  const used = e.params?.samplesUsed;
  return e.params?.verdict !== undefined && typeof used === 'number' ? { samples: used } : {};
}

export interface LabelPredictionsOptions extends LabelOptions, ExplainAllOptions {
  readonly explainer: Explainer;
  /**
   * Verdict-aware sampling (issue 30): LIME samples each prediction's neighbourhood in rounds and stops
   * once its verdict is settled (verdictSampling; `true` for the defaults: confidence 0.95, rounds of
   * numSamples / 20, no check before max(200, 2d) rows, one agreeing earlier check). The explainer must
   * be LIME (it takes the `verdict` option). Each label then carries `samples`. Off by default: the
   * paper's fixed sample count.
   */
  readonly verdictSampling?:
    | boolean
    | Pick<VerdictSamplingOptions, 'confidence' | 'step' | 'minRows' | 'patience' | 'selectionGuard'>;
  /** Skip the model-fingerprint check (the label set is still checked). */
  readonly skipFingerprintCheck?: boolean;
}

/**
 * Explains `texts` with the classifier and labels each prediction (§3.2). The store must have been
 * built for this classifier (same fingerprint and label set): a store for another model is refused.
 * With `trueLabels`, the model is asked once for all texts and only correct predictions are explained.
 */
export async function labelPredictions(
  store: KeywordStore,
  classifier: Classifier,
  texts: readonly string[],
  options: LabelPredictionsOptions,
): Promise<TrustLabel[]> {
  if (options.skipFingerprintCheck) store.checkCompatible(store.fingerprint, classifier.labels);
  else await store.checkClassifier(classifier);
  const truth = options.trueLabels;
  if (truth && truth.length !== texts.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `labelPredictions: ${texts.length} texts but ${truth.length} true labels`,
    );
  }
  // one batched model call for all texts: correctness, and the prediction of texts the explainer refuses
  const k = classifier.labels.length;
  const probs = await predictAll(classifier, texts, options.onProgress);
  const predicted = texts.map((_, i) => classifier.labels[argmaxRow(probs, i, k)]);
  const toExplain: number[] = [];
  const out: (TrustLabel | undefined)[] = new Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    if (truth) store.className(truth[i]); // an unknown true label is refused, not counted as incorrect
    if (!truth || predicted[i] === truth[i]) {
      toExplain.push(i);
      continue;
    }
    out[i] = {
      text: texts[i],
      predicted: predicted[i],
      truth: truth[i],
      correct: false,
      confidence: probs[i * k + classifier.labels.indexOf(predicted[i])],
      verdict: 'incorrect',
      isRel: 0,
      isUnr: 0,
      related: [],
      unrelated: [],
    };
  }
  const vs = options.verdictSampling;
  if (vs !== undefined && vs !== false && options.explainer.name !== 'lime') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `verdictSampling needs LIME (its verdict option), but the explainer is ${options.explainer.name}`,
      { argument: 'verdictSampling' },
    );
  }
  const explainOptions: ExplainAllOptions =
    vs === undefined || vs === false
      ? options
      : {
          ...options,
          explainerOptions: {
            ...options.explainerOptions,
            verdict: verdictSampling(store, {
              ...(vs === true ? {} : vs),
              embeddings: options.embeddings,
              mode: options.mode,
            }),
          },
        };
  const tolerant = await explainTolerant(
    options.explainer,
    classifier,
    toExplain.map((i) => texts[i]),
    toExplain.map((i) => String(i)),
    explainOptions,
  );
  const labelled = await labelTolerant(
    store,
    tolerant,
    toExplain.map((i) => texts[i]),
    truth ? toExplain.map((i) => truth[i]) : undefined,
    { ...options, classifier: options.classifier ?? classifier },
    toExplain.map((i) => predicted[i]),
  );
  toExplain.forEach((i, j) => (out[i] = labelled[j]));
  return out as TrustLabel[];
}

/**
 * `labelExplanations` over the result of `explainTolerant`: a text the explainer refused is labelled
 * 'unknown' with the explainer's reason; the others as usual.
 */
export async function labelTolerant(
  store: KeywordStore,
  tolerant: TolerantExplanations,
  texts: readonly string[],
  trueLabels: readonly string[] | undefined,
  options: LabelOptions,
  predicted?: readonly string[],
): Promise<TrustLabel[]> {
  const ok: number[] = [];
  tolerant.explanations.forEach((e, i) => {
    if (e) ok.push(i);
  });
  const labelled = await labelExplanations(
    store,
    ok.map((i) => tolerant.explanations[i]!),
    { ...options, trueLabels: trueLabels ? ok.map((i) => trueLabels[i]) : undefined },
  );
  const out: TrustLabel[] = new Array(texts.length);
  ok.forEach((i, j) => (out[i] = labelled[j]));
  for (const f of tolerant.failures) {
    const truth = trueLabels?.[f.index];
    out[f.index] = {
      text: texts[f.index],
      predicted: predicted?.[f.index] ?? truth ?? '',
      truth,
      correct: truth === undefined || predicted === undefined ? undefined : predicted[f.index] === truth,
      verdict: 'unknown',
      reason: `the explainer could not explain this text: ${f.reason}`,
      isRel: 0,
      isUnr: 0,
      related: [],
      unrelated: [],
    };
  }
  return out;
}

/** Class probabilities of many texts, in batches of 512, checked (shape, NaN, rows summing to 1). */
export async function predictAll(
  classifier: Classifier,
  texts: readonly string[],
  onProgress?: (p: Progress) => void,
): Promise<Float32Array> {
  const k = classifier.labels.length;
  const out = new Float32Array(texts.length * k);
  const batch = 512;
  for (let b = 0; b < texts.length; b += batch) {
    const part = texts.slice(b, b + batch);
    const p = checkProbabilities(await classifier.predictProba(part), part.length, k, 'classifier.predictProba');
    out.set(p, b * k);
    onProgress?.({ phase: 'predict', done: Math.min(texts.length, b + batch), total: texts.length });
  }
  return out;
}

/** The words of each category (`ofCategory`: word → category index) with their summed weight, and the words of none. */
function splitByCategory<F extends { readonly word: string; readonly weight: number }>(
  fs: readonly F[],
  ofCategory: ReadonlyMap<string, number> | null | undefined,
): { byCategory: Map<number, { words: string[]; weight: number }>; rest: F[] } {
  const byCategory = new Map<number, { words: string[]; weight: number }>();
  const rest: F[] = [];
  for (const f of fs) {
    const k = ofCategory?.get(f.word);
    if (k === undefined) {
      rest.push(f);
      continue;
    }
    let g = byCategory.get(k);
    if (!g) byCategory.set(k, (g = { words: [], weight: 0 }));
    g.words.push(f.word);
    g.weight += f.weight;
  }
  return { byCategory, rest };
}

/** `{ categories }`: the unrelated words grouped by their category, heaviest first (none when no word is of one). */
function categoryReasons(
  unrelated: readonly FeatureWeight[],
  ofCategory: ReadonlyMap<string, number>,
  categories: readonly UnrelatedCategory[],
): { categories?: CategoryReason[] } {
  const { byCategory } = splitByCategory(unrelated, ofCategory);
  if (byCategory.size === 0) return {};
  return {
    categories: [...byCategory]
      .map(([k, g]) => ({ category: categories[k].name, words: g.words, weight: g.weight }))
      .sort((a, b) => b.weight - a.weight),
  };
}

/** The sum of the `n` largest weights of `fs` (0 when empty): the few unrelated words `decisive-word` weighs against half the margin. */
export function heaviestSum(fs: readonly { readonly weight: number }[], n: number): number {
  return fs
    .map((f) => f.weight)
    .sort((a, b) => b - a)
    .slice(0, n)
    .reduce((a, b) => a + b, 0);
}

/**
 * Eq. 6 under a verdict rule (see VerdictRule): `sum` is the paper's IS_rel ≥ IS_unr; `decisive` calls a
 * prediction untrustworthy when IS_unr > (p_c − p_2)/2, half the margin between the predicted class and
 * the runner-up in the explanation's probabilities; `decisive-word` when the heaviest unrelated reason
 * `maxUnrelated` exceeds the smaller of half the margin and `shareBound` (OracleConfig.decisiveShare times
 * the explanation's supporting weight, shareBound()) and `relatedFloor` (OracleConfig.relatedCounterweight
 * times IS_rel, relatedFloor()). Without probabilities, `sum`.
 */
export function verdictOf(
  rule: VerdictRule,
  isRel: number,
  isUnr: number,
  e: Pick<Explanation, 'probabilities'>,
  predictedIndex: number,
  maxUnrelated = isUnr,
  shareBound = Number.POSITIVE_INFINITY,
  relatedFloor = 0,
): boolean {
  const sum = isRel >= isUnr;
  const p = e.probabilities;
  if (rule === 'sum' || !p || predictedIndex < 0 || predictedIndex >= p.length) return sum;
  const halfMargin = marginOf(p, predictedIndex) / 2;
  const notDecisive =
    rule === 'decisive-word'
      ? maxUnrelated <= Math.max(Math.min(halfMargin, shareBound), relatedFloor)
      : isUnr <= halfMargin;
  return rule === 'sum-and-decisive' ? sum && notDecisive : notDecisive;
}
