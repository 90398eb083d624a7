// The trustworthiness audit's steps: keyword identification, labelling of test predictions, and the
// summary built from them. Its records (audit-records.ts), settings (audit-settings.ts) and embedding
// ensemble (ensemble.ts) live in modules of their own, which the demo's scored check shares.
import { argmaxRow, type Classifier, type Explanation, type Explainer, type WordEmbedding } from '@xtrust/core';
import {
  LEAN_THRESHOLD,
  leansOn,
  probeCategories,
  sample,
  tokenCategory,
  TOKEN_CATEGORY_NAMES,
} from '@xtrust/datasets';
import { rocAuc, rocCurve } from '@xtrust/metrics';
import {
  explainAll,
  identifyKeywords,
  isFunctionWord,
  reasonSentence,
  type KeywordStore,
  labelExplanations,
  naiveOracle,
  normalizeWord,
  oracleMetrics,
  predictAll,
  verdictSampling,
  type KeywordStoreJson,
  type Progress as OracleProgress,
  type DecisiveReason,
  type TrustLabel,
  type UnrelatedCategory,
} from '@xtrust/oracle';
import { withAttention } from './attention-panel.js';
import {
  MIN_CASES_PER_SIDE,
  type AuditedPrediction,
  type AuditRow,
  type AuditSummary,
  type ConfidenceBucket,
  type OracleComparison,
  type PoolWord,
} from './audit-records.js';
import { auditExplainer, keywordOptions, type AuditSettings } from './audit-settings.js';
import { loadEnsemble } from './ensemble.js';
import { DEFAULT_LIME_MODE } from './lime-mode.js';
import { screeningNotice, verdictSamplingOf } from './audit-mode.js';
import type { CategoryProbesSummary, ProbedSummary } from './report/probes.js';
import type { Progress, ProgressTask } from './progress.js';
import { CHECKPOINT_SECONDS, type RunDir } from './run-dir.js';

/** Label counts of some rows, every label present (0 when absent). */
export function countLabels(rows: readonly { label: string }[], labels: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(labels.map((l) => [l, 0]));
  for (const r of rows) counts[r.label] = (counts[r.label] ?? 0) + 1;
  return counts;
}

const PHASE_NAMES: Record<string, string> = {
  predict: 'predicting',
  explain: 'explaining',
  keywords: 'clustering',
  label: 'labelling',
};

/** Bridges the oracle's progress callbacks to one progress task per phase. */
export function progressBridge(
  progress: Progress,
  prefix: string,
): { onProgress: (p: OracleProgress) => void; stop: () => void } {
  let task: ProgressTask | null = null;
  let phase = '';
  return {
    onProgress(p) {
      if (p.phase !== phase) {
        task?.stop();
        phase = p.phase;
        task = progress.start(`${prefix} · ${PHASE_NAMES[p.phase] ?? p.phase}`, p.total);
        // explainAll's first report is the count found in its checkpoint; other phases start at 0.
        if (p.phase !== 'explain') task.update(0);
      }
      task!.update(p.done, p.total);
    },
    stop() {
      task?.stop();
      task = null;
      phase = '';
    },
  };
}

/**
 * The pools of the store as plain words: keywords (K_c) and spurious words (F_c = W_c \ K_c), top `n` each,
 * each with the sentence saying why (reasonSentence) when the store recorded a reason; and per class the
 * related share (RelatedShare) of the whole pool's content words.
 */
