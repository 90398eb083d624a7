import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { XtrustError, type Classifier, type Explanation, type WordEmbedding } from '@xtrust/core';
import { pluralityColumns } from './ensemble-vote.js';
import { selectKeywords, type MemberReason, type SelectionRule } from './keyword-selection.js';
import { ClassCorpus, type ClassCorpusJson } from './class-corpus.js';
import { WordCooccurrence, type WordCooccurrenceJson } from './word-cooccurrence.js';
import { TOKI_PAPER, checkOracle, oracleEmbeddings, type OracleConfig } from './oracle-config.js';
import { classNameVector } from './word-vectors.js';
import { WordPools, type PooledWord } from './word-pool.js';
import { isFunctionWord } from './function-words.js';
import type { TokenResponse } from './token-response.js';
import { DEFAULT_DESCRIPTION_RELATE, checkClassDescriptions, classDescriptionItems } from './class-description.js';

export const KEYWORD_STORE_FORMAT = 'xtrust-keyword-store';
export const KEYWORD_STORE_VERSION = 1;

/** An embedding method of the ensemble with its own relatedness threshold θ_relate. */
export interface EnsembleMember {
  readonly name: string;
  readonly dim: number;
  readonly thetaRelate: number;
}

/** Where a store came from, so that it can be reproduced. */
export interface KeywordStoreProvenance {
  readonly explainer: { readonly method: string; readonly params: Readonly<Record<string, unknown>> };
  readonly seed: number;
  readonly sampleSize: number;
  /** Training texts sampled, and how many of them the model predicted correctly (and were explained). */
  readonly sampled: number;
  readonly explained: number;
  /** Correctly predicted sampled texts the explainer refused (skipped). */
  readonly unexplainable?: number;
  /** Classes none of whose sampled training texts was predicted correctly and explained: no pool, their predictions are 'unknown'. */
  readonly classesWithoutPool?: readonly string[];
  readonly keywordIdentificationSeconds: number;
  readonly createdAt: string;
  /** The surface-token check's cost, when the configuration has one: words tested, texts scored by the model, seconds. */
  readonly tokenCheck?: { readonly words: number; readonly modelTexts: number; readonly seconds: number };
}

/** Per class and method: clusters found and kept (diagnostics). */
export interface MethodSummary {
  readonly embedding: string;
  readonly classNameKnown: boolean;
  readonly clusters: number;
  readonly relatedClusters: number;
  readonly keywords: number;
  readonly abstained: number;
}

/** The filter that took a voted keyword out of K_c (the vote called it related). */
export type Demotion =
  | { readonly check: 'function-word' }
  | {
      readonly check: 'surface-token';
      /** Σ s over the median Σ s of the class's heaviest content words (tested when ≥ minConcentration). */
      readonly concentration?: number;
      readonly minConcentration: number;
      /** The share of the word's effect its meaning-neighbours keep (a surface token when < minRetention). */
      readonly retention: number;
      readonly minRetention: number;
      readonly deletion: number;
      readonly substitution: number;
      readonly neighbours: readonly string[];
    };

/**
 * Why a pool word is or is not a keyword of its class: the ensemble's vote (Eqs. 3–4) with each method's
 * reason — the nearest description item, the word's cosine with it, its cluster's score against θ_relate
 * (MemberReason) — and, for a voted keyword taken out, the check that demoted it.
 */
export interface WordReason {
  readonly word: string;
  /** In K_c (after the vote and the configuration's filters). */
  readonly keyword: boolean;
  /** The ensemble's plurality vote called it related (K_c before the filters). */
  readonly related: boolean;
  /** One per method that did not abstain on the word. */
  readonly members: readonly MemberReason[];
  readonly demotedBy?: Demotion;
}

/** The JSON form of a word's reason (the word is the key). */
export type WordReasonJson = Omit<WordReason, 'word'>;

/**
 * How many of a class's unrelated pool words (the vote's non-keywords) keep their reason in the JSON,
 * heaviest first; every keyword and every demoted word keeps its reason. Bounds the file, not the oracle.
 */
export const REASONS_UNRELATED_SAVED = 100;

interface ClassState {
  /** K_c as the ensemble voted it (Eqs. 3–4). */
  voted: Set<string>;
  /** K_c: the vote's keywords less function words and surface tokens, as the configuration says. */
  keywords: Set<string>;
  methods: MethodSummary[];
  /** The surface-token check's measurements (token-response.ts), by word. */
  responses: Map<string, TokenResponse>;
  /** Per pool word: each method's reason for its ballot (absent: not recorded, e.g. an older store). */
  reasons: Map<string, readonly MemberReason[]>;
}

