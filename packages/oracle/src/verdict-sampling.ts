// Verdict-aware sampling (issue 30): the oracle's side of LIME's `verdict` rule. A test prediction's
// label is the sign of one statistic of its explanation (Eq. 6 under the store's verdict rule); this
// module says what that statistic is, so LIME (@xtrust/explainers, which knows nothing of TOKI) can stop
// sampling once the sign is settled.
import { XtrustError, type WordEmbedding } from '@xtrust/core';
import type {
  VerdictContext,
  VerdictFit,
  VerdictOption,
  VerdictSelectionGuard,
  VerdictStatistic,
  VerdictValue,
} from '@xtrust/explainers';
import type { KeywordStore } from './keyword-store.js';
import type { VerdictRule } from './oracle-config.js';
import { relatedness, type OracleMode } from './relatedness.js';
import { normalizeWord } from './word-pool.js';
import { categoryWords, type UnrelatedCategory } from './unrelated-categories.js';
import { anchorsPhrase, groupedWeights } from './reason-groups.js';

/**
 * Eq. 6's verdict as the sign of one number: trustworthy iff the result is ≥ 0 — exactly `verdictOf`'s
 * answer (the same comparisons, moved to one side). `sum`: IS_rel − IS_unr; `decisive`: (p_c − p_2)/2 −
 * IS_unr; `decisive-word`: (p_c − p_2)/2 − the summed importance of the `decisiveWords` heaviest unrelated words
 * (OracleConfig.decisiveWords, default 1), against the smaller of that half margin and `shareBound`
 * (OracleConfig.decisiveShare × the supporting weight; Infinity: none), or `relatedFloor` when that is larger
 * (OracleConfig.relatedCounterweight × IS_rel; 0: none); `sum-and-decisive`:
 * the smaller of the sum's and the decisive statistic. `margin` is p_c − p_2 (unused by `sum`).
 */
export function verdictStatisticOf(
  rule: VerdictRule,
  isRel: number,
  isUnr: number,
  margin: number,
  maxUnrelated = isUnr,
  shareBound = Number.POSITIVE_INFINITY,
  relatedFloor = 0,
): number {
  const sum = isRel - isUnr;
  if (rule === 'sum') return sum;
  const decisive =
    rule === 'decisive-word'
      ? Math.max(Math.min(margin / 2, shareBound), relatedFloor) - maxUnrelated
      : margin / 2 - isUnr;
  return rule === 'sum-and-decisive' ? Math.min(sum, decisive) : decisive;
}

/** p_c − p_2: the predicted class's probability minus the runner-up's. */
export function marginOf(p: ArrayLike<number>, c: number): number {
  let runnerUp = 0;
  for (let j = 0; j < p.length; j++) if (j !== c && p[j] > runnerUp) runnerUp = p[j];
  return p[c] - runnerUp;
}

/** What `verdictSampling` needs besides the store. */
export interface VerdictSamplingOptions {
  /** The store's ensemble (as for labelExplanations). */
  readonly embeddings: readonly WordEmbedding[];
  readonly mode?: OracleMode;
  /** True labels by text: a prediction of another label is 'incorrect' whatever its explanation, so its sampling stops at the first check. */
  readonly trueLabels?: ReadonlyMap<string, string>;
  /**
   * LabelOptions.unrelatedCategories: a word that is a category token wherever it occurs in the text counts
   * as unrelated in the statistic, and a category's words are one reason with the words they travel with
   * (groupedWeights), as the labelling weighs them.
   */
  readonly unrelatedCategories?: readonly UnrelatedCategory[];
  /** LIME's verdict rule settings (VerdictOption): confidence (default 0.95), step, minRows, patience. */
  readonly confidence?: number;
  readonly step?: number;
  readonly minRows?: number;
  readonly patience?: number;
  /** LIME's guard for the selection the interval does not see (VerdictOption.selectionGuard). Default 'swap'. */
  readonly selectionGuard?: VerdictSelectionGuard;
}