export function poolsOf(store: KeywordStore, n: number): AuditSummary['pools'] {
  const out: AuditSummary['pools'] = {};
  // the per-class explanation counts are public only through the store's JSON form
  const json = store.toJSON() as KeywordStoreJson & { classes: { label: string; explanations?: number }[] };
  const thresholds = store.oracle.meaning ?? {};
  for (const label of store.labels) {
    const pool = store.hasPool(label) ? store.pool(label) : [];
    const keywords = pool.filter((w) => store.isKeyword(label, w.word));
    const spurious = pool.filter((w) => !store.isKeyword(label, w.word));
    const listed = (w: { word: string; importance: number }): PoolWord => {
      const reason = store.why(label, w.word);
      return { word: w.word, importance: w.importance, ...(reason ? { why: reasonSentence(reason, thresholds) } : {}) };
    };
    const content = pool.filter((w) => !isFunctionWord(w.word));
    const weight = (ws: readonly { importance: number }[]) => ws.reduce((a, w) => a + Math.max(0, w.importance), 0);
    const related = content.filter((w) => store.isKeyword(label, w.word));
    const total = weight(content);
    out[label] = {
      className: store.className(label),
      explanations: json.classes.find((c) => c.label === label)?.explanations ?? 0,
      keywords: keywords.slice(0, n).map(listed),
      spurious: spurious.slice(0, n).map(listed),
      related: {
        words: related.length,
        pool: content.length,
        importanceShare: total > 0 ? weight(related) / total : 0,
      },
      ...leanedOf(store, label, pool),
    };
  }
  return out;
}

/**
 * `{ leanedFunctionWords, phraseFunctionWords }` for a class whose pool has function words the model leans on
 * (counted anywhere, or only inside phrases), by importance; absent fields where there are none.
 */
function leanedOf(
  store: KeywordStore,
  label: string,
  pool: readonly { word: string }[],
): { leanedFunctionWords?: string[]; phraseFunctionWords?: string[] } {
  const leaned = store.leanedFunctionWords(label);
  const phrase = store.phraseFunctionWords(label);
  return {
    ...(leaned.size === 0 ? {} : { leanedFunctionWords: pool.filter((w) => leaned.has(w.word)).map((w) => w.word) }),
    ...(phrase.size === 0 ? {} : { phraseFunctionWords: pool.filter((w) => phrase.has(w.word)).map((w) => w.word) }),
  };
}

/** Figure 6: correct predictions by confidence bucket (0.5–0.6 … 0.9–1.0) and verdict (and ground truth when given). */
export function confidenceBuckets(predictions: readonly AuditedPrediction[], k: number): ConfidenceBucket[] {
  // With k classes the confidence of a prediction is at least 1/k: buckets start there.
  const lo0 = Math.floor((1 / k) * 10) / 10;
  const edges: number[] = [];
  for (let e = lo0; e < 1 - 1e-9; e = Math.round((e + 0.1) * 10) / 10) edges.push(e);
  edges.push(1);
  const hasTruth = predictions.some((p) => p.trustworthy !== undefined);
  const buckets = edges.slice(0, -1).map((lo, i) => ({
    lo,
    hi: edges[i + 1],
    trustworthy: 0,
    untrustworthy: 0,
    truthTrustworthy: hasTruth ? 0 : undefined,
    truthUntrustworthy: hasTruth ? 0 : undefined,
  }));
  for (const p of predictions) {
    if (p.verdict === 'incorrect') continue;
    let b = buckets.findIndex((x) => p.confidence < x.hi);
    if (b < 0) b = buckets.length - 1;
    if (p.verdict === 'trustworthy') buckets[b].trustworthy++;
    else if (p.verdict === 'untrustworthy') buckets[b].untrustworthy++;
    if (p.trustworthy === true) buckets[b].truthTrustworthy!++;
    else if (p.trustworthy === false) buckets[b].truthUntrustworthy!++;
  }
  return buckets;
}

