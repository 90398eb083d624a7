import {
  XtrustError,
  argmaxRow,
  rng,
  type Classifier,
  type Explainer,
  type Explanation,
  type WordEmbedding,
} from '@xtrust/core';
import { wordnet } from '@xtrust/embeddings';
import { calibrateThetaRelate } from './calibration.js';
import { oracleEmbeddings, resolveOracle, type OracleConfig, type OracleName } from './oracle-config.js';
import { explainTolerant, type ExplainAllOptions } from './explaining.js';
import { KeywordStore, modelFingerprint, type EnsembleMember } from './keyword-store.js';
import { predictAll } from './trust-labels.js';
import { isFunctionWord } from './function-words.js';
import { evidenceTexts, sampleVocabulary, tokenResponses } from './token-response.js';
import { ClassCorpus, type ClassCorpusOptions } from './class-corpus.js';
import { WordCooccurrence } from './word-cooccurrence.js';

/** At most this many training texts are read for the verdict's word groups (OracleConfig.cooccurrence). */
export const COOCCURRENCE_TEXTS = 20000;

/** How much of the training corpus a store keeps for the meaning test (words in ≥ 5 texts, the 20,000 most widespread). */
export const MEANING_CORPUS: ClassCorpusOptions = Object.freeze({ minTexts: 5, maxWords: 20000 });

export interface IdentifyKeywordsOptions extends ExplainAllOptions {
  readonly explainer: Explainer;
  /** The embedding ensemble (default in the paper: several methods, each with its own θ_relate). */
  readonly embeddings: readonly WordEmbedding[];
  /**
   * θ_relate per embedding name (from `calibrateThetaRelate`), or one value for all. The threshold
   * depends on the embedding (§3.1), so a raw embedding without one is refused. A post-processed member
   * (`oracle.postProcess`) is looked up under its own name (`glove+abtt1`) and, when absent, calibrated
   * on its post-processed vectors (WordNet pairs, seed 0, cached) — a raw embedding's θ does not carry over.
   */
  readonly thetaRelate: number | Readonly<Record<string, number>>;
  /** The oracle configuration: `toki` (default), `toki-paper`, or an OracleConfig. */
  readonly oracle?: OracleName | OracleConfig;
  /** Cut height of the dendrogram in cosine distance (§3.1 Step 3); default the configuration's (paper 0.3). */
  readonly thetaDist?: number;
  /** Decision-contributing words taken per explanation (default 10). */
  readonly topK?: number;
  /** Training texts sampled before explaining (default 2,000, §6.4). */
  readonly sampleSize?: number;
  /** Names standing for labels in similarities, e.g. `{ ham: 'legitimate' }`; unmapped labels stand for themselves. */
  readonly classNames?: Readonly<Record<string, string>>;
  readonly seed?: number;
}

/**
 * TOKI's first pipeline (§3.1): sample training texts, keep those the model predicts correctly, explain
 * them (Eq. 1), pool their decision-contributing words per class (Eq. 2), cluster each pool (Eq. 3)
 * and keep the clusters related to the class name (Eq. 4) — per embedding method, decided by plurality.
 * A class none of whose sampled texts is predicted correctly gets no pool; its predictions are later
 * labelled 'unknown'. A class name missing from every embedding is refused (map it with `classNames`).
 */