/** The JSON form of a keyword store. */
export interface KeywordStoreJson {
  format: typeof KEYWORD_STORE_FORMAT;
  version: number;
  model: { fingerprint: string; labels: string[]; probes: string[] };
  classNames: Record<string, string>;
  params: { thetaDist: number; topK: number };
  /** The oracle configuration the keywords were computed with (absent in stores written before it existed: the paper's). */
  oracle?: OracleConfig;
  ensemble: EnsembleMember[];
  provenance: KeywordStoreProvenance;
  /** The training corpus's per-class text frequencies, when the configuration's meaning test reads them (absent: none). */
  corpus?: ClassCorpusJson;
  /** Which pool words travel together in the training texts, when the configuration groups them (OracleConfig.cooccurrence). */
  cooccurrence?: WordCooccurrenceJson;
  classes: {
    label: string;
    className: string;
    explanations: number;
    keywords: string[];
    methods: MethodSummary[];
    /** [word, Σ importance, count] triples: enough to update s̄_w incrementally after reloading. */
    pool: [string, number, number][];
    /** K_c as the ensemble voted it, before function words and surface tokens were taken out (absent: equal to `keywords`). */
    voted?: string[];
    /** The surface-token check's measurements (absent: none made). */
    tokenResponses?: TokenResponse[];
    /**
     * Why each keyword, each demoted word and the REASONS_UNRELATED_SAVED heaviest unrelated words are what
     * they are (WordReason, by word; absent in stores written before reasons were kept).
     */
    reasons?: Record<string, WordReasonJson>;
  }[];
}

const PROBE_TEXTS = [
  'the meeting is scheduled for tomorrow morning',
  'please find the attached report and send your comments',
  'a quiet story about a family and their old house',
  'prices rose sharply after the announcement',
  'free offer click here to win money now',
  'the team won the match in the final minutes',
  'researchers describe a new method for measuring',
  'i did not like this at all',
];

/**
 * A fingerprint of a classifier: its `fingerprint` property when it has one, else a SHA-256 of its label
 * set and its probabilities (rounded to 1e-4) on eight fixed probe texts plus `probes` (the store keeps
 * some of the training texts it was built from, which exercise the model's own vocabulary) — the same
 * model gives the same fingerprint, a retrained or different model almost surely not.
 */
export async function modelFingerprint(classifier: Classifier, probes: readonly string[] = []): Promise<string> {
  const own = (classifier as { fingerprint?: unknown }).fingerprint;
  if (typeof own === 'string' && own.length > 0) return own;
  const p = await classifier.predictProba([...PROBE_TEXTS, ...probes]);
  const h = createHash('sha256');
  h.update(JSON.stringify(classifier.labels));
  h.update(Array.from(p, (x) => Math.round(x * 1e4)).join(','));
  return `probe-sha256:${h.digest('hex').slice(0, 32)}`;
}

/** leanedFunctionWords' answer when the configuration sets no lean. */
const EMPTY_WORDS: ReadonlySet<string> = new Set();

/**
 * The product of TOKI's first pipeline: per class, the word pool W_c with averaged importances (Eq. 2),
 * the keywords K_c decided by the ensemble (Eqs. 3–4 per method, plurality vote), and the thresholds and
 * provenance. Saved as JSON and reloaded, it labels new predictions without re-explaining training data.
 */
export class KeywordStore {
  private readonly state = new Map<string, ClassState>();
  /** Function words leaning by at least a lean, per lean and class, dropped whenever the pools grow. */
  private readonly leaned = new Map<string, ReadonlySet<string>>();
  /** functionWordLeans per class, dropped whenever the pools grow. */
  private readonly leans = new Map<string, ReadonlyMap<string, number>>();

  /**
   * The training corpus's per-class text frequencies (ClassCorpus), which the configuration's meaning test
   * (OracleConfig.meaning) reads for the neighbour lean; null until identifyKeywords (or the caller) sets
   * it, and then the topic percentile decides alone. Saved with the store.
   */
  corpus: ClassCorpus | null = null;

  /**
   * Which pool words travel together in the training texts (OracleConfig.cooccurrence): the verdict weighs
   * a group of a prediction's unrelated words as one reason. null until identifyKeywords sets it; then
   * every word is weighed alone. Saved with the store.
   */
  cooccurrence: WordCooccurrence | null = null;

