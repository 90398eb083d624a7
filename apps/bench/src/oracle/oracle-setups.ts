/**
 * Oracle configurations the shortcut benchmark evaluates. A configuration is one value: given a case's
 * model, training texts, (cached) explainer and the test predictions' explanations, it identifies
 * keywords and labels the predictions. Several configurations run on the same explanations.
 */
import type { Classifier, Explainer, WordEmbedding } from '@xtrust/core';
import { CounterFittedEmbedding, GloveEmbedding, UseEmbedding, wordnet } from '@xtrust/embeddings';
import {
  calibrateThetaRelate,
  DEFAULT_TOKEN_CHECK,
  DEFAULT_MEANING,
  identifyKeywords,
  labelTolerant,
  ORACLES,
  WORDNET_CLASS_DESCRIPTION,
  type ClassDescriptionConfig,
  type KeywordStore,
  type OracleConfig,
  type TolerantExplanations,
  type TrustLabel,
  type UnrelatedCategory,
  type VerdictRule,
} from '@xtrust/oracle';
import { XtrustError } from '@xtrust/core';
import { TOKEN_CATEGORIES } from '@xtrust/datasets';

/** What a configuration gets from the benchmark. */
export interface OracleContext {
  readonly classifier: Classifier;
  readonly train: { readonly texts: readonly string[]; readonly labels: readonly string[] };
  /** The case's explainer, caching: explaining a text a second time costs nothing. */
  readonly explainer: Explainer;
  readonly explainerOptions?: Record<string, unknown>;
  /** Training texts sampled for keyword identification. */
  readonly sampleSize: number;
  readonly seed: number;
  readonly classNames: Readonly<Record<string, string>>;
  /** What the corpus's classes are about (@xtrust/datasets' built-in descriptions), for a `+ud` configuration. */
  readonly classDescriptions?: Readonly<Record<string, string>>;
  /** The scored test predictions (all correct) and their explanations. */
  readonly test: {
    readonly texts: readonly string[];
    readonly labels: readonly string[];
    readonly explanations: TolerantExplanations;
  };
}

/** What a configuration gives back: its keyword store, TOKI's labels and, when it has one, the –K.I ablation's. */
export interface OracleOutcome {
  readonly store: KeywordStore;
  /** The embeddings it used (to tell a word none of them knows: an abstention). */
  readonly embeddings: readonly WordEmbedding[];
  readonly toki: readonly TrustLabel[];
  readonly ablated?: readonly TrustLabel[];
  readonly keywordSeconds: number;
}

export interface OracleSetup {
  readonly name: string;
  readonly description: string;
  run(ctx: OracleContext): Promise<OracleOutcome>;
}

const loaded = new Map<string, Promise<WordEmbedding>>();
const calibrated = new Map<string, Promise<number>>();

/** An embedding by its short name (glove, cf, use), loaded once per process. */
export function embedding(name: string): Promise<WordEmbedding> {
  let p = loaded.get(name);
  if (!p) {
    if (name === 'glove') p = GloveEmbedding.load();
    else if (name === 'cf') p = CounterFittedEmbedding.load();
    else if (name === 'use') p = UseEmbedding.load();
    else
      throw new XtrustError('INVALID_ARGUMENT', `unknown embedding "${name}" (glove, cf, use)`, {
        argument: 'embeddings',
      });
    loaded.set(name, p);
  }
  return p;
}

/** θ_relate of an embedding from WordNet word pairs (§3.1; calibrateThetaRelate, seed 0), once per process. */
export function thetaRelateOf(e: WordEmbedding): Promise<number> {
  let p = calibrated.get(e.name);
  if (!p) {
    p = calibrateThetaRelate(e, wordnet(), { seed: 0 }).then((c) => c.thetaRelate);
    calibrated.set(e.name, p);
  }
  return p;
}

/**
 * A named TOKI configuration of @xtrust/oracle (ORACLES: `toki`, xtrust's default, and `toki-paper`, the
 * paper's §3): keyword identification with the configuration (θ_relate calibrated per raw embedding on
 * word pairs; a post-processed member is calibrated on its own vectors by identifyKeywords), then labels
 * by relatedness to K_c ∪ F_c (TOKI) and to the class name only (–K.I), as the store's configuration says.
 */
