/**
 * Annotated pools (issue 47, deliverable 2): the keyword step judged on the words it actually judges.
 *
 * For each unplanted model (bow-logistic on SpamAssassin bodies, SpamAssassin with headers, SOTU, Brown),
 * the 100 most important words of each class's pool W_c (Eq. 2 of "Trustworthiness oracle for text
 * classifiers" — the TOKI paper: decision-contributing words of the explanations of correctly predicted
 * training texts, by averaged importance s̄_w; function words dropped, as the rubric says), labelled by a
 * person per `relatedness-rubric.md` *before* any oracle relatedness ran on them.
 *
 *   node apps/bench/dist/oracle/annotated-pools.js --dump DIR     # write the unlabelled pools (no relatedness step)
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
import { explainTolerant, identifyKeywords, isFunctionWord, predictAll, WordPools } from '@xtrust/oracle';
import { CLASS_DESCRIPTIONS, CLASS_NAMES, type CorpusName } from './family.js';
import { cutBodies, loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';
import { candidateOracle, describedLabels, embedding, setupModifiers, thetaRelateOf } from './oracle-setups.js';
import { labelCounts, loadAnnotatedPools, scoreRelated, type PoolLabel } from './annotated-pool-labels.js';
import { defineScript, machineInfo, readJson, runScript, writeJsonAtomic, type Options } from '../harness/index.js';

/** The unplanted models whose pools are labelled: one per corpus. */
export const POOL_CORPORA = ['spam', 'headers', 'sotu', 'brown'] as const;
export type PoolCorpus = (typeof POOL_CORPORA)[number];

/** How a pool's words were taken (recorded in every file, so the pool can be rebuilt). */
export interface PoolSettings {
  readonly corpus: PoolCorpus;
  readonly model: string;
  readonly words: number;
  readonly seed: number;
  readonly train: number;
  readonly samples: number;
  readonly topK: number;
  readonly perClass: number;
}

export const DEFAULT_POOL_SETTINGS = { words: 60, seed: 1, train: 2000, samples: 5000, topK: 10, perClass: 100 };

/** A corpus in 60-word windows (headers: the header block and the first 60 words of the body), split 70/30 by source. */
export function poolCorpusSplit(corpus: PoolCorpus, words: number, seed: number) {
  const c = loadCorpus({ corpus: corpus as CorpusName });
  const rows: Row<unknown>[] = corpus === 'headers' ? cutBodies(c.rows, words) : wordWindows(c.rows, words, 3);
  const split = stratifiedSplit(rows, { testFraction: 0.3, seed, group: c.group });
  const plain = (rs: readonly { text: string; label: string }[]) => rs.map((r) => ({ text: r.text, label: r.label }));
  return { labels: c.labels, train: plain(split.train), test: plain(split.test) };
}

/**
 * The pools W_c as identifyKeywords builds them (same seeded sample of `train` training texts, correct
 * predictions only, LIME explanations, top-K positive words per explanation), without the relatedness step.
 */
export async function buildPools(
  model: Classifier,
  train: readonly { text: string; label: string }[],
  s: Pick<PoolSettings, 'seed' | 'train' | 'samples' | 'topK'>,
): Promise<WordPools> {
  const n = train.length;
  const picked = Array.from(rng(s.seed).sampleIndices(n, Math.min(s.train, n))).sort((a, b) => a - b);
  const probs = await predictAll(
    model,
    picked.map((i) => train[i].text),
  );
  const k = model.labels.length;
  const correct = picked.filter((row, j) => model.labels[argmaxRow(probs, j, k)] === train[row].label);
  const { explainer, params } = makeExplainer('lime', s.samples, s.seed);
  const cached = new CachedExplainer(explainer, `pools|${params}`);
  const tolerant = await explainTolerant(
    cached,
    model,
    correct.map((i) => train[i].text),
    correct.map((i) => `train:${i}`),
  );
  const pools = new WordPools(model.labels);
  correct.forEach((row, j) => {
    const e = tolerant.explanations[j];
    if (e) pools.add(train[row].label, e, s.topK);
  });
  return pools;
}

/** A class's first `perClass` pool words that are not function words, in pool order. */
export function topPoolWords(pools: WordPools, label: string, perClass: number) {
  return pools
    .pool(label)
    .filter((w) => !isFunctionWord(w.word))
    .slice(0, perClass);
}

