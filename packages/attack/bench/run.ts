/**
 * @xtrust/attack benchmarks (issue 7): TOKI-guided vs A2T (000 §4, Table 4) on the bundled corpora, the
 * throughput of 1,000 A2T attacks, CEA vs TEF over a ρ_max grid (002 §5, Figures 2–3) and the base vs
 * synonymity-weighted success rates of the explanation-similarity attack (001 Table 3).
 *
 *   pnpm turbo run build --filter=@xtrust/attack... && npx tsc -p packages/attack/tsconfig.bench.json && node packages/attack/dist/bench/bench/run.js --task table4 [options]
 *
 * Tasks: table4 (default), throughput, cea, similarity.
 * Options: --cases spam,brown  --store-embedding cf|glove (TOKI's keyword identification)  --n 300 (attacked test instances)  --words 40 (texts cut to their first N words)
 *          --throughput 1000  --rho 0.05,0.1,0.15,0.2,0.3  --cea-n 40  --seed 1  --out runs/attack
 *          --mlm <fill-mask folder>  --causal-lm <GPT-2 folder>  (task cea: the model kit's masked LM and causal LM,
 *          e.g. models/transformers/fixtures/tiny-bert-mlm and tiny-gpt2, replace the CBOW stand-ins)
 * Runs write one JSONL file per (case, recipe) under --out and resume from it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CounterFittedEmbedding, GloveEmbedding, UseEmbedding, wordnet } from '@xtrust/embeddings';
import { GradientExplainer, OmissionExplainer } from '@xtrust/explainers';
import { loadBrown, loadSotu, loadSpamAssassin, sample, stratifiedSplit } from '@xtrust/datasets';
import { CausalLanguageModel, trainClassifier, evaluateAccuracy, type BuiltinClassifier } from '@xtrust/models';
import type { WordEmbedding } from '@xtrust/core';
import { calibrateThetaRelate, identifyKeywords, type KeywordStore } from '@xtrust/oracle';
import {
  HarperChecker,
  MeanVectorEncoder,
  WinkPosTagger,
  a2t,
  cea,
  explainWith,
  explanationSimilarity,
  formatRobustness,
  formatSimilarityTable,
  formatTable4,
  robustnessPoint,
  similaritySuccessTable,
  summarizeRun,
  table4,
  tef,
  tokiGuided,
  trainMaskedWordModel,
  CbowMaskedWordModel,
  HfMaskedWordModel,
  type AttackInput,
  type MaskedWordModel,
  type RobustnessPoint,
} from '../src/index.js';

interface Args {
  task: string;
  cases: string[];
  n: number;
  words: number;
  throughput: number;
  rho: number[];
  ceaN: number;
  seed: number;
  out: string;
  /** Embedding of TOKI's keyword identification: cf (default, the attack's own counter-fitted vectors) or glove. */
  storeEmbedding: string;
  /** Task cea: a fill-mask folder proposing CEA's words (default: a CBOW masked-word model trained here). */
  mlm?: string;
  /** Task cea: a causal LM folder for Δ_PP (default: CBOW pseudo-perplexity). */
  causalLm?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { task: 'table4', cases: ['spam', 'brown'], n: 300, words: 40, throughput: 1000, rho: [0.05, 0.1, 0.15, 0.2, 0.3], ceaN: 40, seed: 1, out: 'runs/attack', storeEmbedding: 'cf' };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, '');
    const v = argv[i + 1];
    if (k === 'task') a.task = v;
    else if (k === 'cases') a.cases = v.split(',');
    else if (k === 'n') a.n = Number(v);
    else if (k === 'words') a.words = Number(v);
    else if (k === 'throughput') a.throughput = Number(v);
    else if (k === 'rho') a.rho = v.split(',').map(Number);
    else if (k === 'cea-n') a.ceaN = Number(v);
    else if (k === 'seed') a.seed = Number(v);
    else if (k === 'out') a.out = v;
    else if (k === 'store-embedding') a.storeEmbedding = v;
    else if (k === 'mlm') a.mlm = v;
    else if (k === 'causal-lm') a.causalLm = v;
    else throw new Error(`unknown option --${k}`);
  }
  return a;
}

const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);
const firstWords = (t: string, n: number) => (n > 0 ? t.split(/\s+/).filter(Boolean).slice(0, n).join(' ') : t);
const BROWN_CLASSES = ['news', 'religion', 'hobbies', 'government', 'romance'];

interface Case {
  name: string;
  train: AttackInput[];
  test: AttackInput[];
  classNames?: Record<string, string>;
}

function loadCase(name: string, args: Args): Case {
  const cut = <R extends { text: string; label: string }>(rows: readonly R[]) => rows.map((r) => ({ text: firstWords(r.text, args.words), label: r.label }));
  if (name === 'spam') {
    const s = stratifiedSplit(cut(loadSpamAssassin({ headers: false }).rows), { testFraction: 0.3, seed: args.seed });
    return { name: 'SpamAssassin (body)', train: s.train, test: s.test, classNames: { ham: 'legitimate' } };
  }
  if (name === 'brown') {
    const rows = loadBrown({ tags: false }).rows.filter((r) => BROWN_CLASSES.includes(r.label));
    const s = stratifiedSplit(cut(rows), { testFraction: 0.3, seed: args.seed });
    return { name: `Brown (${BROWN_CLASSES.join(', ')})`, train: s.train, test: s.test };
  }
  throw new Error(`unknown case ${name}`);
}

