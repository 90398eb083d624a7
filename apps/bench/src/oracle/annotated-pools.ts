/**
 * Annotated pools (issue 47, deliverable 2): the keyword step judged on the words it actually judges.
 *
 * For each unplanted model (bow-logistic on SpamAssassin bodies, SpamAssassin with headers, SOTU, Brown;
 * the full-size kit BERTs on SpamAssassin bodies and Brown),
 * the 100 most important words of each class's pool W_c (Eq. 2 of "Trustworthiness oracle for text
 * classifiers" — the TOKI paper: decision-contributing words of the explanations of correctly predicted
 * training texts, by averaged importance s̄_w; function words dropped, as the rubric says), labelled by a
 * person per `relatedness-rubric.md` *before* any oracle relatedness ran on them.
 *
 *   node apps/bench/dist/oracle/annotated-pools.js --dump DIR     # write the unlabelled pools (no relatedness step)
 *   node apps/bench/dist/oracle/annotated-pools.js --dump DIR --model kit-bert --threads 1 --corpus spam
 *        # a full-size kit BERT's pool (kit-bert-pools.ts: its own training texts, int8+adaptive LIME, cached)
 *   node apps/bench/dist/oracle/annotated-pools.js [--oracle toki] [--out FILE]
 *        # the keyword step's precision and recall of "related" on the labelled pools, and each pool's share related
 *   node apps/bench/dist/oracle/annotated-pools.js --from FILE    # the table of a results file
 *
 * The scoring run rebuilds each file's model and pool from its recorded settings (same split, seed, sample
 * and explainer: the pool is the one labelled) and runs the configuration's whole keyword identification.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argmaxRow, rng, type Classifier } from '@xtrust/core';
import { stratifiedSplit, wordWindows, type Row } from '@xtrust/datasets';
import { trainClassifier } from '@xtrust/models';
import {
  explainTolerant,
  identifyKeywords,
  isFunctionWord,
  predictAll,
  WordPools,
  type KeywordStore,
} from '@xtrust/oracle';
import { CLASS_DESCRIPTIONS, CLASS_NAMES, type CorpusName } from './family.js';
import { cutBodies, loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';
import { KIT_BERT } from './kit-bert.js';
import {
  cutToSeen,
  KIT_POOL_LIME,
  KIT_POOL_MODELS,
  kitDataFile,
  kitPoolCache,
  kitPoolExplainer,
  kitPoolModel,
  kitTrainingTexts,
  type KitPoolCorpus,
} from './kit-bert-pools.js';
import { candidateOracle, describedLabels, embedding, setupModifiers, thetaRelateOf } from './oracle-setups.js';
import {
  ANNOTATED_POOLS_DIR,
  labelCounts,
  loadAnnotatedPools,
  scoreRelated,
  type LabelledWord,
  type PoolLabel,
} from './annotated-pool-labels.js';
import { defineScript, machineInfo, readJson, runScript, writeJsonAtomic, type Options } from '../harness/index.js';

/** The unplanted models whose pools are labelled: one per corpus. */
export const POOL_CORPORA = ['spam', 'headers', 'sotu', 'brown', 'brown-other'] as const;
export type PoolCorpus = (typeof POOL_CORPORA)[number];

/**
 * The validation pool (`--split validation`): bow-logistic on five Brown genres the test pools do not use,
 * labelled by the same rubric, so that a change to the keyword step is chosen on pools that are not the
 * ones it is judged on.
 */
export const BROWN_OTHER_GENRES = ['editorial', 'reviews', 'learned', 'mystery', 'adventure'] as const;

/** The corpus of family.ts a pool corpus is drawn from (its class names and descriptions). */
export const baseCorpus = (corpus: PoolCorpus): CorpusName => (corpus === 'brown-other' ? 'brown' : corpus);

/** The split a pool corpus belongs to: the section's test pools, or the validation pool. */
export const poolSplit = (corpus: PoolCorpus): 'test' | 'validation' =>
  corpus === 'brown-other' ? 'validation' : 'test';

