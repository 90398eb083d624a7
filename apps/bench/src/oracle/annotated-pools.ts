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
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argmaxRow, rng, type Classifier } from '@xtrust/core';
import { stratifiedSplit, wordWindows, type Row } from '@xtrust/datasets';
import { trainClassifier } from '@xtrust/models';
import { explainTolerant, isFunctionWord, predictAll, WordPools } from '@xtrust/oracle';
import { CLASS_NAMES, type CorpusName } from './family.js';
import { cutBodies, loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';

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

async function main(argv: readonly string[]): Promise<void> {
  const i = argv.indexOf('--dump');
  if (i >= 0) {
    const c = argv.indexOf('--corpus');
    const corpora = (c >= 0 ? argv[c + 1].split(',') : POOL_CORPORA) as PoolCorpus[];
    await dump(argv[i + 1], corpora);
    return;
  }
  throw new Error('scoring mode not written yet');
}

await main(process.argv.slice(2));
