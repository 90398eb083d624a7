/**
 * The keyword step judged against people (issue 29, deliverable 3): per corpus, a model trained on the
 * corpus (no trigger planted), TOKI's keyword identification on it, and the precision and recall of
 * "related" on the person-written word lists (word-lists/*.json, written before any oracle run).
 *
 *   node apps/bench/dist/oracle/word-list-agreement.js [--corpus spam,sotu,brown] [--oracle toki,toki-paper]
 *        [--model bow-logistic | --kit DIR (a kit BERT folder whose labels are the corpus's)] [--out FILE]
 *
 * Two readings of "related" are reported for each configuration:
 * - `keyword`: a listed word in the class's pool is related when it is a keyword; a word outside the pool
 *   is not judged (counted apart) — what the keyword store says;
 * - `Eq. 5`: r(w, c) of the labelling step for every listed word — related when its nearest pool word is
 *   a keyword — what a test prediction containing the word would be labelled with.
 */
import { writeFileSync } from 'node:fs';
import { type Classifier, type WordEmbedding } from '@xtrust/core';
import { stratifiedSplit, wordWindows } from '@xtrust/datasets';
import { OnnxClassifier, trainClassifier } from '@xtrust/models';
import { identifyKeywords, relatedness, type KeywordStore } from '@xtrust/oracle';
import { CLASS_NAMES, type CorpusName } from './family.js';
import { loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';
import { candidateOracle, embedding, thetaRelateOf } from './oracle-setups.js';
import { coverageTable, listsCoverage, loadWordLists, relatednessAgainstLists, relatednessTable, WORD_LIST_CORPORA, type ClassRelatedness, type WordListCorpus } from './relatedness-lists.js';
import { defineScript, runScript, type Options } from '../harness/index.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/word-list-agreement.js [options]',
  summary: "TOKI's keyword step against the person-written word lists: precision and recall of 'related' per class.",
  options: {
    corpus: { kind: 'list', default: ['spam', 'sotu', 'brown'], choices: WORD_LIST_CORPORA, help: 'corpora whose lists are scored' },
    oracle: { kind: 'list', default: ['toki', 'toki-paper'], help: 'oracle configurations (names of oracle-setups.ts candidateOracle)' },
    kit: { kind: 'string', placeholder: 'DIR', help: 'a kit BERT folder (HF layout) to use instead of a bow-logistic trained on the corpus; its labels must be the corpus classes' },
    train: { kind: 'integer', default: 2000, min: 10, help: 'training texts explained for keyword identification' },
    samples: { kind: 'integer', default: 5000, min: 10, help: 'LIME samples per explanation' },
    words: { kind: 'integer', default: 60, min: 10, help: 'texts are cut into windows of this many words (≤ 3 per text)' },
    seed: { kind: 'integer', default: 1, help: 'seed of the split, the model and LIME' },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results' },
  },
});

export interface CorpusAgreement {
  readonly corpus: WordListCorpus;
  readonly model: string;
  readonly testAccuracy: number;
  readonly oracle: string;
  readonly keyword: readonly ClassRelatedness[];
  readonly eq5: readonly ClassRelatedness[];
  readonly coverage: ReturnType<typeof listsCoverage>;
  readonly seconds: number;
}

/** Both readings of "related" for every listed word of one corpus, from one store. */
export async function agreement(store: KeywordStore, lists: ReturnType<typeof loadWordLists>, members: readonly WordEmbedding[]): Promise<{ keyword: ClassRelatedness[]; eq5: ClassRelatedness[] }> {
  const eq5 = new Map<string, Map<string, boolean>>();
  for (const [label, list] of Object.entries(lists)) {
    const words = [...list.related, ...list.unrelated];
    const r = await relatedness(store, label, words, await store.members(members), 'toki');
    eq5.set(label, new Map(words.map((w, i) => [w, r[i] === 1])));
  }
  const pools = new Map(store.labels.map((l) => [l, new Set(store.pool(l).map((w) => w.word))]));
  return {
    keyword: relatednessAgainstLists(lists, (label, word) => (pools.get(label)?.has(word) ? store.isKeyword(label, word) : undefined)),
    eq5: relatednessAgainstLists(lists, (label, word) => eq5.get(label)?.get(word)),
  };
}

/** The corpus (its family classes) in windows of `words` words, split by source text: 70 % training, 30 % held out. */
function corpusSplit(corpus: CorpusName, words: number, seed: number) {
  const c = loadCorpus({ corpus });
  const rows = wordWindows(c.rows, words, 3);
  const split = stratifiedSplit(rows, { testFraction: 0.3, seed, group: c.group });
  const plain = (rs: readonly { text: string; label: string }[]) => rs.map((r) => ({ text: r.text, label: r.label }));
  return { labels: c.labels, train: plain(split.train), test: plain(split.test) };
}

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  const glove = await embedding('glove');
  const theta = { [glove.name]: await thetaRelateOf(glove) };
  const out: CorpusAgreement[] = [];
  for (const corpus of o.corpus as WordListCorpus[]) {
    const t0 = performance.now();
    const lists = loadWordLists(corpus);
    const data = corpusSplit(corpus as CorpusName, o.words, o.seed);
    let model: Classifier;
    let modelName: string;
    if (o.kit) {
      model = await OnnxClassifier.load(o.kit);
      modelName = `kit BERT ${o.kit}`;
      const missing = data.labels.filter((l) => !model.labels.includes(l));
      if (missing.length) throw new Error(`--kit ${o.kit}: its labels (${model.labels.join(', ')}) lack ${missing.join(', ')} of ${corpus}`);
    } else {
      model = await trainClassifier('bow-logistic', data.train, { seed: o.seed, labels: data.labels });
      modelName = 'bow-logistic';
    }
    const probs = await model.predictProba(data.test.map((r) => r.text));
    const k = model.labels.length;
    let right = 0;
    data.test.forEach((r, i) => {
      let best = 0;
      for (let j = 1; j < k; j++) if (probs[i * k + j] > probs[i * k + best]) best = j;
      if (model.labels[best] === r.label) right++;
    });
    // explained once, whatever the number of configurations
    const { explainer: lime, params } = makeExplainer('lime', o.samples, o.seed);
    const explainer = new CachedExplainer(lime, `${corpus}|${modelName}|${params}|w${o.words}`);
    for (const name of o.oracle) {
      const store = await identifyKeywords(model, data.train.map((r) => r.text), data.train.map((r) => r.label), {
        explainer, embeddings: [glove], thetaRelate: theta, oracle: candidateOracle(name), sampleSize: o.train, classNames: CLASS_NAMES[corpus as CorpusName], seed: o.seed,
      });
      const a = await agreement(store, lists, [glove]);
      const coverage = listsCoverage(lists, (l) => store.pool(l).map((w) => w.word));
      const row: CorpusAgreement = { corpus, model: modelName, testAccuracy: right / data.test.length, oracle: name, ...a, coverage, seconds: (performance.now() - t0) / 1000 };
      out.push(row);
      console.log(`### ${corpus}, ${modelName} (held-out accuracy ${row.testAccuracy.toFixed(3)}), oracle ${name}\n`);
      console.log(`Keyword status of listed pool words:\n\n${relatednessTable(a.keyword)}\n`);
      console.log(`Eq. 5 relatedness of every listed word:\n\n${relatednessTable(a.eq5)}\n`);
      console.log(`Pool coverage:\n\n${coverageTable(coverage)}\n`);
      if (o.out) writeFileSync(o.out, `${JSON.stringify({ argv: process.argv.slice(2), results: out }, null, 1)}\n`);
    }
  }
}

runScript(SPEC, main);