/** How a pool's words were taken (recorded in every file, so the pool can be rebuilt). */
export interface PoolSettings {
  readonly corpus: PoolCorpus;
  readonly model: string;
  /** Window length in words; 0: whole texts (the kit BERTs': cut only at the model's position limit). */
  readonly words: number;
  readonly seed: number;
  readonly train: number;
  readonly samples: number;
  readonly topK: number;
  readonly perClass: number;
  /** kit-bert only: the classifier folder, the training texts' file and its digest, the LIME mode. */
  readonly modelDir?: string;
  readonly data?: string;
  readonly dataSha256?: string;
  readonly lime?: string;
}

/** The models whose pools are labelled: bow-logistic trained here, and the kit's full-size BERTs. */
export const POOL_MODELS = ['bow-logistic', KIT_BERT] as const;
export type PoolModel = (typeof POOL_MODELS)[number];

/** The kit BERTs' keyword texts: as many as the transformer audits take (`--train-sample 200`). */
export const KIT_POOL_SETTINGS = { words: 0, seed: 1, train: 200, samples: 5000, topK: 10, perClass: 100 };

export const DEFAULT_POOL_SETTINGS = { words: 60, seed: 1, train: 2000, samples: 5000, topK: 10, perClass: 100 };

/** A corpus in 60-word windows (headers: the header block and the first 60 words of the body), split 70/30 by source. */
export function poolCorpusSplit(corpus: PoolCorpus, words: number, seed: number) {
  const c = loadCorpus(
    corpus === 'brown-other' ? { corpus: 'brown', classes: BROWN_OTHER_GENRES } : { corpus: baseCorpus(corpus) },
  );
  const rows: Row<unknown>[] = corpus === 'headers' ? cutBodies(c.rows, words) : wordWindows(c.rows, words, 3);
  const split = stratifiedSplit(rows, { testFraction: 0.3, seed, group: c.group });
  const plain = (rs: readonly { text: string; label: string }[]) => rs.map((r) => ({ text: r.text, label: r.label }));
  return { labels: c.labels, train: plain(split.train), test: plain(split.test) };
}

/**
 * The pools W_c as identifyKeywords builds them (same seeded sample of `train` training texts, correct
 * predictions only, LIME explanations, top-K positive words per explanation), without the relatedness step.
 * `explainer` (default: LIME at `samples`) is asked for `chunk` texts at a time, `afterChunk` called after
 * each: a long pass (a BERT's) saves its cache as it goes.
 */
export async function buildPools(
  model: Classifier,
  train: readonly { text: string; label: string }[],
  s: Pick<PoolSettings, 'seed' | 'train' | 'samples' | 'topK'>,
  {
    explainer,
    afterChunk,
    chunk = Number.POSITIVE_INFINITY,
  }: {
    explainer?: CachedExplainer;
    afterChunk?: (done: number, of: number) => void;
    chunk?: number;
  } = {},
): Promise<WordPools> {
  const n = train.length;
  const picked = Array.from(rng(s.seed).sampleIndices(n, Math.min(s.train, n))).sort((a, b) => a - b);
  const probs = await predictAll(
    model,
    picked.map((i) => train[i].text),
  );
  const k = model.labels.length;
  const correct = picked.filter((row, j) => model.labels[argmaxRow(probs, j, k)] === train[row].label);
  let cached = explainer;
  if (!cached) {
    const { explainer: lime, params } = makeExplainer('lime', s.samples, s.seed);
    cached = new CachedExplainer(lime, `pools|${params}`);
  }
  const pools = new WordPools(model.labels);
  for (let start = 0; start < correct.length; start += chunk) {
    const rows = correct.slice(start, start + chunk);
    const tolerant = await explainTolerant(
      cached,
      model,
      rows.map((i) => train[i].text),
      rows.map((i) => `train:${i}`),
    );
    rows.forEach((row, j) => {
      const e = tolerant.explanations[j];
      if (e) pools.add(train[row].label, e, s.topK);
    });
    afterChunk?.(start + rows.length, correct.length);
  }
  return pools;
}

/** A class's first `perClass` pool words that are not function words, in pool order. */
export function topPoolWords(pools: WordPools, label: string, perClass: number) {
  return pools
    .pool(label)
    .filter((w) => !isFunctionWord(w.word))
    .slice(0, perClass);
}