export function namedOracle(
  config: OracleConfig,
  embeddingNames: readonly string[],
  unrelatedCategories?: readonly UnrelatedCategory[],
  builtInDescriptions = false,
): OracleSetup {
  const cats = unrelatedCategories ?? [];
  return {
    name: config.name,
    description: `TOKI "${config.name}" (θ_dist ${config.thetaDist}, ${config.postProcess} post-processing, cluster rule ${config.clusterRule}, verdict rule ${config.verdictRule}${config.classContrast ? ', class contrast' : ''}${cats.length ? `, unrelated categories ${cats.map((c) => c.name).join(', ')}` : ''}${builtInDescriptions ? ", the corpus's built-in class descriptions" : ''}), embeddings ${embeddingNames.join('+')}`,
    async run(ctx) {
      const embeddings = await Promise.all(embeddingNames.map(embedding));
      const theta: Record<string, number> = {};
      for (const e of embeddings) theta[e.name] = await thetaRelateOf(e);
      const t0 = performance.now();
      const store = await identifyKeywords(ctx.classifier, ctx.train.texts, ctx.train.labels, {
        explainer: ctx.explainer,
        explainerOptions: ctx.explainerOptions,
        embeddings,
        thetaRelate: theta,
        oracle:
          builtInDescriptions && ctx.classDescriptions
            ? { ...config, classDescriptions: describedLabels(ctx.classDescriptions, ctx.classifier.labels) }
            : config,
        sampleSize: ctx.sampleSize,
        classNames: ctx.classNames,
        seed: ctx.seed,
      });
      const keywordSeconds = (performance.now() - t0) / 1000;
      const { texts, labels, explanations } = ctx.test;
      const toki = await labelTolerant(store, explanations, texts, labels, {
        embeddings,
        mode: 'toki',
        unrelatedCategories: cats,
        classifier: ctx.classifier,
      });
      const ablated = await labelTolerant(store, explanations, texts, labels, {
        embeddings,
        mode: 'toki-ki-ablated',
        unrelatedCategories: cats,
        classifier: ctx.classifier,
      });
      return { store, embeddings, toki, ablated, keywordSeconds };
    },
  };
}

/** The surface-token check's settings a candidate starts from: the default's (@xtrust/oracle DEFAULT_TOKEN_CHECK). */
export const TOKEN_CHECK_BASE = DEFAULT_TOKEN_CHECK;

/**
 * The class description a `+desc` candidate starts from: @xtrust/oracle's WORDNET_CLASS_DESCRIPTION, the
 * one of the default `toki` (issue 29, "richer class descriptions than one name": every noun and adjective
 * WordNet sense agreeing in case with the name, their lemmas and definition words, related by the mean over
 * a cluster's members of their largest cosine with an item). Its `+d…` modifiers ablate each part
 * (candidateOracle); `toki+ds1+dcentroid` is the first sense related by the description's mean vector.
 */
export const DESCRIPTION_BASE: ClassDescriptionConfig = WORDNET_CLASS_DESCRIPTION;

/**
 * A configuration by name: one of @xtrust/oracle's ORACLES, or a candidate built on one of them for the
 * validation family's ablations — `BASE+fw` (function words never keywords), `BASE+flD` (… except those the
 * model leans on for a class by a pool-share difference ≥ D: OracleConfig.functionWordLean; `+nofl` every
 * function word neutral), `+pflD` (a function word leaning by ≥ D but below the lean counts only inside a phrase:
 * OracleConfig.phraseFunctionWordLean; `+nopfl` none), `+shS` (one unrelated reason carrying a share ≥ S of the explanation's supporting
 * weight is decisive: OracleConfig.decisiveShare; `+nosh` half the margin alone), `+rmL` / `+norm` (a decisive reason
 * confirmed when removing it costs more than L of the margin: OracleConfig.removalCheck), `+outer` / `+nouter` (a token
 * in nested categories is the outermost's, and a category reason's removal takes that category only, or the first
 * listed's: OracleConfig.categoryNesting), `+rcK` / `+norc` (a decisive
 * reason must also outweigh K times the related weight: OracleConfig.relatedCounterweight), `BASE+tcX` (the
 * surface-token check with minRetention X), `+ccY` (its minConcentration Y), e.g. `toki+fw+cc10+tc0.3`;
 * `+vsum` / `+vdecisive` / `+vword` / `+vboth` picks the verdict rule (VERDICT_MODIFIERS); `+mtP` / `+mlL` set the meaning
 * test's topic percentile / neighbour lean and `+wpQ` gates the topic signal on the word percentile Q (issue 47);
 * `+jP-L` relates a word whose topic percentile reaches P and neighbour lean reaches L together
 * (MeaningSettings.joint), `+nojoint` drops that rule; `+desc` describes each class by its name and WordNet (DESCRIPTION_BASE, as the default `toki`; `+nodesc`
 * by its name alone, as `toki-name`), then `+dsN` / `+dsall` reads
 * N / all senses per part of speech, `+dnogloss` drops the definition words, `+dhyper` / `+dhypo` adds
 * hypernym / hyponym lemmas, `+dmax` / `+dmm` / `+dcentroid` picks the relatedness rule
 * (max over the items, mean over members of their max, the description's mean vector).
 */
