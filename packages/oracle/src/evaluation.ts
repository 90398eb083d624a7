import { classificationMetrics, rocAuc, type ClassificationMetrics } from '@xtrust/metrics';
import { XtrustError, type Classifier, type Explainer, type Explanation, type WordEmbedding } from '@xtrust/core';
import { explainTolerant, type Progress } from './explaining.js';
import { identifyKeywords, type IdentifyKeywordsOptions } from './keyword-identification.js';
import type { KeywordStore } from './keyword-store.js';
import { chooseThetaConf, naiveOracle, predictionConfidence } from './naive.js';
import { labelExplanations, labelTolerant, predictAll, type TrustLabel } from './trust-labels.js';

/** Binary classification metrics with trustworthy as the positive class (§6.3), from @xtrust/metrics. */
export type OracleMetrics = ClassificationMetrics;

/** One row of Table 3. */
export interface OracleRow extends OracleMetrics {
  readonly method: string;
  /** Predictions the oracle could not label ('unknown'): counted as not trustworthy. */
  readonly unknown: number;
  readonly trainingInstances?: number;
  readonly keywordSeconds?: number;
  readonly testInstances?: number;
  readonly labelSeconds?: number;
}

/** Acc, Pre, Sen, F1, Spec and G-mean = √(Sen × Spec) of predicted vs true labels (1 = trustworthy; §6.3). */
export function oracleMetrics(predicted: ArrayLike<number>, truth: ArrayLike<number | boolean>): OracleMetrics {
  return classificationMetrics(
    Uint8Array.from({ length: predicted.length }, (_, i) => (predicted[i] ? 1 : 0)),
    Uint8Array.from({ length: truth.length }, (_, i) => (truth[i] ? 1 : 0)),
  );
}

/** 1 for a 'trustworthy' verdict, 0 otherwise ('untrustworthy', 'unknown'); 'incorrect' predictions must not be scored. */
export function verdictVector(labels: readonly TrustLabel[]): Uint8Array {
  return Uint8Array.from(labels, (l) => {
    if (l.verdict === 'incorrect')
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `an incorrect prediction ("${l.text.slice(0, 40)}") cannot be scored for trustworthiness`,
      );
    return l.verdict === 'trustworthy' ? 1 : 0;
  });
}

/** A Table 3 row from an oracle's labels and the ground truth. */
export function scoreOracle(
  method: string,
  labels: readonly TrustLabel[] | Uint8Array,
  truth: ArrayLike<boolean | number>,
  timing: Omit<OracleRow, keyof OracleMetrics | 'method' | 'unknown'> = {},
): OracleRow {
  const predicted = labels instanceof Uint8Array ? labels : verdictVector(labels);
  const unknown = labels instanceof Uint8Array ? 0 : labels.filter((l) => l.verdict === 'unknown').length;
  return { method, ...oracleMetrics(predicted, truth), unknown, ...timing };
}

const f3 = (x: number) => x.toFixed(3).replace(/^0\./, '.');
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

/** Table 3's layout: Method, Acc, Pre, Sen, F1, Spec, G-mean, training instances, KI time, test instances, labelling time. */
export function formatTable3(dataset: string, rows: readonly OracleRow[]): string {
  const head = [
    'Method',
    'Acc',
    'Pre',
    'Sen',
    'F1',
    'Spec',
    'G-mean',
    'Train',
    'KI (s)',
    'Test',
    'Label (s)',
    'Unknown',
  ];
  const width = [30, 6, 6, 6, 6, 6, 7, 6, 8, 6, 10, 8];
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? pad(c, width[i]) : lpad(c, width[i]))).join(' ');
  const out = [`Dataset: ${dataset}`, line(head), '-'.repeat(width.reduce((a, b) => a + b + 1, -1))];
  for (const r of rows) {
    out.push(
      line([
        r.method,
        f3(r.accuracy),
        f3(r.precision),
        f3(r.sensitivity),
        f3(r.f1),
        f3(r.specificity),
        f3(r.gmean),
        r.trainingInstances === undefined ? '' : String(r.trainingInstances),
        r.keywordSeconds === undefined ? '' : r.keywordSeconds.toFixed(1),
        r.testInstances === undefined ? '' : String(r.testInstances),
        r.labelSeconds === undefined ? '' : r.labelSeconds.toFixed(1),
        r.unknown ? String(r.unknown) : '',
      ]),
    );
  }
  return out.join('\n');
}

/** One confidence bin of RQ1.1 (Figure 6): how many trustworthy and untrustworthy predictions fall in [lo, hi). */
export interface ConfidenceBin {
  readonly lo: number;
  readonly hi: number;
  readonly trustworthy: number;
  readonly untrustworthy: number;
}