/** The words of each class's pool as a file writes them (pool order, importance rounded). */
function poolWords(pools: WordPools, labels: readonly string[], perClass: number) {
  const classes: Record<string, { word: string; importance: number; count: number }[]> = {};
  for (const l of labels)
    classes[l] = topPoolWords(pools, l, perClass).map((w) => ({
      word: w.word,
      importance: Number(w.importance.toFixed(5)),
      count: w.count,
    }));
  return classes;
}

/** A kit BERT's keyword texts (cut to what it sees), its model and its cached explainer. */
async function kitPoolSetup(corpus: KitPoolCorpus, threads: number, samples: number, seed: number) {
  const model = await kitPoolModel(corpus, threads);
  const { rows, sha256 } = kitTrainingTexts(corpus);
  const train = rows.map((r) => ({ text: cutToSeen(model, r.text), label: r.label }));
  const { explainer: lime, params } = kitPoolExplainer(samples, seed);
  const explainer = new CachedExplainer(lime, `pools|${KIT_POOL_MODELS[corpus]}|${sha256}|${params}`);
  const cacheFile = kitPoolCache(corpus);
  const loaded = explainer.load(cacheFile);
  return { model, train, sha256, explainer, cacheFile, loaded };
}

/** The settings a pool of `model` on `corpus` is dumped with (a kit BERT's data digest is filled in by poolSource). */
function dumpSettings(model: PoolModel, corpus: PoolCorpus): PoolSettings {
  return model === KIT_BERT
    ? {
        corpus,
        model,
        ...KIT_POOL_SETTINGS,
        modelDir: KIT_POOL_MODELS[corpus as KitPoolCorpus],
        data: kitDataFile(corpus as KitPoolCorpus),
        lime: KIT_POOL_LIME,
      }
    : { corpus, model, ...DEFAULT_POOL_SETTINGS };
}

/**
 * Writes each corpus's unlabelled pool (no relatedness step) as `<model>-<corpus>.json`. A kit BERT's texts are
 * explained 10 at a time, its explanation cache saved after each chunk, so a long pass resumes.
 */
async function dump(dir: string, model: PoolModel, corpora: readonly PoolCorpus[], threads: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const corpus of corpora) {
    const t0 = performance.now();
    const seconds = () => ((performance.now() - t0) / 1000).toFixed(0);
    const src = await poolSource(dumpSettings(model, corpus), threads);
    const kit = model === KIT_BERT;
    const pools = await buildPools(src.model, src.train, src.settings, {
      explainer: src.explainer,
      ...(kit ? { chunk: 10 } : {}),
      afterChunk: (done, of) => {
        src.save();
        if (kit) console.log(`${corpus}: ${done} of ${of} correct texts explained (${seconds()} s)`);
      },
    });
    const classes = poolWords(pools, src.labels, src.settings.perClass);
    writeFileSync(
      join(dir, `${model}-${corpus}.json`),
      `${JSON.stringify({ settings: src.settings, classNames: CLASS_NAMES[baseCorpus(corpus)], classes }, null, 1)}\n`,
    );
    console.log(`${corpus}: ${src.labels.join(', ')} in ${seconds()} s`);
  }
}

/** One class's figures: the keyword step's verdict on the labelled words, and the share of the pool called related. */
export interface ClassFigures {
  readonly label: string;
  readonly labels: Record<PoolLabel, number>;
  /** Labelled words no longer in the rebuilt pool (a different pool): not judged. */
  readonly missing: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly precision: number;
  readonly recall: number;
  /** Keywords / pool words, over the whole pool. */
  readonly poolShare: number;
  readonly pool: number;
  /** Keywords among the labelled (top-100) words. */
  readonly topShare: number;
  readonly falsePositives: readonly string[];
  readonly misses: readonly string[];
  /**
   * Which signal made the words called related related, for the true and the false ones: the meaning test's
   * `topic`, `corpus-neighbours` or both together (`topic-and-neighbours`, MeaningSettings.joint), else the
   * cluster rule (`cluster-related`); absent in older results.
   */
  readonly relatedBy?: { readonly tp: Readonly<Record<string, number>>; readonly fp: Readonly<Record<string, number>> };
}