/** Naive (confidence ≥ θ_conf) vs TOKI against ground truth, with ROC curves of confidence and of TOKI's IS_rel share. */
export function compareWithTruth(
  predictions: readonly AuditedPrediction[],
  thetaConf: number,
): OracleComparison | undefined {
  const cases = predictions.filter((p) => p.verdict !== 'incorrect' && p.trustworthy !== undefined);
  const truth = Uint8Array.from(cases, (p) => (p.trustworthy ? 1 : 0));
  const positives = truth.reduce((a, b) => a + b, 0);
  if (cases.length === 0) return undefined;
  const counts = {
    cases: cases.length,
    trustworthy: positives,
    untrustworthy: cases.length - positives,
    minPerSide: MIN_CASES_PER_SIDE,
    thetaConf,
  };
  // an accuracy or G-mean on a handful of cases says nothing: below the minimum per side, none is given
  if (positives < MIN_CASES_PER_SIDE || cases.length - positives < MIN_CASES_PER_SIDE)
    return { ...counts, tooSmall: true, rows: [], roc: [] };
  const confidence = Float64Array.from(cases, (p) => p.confidence);
  const toki = Uint8Array.from(cases, (p) => (p.verdict === 'trustworthy' ? 1 : 0));
  // TOKI's continuous score: the related words' share of the decision-contributing importance.
  const tokiScore = Float64Array.from(cases, (p) => (p.isRel + p.isUnr > 0 ? p.isRel / (p.isRel + p.isUnr) : 0));
  const row = (method: string, m: ReturnType<typeof oracleMetrics>) => ({
    method,
    accuracy: m.accuracy,
    precision: m.precision,
    sensitivity: m.sensitivity,
    specificity: m.specificity,
    f1: m.f1,
    gmean: m.gmean,
  });
  const curve = (method: string, scores: Float64Array) => {
    const c = rocCurve(scores, truth);
    return { method, auc: rocAuc(scores, truth), fpr: Array.from(c.fpr), tpr: Array.from(c.tpr) };
  };
  return {
    ...counts,
    tooSmall: false,
    rows: [
      row(`Naive (θ_conf ${thetaConf})`, oracleMetrics(naiveOracle(confidence, thetaConf), truth)),
      row('TOKI', oracleMetrics(toki, truth)),
    ],
    roc: [curve('Naive (confidence)', confidence), curve('TOKI (IS_rel share)', tokiScore)],
  };
}

/** What labelling needs besides the store and the rows. */
export interface LabelRowsContext {
  readonly explainer: Explainer;
  readonly embeddings: readonly WordEmbedding[];
  readonly run: RunDir;
  readonly progress: Progress;
  /** The rows carry no true label (production texts): every prediction is labelled, none is 'incorrect'. */
  readonly unlabelled?: boolean;
  /** The longest one explainer call should take (ExplainAllOptions.batchSeconds; none for a queue, whose workers want whole batches). */
  readonly batchSeconds?: number;
  /**
   * `--audit-mode fast`: each prediction's LIME stops once its verdict is settled (@xtrust/oracle
   * verdictSampling; the explainer must be a local LIME). Each prediction then records `samples`.
   */
  readonly verdictSampling?: boolean;
  /** Token categories that are no reason for any class (unrelatedCategoriesOf; @xtrust/oracle LabelOptions.unrelatedCategories). */
  readonly unrelatedCategories?: readonly UnrelatedCategory[];
}

/**
 * The categories TOKI counts as no reason for any class (issue 47's rubric: names, numbers and years,
 * URLs, e-mail addresses, markup, mail header fields; @xtrust/datasets TOKEN_CATEGORIES): by default all
 * of them, `false` none, else the named ones.
 */
export function unrelatedCategoriesOf(names: readonly string[] | false | undefined): UnrelatedCategory[] {
  if (names === false) return [];
  return (names ?? TOKEN_CATEGORY_NAMES).map((n) => tokenCategory(n));
}

/**
 * TOKI's second pipeline on labelled rows: predicts them, explains every prediction (appending each
 * explanation to predictions.explanations.jsonl, so a rerun resumes) and labels each correct one
 * trustworthy or untrustworthy.
 */
