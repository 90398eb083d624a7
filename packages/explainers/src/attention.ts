import {
  XtrustError,
  isAttentionProvider,
  isLayerAttentionProvider,
  type AttentionMap,
  type AttentionProvider,
  type Classifier,
  type Explainer,
  type Explanation,
} from '@xtrust/core';
import { makeExplanation } from './explanation.js';
import { explicitLabels, labelsFor, topLabelCount, type LabelOptions } from './labels.js';
import { ProbabilityGuard, checkInputs, predictAll, type ModelCallOptions } from './model-calls.js';
import { textFeatures } from './text-features.js';
import { aggregateToFeatures, alignTokens } from './word-alignment.js';

export type AttentionOptions = ModelCallOptions &
  LabelOptions & {
    /** One feature per distinct word (default; occurrences averaged) or per word position. */
    bow?: boolean;
    /**
     * `last` (default; 003 §3.3): the last layer's map. `mean`: the element-wise mean of every layer's map
     * (`meanAttentionMap`), for classifiers that are LayerAttentionProviders.
     */
    layers?: 'last' | 'mean';
  };

/**
 * The element-wise mean of several attention maps of one text (e.g. every layer's): the same tokens and
 * heads, weights[h][i][j] averaged over the maps. Since `attentionWordScores` is linear in the weights,
 * the word scores of the mean map are the mean of each layer's word scores.
 */
export function meanAttentionMap(maps: readonly AttentionMap[], where = 'attention'): AttentionMap {
  if (!Array.isArray(maps) || maps.length === 0)
    throw new XtrustError('BAD_MODEL_OUTPUT', `${where}: no attention maps to average`);
  const first = maps[0];
  const n = first.weights.length;
  const sum = new Float64Array(n);
  maps.forEach((m, l) => {
    if (m.heads !== first.heads || m.tokens.length !== first.tokens.length || m.weights.length !== n) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${where}: layer ${l} has ${m.heads} heads × ${m.tokens.length} tokens (${m.weights.length} weights); layer 0 has ${first.heads} × ${first.tokens.length} (${n})`,
      );
    }
    for (let j = 0; j < n; j++) sum[j] += m.weights[j];
  });
  const weights = new Float32Array(n);
  for (let j = 0; j < n; j++) weights[j] = sum[j] / maps.length;
  return { tokens: first.tokens, heads: first.heads, weights };
}

/**
 * Word scores from one last-layer attention map, as 003_0785e9c45c69d264 §3.3 describes (after
 * Garcia-Silva & Gomez-Perez, 2021): average the heads; drop special tokens ([CLS], [SEP]) and tokens
 * that belong to no word; merge the sub-words of a word by averaging their rows and their columns; a
 * word's weight is the vertical (column) average — the mean attention it receives. Returns one score per
 * word position of `tokenize(text)` (NaN where no model token covers the word) .
 */
export function attentionWordScores(text: string, map: AttentionMap, where = 'attention'): Float64Array {
  const T = map.tokens.length;
  const H = map.heads;
  if (!Number.isInteger(H) || H < 1 || !(map.weights instanceof Float32Array) || map.weights.length !== H * T * T) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${where}: attention weights have ${map.weights?.length} values; expected heads×T×T = ${H}×${T}×${T}`,
    );
  }
  const pos = textFeatures(text, false);
  const align = alignTokens(pos, map.tokens); // token → word position, −1 dropped
  const P = pos.count;
  // Mean over heads, restricted to kept tokens, summed into word blocks.
  const block = new Float64Array(P * P);
  const counts = new Float64Array(P);
  for (let i = 0; i < T; i++) if (align[i] >= 0) counts[align[i]] += 1;
  for (let h = 0; h < H; h++) {
    const base = h * T * T;
    for (let i = 0; i < T; i++) {
      const p = align[i];
      if (p < 0) continue;
      for (let j = 0; j < T; j++) {
        const q = align[j];
        if (q < 0) continue;
        const v = map.weights[base + i * T + j];
        if (!Number.isFinite(v))
          throw new XtrustError('BAD_MODEL_OUTPUT', `${where}: attention weight [${h}][${i}][${j}] is ${v}`);
        block[p * P + q] += v;
      }
    }
  }
  const scores = new Float64Array(P).fill(Number.NaN);
  let rowsKept = 0;
  for (let p = 0; p < P; p++) if (counts[p] > 0) rowsKept++;
  for (let q = 0; q < P; q++) {
    if (counts[q] === 0) continue;
    let s = 0;
    for (let p = 0; p < P; p++) {
      if (counts[p] === 0) continue;
      s += block[p * P + q] / (H * counts[p] * counts[q]);
    }
    scores[q] = s / rowsKept;
  }
  return scores;
}