/**
 * The statistic of one prediction as a function of LIME's local model: the decision-contributing words
 * (decisionWords: the store's topK words of largest positive weight, lower-cased, features folding to one
 * word added up), split by r(w, c) computed once for every word of the text, summed as Eq. 6 does, and the
 * rule's statistic (verdictStatisticOf). Given which words count, it is linear in the coefficients: the
 * gradient is +1 on a counted related word's features and −1 on a counted unrelated word's (for the
 * decisive rules, only the unrelated ones; decisive-word, only the `decisiveWords` largest). With
 * `decisiveShare` (decisive-word; OracleConfig.decisiveShare) the bound is the smaller of half the margin
 * and the share of the counted words' summed weight; where the share is the smaller, every counted word's
 * features gain +share in the gradient. With `relatedCounterweight` (OracleConfig.relatedCounterweight) the
 * bound is at least that multiple of IS_rel; where that floor is the larger, the counted related words'
 * features gain +counterweight instead. With `groupsOf` (the store's co-occurrence and the text's unrelated
 * categories, as labelExplanations groups them), the counted unrelated words are weighed in those groups, the
 * `decisiveWords` heaviest groups summed — the statistic then decides as the labelling will. A word of role −2
 * (KeywordStore.phraseFunctionWords) counts as unrelated only in a group holding a word other than a function word.
 */