export async function labelRows(
  store: KeywordStore,
  classifier: Classifier,
  tested: readonly AuditRow[],
  context: LabelRowsContext,
): Promise<AuditedPrediction[]> {
  const { explainer, embeddings, run, progress } = context;
  const labels = classifier.labels;
  progress.note(`labelling: explaining ${tested.length} test predictions`);
  const lb = progressBridge(progress, 'test');
  const texts = tested.map((r) => r.text);
  const probs = await predictAll(classifier, texts, lb.onProgress);
  const trueLabels = context.unlabelled ? undefined : tested.map((r) => r.label);
  // Every prediction is explained (incorrect ones too, so the report can show what they rest on; with
  // verdict-aware sampling an incorrect one stops at the first check, its verdict being 'incorrect' whatever it rests on).
  const explanations: Explanation[] = await explainAll(
    explainer,
    classifier,
    texts,
    texts.map((_, i) => `test:${i}`),
    {
      checkpoint: run.path('predictions.explanations.jsonl'),
      batchSeconds: context.batchSeconds,
      onProgress: lb.onProgress,
      ...(context.verdictSampling
        ? {
            explainerOptions: {
              adaptive: false,
              verdict: verdictSampling(store, {
                embeddings,
                trueLabels: truthByText(texts, trueLabels),
                unrelatedCategories: context.unrelatedCategories,
              }),
            },
          }
        : {}),
    },
  );
  lb.stop();
  const verdicts = await labelExplanations(store, explanations, {
    embeddings,
    trueLabels,
    unrelatedCategories: context.unrelatedCategories,
    classifier,
  });
  const k = labels.length;
  return tested.map((r, i) => {
    const p = argmaxRow(probs, i, k);
    const v = verdicts[i];
    return {
      index: i,
      text: r.text,
      truth: context.unlabelled ? null : r.label,
      predicted: labels[p],
      confidence: probs[i * k + p],
      verdict: v.verdict,
      ...(v.reason ? { reason: v.reason } : {}),
      isRel: v.isRel,
      isUnr: v.isUnr,
      related: v.related.map((f) => f.word),
      unrelated: v.unrelated.map((f) => f.word),
      ...flaggedWhy(store, labels[p], v),
      ...(v.categories ? { categories: v.categories } : {}),
      ...(v.decisive ? { decisive: v.decisive } : {}),
      ...(v.overruled ? { overruled: v.overruled } : {}),
      features: explanations[i].features.map((f) => ({ word: f.word, weight: f.weight })),
      ...(v.samples !== undefined ? { samples: v.samples } : {}),
      ...(r.trustworthy !== undefined ? { trustworthy: r.trustworthy } : {}),
    };
  });
}

/**
 * Why each unrelated word of an untrustworthy prediction is not related to the predicted class
 * (reasonSentence of the store's reason), for the words the store recorded a reason for — so a user who
 * disagrees with a flag sees what to change (`--class-descriptions`).
 */
function flaggedWhy(
  store: KeywordStore,
  label: string,
  v: Pick<TrustLabel, 'verdict' | 'unrelated' | 'categories'>,
): { why?: Record<string, string> } {
  if (v.verdict !== 'untrustworthy' || !store.hasPool(label)) return {};
  const why: Record<string, string> = {};
  for (const c of v.categories ?? [])
    for (const w of c.words)
      why[w] =
        `a token of the category "${c.category}", no reason for any class; the text's ${c.words.length === 1 ? 'one such word weighs' : `${c.words.length} such words weigh`} ${c.weight.toFixed(3)} together`;
  for (const f of v.unrelated) {
    if (why[f.word]) continue;
    const r = store.why(label, normalizeWord(f.word));
    if (r) why[f.word] = reasonSentence(r, store.oracle.meaning ?? {});
  }
  return Object.keys(why).length > 0 ? { why } : {};
}

/** The true label of each text, for texts whose copies all carry the same label (a text with two labels is left out: its sampling is not cut short). */
function truthByText(texts: readonly string[], truth: readonly string[] | undefined): Map<string, string> | undefined {
  if (!truth) return undefined;
  const out = new Map<string, string>();
  const mixed = new Set<string>();
  texts.forEach((t, i) => {
    const had = out.get(t);
    if (had !== undefined && had !== truth[i]) mixed.add(t);
    else out.set(t, truth[i]);
  });
  for (const t of mixed) out.delete(t);
  return out;
}

/** Verdict counts and the share of untrustworthy correct predictions. */
export function verdictCounts(predictions: readonly AuditedPrediction[]): {
  counts: Record<TrustLabel['verdict'], number>;
  untrustworthyShare: number | null;
  untrustworthyByCategory: Record<string, number>;
  untrustworthyByBound: Record<DecisiveReason['by'], number>;
  overruledByRemoval: number;
} {
  const counts: Record<TrustLabel['verdict'], number> = { trustworthy: 0, untrustworthy: 0, incorrect: 0, unknown: 0 };
  const byCategory: Record<string, number> = {};
  const byBound: Record<DecisiveReason['by'], number> = { margin: 0, share: 0, related: 0 };
  let overruled = 0;
  for (const p of predictions) {
    counts[p.verdict]++;
    if (p.overruled) overruled++;
    if (p.verdict !== 'untrustworthy') continue;
    for (const c of p.categories ?? []) byCategory[c.category] = (byCategory[c.category] ?? 0) + 1;
    if (p.decisive) byBound[p.decisive.by]++;
  }
  const judged = counts.trustworthy + counts.untrustworthy;
  return {
    counts,
    untrustworthyShare: judged ? counts.untrustworthy / judged : null,
    untrustworthyByCategory: byCategory,
    untrustworthyByBound: byBound,
    overruledByRemoval: overruled,
  };
}