/**
 * RQ1.1: the distribution of model confidence by ground-truth label, in bins with the given edges
 * (default 0.5, 0.6, …, 1.0; the last bin includes 1.0, confidences below the first edge join the first bin).
 */
export function confidenceDistribution(
  confidence: ArrayLike<number>,
  truth: ArrayLike<boolean | number>,
  edges: readonly number[] = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
): ConfidenceBin[] {
  if (confidence.length !== truth.length)
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `confidenceDistribution: ${confidence.length} confidences but ${truth.length} truths`,
    );
  const bins = edges.slice(0, -1).map((lo, i) => ({ lo, hi: edges[i + 1], trustworthy: 0, untrustworthy: 0 }));
  for (let i = 0; i < confidence.length; i++) {
    let b = bins.findIndex((x) => confidence[i] < x.hi);
    if (b < 0) b = bins.length - 1;
    if (truth[i]) bins[b].trustworthy++;
    else bins[b].untrustworthy++;
  }
  return bins;
}

/** RQ1.1 as text: per confidence bin, trustworthy and untrustworthy counts and the trustworthy share (Figure 6 as a table). */
export function formatConfidenceDistribution(bins: readonly ConfidenceBin[]): string {
  const out = ['Confidence    Trustworthy  Untrustworthy  Share trustworthy'];
  for (const b of bins) {
    const n = b.trustworthy + b.untrustworthy;
    out.push(
      `${pad(`${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`, 13)} ${lpad(String(b.trustworthy), 11)}  ${lpad(String(b.untrustworthy), 13)}  ${lpad(n ? (b.trustworthy / n).toFixed(3) : '-', 17)}`,
    );
  }
  return out.join('\n');
}

/** RQ2.1: TOKI's metrics for several θ_dist, keywords recomputed from the same pools and the same test explanations. */
export async function thetaDistSweep(
  store: KeywordStore,
  embeddings: readonly WordEmbedding[],
  explanations: readonly Explanation[],
  truth: ArrayLike<boolean | number>,
  values: readonly number[] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
): Promise<{ thetaDist: number; metrics: OracleMetrics }[]> {
  const out: { thetaDist: number; metrics: OracleMetrics }[] = [];
  for (const thetaDist of values) {
    const s = await store.withThresholds(embeddings, { thetaDist });
    const labels = await labelExplanations(s, explanations, { embeddings });
    out.push({ thetaDist, metrics: oracleMetrics(verdictVector(labels), truth) });
  }
  return out;
}

/**
 * RQ2.1 on held-out data: the θ_dist among `candidates` whose TOKI labels score the best G-mean on
 * `explanations` with ground truth `truth` (ties to the smaller θ_dist), with the whole sweep.
 */
export async function chooseThetaDist(
  store: KeywordStore,
  embeddings: readonly WordEmbedding[],
  explanations: readonly Explanation[],
  truth: ArrayLike<boolean | number>,
  candidates: readonly number[] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
): Promise<{ thetaDist: number; gmean: number; sweep: { thetaDist: number; metrics: OracleMetrics }[] }> {
  if (candidates.length === 0) throw new XtrustError('INVALID_ARGUMENT', 'chooseThetaDist: no candidate θ_dist');
  const sweep = await thetaDistSweep(store, embeddings, explanations, truth, candidates);
  const best = sweep.reduce((a, b) => (b.metrics.gmean > a.metrics.gmean ? b : a));
  return { thetaDist: best.thetaDist, gmean: best.metrics.gmean, sweep };
}

/** RQ2.1 as text: Acc, Sen, Spec and G-mean of TOKI per θ_dist (Figure 9 as a table). */
export function formatSweep(rows: readonly { thetaDist: number; metrics: OracleMetrics }[]): string {
  return [
    'θ_dist  Acc    Sen    Spec   G-mean',
    ...rows.map(
      (r) =>
        `${r.thetaDist.toFixed(2)}    ${f3(r.metrics.accuracy)}  ${f3(r.metrics.sensitivity)}  ${f3(r.metrics.specificity)}  ${f3(r.metrics.gmean)}`,
    ),
  ].join('\n');
}

/** An explanation method under comparison: its Table 3 suffix ('lime', 'omis', 'grad') and options. */
export interface ExplainerEntry {
  readonly suffix: string;
  readonly explainer: Explainer;
  readonly options?: Record<string, unknown>;
}

/** Keyword-identification settings (same meaning and defaults as identifyKeywords'), plus the comparison's own. */
export interface CompareOraclesArgs
  extends Pick<
    IdentifyKeywordsOptions,
    'embeddings' | 'thetaRelate' | 'oracle' | 'thetaDist' | 'topK' | 'sampleSize' | 'classNames' | 'seed'
  > {
  readonly dataset: string;
  readonly classifier: Classifier;
  readonly train: { readonly texts: readonly string[]; readonly labels: readonly string[] };
  /**
   * Test predictions with ground truth: `trustworthy[i]` true/false for a correct prediction whose
   * trustworthiness is known, null for an item that is not scored (incorrect or undetermined).
   */
  readonly test: {
    readonly texts: readonly string[];
    readonly labels: readonly string[];
    readonly trustworthy: readonly (boolean | null)[];
  };
  readonly explainers: readonly ExplainerEntry[];
  /** Naive's threshold (default 0.9); the G-mean-optimal threshold on this data is reported too. */
  readonly thetaConf?: number;
  /** θ_dist values for the RQ2.1 sweep with the first explainer (none when omitted). */
  readonly sweep?: readonly number[];
  /**
   * Held-out predictions with ground truth (same form as `test`): when given, each explainer's θ_dist is
   * also chosen among `thetaDistCandidates` by G-mean on them, and a second TOKI row reports the test
   * metrics at that θ_dist — the RQ2.1 procedure without touching the test set.
   */
  readonly validation?: {
    readonly texts: readonly string[];
    readonly labels: readonly string[];
    readonly trustworthy: readonly (boolean | null)[];
  };
  readonly thetaDistCandidates?: readonly number[];
  readonly batchSize?: number;
  readonly onProgress?: (p: Progress & { readonly explainer?: string }) => void;
}

export interface CompareOraclesResult {
  readonly rows: OracleRow[];
  readonly table: string;
  readonly confidence: ConfidenceBin[];
  readonly sweep?: { thetaDist: number; metrics: OracleMetrics }[];
  readonly stores: Record<string, KeywordStore>;
  readonly labels: Record<string, TrustLabel[]>;
  readonly scored: number;
  readonly thetaConfOptimal: { thetaConf: number; gmean: number };
  /** Area under Naive's ROC curve (confidence as the score; RQ1.2), NaN when the truth has one class. */
  readonly naiveAuc: number;
}

/** The items of a benchmark that carry a ground truth. */
function scoredItems(
  set: CompareOraclesArgs['test'],
  name: string,
): { index: number[]; texts: string[]; truth: Uint8Array; labels: string[] } {
  if (set.texts.length !== set.labels.length || set.texts.length !== set.trustworthy.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `compareOracles: ${name} has ${set.texts.length} texts, ${set.labels.length} labels, ${set.trustworthy.length} trustworthiness values`,
    );
  }
  const index: number[] = [];
  set.trustworthy.forEach((t, i) => {
    if (t !== null) index.push(i);
  });
  if (index.length === 0)
    throw new XtrustError('INVALID_ARGUMENT', `compareOracles: no ${name} item has a ground-truth trustworthiness`);
  return {
    index,
    texts: index.map((i) => set.texts[i]),
    truth: Uint8Array.from(index, (i) => (set.trustworthy[i] ? 1 : 0)),
    labels: index.map((i) => set.labels[i]),
  };
}