export function candidateOracle(name: string): OracleConfig {
  const [base, ...mods] = name.split('+');
  let config = ORACLES[base];
  if (!config)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `unknown oracle configuration "${name}" (known: ${Object.keys(ORACLES).join(', ')}, each optionally followed by +fw and/or +tcX)`,
      { argument: 'oracle' },
    );
  config = { ...config, name };
  for (const m of mods) {
    if (m === 'fw') config = { ...config, functionWordsNeverKeywords: true };
    else if (m === 'nofw') config = { ...config, functionWordsNeverKeywords: false };
    else if (/^fl\d+(\.\d+)?$/.test(m))
      config = { ...config, functionWordsNeverKeywords: true, functionWordLean: Number(m.slice(2)) };
    else if (m === 'nofl') config = { ...config, functionWordLean: null };
    else if (/^pfl\d+(\.\d+)?$/.test(m))
      config = { ...config, functionWordsNeverKeywords: true, phraseFunctionWordLean: Number(m.slice(3)) };
    else if (m === 'nopfl') config = { ...config, phraseFunctionWordLean: null };
    else if (m === 'notc') config = { ...config, tokenCheck: null };
    else if (/^tc-?\d+(\.\d+)?$/.test(m))
      config = {
        ...config,
        tokenCheck: { ...TOKEN_CHECK_BASE, ...config.tokenCheck, minRetention: Number(m.slice(2)) },
      };
    else if (/^cc\d+(\.\d+)?$/.test(m))
      config = {
        ...config,
        tokenCheck: { ...TOKEN_CHECK_BASE, ...config.tokenCheck, minConcentration: Number(m.slice(2)) },
      };
    else if (m in VERDICT_MODIFIERS) config = { ...config, verdictRule: VERDICT_MODIFIERS[m] };
    else if (/^vw\d+$/.test(m) && Number(m.slice(2)) >= 1)
      config = { ...config, verdictRule: 'decisive-word', decisiveWords: Number(m.slice(2)) };
    else if (/^sh\d+(\.\d+)?$/.test(m)) config = { ...config, decisiveShare: Number(m.slice(2)) };
    else if (/^rm\d+(\.\d+)?$/.test(m)) config = { ...config, removalCheck: Number(m.slice(2)) };
    else if (m === 'norm') config = { ...config, removalCheck: null };
    else if (m === 'outer') config = { ...config, categoryNesting: 'outermost' };
    else if (m === 'nouter') config = { ...config, categoryNesting: 'first' };
    else if (/^rc\d+(\.\d+)?$/.test(m)) config = { ...config, relatedCounterweight: Number(m.slice(2)) };
    else if (m === 'norc') config = { ...config, relatedCounterweight: null };
    else if (m === 'nosh') config = { ...config, decisiveShare: null };
    else if (m === 'nopg') config = { ...config, cooccurrence: null };
    else if (/^pg\d+(\.\d+)?$/.test(m))
      config = { ...config, cooccurrence: { minJaccard: Number(m.slice(2)), minTexts: 5 } };
    else if (m === 'meaning') config = { ...config, meaning: config.meaning ?? DEFAULT_MEANING };
    else if (m === 'nomeaning') config = { ...config, meaning: null };
    else if (/^mt\d+(\.\d+)?$/.test(m) && config.meaning)
      config = { ...config, meaning: { ...config.meaning, topicPercentile: Number(m.slice(2)) } };
    else if (/^ml-?\d+(\.\d+)?$/.test(m) && config.meaning)
      config = { ...config, meaning: { ...config.meaning, neighbourLean: Number(m.slice(2)) } };
    else if (/^wp\d+(\.\d+)?$/.test(m) && config.meaning)
      config = { ...config, meaning: { ...config.meaning, wordPercentile: Number(m.slice(2)) } };
    else if (/^j\d+(\.\d+)?-\d+(\.\d+)?$/.test(m) && config.meaning) {
      const [topic, lean] = m.slice(1).split('-').map(Number);
      config = { ...config, meaning: { ...config.meaning, joint: { topicPercentile: topic, neighbourLean: lean } } };
    } else if (m === 'nojoint' && config.meaning) {
      const { joint: _, ...rest } = config.meaning;
      config = { ...config, meaning: rest };
    } else if (m === 'desc') config = { ...config, classDescription: DESCRIPTION_BASE };
    else if (m === 'nodesc') config = { ...config, classDescription: null };
    else if (m.startsWith('d') && config.classDescription)
      config = { ...config, classDescription: descriptionModifier(config.classDescription, m, name) };
    else
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `oracle "${name}": unknown modifier "+${m}" (+fw, +nofw, +flD, +nofl, +pflD, +nopfl, +notc, +tcX, +ccY, +vsum, +vdecisive, +vword, +vboth, +vwN, +shS, +nosh, +rmL, +norm, +rcK, +norc, +pgJ, +nopg, +meaning, +nomeaning and after +meaning +mtP, +mlL, +wpQ, +jP-L, +nojoint, +desc, +nodesc and after +desc +dsN, +dsall, +dnogloss, +dhyper, +dhypo, +dmax, +dmm, +dcentroid)`,
        { argument: 'oracle' },
      );
  }
  return config;
}