/**
 * TOKI's first pipeline: explains a sample of correctly predicted training texts (each explanation
 * appended to keywords.explanations.jsonl, so a rerun resumes), pools and clusters their words, and
 * saves the keyword store as keywords.json in the run directory.
 */
export async function identifyStore(
  classifier: Classifier,
  train: readonly AuditRow[],
  settings: AuditSettings,
  context: LabelRowsContext & { readonly thetaRelate: Record<string, number> },
): Promise<KeywordStore> {
  const { progress, run } = context;
  const method = settings.keywordMethod ?? 'lime';
  progress.note(
    `keywords: explaining up to ${settings.trainSample} correctly predicted training texts (${method === 'lime' ? `LIME, ${settings.samples} samples each` : method})`,
  );
  const screening = screeningNotice(method);
  if (screening) progress.note(screening);
  const kb = progressBridge(progress, 'keywords');
  const store = await identifyKeywords(
    classifier,
    train.map((r) => r.text),
    train.map((r) => r.label),
    { ...keywordOptions(settings, context, run.path('keywords.explanations.jsonl')), onProgress: kb.onProgress },
  );
  kb.stop();
  // the mode goes into the store's record of how its explanations were made: `xtrust label` then loads
  // the model the same way (an int8 store's fingerprint is the int8 model's) and explains the same way
  const { explainer: made } = store.provenance;
  store.provenance = {
    ...store.provenance,
    explainer: { ...made, params: { ...made.params, limeMode: settings.limeMode ?? DEFAULT_LIME_MODE } },
  };
  run.writeFile('keywords.json', `${JSON.stringify(store.toJSON())}\n`);
  return store;
}

/**
 * Category probes of an audit: CheckList invariance tests (Ribeiro et al. 2020, "Beyond Accuracy:
 * Behavioral Testing of NLP Models with CheckList"; @xtrust/datasets probeCategories) over the audited
 * predictions' texts — per token category, how often removing or swapping it changes the prediction — and
 * the categories the model leans on (removal-flip Wilson lower bound > LEAN_THRESHOLD, 0.05).
 */
export async function auditProbes(
  classifier: Classifier,
  texts: readonly string[],
  categories: readonly string[] | undefined,
  seed: number,
  progress: Progress,
): Promise<CategoryProbesSummary | undefined> {
  const probed = texts.filter((t) => t.trim() !== '');
  if (probed.length === 0) return undefined;
  progress.note(
    `category probes: ${categories ? categories.join(', ') : 'all categories'} over ${probed.length} texts`,
  );
  const result = await probeCategories(classifier, probed, { categories, seed });
  return { ...result, threshold: LEAN_THRESHOLD, leansOn: leansOn(result).map((p) => p.category) };
}

/** The inputs of one audit. */
export interface AuditInputs {
  readonly classifier: Classifier;
  readonly model: Record<string, unknown>;
  readonly dataset: string;
  readonly train: readonly AuditRow[];
  readonly test: readonly AuditRow[];
  /** Test rows before sampling, when the caller sampled them (shown in the summary). */
  readonly testTotal?: number;
  /** Replaces the audit's local LIME (xtrust audit --queue: the same LIME run by queue workers). */
  readonly explainer?: Explainer;
  /**
   * Token categories probed over the audited texts (`--category-probes`; @xtrust/datasets TOKEN_CATEGORIES
   * names): undefined for all of them, false for none.
   */
  readonly categoryProbes?: readonly string[] | false;
  /** `--unrelated-categories` (unrelatedCategoriesOf): undefined for all of them, false for none. */
  readonly unrelatedCategories?: readonly string[] | false;
}