export async function identifyKeywords(
  classifier: Classifier,
  trainTexts: readonly string[],
  trainLabels: readonly string[],
  options: IdentifyKeywordsOptions,
): Promise<KeywordStore> {
  const started = performance.now();
  if (trainTexts.length !== trainLabels.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `identifyKeywords: ${trainTexts.length} training texts but ${trainLabels.length} labels`,
    );
  }
  if (trainTexts.length === 0) throw new XtrustError('INVALID_ARGUMENT', 'identifyKeywords: no training texts');
  const labels = classifier.labels;
  const labelSet = new Set(labels);
  trainLabels.forEach((l, i) => {
    if (!labelSet.has(l))
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `training label "${l}" at row ${i} is not one of the model's labels (${labels.join(', ')})`,
        { row: i, label: l },
      );
  });
  const seed = options.seed ?? 0;
  const sampleSize = options.sampleSize ?? 2000;
  const oracle = resolveOracle(options.oracle);
  const thetaDist = options.thetaDist ?? oracle.thetaDist;
  const topK = options.topK ?? 10;
  const { ensemble } = await oracleEnsemble(oracle, options.embeddings, options.thetaRelate);
  const classNames: Record<string, string> = {};
  for (const l of labels) classNames[l] = options.classNames?.[l] ?? l;
  // Sample (seeded), then keep the correctly predicted texts (Eq. 1: f(x) = c for the true class c).
  const n = trainTexts.length;
  const take = Math.min(sampleSize, n);
  const picked = Array.from(rng(seed).sampleIndices(n, take)).sort((a, b) => a - b);
  // a few of the sampled texts fingerprint the model together with the fixed probes
  const probes = picked.slice(0, 16).map((i) => trainTexts[i].slice(0, 2000));
  const store = KeywordStore.create({
    fingerprint: await modelFingerprint(classifier, probes),
    probes,
    labels,
    classNames: options.classNames,
    thetaDist,
    topK,
    ensemble,
    oracle,
    provenance: {
      explainer: { method: options.explainer.name, params: { ...(options.explainerOptions ?? {}) } },
      seed,
      sampleSize,
      sampled: 0,
      explained: 0,
      keywordIdentificationSeconds: 0,
      createdAt: new Date().toISOString(),
    },
  });
  await KeywordStore.requireClassNamesKnown(classNames, options.embeddings);

  // the meaning test's neighbour lean reads the whole training corpus's per-class text frequencies
  if (oracle.meaning) store.corpus = ClassCorpus.fromTexts(trainTexts, trainLabels, labels, MEANING_CORPUS);
  const texts = picked.map((i) => trainTexts[i]);
  const probs = await predictAll(classifier, texts, options.onProgress);
  const k = labels.length;
  const correct: number[] = [];
  picked.forEach((row, j) => {
    if (labels[argmaxRow(probs, j, k)] === trainLabels[row]) correct.push(row);
  });
  // a training text the explainer refuses (e.g. one word, for LIME) is skipped and counted
  const tolerant = await explainTolerant(
    options.explainer,
    classifier,
    correct.map((i) => trainTexts[i]),
    correct.map((i) => `train:${i}`),
    options,
  );
  const explained = correct.filter((_, j) => tolerant.explanations[j] !== null);
  options.onProgress?.({ phase: 'keywords', done: 0, total: labels.length });
  await store.addExplanations(
    tolerant.explanations.filter((e) => e !== null),
    options.embeddings,
    explained.map((i) => trainLabels[i]),
  );
  options.onProgress?.({ phase: 'keywords', done: labels.length, total: labels.length });
  // the verdict's word groups: which pool words travel together in the training corpus (a seeded sample
  // of COOCCURRENCE_TEXTS texts at most: pair counting grows with texts × words per text squared)
  if (oracle.cooccurrence)
    store.cooccurrence = WordCooccurrence.fromTexts(
      trainTexts.length <= COOCCURRENCE_TEXTS
        ? trainTexts
        : Array.from(rng(seed + 1).sampleIndices(trainTexts.length, COOCCURRENCE_TEXTS), (i) => trainTexts[i]),
      new Set(labels.flatMap((l) => (store.hasPool(l) ? store.pool(l).map((w) => w.word) : []))),
      oracle.cooccurrence,
    );
  if (oracle.tokenCheck) {
    await checkSurfaceTokens(
      store,
      classifier,
      tolerant.explanations.filter((e) => e !== null),
      options.embeddings[0],
    );
  }
  store.provenance = {
    ...store.provenance,
    sampled: take,
    unexplainable: tolerant.failures.length,
    classesWithoutPool: labels.filter((l) => !store.hasPool(l)),
    keywordIdentificationSeconds: (performance.now() - started) / 1000,
  };
  return store;
}

/**
 * The surface-token check of the store's configuration (token-response.ts) on its freshly voted
 * keywords: per class, the concentrated ones (Σ importance ≥ minConcentration × the median Σ of the
 * class's `referenceWords` heaviest content words; at most `maxWords`) are replaced by their
 * meaning-neighbours (from `embedding`, among words of the explained training texts) in the texts where
 * they weighed most, all in one batched model call; the measurements go into the store, which drops
 * the surface tokens from K_c.
 */