/**
 * The evaluation harness of §6: for each explainer, TOKI (keyword identification on the training data,
 * then labels for the scored test predictions) and TOKI(–K.I) on the same explanations; Naive at
 * θ_conf and at the G-mean-optimal θ_conf; Table 3, RQ1's confidence distribution and the θ_dist sweep.
 * Only test items with a ground truth are explained and scored. Keyword-identification time covers
 * predicting, explaining and clustering; labelling time covers explaining the test items and labelling.
 */
export async function compareOracles(args: CompareOraclesArgs): Promise<CompareOraclesResult> {
  const { classifier, test } = args;
  const { index: scoredIdx, texts, truth, labels: trueLabels } = scoredItems(test, 'test');

  const k = classifier.labels.length;
  const probs = await predictAll(classifier, texts);
  const confidence = predictionConfidence(probs, k);
  for (let j = 0; j < texts.length; j++) {
    let p = 0;
    for (let c = 1; c < k; c++) if (probs[j * k + c] > probs[j * k + p]) p = c;
    if (classifier.labels[p] !== trueLabels[j]) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `compareOracles: test item ${scoredIdx[j]} has a ground truth but the model predicts it incorrectly; only correct predictions are scored`,
        { index: scoredIdx[j] },
      );
    }
  }

  const rows: OracleRow[] = [];
  const ablated: OracleRow[] = [];
  const stores: Record<string, KeywordStore> = {};
  const allLabels: Record<string, TrustLabel[]> = {};
  let sweep: { thetaDist: number; metrics: OracleMetrics }[] | undefined;
  for (const entry of args.explainers) {
    const progress = args.onProgress ? (p: Progress) => args.onProgress!({ ...p, explainer: entry.suffix }) : undefined;
    const store = await identifyKeywords(classifier, args.train.texts, args.train.labels, {
      explainer: entry.explainer,
      explainerOptions: entry.options,
      embeddings: args.embeddings,
      thetaRelate: args.thetaRelate,
      oracle: args.oracle,
      thetaDist: args.thetaDist,
      topK: args.topK,
      sampleSize: args.sampleSize,
      classNames: args.classNames,
      seed: args.seed,
      batchSize: args.batchSize,
      onProgress: progress,
    });
    stores[entry.suffix] = store;
    const t0 = performance.now();
    const tolerant = await explainTolerant(
      entry.explainer,
      classifier,
      texts,
      texts.map((_, i) => String(i)),
      { explainerOptions: entry.options, batchSize: args.batchSize, onProgress: progress },
    );
    const explainSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const toki = await labelTolerant(store, tolerant, texts, trueLabels, { embeddings: args.embeddings, mode: 'toki' });
    const tokiSeconds = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    const noKi = await labelTolerant(store, tolerant, texts, trueLabels, {
      embeddings: args.embeddings,
      mode: 'toki-ki-ablated',
    });
    const noKiSeconds = (performance.now() - t2) / 1000;
    allLabels[`toki-${entry.suffix}`] = toki;
    allLabels[`toki-${entry.suffix}-ki`] = noKi;
    rows.push(
      scoreOracle(`TOKI-${entry.suffix}`, toki, truth, {
        trainingInstances: store.provenance.sampled,
        keywordSeconds: store.provenance.keywordIdentificationSeconds,
        testInstances: texts.length,
        labelSeconds: explainSeconds + tokiSeconds,
      }),
    );
    ablated.push(
      scoreOracle(`TOKI-${entry.suffix} (–K.I)`, noKi, truth, {
        testInstances: texts.length,
        labelSeconds: explainSeconds + noKiSeconds,
      }),
    );
    // the sweeps score the explained items only (a refused text has no explanation to relabel)
    const okIdx = tolerant.explanations.flatMap((e, i) => (e ? [i] : []));
    const explanations = okIdx.map((i) => tolerant.explanations[i]!);
    if (args.sweep && !sweep)
      sweep = await thetaDistSweep(
        store,
        args.embeddings,
        explanations,
        okIdx.map((i) => truth[i]),
        args.sweep,
      );
    if (args.validation) {
      const v = scoredItems(args.validation, 'validation');
      const vt = await explainTolerant(
        entry.explainer,
        classifier,
        v.texts,
        v.texts.map((_, i) => `v${i}`),
        { explainerOptions: entry.options, batchSize: args.batchSize },
      );
      const vIdx = vt.explanations.flatMap((e, i) => (e ? [i] : []));
      const candidates = args.thetaDistCandidates ?? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
      // best G-mean; ties to the smaller θ_dist (fewer words pulled into keyword clusters)
      const best = await chooseThetaDist(
        store,
        args.embeddings,
        vIdx.map((i) => vt.explanations[i]!),
        vIdx.map((i) => v.truth[i]),
        candidates,
      );
      const tuned = await store.withThresholds(args.embeddings, { thetaDist: best.thetaDist });
      const t3 = performance.now();
      const labels = await labelTolerant(tuned, tolerant, texts, trueLabels, {
        embeddings: args.embeddings,
        mode: 'toki',
      });
      const tunedSeconds = (performance.now() - t3) / 1000;
      stores[`${entry.suffix}@${best.thetaDist}`] = tuned;
      allLabels[`toki-${entry.suffix}-tuned`] = labels;
      rows.push(
        scoreOracle(`TOKI-${entry.suffix} (θ_dist=${best.thetaDist}, val.)`, labels, truth, {
          testInstances: texts.length,
          labelSeconds: explainSeconds + tunedSeconds,
        }),
      );
    }
  }
  const thetaConf = args.thetaConf ?? 0.9;
  rows.push(scoreOracle(`Naive (θ=${thetaConf})`, naiveOracle(confidence, thetaConf), truth));
  let thetaConfOptimal = { thetaConf: Number.NaN, gmean: Number.NaN };
  let naiveAuc = Number.NaN;
  const positives = truth.reduce((a, b) => a + b, 0);
  if (positives > 0 && positives < truth.length) {
    thetaConfOptimal = chooseThetaConf(confidence, truth);
    naiveAuc = rocAuc(confidence, truth);
    rows.push(
      scoreOracle(
        `Naive (best θ=${thetaConfOptimal.thetaConf.toFixed(3)})`,
        naiveOracle(confidence, Math.min(1, thetaConfOptimal.thetaConf)),
        truth,
      ),
    );
  }
  rows.push(...ablated);
  return {
    rows,
    table: formatTable3(args.dataset, rows),
    confidence: confidenceDistribution(confidence, truth),
    sweep,
    stores,
    labels: allLabels,
    scored: texts.length,
    thetaConfOptimal,
    naiveAuc,
  };
}