export function tokiStatistic(
  rule: VerdictRule,
  words: readonly string[],
  role: Int8Array,
  topK: number,
  margin: number,
  decisiveWords = 1,
  decisiveShare: number | null = null,
  groupsOf?: (words: readonly string[]) => number[][],
  relatedCounterweight: number | null = null,
): VerdictStatistic {
  const lower = words.map(normalizeWord);
  return (fit: VerdictFit): VerdictValue => {
    const merged = new Map<string, { weight: number; features: number[]; role: number }>();
    fit.features.forEach((f, j) => {
      const w = fit.coef[j];
      if (!(w > 0) || lower[f].length === 0) return;
      const m = merged.get(lower[f]);
      if (m) {
        m.weight += w;
        m.features.push(j);
      } else merged.set(lower[f], { weight: w, features: [j], role: role[f] });
    });
    const counted = [...merged]
      .sort((x, y) => y[1].weight - x[1].weight || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .slice(0, topK);
    let isRel = 0;
    let isUnr = 0;
    let supporting = 0;
    const unrelated: { word: string; weight: number; features: number[] }[] = [];
    const phrase: { word: string; weight: number; features: number[] }[] = [];
    for (const [word, m] of counted) {
      supporting += m.weight;
      if (m.role === 1) isRel += m.weight;
      else if (m.role === -1) {
        isUnr += m.weight;
        unrelated.push({ word, weight: m.weight, features: m.features });
      } else if (m.role === -2) phrase.push({ word, weight: m.weight, features: m.features });
    }
    // the reasons: each unrelated word, or their groups; the `decisiveWords` heaviest are weighed
    let reasons: readonly { weight: number; features: number[] }[] = unrelated;
    if (phrase.length > 0) {
      // a phrase function word weighs only in a group holding a word other than a function word (groupedWithPhraseWords)
      const all = [...unrelated, ...phrase];
      const groups = groupsOf && all.length > 1 ? groupsOf(all.map((u) => u.word)) : all.map((_, i) => [i]);
      reasons = groups
        .map((g) => (anchorsPhrase(g.map((i) => all[i].word)) ? g : g.filter((i) => i < unrelated.length)))
        .filter((g) => g.length > 0)
        .map((g) => {
          for (const i of g) if (i >= unrelated.length) isUnr += all[i].weight;
          return { weight: g.reduce((a, i) => a + all[i].weight, 0), features: g.flatMap((i) => all[i].features) };
        });
    } else if (groupsOf && unrelated.length > 1)
      reasons = groupsOf(unrelated.map((u) => u.word)).map((g) => ({
        weight: g.reduce((a, i) => a + unrelated[i].weight, 0),
        features: g.flatMap((i) => unrelated[i].features),
      }));
    const heaviestReasons = [...reasons].sort((a, b) => b.weight - a.weight).slice(0, decisiveWords);
    const heaviest = heaviestReasons.reduce((a, r) => a + r.weight, 0);
    const heaviestAt = heaviestReasons.flatMap((r) => r.features);
    const bound = decisiveShare == null ? Number.POSITIVE_INFINITY : decisiveShare * supporting;
    const floor = relatedCounterweight == null ? 0 : relatedCounterweight * isRel;
    const value = verdictStatisticOf(rule, isRel, isUnr, margin, heaviest, bound, floor);
    const gradient = new Float64Array(fit.coef.length);
    const sumSide = rule === 'sum' || (rule === 'sum-and-decisive' && isRel - isUnr <= margin / 2 - isUnr);
    if (rule === 'decisive-word') {
      if (floor > Math.min(bound, margin / 2)) {
        for (const [, m] of counted) if (m.role === 1) for (const j of m.features) gradient[j] = relatedCounterweight!;
      } else if (bound < margin / 2)
        for (const [, m] of counted) for (const j of m.features) gradient[j] = decisiveShare!;
      for (const j of heaviestAt) gradient[j] -= 1;
    } else {
      for (const [, m] of counted) {
        const g = m.role === -1 ? -1 : m.role === 1 && sumSide ? 1 : 0;
        for (const j of m.features) gradient[j] = g;
      }
    }
    return { value, gradient };
  };
}

/**
 * LIME's verdict rule for labelling predictions with `store` (issue 30: sample each test prediction's
 * neighbourhood until its Eq. 6 verdict is settled at `confidence`, not a fixed 5,000 rows). For each
 * text, once LIME has scored it: a prediction that is incorrect (with `trueLabels`) or of a class without
 * a pool (mode toki: 'unknown') does not depend on its explanation ('settled'); otherwise r(w, c) is
 * computed for every word of the text in one batch, and the statistic is tokiStatistic. Pass the result
 * as LIME's `verdict` option; labelExplanations then labels the explanations as usual.
 */
export function verdictSampling(store: KeywordStore, options: VerdictSamplingOptions): VerdictOption {
  const mode = options.mode ?? 'toki';
  if (mode !== 'toki' && mode !== 'toki-ki-ablated')
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `verdictSampling: mode must be 'toki' or 'toki-ki-ablated', got ${String(mode)}`,
      { argument: 'mode' },
    );
  const rule = store.oracle.verdictRule;
  let members: Promise<WordEmbedding[]> | null = null;
  return {
    name: `${store.oracle.name}:${rule}`,
    ...(options.confidence === undefined ? {} : { confidence: options.confidence }),
    ...(options.step === undefined ? {} : { step: options.step }),
    ...(options.minRows === undefined ? {} : { minRows: options.minRows }),
    ...(options.patience === undefined ? {} : { patience: options.patience }),
    // swap: the top-k boundary guard, measured on validation texts (README, Verdict-aware sampling): the sum rule's 33/36 → 35/36, the decisive rule unchanged
    selectionGuard: options.selectionGuard ?? 'swap',
    async prepare(ctx: VerdictContext) {
      const c = ctx.labels[ctx.label];
      // TOKI reads explanations of the predicted class only; another explained label has no verdict to settle
      let predicted = 0;
      for (let j = 1; j < ctx.probabilities.length; j++)
        if (ctx.probabilities[j] > ctx.probabilities[predicted]) predicted = j;
      if (ctx.label !== predicted) return null;
      const truth = options.trueLabels?.get(ctx.text);
      if (truth !== undefined && truth !== c) return 'settled';
      if (mode === 'toki' && !store.hasPool(c)) return 'settled';
      members ??= store.members(options.embeddings);
      const lower = ctx.words.map(normalizeWord);
      const distinct = [...new Set(lower.filter((w) => w.length > 0))];
      const r = await relatedness(store, c, distinct, await members, mode);
      const related = new Map(distinct.map((w, i) => [w, r[i]]));
      const cats = options.unrelatedCategories?.length
        ? categoryWords(ctx.text, c, options.unrelatedCategories, store.oracle.categoryNesting ?? 'first')
        : null;
      const phraseWords = store.phraseFunctionWords(c);
      const role = Int8Array.from(lower, (w) =>
        cats?.has(w) ? -1 : store.isNeutralWord(c, w) ? (phraseWords.has(w) ? -2 : 0) : related.get(w) === 1 ? 1 : -1,
      );
      // the labelling's reasons: words that travel together and a category's words are one (groupedWeights)
      const groupsOf = (ws: readonly string[]): number[][] => {
        const at = new Map(ws.map((w, i) => [w, i]));
        return groupedWeights(
          ws.map((word) => ({ word, weight: 0 })),
          store.cooccurrence,
          cats,
        ).map((g) => g.words.map((w) => at.get(w)!));
      };
      return tokiStatistic(
        rule,
        ctx.words,
        role,
        store.topK,
        marginOf(ctx.probabilities, ctx.label),
        store.oracle.decisiveWords ?? 1,
        store.oracle.decisiveShare ?? null,
        groupsOf,
        store.oracle.relatedCounterweight ?? null,
      );
    },
  };
}
