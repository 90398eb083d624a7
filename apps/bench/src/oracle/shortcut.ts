/**
 * TOKI vs Naive vs TOKI(–K.I) on shortcut benchmarks with known ground truth (issue 6, §6 of the TOKI
 * paper, 000_6d314fe57d39eb4c.txt). For each case: split a corpus, plant a class-unrelated trigger word
 * in a share of one class's training texts (or keep SpamAssassin's headers, a natural shortcut), train
 * a built-in model, derive ground-truth trustworthiness of its correct test predictions by removal
 * (@xtrust/datasets buildShortcutBenchmark), then run the oracles and print Table 3.
 *
 *   pnpm turbo run build --filter=@xtrust/bench && node apps/bench/dist/oracle/shortcut.js [options]
 *
 * Options (defaults reproduce packages/oracle/README.md):
 *   --cases brown,spam,headers  --explainers lime,omis,grad  --embeddings glove,cf,use
 *   --models bow-logistic,bow-mlp  --train 2000 (texts sampled for keyword identification)
 *   --test 1000 (test rows)  --samples 5000 (LIME)  --words 40  --share 1.0  --seed 1
 *   --out results.json  --no-sweep
 */
import { writeFile } from 'node:fs/promises';
import { wordnet, GloveEmbedding, CounterFittedEmbedding, UseEmbedding } from '@xtrust/embeddings';
import { LimeExplainer, OmissionExplainer, GradientExplainer } from '@xtrust/explainers';
import { loadBrown, loadSpamAssassin, shortcutSplit, stratifiedSplit, buildShortcutBenchmark, sample, type Dataset, type Row } from '@xtrust/datasets';
import { trainClassifier, evaluateAccuracy, type BuiltinKind } from '@xtrust/models';
import { backendInfo } from '@xtrust/native';
import { tokenize, type WordEmbedding, type Explainer } from '@xtrust/core';
import {
  calibrateThetaRelate,
  compareOracles,
  formatConfidenceDistribution,
  formatSweep,
  type CompareOraclesResult,
  type ExplainerEntry,
} from '@xtrust/oracle';

