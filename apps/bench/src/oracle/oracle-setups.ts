/**
 * Oracle configurations the shortcut benchmark evaluates. A configuration is one value: given a case's
 * model, training texts, (cached) explainer and the test predictions' explanations, it identifies
 * keywords and labels the predictions. Several configurations run on the same explanations.
 */
import type { Classifier, Explainer, WordEmbedding } from '@xtrust/core';
import { CounterFittedEmbedding, GloveEmbedding, UseEmbedding, wordnet } from '@xtrust/embeddings';
import { calibrateThetaRelate, identifyKeywords, labelTolerant, type KeywordStore, type TolerantExplanations, type TrustLabel } from '@xtrust/oracle';
import { XtrustError } from '@xtrust/core';

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
  /** The scored test predictions (all correct) and their explanations. */
  readonly test: { readonly texts: readonly string[]; readonly labels: readonly string[]; readonly explanations: TolerantExplanations };
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
    else throw new XtrustError('INVALID_ARGUMENT', `unknown embedding "${name}" (glove, cf, use)`, { argument: 'embeddings' });
    loaded.set(name, p);
  }
  return p;
}

/** θ_relate of an embedding from WordNet word pairs (§3.1; calibrateThetaRelate, seed 0), once per process. */
function thetaRelate(e: WordEmbedding): Promise<number> {
  let p = calibrated.get(e.name);
  if (!p) {
    p = calibrateThetaRelate(e, wordnet(), { seed: 0 }).then((c) => c.thetaRelate);
    calibrated.set(e.name, p);
  }
  return p;
}

/**
 * The paper's TOKI (000 §3): keyword identification with θ_dist 0.3, top-10 words, θ_relate
 * calibrated per embedding on word pairs, plurality over the embeddings; labels by relatedness to
 * K_c ∪ F_c (TOKI) and to the class name only (–K.I).
 */
export function tokiPaper(embeddingNames: readonly string[]): OracleSetup {
  return {
    name: 'toki-paper',
    description: `TOKI as in the paper (θ_dist 0.3, top 10, θ_relate calibrated on word pairs), embeddings ${embeddingNames.join('+')}`,
    async run(ctx) {
      const embeddings = await Promise.all(embeddingNames.map(embedding));
      const theta: Record<string, number> = {};
      for (const e of embeddings) theta[e.name] = await thetaRelate(e);
      const t0 = performance.now();
      const store = await identifyKeywords(ctx.classifier, ctx.train.texts, ctx.train.labels, {
        explainer: ctx.explainer,
        explainerOptions: ctx.explainerOptions,
        embeddings,
        thetaRelate: theta,
        sampleSize: ctx.sampleSize,
        classNames: ctx.classNames,
        seed: ctx.seed,
      });
      const keywordSeconds = (performance.now() - t0) / 1000;
      const { texts, labels, explanations } = ctx.test;
      const toki = await labelTolerant(store, explanations, texts, labels, { embeddings, mode: 'toki' });
      const ablated = await labelTolerant(store, explanations, texts, labels, { embeddings, mode: 'toki-ki-ablated' });
      return { store, embeddings, toki, ablated, keywordSeconds };
    },
  };
}

/** The configurations named on the command line (--oracle), in order. */
export function oracleSetups(names: readonly string[], options: { embeddings: readonly string[] }): OracleSetup[] {
  return names.map((n) => {
    if (n === 'toki-paper') return tokiPaper(options.embeddings);
    throw new XtrustError('INVALID_ARGUMENT', `unknown oracle configuration "${n}" (known: toki-paper)`, { argument: 'oracle' });
  });
}
