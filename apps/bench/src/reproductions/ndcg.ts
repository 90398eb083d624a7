/**
 * After 003_0785e9c45c69d264.txt Figures 2–3: NDCG@k of explanations against the class name. A word's
 * relevance is the cosine similarity of its GloVe vector with the predicted class's name (negative
 * cosines count 0); an explanation's words ranked by their weight towards the predicted class are
 * scored against the ideal ranking of the text's words. Compared: LIME, KernelSHAP and word omission
 * on a built-in bag-of-words model over Brown genre passages, with a seeded random ranking of the
 * text's words as the floor. Both the plain and the "_unique" variant (003 §6) are shown.
 *
 *   node apps/bench/dist/reproductions/ndcg.js [--texts 200] [--samples 5000] [--words 60] [--seed 1]
 */
import { rng, tokenize, words as tokenWords, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { GloveEmbedding } from '@xtrust/embeddings';
import { KernelShapExplainer, LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import { loadBrown, sample, stratifiedSplit } from '@xtrust/datasets';
import { evaluateAccuracy, trainClassifier } from '@xtrust/models';
import { classNameRelevance, ndcgAtKs, NDCG_DEFAULT_KS } from '@xtrust/metrics';

const argv = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const N = opt('texts', 200);
const SAMPLES = opt('samples', 5000);
const WORDS = opt('words', 60);
const SEED = opt('seed', 1);
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/** Genres whose names an embedding can relate words to (as in the oracle's shortcut benchmark). */
const GENRES = ['news', 'religion', 'hobbies', 'government', 'romance'];

function firstWords(text: string, n: number): string {
  const t = tokenize(text);
  return t.length <= n ? text : text.slice(0, t[n - 1].end);
}

async function main(): Promise<void> {
  const rows = loadBrown({ tags: false }).rows.filter((r) => GENRES.includes(r.label)).map((r) => ({ text: firstWords(r.text, WORDS), label: r.label }));
  const split = stratifiedSplit(rows, { testFraction: 0.3, seed: SEED });
  const model: Classifier = await trainClassifier('bow-logistic', split.train, { seed: SEED });
  const acc = await evaluateAccuracy(model, split.test);
  log(`Brown ${GENRES.join(', ')}: ${split.train.length} train / ${split.test.length} test passages (first ${WORDS} words), bow-logistic accuracy ${acc.accuracy.toFixed(3)}`);
  // correctly predicted test passages: the class name is then also the true genre
  const probs = await model.predictProba(split.test.map((r) => r.text));
  const k = model.labels.length;
  const correct = split.test.filter((r, i) => {
    let best = 0;
    for (let c = 1; c < k; c++) if (probs[i * k + c] > probs[i * k + best]) best = c;
    return model.labels[best] === r.label;
  });
  const texts = sample(correct, Math.min(N, correct.length), SEED);
  const glove = await GloveEmbedding.load();
  const methods: [string, Explainer | null][] = [
    [`LIME (${SAMPLES} samples)`, new LimeExplainer({ numSamples: SAMPLES, numFeatures: 10, seed: SEED }) as unknown as Explainer],
    [`KernelSHAP (${SAMPLES} samples)`, new KernelShapExplainer({ numSamples: SAMPLES, seed: SEED }) as unknown as Explainer],
    ['omission', new OmissionExplainer() as unknown as Explainer],
    ['random ranking (floor)', null],
  ];
  const textWords = texts.map((t) => tokenWords(t.text).map((w) => w.toLowerCase()));
  const relevance = new Map<string, Map<string, number>>();
  for (const g of GENRES) {
    const all = [...new Set(textWords.flat())];
    relevance.set(g, await classNameRelevance(glove, g, all));
  }
  const rows2: string[] = [];
  for (const [name, explainer] of methods) {
    const t0 = performance.now();
    let ranked: string[][];
    if (explainer) {
      const exps: Explanation[] = await explainer.explain(model, texts.map((t) => t.text));
      ranked = exps.map((e) => [...e.features].sort((a, b) => b.weight - a.weight).map((f) => f.word.toLowerCase()));
    } else {
      const r = rng(SEED);
      ranked = textWords.map((ws) => r.shuffle([...new Set(ws)]));
    }
    const secs = (performance.now() - t0) / 1000;
    for (const unique of [false, true]) {
      const sums = new Map<number, number>(NDCG_DEFAULT_KS.map((x) => [x, 0]));
      texts.forEach((t, i) => {
        const rel = relevance.get(t.label)!;
        const list = ranked[i].filter((w) => rel.has(w));
        const s = ndcgAtKs(list, textWords[i], rel, NDCG_DEFAULT_KS, { unique });
        for (const x of NDCG_DEFAULT_KS) sums.set(x, sums.get(x)! + s[x]);
      });
      rows2.push(`| ${name}${unique ? ' — unique' : ''} | ${NDCG_DEFAULT_KS.map((x) => (sums.get(x)! / texts.length).toFixed(3)).join(' | ')} | ${unique ? '' : secs.toFixed(1)} |`);
    }
    log(`${name}: ${secs.toFixed(1)} s`);
  }
  console.log(`${texts.length} correctly predicted Brown passages (${GENRES.join(', ')}; first ${WORDS} words), built-in bow-logistic (test accuracy ${acc.accuracy.toFixed(3)}); relevance = GloVe cosine with the genre name, negatives clipped to 0; words ranked by weight towards the predicted genre; mean NDCG@k.\n`);
  console.log(`| explainer | ${NDCG_DEFAULT_KS.map((x) => `NDCG@${x}`).join(' | ')} | seconds |`);
  console.log(`| --- | ${NDCG_DEFAULT_KS.map(() => '---').join(' | ')} | --- |`);
  for (const r of rows2) console.log(r);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