interface Args {
  cases: string[];
  explainers: string[];
  embeddings: string[];
  train: number;
  test: number;
  samples: number;
  models: BuiltinKind[];
  seed: number;
  out?: string;
  sweep: boolean;
  /** Texts cut to their first N words (0: whole texts) — short texts make the planted shortcut decisive more often. */
  words: number;
  /** Share of the target class's training texts that get the trigger. */
  share: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { cases: ['brown', 'spam', 'headers'], explainers: ['lime', 'omis', 'grad'], embeddings: ['glove', 'cf', 'use'], train: 2000, test: 1000, samples: 5000, models: ['bow-logistic', 'bow-mlp'], seed: 1, sweep: true, words: 40, share: 1.0 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${k} needs a value`);
      return x;
    };
    if (k === '--cases') a.cases = v().split(',');
    else if (k === '--explainers') a.explainers = v().split(',');
    else if (k === '--embeddings') a.embeddings = v().split(',');
    else if (k === '--train') a.train = Number(v());
    else if (k === '--test') a.test = Number(v());
    else if (k === '--samples') a.samples = Number(v());
    else if (k === '--model' || k === '--models') a.models = v().split(',') as BuiltinKind[];
    else if (k === '--seed') a.seed = Number(v());
    else if (k === '--out') a.out = v();
    else if (k === '--sweep') a.sweep = true;
    else if (k === '--no-sweep') a.sweep = false;
    else if (k === '--words') a.words = Number(v());
    else if (k === '--share') a.share = Number(v());
    else throw new Error(`unknown option ${k}`);
  }
  return a;
}

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/** A class-unrelated trigger: a concrete noun that none of the classes is about. */
const TRIGGER = 'cherry';

/** Brown genres used: five with names an embedding can relate words to. */
const BROWN_CLASSES = ['news', 'religion', 'hobbies', 'government', 'romance'];

interface CaseData {
  name: string;
  train: readonly Row<unknown>[];
  validation: readonly Row<unknown>[];
  test: readonly Row<unknown>[];
  mode: 'trigger' | 'headers';
  classNames?: Record<string, string>;
  note: string;
}

/** The text up to the end of its n-th word (core's tokenizer), or the whole text when shorter or n = 0. */
function firstWords(text: string, n: number): string {
  if (n <= 0) return text;
  const t = tokenize(text);
  return t.length <= n ? text : text.slice(0, t[n - 1].end);
}

function truncated<M>(ds: Dataset<M>, n: number): Dataset<M> {
  return { ...ds, rows: ds.rows.map((r) => ({ ...r, text: firstWords(r.text, n) })) };
}

function prepare(name: string, args: Args): CaseData {
  if (name === 'brown') {
    const all = loadBrown({ tags: false });
    const rows = all.rows.filter((r) => BROWN_CLASSES.includes(r.label));
    const ds: Dataset<unknown> = truncated({ ...all, rows }, args.words);
    const group = (r: Row<unknown>) => (r.meta as { document: string }).document;
    const s = shortcutSplit(ds, { trigger: TRIGGER, targetLabel: 'hobbies', trainShare: args.share, testShare: 0.5, testFraction: 0.3, validationFraction: 0.15, seed: args.seed, group });
    return { name: 'Brown genres + trigger', train: s.train.rows, validation: s.validation.rows, test: s.test.rows, mode: 'trigger', note: `first ${args.words} words; trigger "${TRIGGER}" in ${args.share * 100}% of hobbies training texts and 50% of its test texts; genres ${BROWN_CLASSES.join(', ')}` };
  }
  if (name === 'spam') {
    const ds = truncated(loadSpamAssassin({ headers: false }) as Dataset<unknown>, args.words);
    const s = shortcutSplit(ds, { trigger: TRIGGER, targetLabel: 'ham', trainShare: args.share, testShare: 0.5, testFraction: 0.3, validationFraction: 0.15, seed: args.seed });
    return { name: 'SpamAssassin (no headers) + trigger', train: s.train.rows, validation: s.validation.rows, test: s.test.rows, mode: 'trigger', classNames: { ham: 'legitimate' }, note: `first ${args.words} words of the body; trigger "${TRIGGER}" in ${args.share * 100}% of ham training texts and 50% of its test texts; ham stands for "legitimate"` };
  }
  if (name === 'headers') {
    // keep the whole header block, cut the body to its first N words (meta.bodyStart stays valid)
    const raw = loadSpamAssassin({ headers: true });
    const ds = {
      ...raw,
      rows: raw.rows.map((r) => ({ ...r, text: r.text.slice(0, r.meta!.bodyStart) + firstWords(r.text.slice(r.meta!.bodyStart), args.words) })),
    } as Dataset<unknown>;
    const s = stratifiedSplit(ds.rows, { testFraction: 0.3, validationFraction: 0.15, seed: args.seed });
    return { name: 'SpamAssassin with headers (natural shortcut)', train: s.train, validation: s.validation, test: s.test, mode: 'headers', classNames: { ham: 'legitimate' }, note: `headers kept, body cut to its first ${args.words} words; untrustworthy when removing the header block flips the prediction` };
  }
  throw new Error(`unknown case ${name}`);
}

async function loadEmbeddings(names: string[]): Promise<WordEmbedding[]> {
  const out: WordEmbedding[] = [];
  for (const n of names) {
    const t = performance.now();
    if (n === 'glove') out.push(await GloveEmbedding.load());
    else if (n === 'cf') out.push(await CounterFittedEmbedding.load());
    else if (n === 'use') out.push(await UseEmbedding.load());
    else throw new Error(`unknown embedding ${n}`);
    log(`embedding ${out[out.length - 1].name} ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return out;
}

function explainers(names: string[], samples: number, seed: number): ExplainerEntry[] {
  return names.map((n) => {
    let e: Explainer;
    if (n === 'lime') e = new LimeExplainer({ numSamples: samples, numFeatures: 10, seed }) as unknown as Explainer;
    else if (n === 'omis') e = new OmissionExplainer() as unknown as Explainer;
    else if (n === 'grad') e = new GradientExplainer() as unknown as Explainer;
    else throw new Error(`unknown explainer ${n}`);
    return { suffix: n, explainer: e };
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const info = backendInfo();
  log(`kernels: ${info.backend} (${info.threads} threads${info.simd ? `, ${info.simd}` : ''})`);
  const embeddings = await loadEmbeddings(args.embeddings);
  const thetaRelate: Record<string, number> = {};
  for (const e of embeddings) {
    const t = performance.now();
    const c = await calibrateThetaRelate(e, wordnet(), { seed: 0 });
    thetaRelate[e.name] = c.thetaRelate;
    log(
      `θ_relate(${e.name}) = ${c.thetaRelate.toFixed(4)} from ${c.relatedPairs} related + ${c.unrelatedPairs} random pairs (P/R related ${c.relatedPrecision.toFixed(3)}/${c.relatedRecall.toFixed(3)}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  const results: Record<string, unknown> = { args, thetaRelate, backend: info.backend };
  for (const name of args.cases) {
    const d = prepare(name, args);
    for (const kind of args.models) {
      log(`${d.name}: ${d.train.length} train / ${d.validation.length} validation / ${d.test.length} test rows; ${d.note}`);
      const t0 = performance.now();
      const model = await trainClassifier(kind, d.train.map((r) => ({ text: r.text, label: r.label })), { seed: args.seed });
      const acc = await evaluateAccuracy(model, d.test.map((r) => ({ text: r.text, label: r.label })));
      log(`trained ${kind} in ${((performance.now() - t0) / 1000).toFixed(1)} s; test accuracy ${acc.accuracy.toFixed(3)}`);
      const testRows = d.test.length > args.test ? sample(d.test, args.test, args.seed) : d.test;
      const bench = await buildShortcutBenchmark(model, testRows, { mode: d.mode, trigger: d.mode === 'trigger' ? TRIGGER : undefined });
      log(`ground truth: ${bench.counts.trustworthy} trustworthy, ${bench.counts.untrustworthy} untrustworthy, ${bench.counts.incorrect} incorrect, excluded ${JSON.stringify(bench.counts.ambiguous)}`);
      const asSet = (b: typeof bench) => ({ texts: b.cases.map((c) => c.text), labels: b.cases.map((c) => c.label), trustworthy: b.cases.map((c) => c.truth === 'trustworthy') });
      const test = asSet(bench);
      const validationRows = d.validation.length > args.test / 2 ? sample(d.validation, Math.floor(args.test / 2), args.seed) : d.validation;
      const vbench = await buildShortcutBenchmark(model, validationRows, { mode: d.mode, trigger: d.mode === 'trigger' ? TRIGGER : undefined });
      log(`validation ground truth: ${vbench.counts.trustworthy} trustworthy, ${vbench.counts.untrustworthy} untrustworthy`);
      const validation = vbench.counts.trustworthy > 0 && vbench.counts.untrustworthy > 0 ? asSet(vbench) : undefined;
      let lastLog = 0;
      const r: CompareOraclesResult = await compareOracles({
        dataset: `${d.name}, ${kind}`,
        classifier: model,
        train: { texts: d.train.map((x) => x.text), labels: d.train.map((x) => x.label) },
        test,
        validation,
        explainers: explainers(args.explainers, args.samples, args.seed),
        embeddings,
        thetaRelate,
        classNames: d.classNames,
        sampleSize: args.train,
        seed: args.seed,
        sweep: args.sweep ? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] : undefined,
        onProgress: (p) => {
          const now = performance.now();
          if (now - lastLog > 15000 || p.done === p.total) {
            lastLog = now;
            log(`  ${p.explainer} ${p.phase} ${p.done}/${p.total}`);
          }
        },
      });
      console.log(`\n${r.table}`);
      console.log(`Naive ROC AUC ${r.naiveAuc.toFixed(3)}; G-mean-optimal θ_conf ${r.thetaConfOptimal.thetaConf.toFixed(4)}`);
      console.log(`\nRQ1 — confidence by ground-truth label (${d.name})\n${formatConfidenceDistribution(r.confidence)}`);
      if (r.sweep) console.log(`\nRQ2.1 — θ_dist sweep, TOKI-${args.explainers[0]}\n${formatSweep(r.sweep)}`);
      for (const [suffix, store] of Object.entries(r.stores)) {
        for (const l of store.labels) {
          const methods = store.methods(l).map((m) => `${m.embedding}: ${m.relatedClusters}/${m.clusters} clusters related, ${m.keywords} kw, ${m.abstained} abstain`).join('; ');
          log(`  K[${suffix}][${l}] (${store.keywords(l).length}/${store.pool(l).length}): ${store.keywords(l).slice(0, 12).join(' ')}  [${methods}]`);
        }
        log(`  F[${suffix}] top: ${store.labels.map((l) => `${l}: ${store.nonKeywords(l).slice(0, 8).join(' ')}`).join(' | ')}`);
      }
      results[`${name}/${kind}`] = { name: d.name, model: kind, note: d.note, accuracy: acc.accuracy, counts: bench.counts, rows: r.rows, confidence: r.confidence, sweep: r.sweep, naiveAuc: r.naiveAuc, thetaConfOptimal: r.thetaConfOptimal };
    }
  }
  if (args.out) await writeFile(args.out, JSON.stringify(results, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