/**
 * Self-attention as an explanation (003_0785e9c45c69d264 §3.3) for classifiers that are
 * `AttentionProvider`s, e.g. an HfClassifier whose ONNX model outputs attentions: one `attentions`
 * call per `batchSize` (default 64) texts; each word scored by `attentionWordScores`. With
 * `layers: 'mean'` the map scored is the mean over every layer (`layerAttentions`, `meanAttentionMap`). Attention does not depend on the
 * label, so every explained label gets the same weights (all non-negative).
 */
export class AttentionExplainer implements Explainer<AttentionOptions> {
  readonly name = 'attention';
  constructor(private readonly defaults: AttentionOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: AttentionOptions = {},
  ): Promise<Explanation[]> {
    const o: AttentionOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'attention');
    if (!isAttentionProvider(classifier)) {
      throw new XtrustError(
        'UNSUPPORTED',
        'attention needs a classifier that is an AttentionProvider (a transformer whose model outputs attentions); this one has no attentions method',
        { method: 'attention' },
      );
    }
    const provider: AttentionProvider = classifier;
    const layers = o.layers ?? 'last';
    if (layers !== 'last' && layers !== 'mean')
      throw new XtrustError('INVALID_ARGUMENT', `layers must be "last" or "mean", got ${String(layers)}`, {
        argument: 'layers',
      });
    if (layers === 'mean' && !isLayerAttentionProvider(classifier)) {
      throw new XtrustError(
        'UNSUPPORTED',
        'attention with layers "mean" needs a classifier that is a LayerAttentionProvider (every layer\'s attentions); this one has no layerAttentions method',
        { method: 'attention' },
      );
    }
    const bow = o.bow ?? true;
    const k = classifier.labels.length;
    const explicit = explicitLabels(classifier.labels, o);
    const top = topLabelCount(k, o);
    const tfs = texts.map((t, i) => textFeatures(t, bow, `texts[${i}]`));
    const probs = await predictAll(classifier, texts, new ProbabilityGuard('attention: classifier', k, o), o.batchSize);
    const batch = o.batchSize ?? 64;
    const maps: AttentionMap[] = [];
    for (let start = 0; start < texts.length; start += batch) {
      const chunk = texts.slice(start, start + batch);
      const got =
        layers === 'mean' && isLayerAttentionProvider(classifier)
          ? (await classifier.layerAttentions(chunk)).map((ls, b) =>
              meanAttentionMap(ls, `attention: texts[${start + b}]`),
            )
          : await provider.attentions(chunk);
      if (!Array.isArray(got) || got.length !== chunk.length) {
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `attention: attentions() returned ${Array.isArray(got) ? got.length : typeof got} maps for ${chunk.length} texts`,
        );
      }
      maps.push(...got);
    }
    const out: Explanation[] = [];
    for (let i = 0; i < texts.length; i++) {
      const tf = tfs[i];
      const byPosition = attentionWordScores(texts[i], maps[i], `attention: texts[${i}]`);
      // word position → feature, averaging occurrences in bag-of-words mode
      const alignment = new Int32Array(byPosition.length);
      const scores = new Float64Array(byPosition.length);
      for (let p = 0; p < byPosition.length; p++) {
        alignment[p] = Number.isNaN(byPosition[p]) ? -1 : tf.tokenToFeature[p];
        scores[p] = Number.isNaN(byPosition[p]) ? 0 : byPosition[p];
      }
      const { weights, covered } = aggregateToFeatures(tf.count, alignment, scores, 'mean');
      const features: { word: string; weight: number }[] = [];
      let uncovered = 0;
      for (let f = 0; f < tf.count; f++) {
        if (covered[f]) features.push({ word: tf.words[f], weight: weights[f] });
        else uncovered++;
      }
      const predicted = labelsFor(probs, i, k, undefined, 1)[0];
      for (const label of labelsFor(probs, i, k, explicit, top)) {
        out.push(
          makeExplanation({
            text: texts[i],
            method: 'attention',
            params: { layer: layers, heads: 'mean', subwords: 'mean', specialTokens: 'dropped', bow },
            labels: classifier.labels,
            probabilities: probs.subarray(i * k, (i + 1) * k),
            predicted,
            explained: label,
            features,
            diagnostics: { heads: maps[i].heads, modelTokens: maps[i].tokens.length, uncoveredWords: uncovered },
          }),
        );
      }
    }
    return out;
  }
}