/** What an audit leaves in its run directory, besides its JSONL checkpoints. */
export interface AuditOutput {
  readonly summary: ProbedSummary;
  readonly predictions: AuditedPrediction[];
  readonly store: KeywordStore;
}

/**
 * The trustworthiness audit: TOKI keyword identification on a sample of correctly predicted training
 * texts, then every sampled test prediction explained (LIME) and labelled trustworthy or not, with
 * explanations appended to JSONL checkpoints in the run directory as they come (so `--resume` continues).
 */
export async function runAudit(
  inputs: AuditInputs,
  settings: AuditSettings,
  run: RunDir,
  progress: Progress,
): Promise<AuditOutput> {
  const started = performance.now();
  const { classifier } = inputs;
  const labels = classifier.labels;
  const { embeddings, thetaRelate } = await loadEnsemble(progress, settings.ensemble);
  const explainer = inputs.explainer ?? auditExplainer(settings);
  // a queue's workers split each call into jobs: they want whole batches, and the queue keeps its own progress
  const batchSeconds = inputs.explainer ? undefined : CHECKPOINT_SECONDS;
  const store = await identifyStore(classifier, inputs.train, settings, {
    explainer,
    embeddings,
    thetaRelate,
    run,
    progress,
    batchSeconds,
  });
  const keywordSeconds = (performance.now() - started) / 1000;

  const labelStarted = performance.now();
  const tested =
    settings.testSample > 0 && settings.testSample < inputs.test.length
      ? sample([...inputs.test], settings.testSample, settings.seed)
      : [...inputs.test];
  // --audit-mode fast labels with verdict-aware LIME, which reads the keyword store as it samples: it runs
  // here even when a queue's workers made the keyword pass (they have no store)
  const fast = verdictSamplingOf(settings.auditMode);
  const unrelatedCategories = unrelatedCategoriesOf(inputs.unrelatedCategories);
  const labeller = fast ? auditExplainer(settings) : explainer;
  const labelContext = {
    explainer: labeller,
    embeddings,
    run,
    progress,
    batchSeconds: fast ? CHECKPOINT_SECONDS : batchSeconds,
    verdictSampling: fast,
    unrelatedCategories,
  };
  const predictions = await withAttention(
    classifier,
    await labelRows(store, classifier, tested, labelContext),
    settings.topK,
    progress,
  );
  const labelSeconds = (performance.now() - labelStarted) / 1000;
  const categoryProbes =
    inputs.categoryProbes === false
      ? undefined
      : await auditProbes(
          classifier,
          predictions.map((p) => p.text),
          inputs.categoryProbes,
          settings.seed,
          progress,
        );

  const {
    counts: count,
    untrustworthyShare,
    untrustworthyByCategory,
    untrustworthyByBound,
    overruledByRemoval,
  } = verdictCounts(predictions);
  const summary: ProbedSummary = {
    format: 'xtrust-audit',
    version: 1,
    model: { ...inputs.model, labels: [...labels] },
    data: {
      dataset: inputs.dataset,
      labels: [...labels],
      trainRows: inputs.train.length,
      testRows: inputs.testTotal ?? inputs.test.length,
      auditedTestRows: tested.length,
      labelCounts: { train: countLabels(inputs.train, labels), test: countLabels(tested, labels) },
    },
    settings: {
      ...settings,
      explainer: 'lime',
      embeddings: embeddings.map((e) => ({ name: e.name, thetaRelate: thetaRelate[e.name] })),
      unrelatedCategories: unrelatedCategories.map((c) => c.name),
    },
    accuracy: tested.length ? (tested.length - count.incorrect) / tested.length : NaN,
    verdicts: count,
    untrustworthyShare,
    untrustworthyByCategory,
    untrustworthyByBound,
    overruledByRemoval,
    pools: poolsOf(store, 40),
    confidence: confidenceBuckets(predictions, labels.length),
    comparison: compareWithTruth(predictions, settings.thetaConf),
    ...(categoryProbes ? { categoryProbes } : {}),
    seconds: { keywords: keywordSeconds, labelling: labelSeconds, total: (performance.now() - started) / 1000 },
  };
  return { summary, predictions, store };
}