async function dump(dir: string, corpora: readonly PoolCorpus[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const s = DEFAULT_POOL_SETTINGS;
  for (const corpus of corpora) {
    const t0 = performance.now();
    const data = poolCorpusSplit(corpus, s.words, s.seed);
    const model = await trainClassifier('bow-logistic', data.train, { seed: s.seed, labels: data.labels });
    const pools = await buildPools(model, data.train, s);
    const classes: Record<string, { word: string; importance: number; count: number }[]> = {};
    for (const l of data.labels)
      classes[l] = topPoolWords(pools, l, s.perClass).map((w) => ({
        word: w.word,
        importance: Number(w.importance.toFixed(5)),
        count: w.count,
      }));
    const settings: PoolSettings = { corpus, model: 'bow-logistic', ...s };
    writeFileSync(
      join(dir, `bow-logistic-${corpus}.json`),
      `${JSON.stringify({ settings, classNames: CLASS_NAMES[corpus as CorpusName], classes }, null, 1)}\n`,
    );
    console.log(`${corpus}: ${data.labels.join(', ')} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
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
}

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
    '| model / corpus | oracle | class | related / unrelated / unsure (of 100) | precision of related | recall of related | keywords among the 100 | share of the whole pool called related | related words called unrelated | unrelated words called related (first 8) |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const r of rows)
    for (const c of r.classes)
      lines.push(
        `| ${r.model} / ${r.corpus} | ${r.oracle} | ${c.label} | ${c.labels.related} / ${c.labels.unrelated} / ${c.labels.unsure} | ${f3(c.precision)} (${c.tp}/${c.tp + c.fp}) | ${f3(c.recall)} (${c.tp}/${c.tp + c.fn}) | ${(100 * c.topShare).toFixed(0)} % | ${(100 * c.poolShare).toFixed(0)} % of ${c.pool} | ${c.misses.join(', ') || '—'} | ${c.falsePositives.slice(0, 8).join(', ') || '—'} |`,
      );
  return lines.join('\n');
}

/** Rebuilds each labelled pool's model and runs keyword identification with the configuration; scores it on the labels. */
async function score(oracles: readonly string[], out: string | undefined): Promise<void> {
  const glove = await embedding('glove');
  const theta = { [glove.name]: await thetaRelateOf(glove) };
  const rows: PoolFigures[] = [];
  for (const pool of loadAnnotatedPools()) {
    const t0 = performance.now();
    const s = pool.settings;
    const corpus = s.corpus as PoolCorpus;
    const data = poolCorpusSplit(corpus, s.words, s.seed);
    const model = await trainClassifier('bow-logistic', data.train, { seed: s.seed, labels: data.labels });
    const { explainer: lime, params } = makeExplainer('lime', s.samples, s.seed);
    const explainer = new CachedExplainer(lime, `pools|${params}`);
    for (const name of oracles) {
      const { base, builtInDescriptions } = setupModifiers(name);
      const config = { ...candidateOracle(base), name };
      const store = await identifyKeywords(
        model,
        data.train.map((r) => r.text),
        data.train.map((r) => r.label),
        {
          explainer,
          embeddings: [glove],
          thetaRelate: theta,
          oracle: builtInDescriptions
            ? { ...config, classDescriptions: describedLabels(CLASS_DESCRIPTIONS[corpus as CorpusName], data.labels) }
            : config,
          sampleSize: s.train,
          topK: s.topK,
          classNames: CLASS_NAMES[corpus as CorpusName],
          seed: s.seed,
        },
      );
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
    corpus: { kind: 'list', default: [...POOL_CORPORA], choices: POOL_CORPORA, help: 'with --dump: the corpora' },
    oracle: {
      kind: 'list',
      default: ['toki'],
      help: 'oracle configurations scored (oracle-setups.ts candidateOracle)',
    },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results, rewritten after every pool and configuration' },
    from: { kind: 'string', placeholder: 'FILE', help: 'print the table of a results file instead of running' },
  },
});

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  if (o.dump) return dump(o.dump, o.corpus as PoolCorpus[]);
  if (o.from) {
    console.log(figuresMarkdown(readJson<{ rows: PoolFigures[] }>(o.from).rows));
    return;
  }
  await score(o.oracle, o.out);
}

runScript(SPEC, main);
