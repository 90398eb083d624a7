/**
 * After 003_0785e9c45c69d264.txt Figures 2–3: NDCG@k of explanations against the class name. A word's
 * relevance is the cosine similarity of its GloVe vector with the predicted class's name (negative
 * cosines count 0); an explanation's words ranked by their weight towards the predicted class are
 * scored against the ideal ranking of the text's words. Compared: LIME, KernelSHAP and word omission
 * on a built-in bag-of-words model over Brown genre passages, with a seeded random ranking of the
 * text's words as the floor. Both the plain and the "_unique" variant (003 §6) are shown.
 *
 * With `--model <Hugging Face folder>` (a Brown-genre transformer: the kit's fixture
 * models/transformers/fixtures/tiny-bert-brown, or the full-size models/transformers/out/bert-brown)
 * 003 Table 1 follows (ndcg-transformer.ts): self-attention (last layer, §3.3, and the mean over
 * layers), LIME, KernelSHAP, omission, gradient × input and integrated gradients on that transformer,
 * over correctly predicted passages of the kit's held-out split (testFraction 0.3, validationFraction
 * 0.15, seed 1, grouped by Brown document), cut to --model-words words so the whole passage fits the
 * model's position window. Every explanation is stored as it is made in a run folder (--store; default
 * apps/bench/results/ndcg-runs/<model>-w<words>-s<samples>-n<texts>-seed<seed>, git-ignored) and a
 * rerun skips what is stored. `--from RUN[,RUN…]` prints the tables of stored runs without explaining;
 * with `--write-section` they become BENCHMARKS.md's `ndcg-transformer` section (first run = main).
 *
 *   node apps/bench/dist/reproductions/ndcg.js [--texts 200] [--samples 5000] [--words 60] [--seed 1]
 *       [--model DIR] [--model-texts 100] [--model-samples 1000] [--model-words 40] [--skip-bow]
 *   node apps/bench/dist/reproductions/ndcg.js --from RUN[,RUN…] [--write-section]
 */
import { rng, firstWords, words as tokenWords, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { GloveEmbedding } from '@xtrust/embeddings';
import { KernelShapExplainer, LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import { loadBrown, sample, stratifiedSplit } from '@xtrust/datasets';
import { evaluateAccuracy, trainClassifier } from '@xtrust/models';
import { bootstrapInterval, classNameRelevance, ndcgAtKs, NDCG_DEFAULT_KS } from '@xtrust/metrics';
import { defineScript, runScript, UsageError, type Options } from '../harness/options.js';
import { correctlyPredicted, GENRES, loadRun, renderRuns, runTable1, writeTable1Section } from './ndcg-transformer.js';
import { TABLE1_METHODS } from './ndcg-table1.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/reproductions/ndcg.js [options]',
  summary:
    'NDCG@k of LIME, KernelSHAP and omission against the class name on Brown genres (003 Figs. 2–3); with --model, 003 Table 1 on a Brown-genre transformer (attention, LIME, KernelSHAP, omission, gradients), resumable; --from renders stored runs.',
  options: {
    texts: { kind: 'integer', min: 1, default: 200, help: 'correctly predicted passages explained (built-in model)' },
    samples: { kind: 'integer', min: 2, default: 5000, help: 'LIME and KernelSHAP samples (built-in model)' },
    words: { kind: 'integer', min: 1, default: 60, help: 'passages cut to their first N words (built-in model)' },
    seed: { kind: 'integer', default: 1, help: 'split, sample and explainer seed' },
    'skip-bow': { kind: 'flag', help: 'skip the built-in bag-of-words table (run only the transformer with --model)' },
    model: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'a Brown-genre transformer in Hugging Face layout (e.g. models/transformers/fixtures/tiny-bert-brown), or a built-in kind (bow-logistic) trained on the kit split',
    },
    'model-texts': {
      kind: 'integer',
      min: 1,
      default: 100,
      help: "passages of the kit's held-out split explained (transformer)",
    },
    'model-samples': { kind: 'integer', min: 2, default: 1000, help: 'LIME and KernelSHAP samples (transformer)' },
    'model-words': {
      kind: 'integer',
      min: 1,
      default: 40,
      help: "passages cut to their first N words (transformer: fits the model's positions)",
    },
    'model-threads': { kind: 'integer', min: 1, default: 2, help: 'onnxruntime threads (transformer)' },
    methods: {
      kind: 'list',
      default: [...TABLE1_METHODS],
      choices: TABLE1_METHODS,
      help: 'explainers of the transformer table',
    },
    'ig-steps': { kind: 'integer', min: 1, default: 50, help: 'integrated-gradients steps (Gauss–Legendre)' },
    store: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'run folder of the transformer run (resumed from); default apps/bench/results/ndcg-runs/<model>-w<words>-s<samples>-n<texts>-seed<seed>',
    },
    from: {
      kind: 'list',
      placeholder: 'RUN,…',
      help: 'stored run folders: print their tables (first = main) without explaining',
    },
    'write-section': {
      kind: 'flag',
      help: "with --from: store the tables as BENCHMARKS.md's ndcg-transformer section and re-render the pages",
    },
  },
});

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  const from = o.from ?? [];
  if (o['write-section'] && from.length === 0)
    throw new UsageError('--write-section goes with --from RUN[,RUN…] (it writes the section of stored runs)');
  if (from.length > 0) {
    if (o.model) throw new UsageError('--from renders stored runs; it does not go with --model');
    if (o['write-section']) await writeTable1Section(from);
    else console.log((await renderRuns(await Promise.all(from.map((d) => loadRun(d))))).md);
    return;
  }
  if (o['skip-bow'] && !o.model) throw new UsageError('--skip-bow leaves nothing to run without --model');
  if (!o['skip-bow']) await bowTable(o);
  if (o.model) {
    const dir = await runTable1({
      folder: o.model,
      texts: o['model-texts'],
      samples: o['model-samples'],
      words: o['model-words'],
      seed: o.seed,
      igSteps: o['ig-steps'],
      methods: o.methods ?? [...TABLE1_METHODS],
      threads: o['model-threads'],
      store: o.store,
      argv: process.argv.slice(2),
    });
    console.log(
      `\nTransformer (003 Table 1: NDCG@10 attention 0.93 > LIME 0.77 > SHAP 0.74 in the paper's one worked example):\n`,
    );
    console.log((await renderRuns([await loadRun(dir)])).md);
  }
}