async function trained(c: Case, args: Args): Promise<BuiltinClassifier> {
  const t = performance.now();
  const model = await trainClassifier('bow-logistic', c.train.map((r) => ({ text: r.text, label: r.label! })), { seed: args.seed });
  const acc = await evaluateAccuracy(model, c.test.map((r) => ({ text: r.text, label: r.label! })));
  log(`${c.name}: ${c.train.length} train / ${c.test.length} test; bow-logistic trained in ${((performance.now() - t) / 1000).toFixed(1)} s, test accuracy ${acc.accuracy.toFixed(3)}`);
  return model;
}

async function keywordStore(model: BuiltinClassifier, c: Case, embedding: WordEmbedding, args: Args): Promise<KeywordStore> {
  const t = performance.now();
  const theta = await calibrateThetaRelate(embedding, wordnet(), { seed: 0 });
  const store = await identifyKeywords(model, c.train.map((r) => r.text), c.train.map((r) => r.label!), {
    explainer: new OmissionExplainer() as never,
    embeddings: [embedding],
    thetaRelate: theta.thetaRelate,
    sampleSize: 2000,
    classNames: c.classNames,
    seed: args.seed,
  });
  log(`keyword store (omission, ${embedding.name}, θ_relate ${theta.thetaRelate.toFixed(3)}) in ${((performance.now() - t) / 1000).toFixed(1)} s: ${store.labels.map((l) => `${l} ${store.keywords(l).length}/${store.pool(l).length} [${store.keywords(l).slice(0, 6).join(' ')}]`).join('; ')}`);
  return store;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  mkdirSync(args.out, { recursive: true });
  const cf = await CounterFittedEmbedding.load();
  const meanCf = new MeanVectorEncoder(cf);
  const posTagger = WinkPosTagger.load();
  for (const name of args.cases) {
    const c = loadCase(name, args);
    const model = await trained(c, args);
    const test = sample(c.test as { text: string; label: string }[], Math.min(c.test.length, Math.max(args.n, args.task === 'throughput' ? args.throughput : 0)), args.seed);
    const progress = (tag: string) => (r: { status: string }, done: number, total: number) => {
      if (done % 100 === 0 || done === total) log(`  ${tag} ${done}/${total}`);
    };
    if (args.task === 'table4') {
      const store = await keywordStore(model, c, args.storeEmbedding === 'cf' ? cf : await GloveEmbedding.load(), args);
      const inputs = test.slice(0, args.n);
      const runs = [];
      for (const [method, attack] of [
        ['TOKI-guided', tokiGuided(model, { store, embedding: cf, encoder: meanCf, posTagger })],
        ['A2T', a2t(model, { embedding: cf, encoder: meanCf, posTagger })],
      ] as const) {
        const t = performance.now();
        const run = await attack.run(inputs, { output: join(args.out, `${name}-${attack.name}.jsonl`), seed: args.seed, onRecord: progress(method) });
        log(`${method}: ${JSON.stringify(summarizeRun(run.records))} (${run.resumed} resumed) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
        runs.push({ method, records: run.records });
      }
      const use = await UseEmbedding.load();
      console.log(`\n${formatTable4(await table4(runs, [use, meanCf]), `Table 4 — ${c.name}, ${inputs.length} test instances (first ${args.words} words), bow-logistic; constraint encoder ${meanCf.name} ≥ 0.9`)}\n`);
    } else if (args.task === 'throughput') {
      const inputs = test.slice(0, args.throughput);
      const attack = a2t(model, { embedding: cf, encoder: meanCf, posTagger });
      const t = performance.now();
      const run = await attack.run(inputs, { seed: args.seed, onRecord: progress('A2T') });
      const s = summarizeRun(run.records);
      const secs = (performance.now() - t) / 1000;
      console.log(`\nA2T throughput — ${c.name}: ${inputs.length} instances in ${secs.toFixed(1)} s (${(inputs.length / secs).toFixed(1)}/s); attacked ${s.attacked}, success rate ${s.successRate?.toFixed(3)}, avg NP ${s.averagePerturbedWords?.toFixed(2)}, avg queries ${s.averageQueries?.toFixed(0)}\n`);
    } else if (args.task === 'cea') {
      const explain = explainWith(new GradientExplainer());
      const glove = await GloveEmbedding.load();
      const ctx = { embedding: cf, encoder: new MeanVectorEncoder(glove) };
      const inputs = test.slice(0, args.ceaN);
      const use = await UseEmbedding.load();
      const checker = await HarperChecker.load();
      // a real masked-word model, trained here: CBOW on the case's training texts and the whole Brown corpus
      // (exported in fill-mask layout under --out and loaded from there through @huggingface/transformers next time)
      const t0 = performance.now();
      const mlmDir = join(args.out, `cbow-mlm-${name}-seed${args.seed}`);
      let mlm: MaskedWordModel;
      if (args.mlm) {
        mlm = await HfMaskedWordModel.load(args.mlm);
        log(`masked LM ${args.mlm} loaded through @huggingface/transformers`);
      } else if (existsSync(join(mlmDir, 'onnx', 'model.onnx'))) {
        mlm = await HfMaskedWordModel.load(mlmDir);
        log(`masked-word model loaded from ${mlmDir} through @huggingface/transformers`);
      } else {
        const mlmTexts = [...c.train.map((r) => r.text), ...loadBrown({ tags: false }).rows.map((r) => r.text)];
        const trained = trainMaskedWordModel(mlmTexts, { seed: args.seed, corpus: `${c.name} training texts + Brown` });
        await trained.exportFillMask(mlmDir);
        mlm = trained;
        log(`${trained.name} trained on ${mlmTexts.length} texts in ${((performance.now() - t0) / 1000).toFixed(1)} s, exported to ${mlmDir}`);
      }
      // an independent fluency scorer for Δ_PP: a second CBOW model on other text (Brown + State of the Union, another seed)
      const t1 = performance.now();
      const scorerDir = join(args.out, `cbow-pppl-brown-sotu-seed${args.seed + 1}`);
      let perplexity: (texts: readonly string[]) => Promise<ArrayLike<number>>;
      let ppSource: string;
      if (args.causalLm) {
        const lm = await CausalLanguageModel.load(args.causalLm);
        perplexity = (texts) => lm.perplexity(texts);
        ppSource = `causal-LM perplexity (${args.causalLm})`;
      } else {
        let scorer: CbowMaskedWordModel;
        if (existsSync(join(scorerDir, 'cbow.json'))) scorer = await CbowMaskedWordModel.load(scorerDir);
        else {
          scorer = trainMaskedWordModel([...loadBrown({ tags: false }).rows.map((r) => r.text), ...loadSotu().rows.map((r) => r.text)], { seed: args.seed + 1, corpus: 'Brown + SotU' });
          await scorer.save(scorerDir);
        }
        perplexity = (texts) => scorer.pseudoPerplexity(texts);
        ppSource = 'CBOW pseudo-perplexity (Brown + SotU), not GPT-2';
      }
      log(`perplexity scorer (${ppSource}) ready in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
      const points: RobustnessPoint[] = [];
      for (const rho of args.rho) {
        for (const attack of [cea(model, { explain, mlm, rhoMax: rho }), cea(model, { explain, context: ctx, rhoMax: rho }), tef(model, { explain, embedding: cf, rhoMax: rho })]) {
          const run = await attack.run(inputs, { output: join(args.out, `${name}-${attack.name}-rho${rho}.jsonl`), seed: args.seed });
          points.push(await robustnessPoint(attack.name, rho, run.records, { encoders: [use], checker, perplexity }));
          log(`${attack.name} ρ_max ${rho}: ${JSON.stringify(summarizeRun(run.records))}`);
        }
      }
      console.log(`\nCEA (cea: ${args.mlm ? `masked LM ${args.mlm}` : 'CBOW masked-word model trained here'}; cea-context: context-aware substitute, no MLM) vs TEF — ${c.name}, ${inputs.length} instances, gradient saliency, bow-logistic; Δ_PP from ${ppSource}\n${formatRobustness(points)}\n`);
    } else if (args.task === 'similarity') {
      const explain = explainWith(new OmissionExplainer());
      const glove = await GloveEmbedding.load();
      const inputs = test.slice(0, args.n);
      const attack = explanationSimilarity(model, { explain, embedding: cf, measure: 'rbo0.5', tau: 0.5, k: 10 });
      const run = await attack.run(inputs, { output: join(args.out, `${name}-xaifooler.jsonl`), seed: args.seed, onRecord: progress('xaifooler') });
      log(`xaifooler: ${JSON.stringify(summarizeRun(run.records))}`);
      const unit = glove.unitMatrix();
      const dim = glove.dim;
      // Syn in the interval form of 001 §4: GloVe cosine clipped to [0, 1], 1 for identical words
      const syn = (a: string, b: string) => {
        if (a === b) return 1;
        const i = glove.indexOf(a);
        const j = glove.indexOf(b);
        if (i < 0 || j < 0) return 0;
        let s = 0;
        for (let d = 0; d < dim; d++) s += unit[i * dim + d] * unit[j * dim + d];
        return Math.max(0, Math.min(1, s));
      };
      console.log(`\nTable 3 — explanation-similarity attack (guided by RBO p=0.5, k=10, omission), ${c.name}; Syn = GloVe cosine (interval form)\n${formatSimilarityTable(similaritySuccessTable(run.records, syn, { k: 10 }))}\n`);
    } else throw new Error(`unknown task ${args.task}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