/** `topic 3, corpus-neighbours 5` from counts by signal; — when none. */
function bySignal(counts: Readonly<Record<string, number>> | undefined): string {
  const parts = Object.entries(counts ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${SIGNAL_NAMES[k] ?? k} ${n}`);
  return parts.join(', ') || '—';
}

const SIGNAL_NAMES: Readonly<Record<string, string>> = {
  topic: 'topic',
  'corpus-neighbours': 'neighbours',
  'topic-and-neighbours': 'both',
  'cluster-related': 'cluster',
};

export interface PoolFigures {
  readonly file: string;
  readonly corpus: string;
  readonly model: string;
  readonly oracle: string;
  readonly seconds: number;
  readonly classes: readonly ClassFigures[];
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/** The Markdown table of a run: per model, class and configuration. */
export function figuresMarkdown(rows: readonly PoolFigures[]): string {
  const lines = [
    '| model / corpus | oracle | class | related / unrelated / unsure (of 100) | precision of related | recall of related | keywords among the 100 | share of the whole pool called related | related words called unrelated | unrelated words called related (first 8) | what related them: right / wrong |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |',
  ];
  for (const r of rows)
    for (const c of r.classes)
      lines.push(
        `| ${r.model} / ${r.corpus} | ${r.oracle} | ${c.label} | ${c.labels.related} / ${c.labels.unrelated} / ${c.labels.unsure} | ${f3(c.precision)} (${c.tp}/${c.tp + c.fp}) | ${f3(c.recall)} (${c.tp}/${c.tp + c.fn}) | ${(100 * c.topShare).toFixed(0)} % | ${(100 * c.poolShare).toFixed(0)} % of ${c.pool} | ${c.misses.join(', ') || '—'} | ${c.falsePositives.slice(0, 8).join(', ') || '—'} | ${c.relatedBy ? `${bySignal(c.relatedBy.tp)} / ${bySignal(c.relatedBy.fp)}` : '—'} |`,
      );
  return lines.join('\n');
}

/**
 * Per model and configuration, over its scorable classes: how many meet precision and recall ≥ 0.8, the mean
 * precision (over classes the step called any word related in), recall and F1 (an undefined precision counts
 * 0 in F1), and the range of pool shares called related — the figures the validation choice reads.
 */
export function summaryMarkdown(rows: readonly PoolFigures[]): string {
  const groups = new Map<string, ClassFigures[]>();
  for (const r of rows) {
    const key = `${r.model} | ${r.oracle}`;
    groups.set(key, [...(groups.get(key) ?? []), ...r.classes]);
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  const lines = [
    '| model | oracle | scorable classes | classes at precision and recall ≥ 0.8 | mean precision | mean recall | mean F1 | share of each pool called related |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const [key, classes] of groups) {
    const scorable = classes.filter((c) => Number.isFinite(c.recall));
    const p0 = (c: ClassFigures) => (Number.isFinite(c.precision) ? c.precision : 0);
    const f1 = scorable.map((c) => (p0(c) + c.recall > 0 ? (2 * p0(c) * c.recall) / (p0(c) + c.recall) : 0));
    const met = scorable.filter((c) => p0(c) >= 0.8 && c.recall >= 0.8).length;
    const shares = classes.map((c) => 100 * c.poolShare);
    lines.push(
      `| ${key} | ${scorable.length} | ${met} | ${f3(mean(scorable.filter((c) => Number.isFinite(c.precision)).map((c) => c.precision)))} | ${f3(mean(scorable.map((c) => c.recall)))} | ${f3(mean(f1))} | ${Math.min(...shares).toFixed(0)}–${Math.max(...shares).toFixed(0)} % |`,
    );
  }
  return lines.join('\n');
}

/** Rebuilds each labelled pool's model and runs keyword identification with the configuration; scores it on the labels. */
/**
 * Per signal, how many of the labelled words the store calls related (keywords) are related by the rubric
 * (tp) and how many are not (fp): the ballot's `because` of the first method that voted the word related.
 */
function relatedBy(store: KeywordStore, label: string, words: readonly LabelledWord[]) {
  const tp: Record<string, number> = {};
  const fp: Record<string, number> = {};
  for (const w of words) {
    if (w.label === 'unsure' || !store.hasPool(label) || !store.isKeyword(label, w.word)) continue;
    const because = store.why(label, w.word)?.members.find((m) => m.related)?.because ?? 'unknown';
    const into = w.label === 'related' ? tp : fp;
    into[because] = (into[because] ?? 0) + 1;
  }
  return { tp, fp };
}

/**
 * The model, training texts and explainer a pool is taken with: bow-logistic trained on the split, or the kit
 * BERT on its own training file — which, for labels already written (`dataSha256` given), must be the file they
 * were taken from. `settings` is `s` with the kit's data digest filled in.
 */
async function poolSource(s: PoolSettings, threads: number) {
  const corpus = s.corpus;
  if (s.model === KIT_BERT) {
    const k = await kitPoolSetup(corpus as KitPoolCorpus, threads, s.samples, s.seed);
    if (s.dataSha256 !== undefined && k.sha256 !== s.dataSha256)
      throw new Error(
        `${kitDataFile(corpus as KitPoolCorpus)} is not the file the labelled pool was taken from (sha256 ${k.sha256.slice(0, 12)}…, the labels say ${s.dataSha256.slice(0, 12)}…): the kit was rebuilt, so the pool must be dumped and labelled again`,
      );
    if (k.loaded > 0) console.log(`${corpus}: ${k.loaded} explanations from ${k.cacheFile}`);
    return {
      settings: { ...s, dataSha256: k.sha256 },
      model: k.model as Classifier,
      labels: k.model.labels,
      train: k.train,
      explainer: k.explainer,
      save: () => k.explainer.save(k.cacheFile),
    };
  }
  const data = poolCorpusSplit(corpus, s.words, s.seed);
  const model = await trainClassifier('bow-logistic', data.train, { seed: s.seed, labels: data.labels });
  const { explainer: lime, params } = makeExplainer('lime', s.samples, s.seed);
  return {
    settings: s,
    model,
    labels: data.labels,
    train: data.train,
    explainer: new CachedExplainer(lime, `pools|${params}`),
    save: () => {},
  };
}

async function score(
  oracles: readonly string[],
  models: readonly string[],
  threads: number,
  out: string | undefined,
  split: 'test' | 'validation',
): Promise<void> {
  const glove = await embedding('glove');
  const theta = { [glove.name]: await thetaRelateOf(glove) };
  const rows: PoolFigures[] = [];
  const dir = split === 'validation' ? join(ANNOTATED_POOLS_DIR, 'validation') : ANNOTATED_POOLS_DIR;
  for (const pool of loadAnnotatedPools(dir).filter((p) => models.includes(p.settings.model))) {
    const t0 = performance.now();
    const s = pool.settings as PoolSettings;
    const corpus = s.corpus;
    const { model, labels, train, explainer, save } = await poolSource(s, threads);
    for (const name of oracles) {
      const { base, builtInDescriptions } = setupModifiers(name);
      const config = { ...candidateOracle(base), name };
      const store = await identifyKeywords(
        model,
        train.map((r) => r.text),
        train.map((r) => r.label),
        {
          explainer,
          embeddings: [glove],
          thetaRelate: theta,
          oracle: builtInDescriptions
            ? { ...config, classDescriptions: describedLabels(CLASS_DESCRIPTIONS[baseCorpus(corpus)], labels) }
            : config,
          sampleSize: s.train,
          topK: s.topK,
          classNames: CLASS_NAMES[baseCorpus(corpus)],
          seed: s.seed,
        },
      );
      save();
      const classes: ClassFigures[] = Object.entries(pool.classes).map(([label, words]) => {
        const inPool = new Set(store.pool(label).map((w) => w.word));
        const judge = (w: string) => (inPool.has(w) ? store.isKeyword(label, w) : undefined);
        const r = scoreRelated(words, judge);
        const poolSize = inPool.size;
        return {
          label,
          labels: labelCounts(words),
          missing: words.filter((w) => !inPool.has(w.word)).length,
          tp: r.tp,
          fp: r.fp,
          fn: r.fn,
          tn: r.tn,
          precision: r.precision,
          recall: r.recall,
          poolShare: poolSize ? store.keywords(label).length / poolSize : 0,
          pool: poolSize,
          topShare: words.filter((w) => judge(w.word) === true).length / words.length,
          falsePositives: r.falsePositives,
          misses: r.misses,
          relatedBy: relatedBy(store, label, words),
        };
      });
      rows.push({
        file: pool.file.slice(pool.file.indexOf('apps/bench')),
        corpus,
        model: s.model,
        oracle: name,
        seconds: (performance.now() - t0) / 1000,
        classes,
      });
      console.error(`${corpus} ${name}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      if (out)
        writeJsonAtomic(out, {
          argv: process.argv.slice(2),
          date: new Date().toISOString(),
          machine: machineInfo(),
          rows,
        });
    }
  }
  console.log(figuresMarkdown(rows));
}

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/annotated-pools.js [options]',
  summary:
    "The keyword step on rubric-labelled pools (issue 47): precision and recall of 'related' per class, and the share of each pool called related.",
  options: {
    dump: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'write the unlabelled pools (100 words per class, no relatedness step) to DIR instead of scoring',
    },
    corpus: {
      kind: 'list',
      choices: POOL_CORPORA,
      help: `with --dump: the corpora (default: all of the model's — bow-logistic ${POOL_CORPORA.join(', ')}; kit-bert ${Object.keys(KIT_POOL_MODELS).join(', ')})`,
    },
    model: {
      kind: 'list',
      default: [...POOL_MODELS],
      choices: POOL_MODELS,
      help: 'the models whose pools are dumped (--dump: one) or scored (kit-bert needs the full-size kit in models/transformers/out)',
    },
    threads: { kind: 'integer', default: 2, min: 1, help: 'kit-bert: onnxruntime threads' },
    split: {
      kind: 'string',
      default: 'test',
      choices: ['test', 'validation'],
      help: `the labelled pools scored: test (annotated-pools/*.json, the section's) or validation (annotated-pools/validation/: bow-logistic on Brown's ${BROWN_OTHER_GENRES.join(', ')})`,
    },
    oracle: {
      kind: 'list',
      default: ['toki'],
      help: 'oracle configurations scored (oracle-setups.ts candidateOracle)',
    },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results, rewritten after every pool and configuration' },
    from: {
      kind: 'list',
      placeholder: 'FILE,...',
      help: 'print the tables of results files instead of running (each under a heading naming its file)',
    },
  },
});

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  if (o.dump) {
    if (o.model.length !== 1) throw new Error('--dump takes one --model');
    const model = o.model[0] as PoolModel;
    const available: readonly string[] = model === KIT_BERT ? Object.keys(KIT_POOL_MODELS) : POOL_CORPORA;
    const corpora = o.corpus ?? [...available];
    const bad = corpora.filter((c) => !available.includes(c));
    if (bad.length) throw new Error(`--corpus ${bad.join(',')}: ${model} pools exist for ${available.join(', ')} only`);
    return dump(o.dump, model, corpora as PoolCorpus[], o.threads);
  }
  if (o.from) {
    const files = o.from;
    for (const f of files) {
      const rows = readJson<{ rows: PoolFigures[] }>(f).rows;
      const validation = rows.every((r) => poolSplit(r.corpus as PoolCorpus) === 'validation');
      if (files.length > 1) console.log(`\n#### ${f.slice(f.lastIndexOf('/') + 1)}\n`);
      console.log(`${summaryMarkdown(rows)}\n`);
      // per class, the first two configurations only (the default and the one it replaced); the rest stay in the
      // file, as does the validation pool's detail — the summary is what the choice read (the page's git budget)
      const detail = [...new Set(rows.map((r) => r.oracle))].slice(0, 2);
      if (!validation) {
        console.log(`Per class, ${detail.join(' and ')} (the other configurations' classes are in the file):\n`);
        console.log(figuresMarkdown(rows.filter((r) => detail.includes(r.oracle))));
      }
    }
    return;
  }
  await score(o.oracle, o.model, o.threads, o.out, o.split as 'test' | 'validation');
}

runScript(SPEC, main);