  private constructor(
    readonly fingerprint: string,
    /** Texts the fingerprint was computed on besides the fixed probes (see modelFingerprint). */
    readonly probes: readonly string[],
    readonly labels: readonly string[],
    readonly classNames: Readonly<Record<string, string>>,
    readonly thetaDist: number,
    readonly topK: number,
    readonly ensemble: readonly EnsembleMember[],
    public provenance: KeywordStoreProvenance,
    readonly pools: WordPools,
    /** The configuration: post-processing, Eq. 4's rule and class contrast (θ_dist is the store's own). */
    readonly oracle: OracleConfig,
  ) {
    for (const l of labels)
      this.state.set(l, {
        voted: new Set(),
        keywords: new Set(),
        methods: [],
        responses: new Map(),
        reasons: new Map(),
      });
  }

  /** An empty store; fill it with `addExplanations`. */
  static create(args: {
    fingerprint: string;
    probes?: readonly string[];
    labels: readonly string[];
    classNames?: Readonly<Record<string, string>>;
    thetaDist: number;
    topK: number;
    ensemble: readonly EnsembleMember[];
    provenance: KeywordStoreProvenance;
    /** Default: the paper's rule (`toki-paper`); identifyKeywords passes its resolved configuration. */
    oracle?: OracleConfig;
  }): KeywordStore {
    const classNames: Record<string, string> = {};
    for (const l of args.labels) classNames[l] = args.classNames?.[l] ?? l;
    for (const k of Object.keys(args.classNames ?? {})) {
      if (!args.labels.includes(k)) {
        throw new XtrustError(
          'UNKNOWN_LABEL',
          `classNames maps "${k}", which is not one of the model's labels (${args.labels.join(', ')})`,
          { label: k },
        );
      }
    }
    if (!(args.thetaDist >= 0 && args.thetaDist <= 2))
      throw new XtrustError('INVALID_ARGUMENT', `thetaDist must be a cosine distance in [0, 2], got ${args.thetaDist}`);
    if (!Number.isInteger(args.topK) || args.topK <= 0)
      throw new XtrustError('INVALID_ARGUMENT', `topK must be a positive integer, got ${args.topK}`);
    if (args.ensemble.length === 0)
      throw new XtrustError('INVALID_ARGUMENT', 'the embedding ensemble is empty: give at least one WordEmbedding');
    const names = new Set<string>();
    for (const e of args.ensemble) {
      if (names.has(e.name))
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `two ensemble members are named "${e.name}"; names identify methods in votes and stores`,
        );
      names.add(e.name);
      if (!Number.isFinite(e.thetaRelate))
        throw new XtrustError('INVALID_ARGUMENT', `θ_relate of embedding "${e.name}" is not a number`);
    }
    const oracle = args.oracle ?? TOKI_PAPER;
    checkOracle(oracle);
    if (oracle.classDescriptions)
      checkClassDescriptions(oracle.classDescriptions, args.labels, `oracle "${oracle.name}" classDescriptions`);
    return new KeywordStore(
      args.fingerprint,
      [...(args.probes ?? [])],
      [...args.labels],
      classNames,
      args.thetaDist,
      args.topK,
      [...args.ensemble],
      args.provenance,
      new WordPools(args.labels),
      oracle,
    );
  }

  /** The class name that stands for `label` in similarities (the label itself unless mapped). */
  className(label: string): string {
    this.requireLabel(label);
    return this.classNames[label];
  }

  /** W_c with s̄_w, by decreasing importance. */
  pool(label: string): PooledWord[] {
    this.requireLabel(label);
    return this.pools.pool(label);
  }

  /** K_c, sorted by decreasing importance. */
  keywords(label: string): string[] {
    const k = this.requireLabel(label).keywords;
    return this.pool(label)
      .filter((w) => k.has(w.word))
      .map((w) => w.word);
  }

  /** F_c = W_c \ K_c, sorted by decreasing importance. */
  nonKeywords(label: string): string[] {
    const k = this.requireLabel(label).keywords;
    return this.pool(label)
      .filter((w) => !k.has(w.word))
      .map((w) => w.word);
  }

  isKeyword(label: string, word: string): boolean {
    return this.requireLabel(label).keywords.has(word);
  }

  /** The surface-token check's measurement of `word` in class `label`, when one was made. */
  tokenResponse(label: string, word: string): TokenResponse | undefined {
    return this.requireLabel(label).responses.get(word);
  }

  /** Every surface-token measurement of class `label`. */
  tokenResponses(label: string): TokenResponse[] {
    return [...this.requireLabel(label).responses.values()];
  }

  /**
   * K_c as the ensemble voted it (Eqs. 3–4), by decreasing importance — before the configuration's
   * filters (function words, surface tokens) took words out.
   */
  votedKeywords(label: string): string[] {
    const v = this.requireLabel(label).voted;
    return this.pool(label)
      .filter((w) => v.has(w.word))
      .map((w) => w.word);
  }

  /**
   * Records surface-token measurements of class `label` (identifyKeywords makes them with the model) and
   * re-applies the filters: a voted keyword whose retention is below the configuration's minRetention
   * is no longer a keyword. Earlier measurements of other words stay.
   */
  setTokenResponses(label: string, responses: Iterable<TokenResponse>): void {
    const st = this.requireLabel(label);
    for (const r of responses) st.responses.set(r.word, r);
    this.applyFilters(st);
  }

  /** True when the configuration's surface-token check found `word` a surface token of class `label`. */
  isSurfaceToken(label: string, word: string): boolean {
    const check = this.oracle.tokenCheck;
    const r = this.requireLabel(label).responses.get(word);
    return check !== null && r !== undefined && r.retention < check.minRetention;
  }

  /**
   * Why `word` is or is not a keyword of class `label` — so that a user who disagrees can change the
   * class's description (`--class-descriptions`, OracleConfig.classDescriptions): per method, the
   * description item nearest the word with its cosine, and the score of its cluster against θ_relate (Eq. 4
   * of "TOKI: automated trustworthiness oracle generation for text classifiers"; the keywords it decides
   * are what r(w, c) of Eq. 5 looks up when labelling), and the check that demoted a voted keyword.
   * Undefined for a word outside the pool, or whose reason was not recorded (a store written before
   * reasons were kept; after a reload, an unrelated word beyond the REASONS_UNRELATED_SAVED heaviest).
   */
  why(label: string, word: string): WordReason | undefined {
    const st = this.requireLabel(label);
    const members = st.reasons.get(word);
    if (!members) return undefined;
    const demotedBy = st.voted.has(word) && !st.keywords.has(word) ? this.demotion(st, word) : undefined;
    return {
      word,
      keyword: st.keywords.has(word),
      related: st.voted.has(word),
      members,
      ...(demotedBy ? { demotedBy } : {}),
    };
  }

  /**
   * The reasons of class `label` that the store saves (see `why`): every keyword, every demoted word and
   * the REASONS_UNRELATED_SAVED heaviest unrelated words, by decreasing importance.
   */
  reasons(label: string): WordReason[] {
    const st = this.requireLabel(label);
    const out: WordReason[] = [];
    let unrelated = 0;
    for (const w of this.pool(label)) {
      if (!st.voted.has(w.word) && unrelated++ >= REASONS_UNRELATED_SAVED) continue;
      const r = this.why(label, w.word);
      if (r) out.push(r);
    }
    return out;
  }

  private demotion(st: ClassState, word: string): Demotion | undefined {
    if (this.oracle.functionWordsNeverKeywords && isFunctionWord(word)) return { check: 'function-word' };
    const check = this.oracle.tokenCheck;
    const r = st.responses.get(word);
    if (!check || !r || !(r.retention < check.minRetention)) return undefined;
    return {
      check: 'surface-token',
      ...(r.concentration !== undefined ? { concentration: r.concentration } : {}),
      minConcentration: check.minConcentration,
      retention: r.retention,
      minRetention: check.minRetention,
      deletion: r.deletion,
      substitution: r.substitution,
      neighbours: [...r.neighbours],
    };
  }

  private applyFilters(st: ClassState): void {
    const check = this.oracle.tokenCheck;
    st.keywords = new Set(
      [...st.voted].filter((w) => {
        if (this.oracle.functionWordsNeverKeywords && isFunctionWord(w)) return false;
        const r = st.responses.get(w);
        return !(check && r && r.retention < check.minRetention);
      }),
    );
  }

  /** Per-method diagnostics of the last keyword computation for `label`. */
  methods(label: string): readonly MethodSummary[] {
    return this.requireLabel(label).methods;
  }

  /**
   * The function words the model leans on for class `label` (OracleConfig.functionWordLean): those among
   * the decision words of a share of the class's pool explanations larger, by at least the configured
   * difference, than of every other class's. Empty when the configuration sets no lean.
   */
  leanedFunctionWords(label: string): ReadonlySet<string> {
    return this.functionWordsLeaningBy(label, this.oracle.functionWordLean ?? null);
  }

  /**
   * The function words the model leans on for class `label` by at least OracleConfig.phraseFunctionWordLean
   * but less than functionWordLean: they count in the class's verdicts only inside a reason that holds a
   * word other than a function word (a phrase), never alone. Empty when the configuration sets no such lean.
   */
  phraseFunctionWords(label: string): ReadonlySet<string> {
    const phrase = this.oracle.phraseFunctionWordLean ?? null;
    const strong = this.oracle.functionWordLean ?? null;
    if (phrase === null || (strong !== null && phrase >= strong)) return EMPTY_WORDS;
    const key = `phrase\u0000${label}`;
    const known = this.leaned.get(key);
    if (known) return known;
    const leaned = this.leanedFunctionWords(label);
    const out = new Set<string>();
    for (const w of this.functionWordsLeaningBy(label, phrase)) if (!leaned.has(w)) out.add(w);
    this.leaned.set(key, out);
    return out;
  }

  /** The function words whose pool-share lean towards `label` (functionWordLeans) is at least `lean`, cached by lean. */
  private functionWordsLeaningBy(label: string, lean: number | null): ReadonlySet<string> {
    this.requireLabel(label);
    if (lean == null || !this.oracle.functionWordsNeverKeywords) return EMPTY_WORDS;
    const key = `${lean}\u0000${label}`;
    const known = this.leaned.get(key);
    if (known) return known;
    const leans = this.functionWordLeans(label);
    const out = new Set<string>();
    for (const [w, l] of leans) if (l >= lean) out.add(w);
    this.leaned.set(key, out);
    return out;
  }

  /**
   * Each pool function word's lean towards class `label`: its share of the class's pool explanations
   * (count_c(w) / n_c, Eq. 2's pools) minus its largest share of another class's.
   */
  private functionWordLeans(label: string): ReadonlyMap<string, number> {
    const known = this.leans.get(label);
    if (known) return known;
    const n = this.pools.explanations(label);
    const others = this.labels
      .filter((l) => l !== label && this.pools.explanations(l) > 0)
      .map((l) => ({
        n: this.pools.explanations(l),
        counts: new Map(this.pools.entries(l).map((e) => [e.word, e.count])),
      }));
    const out = new Map<string, number>();
    if (n > 0)
      for (const e of this.pools.entries(label)) {
        if (!isFunctionWord(e.word)) continue;
        let most = 0;
        for (const o of others) most = Math.max(most, (o.counts.get(e.word) ?? 0) / o.n);
        out.set(e.word, e.count / n - most);
      }
    this.leans.set(label, out);
    return out;
  }

  /**
   * True when `word` weighs nothing either way in class `label`'s verdicts: a function word (when function
   * words are never keywords) that the model does not lean on for the class (leanedFunctionWords). A
   * phrase function word (phraseFunctionWords) is neutral here too: the verdict counts it only inside a phrase.
   */
  isNeutralWord(label: string, word: string): boolean {
    return this.oracle.functionWordsNeverKeywords && isFunctionWord(word) && !this.leanedFunctionWords(label).has(word);
  }

  /** True when class `label` has a pool (some training text of it was predicted correctly and explained). */
  hasPool(label: string): boolean {
    return this.pools.explanations(label) > 0 && this.pools.pool(label).length > 0;
  }

  /** Refuses a classifier whose fingerprint or label set differs from the one the store was built for. */
  async checkClassifier(classifier: Classifier): Promise<void> {
    this.checkCompatible(this.fingerprint, classifier.labels); // the label set first: the clearer reason
    this.checkCompatible(await modelFingerprint(classifier, this.probes), classifier.labels);
  }

  /** Throws INCOMPATIBLE, with the reason, when the store was built for another model or label set. */
  checkCompatible(fingerprint: string, labels: readonly string[]): void {
    if (labels.length !== this.labels.length || labels.some((l, i) => l !== this.labels[i])) {
      throw new XtrustError(
        'INCOMPATIBLE',
        `keyword store was built for labels [${this.labels.join(', ')}] but the model has [${labels.join(', ')}]`,
        { expected: this.labels, actual: labels },
      );
    }
    if (fingerprint !== this.fingerprint) {
      throw new XtrustError(
        'INCOMPATIBLE',
        `keyword store was built for model ${this.fingerprint}, not for this model (${fingerprint}); rebuild it with identifyKeywords`,
        { expected: this.fingerprint, actual: fingerprint },
      );
    }
  }

  /**
   * The store's ensemble from the caller's embeddings: post-processed as the store's configuration says
   * (raw embeddings are wrapped, already wrapped ones taken as they are), then matched by name, in store order.
   */
  async members(embeddings: readonly WordEmbedding[]): Promise<WordEmbedding[]> {
    return this.matchEnsemble(await oracleEmbeddings(this.oracle, embeddings));
  }

  /** Checks that `embeddings` are this store's ensemble, in any order; returns them in store order. */
  matchEnsemble(embeddings: readonly WordEmbedding[]): WordEmbedding[] {
    const byName = new Map(embeddings.map((e) => [e.name, e]));
    const out: WordEmbedding[] = [];
    for (const m of this.ensemble) {
      const e = byName.get(m.name);
      if (!e) {
        throw new XtrustError(
          'INCOMPATIBLE',
          `keyword store was built with embeddings [${this.ensemble.map((x) => x.name).join(', ')}]; "${m.name}" was not given (got [${embeddings.map((x) => x.name).join(', ')}])`,
          { expected: this.ensemble.map((x) => x.name) },
        );
      }
      if (e.dim !== m.dim)
        throw new XtrustError(
          'INCOMPATIBLE',
          `embedding "${m.name}" has dimension ${e.dim}, the store was built with ${m.dim}`,
        );
      out.push(e);
    }
    if (embeddings.length !== this.ensemble.length) {
      const extra = embeddings.filter((e) => !this.ensemble.some((m) => m.name === e.name)).map((e) => e.name);
      throw new XtrustError('INCOMPATIBLE', `embeddings [${extra.join(', ')}] are not part of the store's ensemble`, {
        extra,
      });
    }
    return out;
  }

  /**
   * Adds explanations of correctly predicted training texts (Eq. 1) and recomputes the keywords of the
   * classes they touch. Only s̄_w of the words concerned changes; clustering reruns on the grown pools.
   * `trueLabels[i]`, when given, must equal the explanation's predicted label (incorrect ones are skipped).
   */
  async addExplanations(
    explanations: readonly Explanation[],
    embeddings: readonly WordEmbedding[],
    trueLabels?: readonly string[],
  ): Promise<{ added: number; skipped: number }> {
    const members = await this.members(embeddings);
    if (trueLabels && trueLabels.length !== explanations.length) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `addExplanations: ${explanations.length} explanations but ${trueLabels.length} true labels`,
      );
    }
    const touched = new Set<string>();
    let added = 0;
    let skipped = 0;
    explanations.forEach((e, i) => {
      this.requireLabel(e.predictedLabel);
      if (trueLabels && trueLabels[i] !== e.predictedLabel) {
        skipped++;
        return;
      }
      this.pools.add(e.predictedLabel, e, this.topK);
      this.leaned.clear();
      this.leans.clear();
      touched.add(e.predictedLabel);
      added++;
    });
    for (const l of touched) await this.computeClass(l, members);
    this.provenance = { ...this.provenance, explained: this.provenance.explained + added };
    return { added, skipped };
  }

  /** Recomputes every class's keywords (after a restore, or with new thresholds). */
  async recompute(embeddings: readonly WordEmbedding[]): Promise<void> {
    const members = await this.members(embeddings);
    for (const l of this.labels) await this.computeClass(l, members);
  }

  /**
   * A copy of this store with another θ_dist and/or θ_relate, keywords recomputed from the same pools —
   * the RQ2.1 sweep needs no re-explaining.
   */
  async withThresholds(
    embeddings: readonly WordEmbedding[],
    change: { thetaDist?: number; thetaRelate?: Readonly<Record<string, number>> },
  ): Promise<KeywordStore> {
    const json = this.toJSON();
    if (change.thetaDist !== undefined) json.params.thetaDist = change.thetaDist;
    if (change.thetaRelate)
      json.ensemble = json.ensemble.map((m) => ({ ...m, thetaRelate: change.thetaRelate?.[m.name] ?? m.thetaRelate }));
    const copy = KeywordStore.fromJSON(json);
    await copy.recompute(embeddings);
    return copy;
  }

  /**
   * A copy of this store under another configuration's keyword filters (function words, the surface-token
   * check and its threshold) — the vote and the measurements stay, nothing is recomputed or re-measured.
   * Used to ablate the filters on one set of measurements.
   */
  withFilters(change: Partial<Pick<OracleConfig, 'name' | 'functionWordsNeverKeywords' | 'tokenCheck'>>): KeywordStore {
    const json = this.toJSON();
    json.oracle = { ...this.oracle, ...change };
    const copy = KeywordStore.fromJSON(json);
    for (const l of copy.labels) copy.applyFilters(copy.requireLabel(l));
    return copy;
  }

  /**
   * The description items of class `label` (class-description.ts: the name, the user's description, the
   * WordNet description) when the configuration describes classes — a classDescription setting or a
   * user description of any class — else null (the paper's one name).
   */
  descriptionItems(label: string): string[] | null {
    this.requireLabel(label);
    const o = this.oracle;
    if (!o.classDescription && !o.classDescriptions) return null;
    let items = this.descriptions.get(label);
    if (!items) {
      items = classDescriptionItems(this.classNames[label], o.classDescription ?? null, o.classDescriptions?.[label]);
      this.descriptions.set(label, items);
    }
    return items;
  }

  private readonly descriptions = new Map<string, string[]>();

  private async computeClass(label: string, members: readonly WordEmbedding[]): Promise<void> {
    const st = this.requireLabel(label);
    const pool = this.pools.pool(label);
    const words = pool.map((w) => w.word);
    const n = words.length;
    const ballots = new Int8Array(members.length * n);
    const methods: MethodSummary[] = [];
    const reasons: MemberReason[][] = words.map(() => []);
    let rule: SelectionRule = {
      clusterRule: this.oracle.clusterRule,
      memberShare: this.oracle.memberShare,
      contrastWith: this.oracle.classContrast
        ? this.labels.filter((l) => l !== label).map((l) => this.classNames[l])
        : null,
    };
    const own = this.descriptionItems(label);
    if (own) {
      rule = {
        ...rule,
        description: {
          own,
          others: this.oracle.classContrast
            ? this.labels.filter((l) => l !== label).map((l) => this.descriptionItems(l)!)
            : null,
          relate: this.oracle.classDescription?.relate ?? DEFAULT_DESCRIPTION_RELATE,
        },
      };
    }
    if (this.oracle.meaning) {
      rule = {
        ...rule,
        meaning: {
          settings: this.oracle.meaning,
          corpus: this.corpus,
          label,
          wordnet: this.oracle.classDescription?.wordnet ?? undefined,
        },
      };
    }
    for (let m = 0; m < members.length; m++) {
      const r = await selectKeywords(
        words,
        members[m],
        this.classNames[label],
        this.thetaDist,
        this.ensemble[m].thetaRelate,
        rule,
      );
      ballots.set(r.ballots, m * n);
      r.reasons?.forEach((x, i) => {
        if (x) reasons[i].push(x);
      });
      let keywords = 0;
      let abstained = 0;
      for (let i = 0; i < n; i++) {
        if (r.ballots[i] === 1) keywords++;
        else if (r.ballots[i] === -1) abstained++;
      }
      methods.push({
        embedding: members[m].name,
        classNameKnown: r.classNameKnown,
        clusters: r.clusterCount,
        relatedClusters: r.relatedClusters,
        keywords,
        abstained,
      });
    }
    // A word no method knows cannot be shown related to the class: it is a non-keyword.
    const decided = pluralityColumns(ballots, members.length, n, 0);
    st.voted = new Set(words.filter((_, i) => decided[i] === 1));
    st.methods = methods;
    st.reasons = new Map(words.map((w, i) => [w, reasons[i]]));
    this.applyFilters(st);
  }

  private requireLabel(label: string): ClassState {
    const st = this.state.get(label);
    if (!st)
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `keyword store: unknown class "${label}" (classes: ${this.labels.join(', ')})`,
        { label },
      );
    return st;
  }

  toJSON(): KeywordStoreJson {
    return {
      format: KEYWORD_STORE_FORMAT,
      version: KEYWORD_STORE_VERSION,
      model: { fingerprint: this.fingerprint, labels: [...this.labels], probes: [...this.probes] },
      classNames: { ...this.classNames },
      params: { thetaDist: this.thetaDist, topK: this.topK },
      oracle: { ...this.oracle },
      ensemble: this.ensemble.map((m) => ({ ...m })),
      provenance: { ...this.provenance },
      ...(this.corpus ? { corpus: this.corpus.toJSON() } : {}),
      ...(this.cooccurrence ? { cooccurrence: this.cooccurrence.toJSON() } : {}),
      classes: this.labels.map((l) => ({
        label: l,
        className: this.classNames[l],
        explanations: this.pools.explanations(l),
        keywords: this.keywords(l),
        methods: [...this.requireLabel(l).methods],
        pool: this.pools.entries(l).map((e) => [e.word, e.sum, e.count] as [string, number, number]),
        voted: this.votedKeywords(l),
        ...(this.requireLabel(l).responses.size > 0 ? { tokenResponses: this.tokenResponses(l) } : {}),
        ...this.reasonsJson(l),
      })),
    };
  }

  private reasonsJson(label: string): { reasons?: Record<string, WordReasonJson> } {
    const rs = this.reasons(label);
    if (rs.length === 0) return {};
    return { reasons: Object.fromEntries(rs.map(({ word, ...rest }) => [word, rest])) };
  }

  /** Rebuilds a store from its JSON form; keywords come back as saved (no embedding needed). */
  static fromJSON(json: KeywordStoreJson, source = 'keyword store'): KeywordStore {
    if (!json || json.format !== KEYWORD_STORE_FORMAT) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${source} is not an xtrust keyword store (format field "${String(json?.format)}")`,
        { source },
      );
    }
    if (json.version !== KEYWORD_STORE_VERSION) {
      throw new XtrustError(
        'INCOMPATIBLE',
        `${source} has keyword-store version ${json.version}; this xtrust reads version ${KEYWORD_STORE_VERSION}`,
        { source },
      );
    }
    const store = KeywordStore.create({
      fingerprint: json.model.fingerprint,
      probes: json.model.probes ?? [],
      labels: json.model.labels,
      classNames: json.classNames,
      thetaDist: json.params.thetaDist,
      topK: json.params.topK,
      ensemble: json.ensemble,
      provenance: json.provenance,
      oracle: json.oracle ? { ...TOKI_PAPER, ...json.oracle } : TOKI_PAPER,
    });
    if (json.corpus) store.corpus = ClassCorpus.fromJSON(json.corpus);
    if (json.cooccurrence) store.cooccurrence = WordCooccurrence.fromJSON(json.cooccurrence);
    for (const c of json.classes) {
      const st = store.requireLabel(c.label);
      for (const [word, sum, count] of c.pool) store.pools.restore(c.label, word, sum, count);
      store.pools.setExplained(c.label, c.explanations);
      st.voted = new Set(c.voted ?? c.keywords);
      st.keywords = new Set(c.keywords);
      st.methods = c.methods;
      for (const r of c.tokenResponses ?? []) st.responses.set(r.word, r);
      for (const [word, r] of Object.entries(c.reasons ?? {})) st.reasons.set(word, r.members);
    }
    return store;
  }

  /** Writes the store as JSON (atomically: a temporary file renamed into place). */
  async save(path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.toJSON()));
    await rename(tmp, path);
  }

  /**
   * Loads a saved store. With `classifier`, refuses (INCOMPATIBLE, with the reason) a store built for
   * another model or label set.
   */
  static async load(path: string, options: { classifier?: Classifier } = {}): Promise<KeywordStore> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'FILE_UNREADABLE';
      throw new XtrustError(code, `keyword store ${path}: ${(e as Error).message}`, { file: path }, { cause: e });
    }
    let json: KeywordStoreJson;
    try {
      json = JSON.parse(text) as KeywordStoreJson;
    } catch (e) {
      throw new XtrustError(
        'PARSE_ERROR',
        `keyword store ${path} is not valid JSON: ${(e as Error).message}`,
        { file: path },
        { cause: e },
      );
    }
    const store = KeywordStore.fromJSON(json, `keyword store ${path}`);
    if (options.classifier) await store.checkClassifier(options.classifier);
    return store;
  }

  /**
   * Checks every class name against the ensemble: a class none of whose name words any method knows
   * cannot be related to anything — refuse it, naming the class and how to map it.
   */
  static async requireClassNamesKnown(
    classNames: Readonly<Record<string, string>>,
    embeddings: readonly WordEmbedding[],
  ): Promise<void> {
    for (const [label, name] of Object.entries(classNames)) {
      let known = false;
      for (const e of embeddings) if ((await classNameVector(e, name)) !== null) known = true;
      if (!known) {
        throw new XtrustError(
          'OUT_OF_VOCABULARY',
          `class name "${name}" (label "${label}") is missing from every embedding (${embeddings.map((e) => e.name).join(', ')}); map it to words they know with classNames, e.g. { "${label}": "…" }`,
          { label, className: name },
        );
      }
    }
  }
}
