import {
  XtrustError,
  words as tokenWords,
  type Classifier,
  type Explainer,
  type Explanation,
  type WordEmbedding,
} from '@xtrust/core';
import { KeywordStore, ORACLES, type OracleConfig } from '../src/index.js';

/** A word embedding from hand-written vectors: cosines are known in advance. */
export class HandEmbedding implements WordEmbedding {
  readonly dim: number;
  private readonly table: Map<string, number[]>;
  constructor(
    readonly name: string,
    vectors: Record<string, readonly number[]>,
  ) {
    this.table = new Map(Object.entries(vectors).map(([w, v]) => [w, [...v]]));
    this.dim = this.table.values().next().value!.length;
  }
  has(word: string): boolean {
    return this.table.has(word);
  }
  async vectors(words: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(words.length * this.dim);
    words.forEach((w, i) => {
      const v = this.table.get(w);
      if (!v) throw new XtrustError('OUT_OF_VOCABULARY', `${w} not in ${this.name}`);
      out.set(v, i * this.dim);
    });
    return out;
  }
}

/** Unit vector at `deg` degrees in the plane (2-d), so cos between two words is cos of the angle difference. */
export function at(deg: number): number[] {
  const r = (deg * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r)];
}

/**
 * A multinomial logistic bag-of-words model with given per-word class scores: p = softmax(Σ_words coef).
 * Words without coefficients count 0.
 */
export class LinearBow implements Classifier {
  constructor(
    readonly labels: readonly string[],
    private readonly coef: Record<string, readonly number[]>,
    private readonly bias: readonly number[] = labels.map(() => 0),
  ) {}
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    const k = this.labels.length;
    const out = new Float32Array(texts.length * k);
    texts.forEach((t, i) => {
      const z = [...this.bias];
      for (const w of new Set(tokenWords(t, { lowercase: true }))) {
        const c = this.coef[w];
        if (c) for (let j = 0; j < k; j++) z[j] += c[j];
      }
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < k; j++) out[i * k + j] = e[j] / s;
    });
    return out;
  }
}

/**
 * For a linear model the exact contribution of a word to the predicted class c against the others is
 * coef[c] − mean(coef[others]); this explainer reports it (what omission converges to for such models).
 */
export class LinearContributionExplainer implements Explainer {
  readonly name = 'linear-contribution';
  calls = 0;
  constructor(private readonly coef: Record<string, readonly number[]>) {}
  async explain(classifier: Classifier, texts: readonly string[]): Promise<Explanation[]> {
    this.calls++;
    const p = await classifier.predictProba(texts);
    const k = classifier.labels.length;
    return texts.map((text, i) => {
      let c = 0;
      for (let j = 1; j < k; j++) if (p[i * k + j] > p[i * k + c]) c = j;
      const features = [...new Set(tokenWords(text, { lowercase: true }))].map((word) => {
        const v = this.coef[word] ?? new Array(k).fill(0);
        let others = 0;
        for (let j = 0; j < k; j++) if (j !== c) others += v[j] / (k - 1);
        return { word, weight: v[c] - others };
      });
      features.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
      return {
        text,
        method: this.name,
        params: {},
        predictedLabel: classifier.labels[c],
        explainedLabel: classifier.labels[c],
        features,
        probabilities: Array.from(p.subarray(i * k, i * k + k)),
      };
    });
  }
}

/** A hand-made explanation of a prediction of `label`. */
export function explanation(
  label: string,
  features: Record<string, number>,
  text = Object.keys(features).join(' '),
): Explanation {
  const fs = Object.entries(features).map(([word, weight]) => ({ word, weight }));
  fs.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
  return { text, method: 'hand', params: {}, predictedLabel: label, explainedLabel: label, features: fs };
}

/** Hand vectors for computerStore's words: computer 0°, file 20°, extension 55°, fruit and banana 120°, apple 125°. */
export const COMPUTER_HAND = new HandEmbedding('hand', {
  computer: at(0),
  file: at(20),
  extension: at(55),
  fruit: at(120),
  banana: at(120),
  apple: at(125),
});

/** A keyword store's provenance for stores built from hand-made explanations (no model, no sampling). */
export const HAND_PROVENANCE = {
  explainer: { method: 'hand', params: {} },
  seed: 0,
  sampleSize: 0,
  sampled: 0,
  explained: 0,
  keywordIdentificationSeconds: 0,
  createdAt: '',
};

/**
 * The paper's configuration under `decisive-word`, each unrelated word its own reason (no co-occurrence) and
 * function words judged like any word, with `overrides`: the base of the decisive-rule tests.
 */
export function decisiveWordOracle(name: string, overrides: Partial<OracleConfig> = {}): OracleConfig {
  return {
    ...ORACLES['toki-paper'],
    name,
    verdictRule: 'decisive-word',
    cooccurrence: null,
    functionWordsNeverKeywords: false,
    ...overrides,
  };
}

/**
 * A keyword store for class "computer" (0°) and "fruit" (120°) over hand embeddings: pools from three
 * hand-made explanations (computer: file .4, extension .3, banana .4, apple .2; fruit: apple, banana) or from
 * `explanations`, every member at `thetaRelate`, under `oracle` (the store's default when absent).
 */
export async function computerStore(
  embeddings: readonly HandEmbedding[],
  options: { thetaRelate?: number; oracle?: OracleConfig; explanations?: readonly Explanation[] } = {},
): Promise<KeywordStore> {
  const store = KeywordStore.create({
    fingerprint: 'm1',
    labels: ['computer', 'fruit'],
    thetaDist: 0.3,
    topK: 10,
    ensemble: embeddings.map((e) => ({ name: e.name, dim: e.dim, thetaRelate: options.thetaRelate ?? 0.6 })),
    provenance: HAND_PROVENANCE,
    ...(options.oracle ? { oracle: options.oracle } : {}),
  });
  await store.addExplanations(
    options.explanations ?? [
      explanation('computer', { file: 0.5, extension: 0.3, banana: 0.4 }),
      explanation('computer', { file: 0.3, apple: 0.2 }),
      explanation('fruit', { apple: 0.6, banana: 0.5 }),
    ],
    [...embeddings],
  );
  return store;
}