/**
 * The label step's ablation (Eq. 6's verdict, @xtrust/oracle VerdictRule): `+vsum` the paper's IS_rel ≥ IS_unr,
 * `+vdecisive` the unrelated importance against half the margin (the default's), `+vword` one unrelated word
 * against half the margin, `+vboth` trustworthy only when the sum and the decisive test both say so.
 */
const VERDICT_MODIFIERS: Readonly<Record<string, VerdictRule>> = {
  vsum: 'sum',
  vdecisive: 'decisive',
  vword: 'decisive-word',
  vboth: 'sum-and-decisive',
};

/** One `+d…` modifier of a described candidate (candidateOracle). */
function descriptionModifier(d: ClassDescriptionConfig, m: string, name: string): ClassDescriptionConfig {
  const wn = d.wordnet ?? DESCRIPTION_BASE.wordnet!;
  if (m === 'dsall') return { ...d, wordnet: { ...wn, senses: Number.MAX_SAFE_INTEGER } }; // every sense (a finite number: stores are JSON)
  if (/^ds\d+$/.test(m) && Number(m.slice(2)) >= 1) return { ...d, wordnet: { ...wn, senses: Number(m.slice(2)) } };
  if (m === 'dnogloss') return { ...d, wordnet: { ...wn, gloss: false } };
  if (m === 'dhyper') return { ...d, wordnet: { ...wn, hypernyms: true } };
  if (m === 'dhypo') return { ...d, wordnet: { ...wn, hyponyms: true } };
  if (m === 'dmax') return { ...d, relate: 'max' };
  if (m === 'dmm') return { ...d, relate: 'member-max' };
  if (m === 'dcentroid') return { ...d, relate: 'centroid' };
  throw new XtrustError(
    'INVALID_ARGUMENT',
    `oracle "${name}": unknown description modifier "+${m}" (+dsN, +dsall, +dnogloss, +dhyper, +dhypo, +dmax, +dmm, +dcentroid)`,
    { argument: 'oracle' },
  );
}

/**
 * The configurations named on the command line (--oracle), in order (candidateOracle's names). A `+cat`
 * modifier (anywhere after the base) labels with @xtrust/datasets' TOKEN_CATEGORIES as unrelated categories
 * (LabelOptions.unrelatedCategories, issue 48) — a labelling option, not part of the keyword store. A `+ud`
 * modifier describes each class with the corpus's built-in description as well (@xtrust/datasets'
 * *_DESCRIPTIONS as a user's `--class-descriptions`; issue 47), as `xtrust demo` does on its corpora.
 */
export function oracleSetups(names: readonly string[], options: { embeddings: readonly string[] }): OracleSetup[] {
  return names.map((n) => {
    const { base, categories, builtInDescriptions } = setupModifiers(n);
    return namedOracle(
      { ...candidateOracle(base), name: n },
      options.embeddings,
      categories ? TOKEN_CATEGORIES : undefined,
      builtInDescriptions,
    );
  });
}

/** The descriptions of the labels a model has (a corpus describes classes a case may leave out: Brown's 15 genres, 5 used). */
export function describedLabels(
  descriptions: Readonly<Record<string, string>>,
  labels: readonly string[],
): Record<string, string> {
  return Object.fromEntries(Object.entries(descriptions).filter(([label]) => labels.includes(label)));
}

/** A configuration name's benchmark-side modifiers (`+cat`, `+ud`) and the candidateOracle name left without them. */
export function setupModifiers(name: string): { base: string; categories: boolean; builtInDescriptions: boolean } {
  const [head, ...mods] = name.split('+');
  return {
    base: [head, ...mods.filter((m) => m !== 'cat' && m !== 'ud')].join('+'),
    categories: mods.includes('cat'),
    builtInDescriptions: mods.includes('ud'),
  };
}