/** The bag-of-words table (003 Figs. 2–3 on Brown with a built-in model). */
async function bowTable(o: Options<typeof SPEC.options>): Promise<void> {
  const N = o.texts;
  const SAMPLES = o.samples;
  const WORDS = o.words;
  const SEED = o.seed;
  const rows = loadBrown({ tags: false })
    .rows.filter((r) => GENRES.includes(r.label))
    .map((r) => ({ text: firstWords(r.text, WORDS), label: r.label }));
  const split = stratifiedSplit(rows, { testFraction: 0.3, seed: SEED });
  const model: Classifier = await trainClassifier('bow-logistic', split.train, { seed: SEED });
  const acc = await evaluateAccuracy(model, split.test);
  log(
    `Brown ${GENRES.join(', ')}: ${split.train.length} train / ${split.test.length} test passages (first ${WORDS} words), bow-logistic accuracy ${acc.accuracy.toFixed(3)}`,
  );
  // correctly predicted test passages: the class name is then also the true genre
  const correct = await correctlyPredicted(model, split.test);
  const texts = sample(correct, Math.min(N, correct.length), SEED);
  const glove = await GloveEmbedding.load();
  const methods: [string, Explainer | null][] = [
    [
      `LIME (${SAMPLES} samples)`,
      new LimeExplainer({ numSamples: SAMPLES, numFeatures: 10, seed: SEED }) as unknown as Explainer,
    ],
    [
      `KernelSHAP (${SAMPLES} samples)`,
      new KernelShapExplainer({ numSamples: SAMPLES, seed: SEED }) as unknown as Explainer,
    ],
    ['omission', new OmissionExplainer() as unknown as Explainer],
    ['random ranking (floor)', null],
  ];
  const rows2 = await ndcgRows(model, texts, methods, glove, SEED);
  console.log(
    `${texts.length} correctly predicted Brown passages (${GENRES.join(', ')}; first ${WORDS} words), built-in bow-logistic (test accuracy ${acc.accuracy.toFixed(3)}); relevance = GloVe cosine with the genre name, negatives clipped to 0; words ranked by weight towards the predicted genre; mean NDCG@k.\n`,
  );
  console.log(`| explainer | ${NDCG_DEFAULT_KS.map((x) => `NDCG@${x}`).join(' | ')} | NDCG@10 95 % CI | seconds |`);
  console.log(`| --- | ${NDCG_DEFAULT_KS.map(() => '---').join(' | ')} | --- | --- |`);
  for (const r of rows2) console.log(r);
}

/** Mean NDCG@k rows (plain and "_unique") of each method over `texts`; `null` = seeded random ranking. */
async function ndcgRows(
  model: Classifier,
  texts: readonly { text: string; label: string }[],
  methods: [string, Explainer | null][],
  glove: GloveEmbedding,
  SEED: number,
): Promise<string[]> {
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
      const exps: Explanation[] = await explainer.explain(
        model,
        texts.map((t) => t.text),
      );
      ranked = exps.map((e) => [...e.features].sort((a, b) => b.weight - a.weight).map((f) => f.word.toLowerCase()));
    } else {
      const r = rng(SEED);
      ranked = textWords.map((ws) => r.shuffle([...new Set(ws)]));
    }
    const secs = (performance.now() - t0) / 1000;
    for (const unique of [false, true]) {
      const sums = new Map<number, number>(NDCG_DEFAULT_KS.map((x) => [x, 0]));
      const at10 = new Float64Array(texts.length);
      texts.forEach((t, i) => {
        const rel = relevance.get(t.label)!;
        const list = ranked[i].filter((w) => rel.has(w));
        const s = ndcgAtKs(list, textWords[i], rel, NDCG_DEFAULT_KS, { unique });
        for (const x of NDCG_DEFAULT_KS) sums.set(x, sums.get(x)! + s[x]);
        at10[i] = s[10];
      });
      // percentile bootstrap over the passages (1,000 resamples, seeded): the spread a different sample of passages would give
      const ci = bootstrapInterval(texts.length, (idx) => idx.reduce((a, j) => a + at10[j], 0) / idx.length, {
        seed: SEED,
      });
      rows2.push(
        `| ${name}${unique ? ' — unique' : ''} | ${NDCG_DEFAULT_KS.map((x) => (sums.get(x)! / texts.length).toFixed(3)).join(' | ')} | ${ci.lo.toFixed(3)}–${ci.hi.toFixed(3)} | ${unique ? '' : secs.toFixed(1)} |`,
      );
    }
    log(`${name}: ${secs.toFixed(1)} s`);
  }
  return rows2;
}

void runScript(SPEC, main);