export async function checkSurfaceTokens(
  store: KeywordStore,
  classifier: Classifier,
  explanations: readonly Explanation[],
  embedding: WordEmbedding,
): Promise<void> {
  const check = store.oracle.tokenCheck;
  if (!check) return;
  const started = performance.now();
  const evidence = evidenceTexts(explanations, store.topK, check.texts);
  const vocabulary = sampleVocabulary(
    explanations.map((e) => e.text),
    check.minTextCount,
  );
  const requests: { label: string; word: string; texts: string[] }[] = [];
  const concentration = new Map<string, Map<string, number>>();
  for (const label of store.labels) {
    const voted = new Set(store.votedKeywords(label));
    const content = store
      .pool(label)
      .filter((w) => !isFunctionWord(w.word))
      .map((w) => ({ word: w.word, sum: w.importance * w.count }))
      .sort((a, b) => b.sum - a.sum || (a.word < b.word ? -1 : 1));
    const reference = content
      .slice(0, check.referenceWords)
      .map((w) => w.sum)
      .sort((a, b) => a - b);
    const median = reference.length ? reference[Math.floor((reference.length - 1) / 2)] : 0;
    if (!(median > 0)) continue;
    const perClass = new Map<string, number>();
    concentration.set(label, perClass);
    for (const w of content) {
      if (perClass.size >= check.maxWords) break;
      const ratio = w.sum / median;
      if (ratio < check.minConcentration) break; // sorted by Σ s: no later word is concentrated either
      if (!voted.has(w.word)) continue;
      perClass.set(w.word, ratio);
      requests.push({ label, word: w.word, texts: evidence.get(label)?.get(w.word) ?? [] });
    }
  }
  const stats = { modelTexts: 0 };
  const responses = await tokenResponses(classifier, requests, embedding, vocabulary, check, stats);
  for (const [label, perClass] of responses) {
    store.setTokenResponses(
      label,
      [...perClass.values()].map((r) => ({ ...r, concentration: concentration.get(label)?.get(r.word) })),
    );
  }
  store.provenance = {
    ...store.provenance,
    tokenCheck: { words: requests.length, modelTexts: stats.modelTexts, seconds: (performance.now() - started) / 1000 },
  };
}

/**
 * The ensemble a configuration works with: the (post-processed) members with their θ_relate — given per
 * name or as one number, or, for a post-processed member without one, calibrated on its own vectors.
 */
export async function oracleEnsemble(
  oracle: OracleConfig,
  embeddings: readonly WordEmbedding[],
  thetaRelate: number | Readonly<Record<string, number>>,
): Promise<{ members: WordEmbedding[]; ensemble: EnsembleMember[] }> {
  const members = await oracleEmbeddings(oracle, embeddings);
  const ensemble: EnsembleMember[] = [];
  for (const e of members) {
    let t = typeof thetaRelate === 'number' ? thetaRelate : thetaRelate[e.name];
    if (t === undefined && oracle.postProcess !== 'none')
      t = (await calibrateThetaRelate(e, wordnet(), { seed: 0 })).thetaRelate;
    if (t === undefined) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `no θ_relate for embedding "${e.name}"; calibrate it with calibrateThetaRelate or pass thetaRelate: { "${e.name}": … }`,
        { embedding: e.name },
      );
    }
    ensemble.push({ name: e.name, dim: e.dim, thetaRelate: t });
  }
  return { members, ensemble };
}

/** Keyword identification's settings are identifyKeywords' own; the explanations come ready-made. */
export interface KeywordStoreFromExplanationsArgs
  extends Pick<IdentifyKeywordsOptions, 'embeddings' | 'thetaRelate' | 'oracle' | 'thetaDist' | 'topK' | 'classNames'> {
  /** Explanations of correctly predicted training texts (each explains its predicted label). */
  readonly explanations: readonly Explanation[];
  /** The true label of each (explanations of other labels are skipped, Eq. 1). */
  readonly trueLabels: readonly string[];
  readonly labels: readonly string[];
  readonly fingerprint: string;
  readonly provenance?: Partial<KeywordStore['provenance']>;
  /** The training corpus for the meaning test's neighbour lean (OracleConfig.meaning); without it the topic percentile decides alone. */
  readonly corpus?: ClassCorpus;
}

/**
 * Keyword identification (Eqs. 2–4) on explanations you already have — no model call: the steps of
 * identifyKeywords after explaining. Used to compare oracle configurations on one set of cached
 * explanations (apps/bench oracle/select.ts).
 */
export async function keywordStoreFromExplanations(args: KeywordStoreFromExplanationsArgs): Promise<KeywordStore> {
  const oracle = resolveOracle(args.oracle);
  const { members, ensemble } = await oracleEnsemble(oracle, args.embeddings, args.thetaRelate);
  const store = KeywordStore.create({
    fingerprint: args.fingerprint,
    labels: args.labels,
    classNames: args.classNames,
    thetaDist: args.thetaDist ?? oracle.thetaDist,
    topK: args.topK ?? 10,
    ensemble,
    oracle,
    provenance: {
      explainer: { method: args.explanations[0]?.method ?? 'unknown', params: {} },
      seed: 0,
      sampleSize: args.explanations.length,
      sampled: args.explanations.length,
      explained: 0,
      keywordIdentificationSeconds: 0,
      createdAt: new Date().toISOString(),
      ...args.provenance,
    },
  });
  await KeywordStore.requireClassNamesKnown(
    Object.fromEntries(args.labels.map((l) => [l, args.classNames?.[l] ?? l])),
    args.embeddings,
  );
  if (args.corpus) store.corpus = args.corpus;
  await store.addExplanations(args.explanations, members, args.trueLabels);
  return store;
}
