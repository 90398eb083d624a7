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
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Classifier, WordEmbedding } from '@xtrust/core';
import { stratifiedSplit, wordWindows } from '@xtrust/datasets';
import { OnnxClassifier, trainClassifier } from '@xtrust/models';
import { identifyKeywords, relatedness, type KeywordStore } from '@xtrust/oracle';
import { CLASS_NAMES, type CorpusName } from './family.js';
import { loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';
import { candidateOracle, embedding, thetaRelateOf } from './oracle-setups.js';
import { agreementHeadline, agreementMarkdown, type CorpusAgreement } from './word-list-report.js';
import {
  coverageTable,
  halfLists,
  LIST_HALVES,
  listsCoverage,
  type ListHalf,
  loadWordLists,
  relatednessAgainstLists,
  relatednessTable,
  WORD_LIST_CORPORA,
  type ClassRelatedness,
  type WordListCorpus,
} from './relatedness-lists.js';
import {
  defineScript,
  machineInfo,
  orderAfter,
  readJson,
  runScript,
  saveSection,
  UsageError,
  writeBenchmarks,
  writeJsonAtomic,
  type Options,
} from '../harness/index.js';
import { BENCHMARKS, ROOT } from '../index.js';
import { bandSummary, configurationSummary } from './family-report.js';
import type { FamilyResults } from './shortcut.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/word-list-agreement.js [options]',
  summary: "TOKI's keyword step against the person-written word lists: precision and recall of 'related' per class.",
  options: {
    corpus: {
      kind: 'list',
      default: ['spam', 'sotu', 'brown'],
      choices: WORD_LIST_CORPORA,
      help: 'corpora whose lists are scored',
    },
    oracle: {
      kind: 'list',
      default: ['toki', 'toki-paper'],
      help: 'oracle configurations (names of oracle-setups.ts candidateOracle)',
    },
    kit: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'a kit BERT folder (HF layout) to use instead of a bow-logistic trained on the corpus; its labels must be the corpus classes',
    },
    train: { kind: 'integer', default: 2000, min: 10, help: 'training texts explained for keyword identification' },
    samples: { kind: 'integer', default: 5000, min: 10, help: 'LIME samples per explanation' },
    words: {
      kind: 'integer',
      default: 60,
      min: 10,
      help: 'texts are cut into windows of this many words (≤ 3 per text)',
    },
    seed: { kind: 'integer', default: 1, help: 'seed of the split, the model and LIME' },
    out: {
      kind: 'string',
      placeholder: 'FILE',
      help: 'JSON results (with --append: rows of the same corpus, model and oracle are replaced, the others kept)',
    },
    append: { kind: 'flag', help: "add this run's rows to the --out file instead of overwriting it" },
    from: { kind: 'string', placeholder: 'FILE', help: 'print the tables of a results file instead of running' },
    'write-section': {
      kind: 'flag',
      help: "with --from: store it as the bench's oracle-word-lists section and re-render BENCHMARKS.md",
    },
    validation: {
      kind: 'string',
      placeholder: 'FILE',
      help: 'with --write-section: a shortcut.js --family validation results file whose per-configuration and per-band G-means go into the section (the description candidate against toki on shortcut detection)',
    },
    note: {
      kind: 'string',
      placeholder: 'TEXT',
      help: 'with --write-section: a paragraph of observations added to the section',
    },
  },
});

/** A class's figures as stored: the counts, precision and recall, and the words it got wrong (not the whole lists). */
function slim(rs: readonly ClassRelatedness[]): ClassRelatedness[] {
  return rs.map((r) => ({ ...r, unjudgedWords: [] }));
}

interface AgreementFile {
  readonly argv: readonly string[];
  readonly date: string;
  readonly results: CorpusAgreement[];
}

/** Both readings of "related" for every listed word of one corpus, from one store. */
export async function agreement(
  store: KeywordStore,
  lists: ReturnType<typeof loadWordLists>,
  members: readonly WordEmbedding[],
): Promise<{ keyword: ClassRelatedness[]; eq5: ClassRelatedness[]; halves: Record<ListHalf, ClassRelatedness[]> }> {
  const eq5 = new Map<string, Map<string, boolean>>();
  for (const [label, list] of Object.entries(lists)) {
    const words = [...list.related, ...list.unrelated];
    const r = await relatedness(store, label, words, await store.members(members), 'toki');
    eq5.set(label, new Map(words.map((w, i) => [w, r[i] === 1])));
  }
  const pools = new Map(store.labels.map((l) => [l, new Set(store.pool(l).map((w) => w.word))]));
  const status = (label: string, word: string) =>
    pools.get(label)?.has(word) ? store.isKeyword(label, word) : undefined;
  return {
    keyword: relatednessAgainstLists(lists, status),
    eq5: relatednessAgainstLists(lists, (label, word) => eq5.get(label)?.get(word)),
    halves: Object.fromEntries(
      LIST_HALVES.map((h) => [h, relatednessAgainstLists(halfLists(lists, h), status)]),
    ) as Record<ListHalf, ClassRelatedness[]>,
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

/** The validation family's figures of a shortcut.js results file, for the section (configurationSummary and bandSummary). */
function validationMarkdown(path: string): string {
  const r = readJson<FamilyResults>(path);
  const scored = r.cases.filter((c) => c.status === 'scored').length;
  return [
    `#### Shortcut detection with the description: the validation family`,
    '',
    `\`node apps/bench/dist/oracle/shortcut.js ${r.argv.join(' ')}\` (${path}; ${r.cases.length} draws, ${scored} scored). A more generous relatedness could let a planted trigger into K_c; what excludes it is the surface-token check (token-response.ts). The test family was not read.`,
    '',
    configurationSummary(r.cases),
    '',
    bandSummary(r.cases),
  ].join('\n');
}

function writeSection(file: AgreementFile, path: string, extra: { validation?: string; note?: string } = {}): void {
  const entry = BENCHMARKS.find((b) => b.name === 'oracle-word-lists')!;
  saveSection(join(ROOT, 'apps/bench/results/sections'), {
    name: entry.name,
    title: entry.title,
    description: entry.description,
    command: `pnpm turbo run build --filter=@xtrust/bench && node apps/bench/dist/oracle/word-list-agreement.js ${file.argv.join(' ')}`,
    date: file.date,
    seconds: file.results.reduce((a, r) => a + r.seconds, 0),
    quick: false,
    machine: machineInfo(),
    status: 'ok',
    markdown: [
      `Written from ${path} by \`node apps/bench/dist/oracle/word-list-agreement.js --from ${path} --write-section${extra.validation ? ` --validation ${extra.validation}` : ''}\`. The lists (apps/bench/src/oracle/word-lists/) were written by a person before any oracle run. Keyword status judges only listed words that are in a class's pool; Eq. 5 judges every listed word by its nearest pool word.`,
      ...(extra.note ? [extra.note] : []),
      agreementMarkdown(file.results),
      ...(extra.validation ? [validationMarkdown(extra.validation)] : []),
    ].join('\n\n'),
    order: orderAfter(join(ROOT, 'apps/bench/results/sections'), 'table3', 0.4, BENCHMARKS.indexOf(entry)),
    headline: agreementHeadline(file.results, file.date),
  });
  writeBenchmarks(join(ROOT, 'BENCHMARKS.md'), join(ROOT, 'apps/bench/results/sections'));
}

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  if (o.from) {
    const file = readJson<AgreementFile>(o.from);
    console.log(agreementMarkdown(file.results));
    if (o['write-section']) writeSection(file, o.from, { validation: o.validation, note: o.note });
    return;
  }
  if (o['write-section']) throw new UsageError('--write-section goes with --from FILE');
  const glove = await embedding('glove');
  const theta = { [glove.name]: await thetaRelateOf(glove) };
  const earlier: CorpusAgreement[] =
    o.append && o.out && existsSync(o.out) ? readJson<AgreementFile>(o.out).results : [];
  const out: CorpusAgreement[] = [];
  const save = () => {
    if (!o.out) return;
    const kept = earlier.filter(
      (e) => !out.some((r) => r.corpus === e.corpus && r.model === e.model && r.oracle === e.oracle),
    );
    // gzipped when the name says so (.json.gz): the rows keep every class's wrong words, and git keeps apps/bench/results under 2 MB
    writeJsonAtomic(o.out, { argv: process.argv.slice(2), date: new Date().toISOString(), results: [...kept, ...out] });
  };
  for (const corpus of o.corpus as WordListCorpus[]) {
    const t0 = performance.now();
    const lists = loadWordLists(corpus);
    const data = corpusSplit(corpus as CorpusName, o.words, o.seed);
    let model: Classifier;
    let modelName: string;
    if (o.kit) {
      model = await OnnxClassifier.load(o.kit);
      // a reduced run is a different measurement: its rows must not replace (or pass for) the paper-size ones
      modelName = `kit BERT ${o.kit}${o.train !== SPEC.options.train.default || o.samples !== SPEC.options.samples.default ? ` (LIME ${o.samples}, ${o.train} texts)` : ''}`;
      const missing = data.labels.filter((l) => !model.labels.includes(l));
      if (missing.length)
        throw new Error(
          `--kit ${o.kit}: its labels (${model.labels.join(', ')}) lack ${missing.join(', ')} of ${corpus}`,
        );
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
      const store = await identifyKeywords(
        model,
        data.train.map((r) => r.text),
        data.train.map((r) => r.label),
        {
          explainer,
          embeddings: [glove],
          thetaRelate: theta,
          oracle: candidateOracle(name),
          sampleSize: o.train,
          classNames: CLASS_NAMES[corpus as CorpusName],
          seed: o.seed,
        },
      );
      const a = await agreement(store, lists, [glove]);
      const coverage = listsCoverage(lists, (l) => store.pool(l).map((w) => w.word));
      const row: CorpusAgreement = {
        corpus,
        model: modelName,
        testAccuracy: right / data.test.length,
        oracle: name,
        keyword: slim(a.keyword),
        eq5: slim(a.eq5),
        halves: { choice: slim(a.halves.choice), report: slim(a.halves.report) },
        coverage: coverage.map((c) => ({ ...c, relatedMissing: [], unrelatedMissing: [] })),
        seconds: (performance.now() - t0) / 1000,
        ...(store.descriptionItems(store.labels[0])
          ? { descriptions: Object.fromEntries(store.labels.map((l) => [l, store.descriptionItems(l)!])) }
          : {}),
      };
      if (row.descriptions)
        for (const [l, d] of Object.entries(row.descriptions)) console.log(`description of ${l}: ${d.join(', ')}`);
      out.push(row);
      console.log(`### ${corpus}, ${modelName} (held-out accuracy ${row.testAccuracy.toFixed(3)}), oracle ${name}\n`);
      console.log(`Keyword status of listed pool words:\n\n${relatednessTable(a.keyword)}\n`);
      console.log(`Keyword status, choice half of the lists:\n\n${relatednessTable(a.halves.choice)}\n`);
      console.log(`Eq. 5 relatedness of every listed word:\n\n${relatednessTable(a.eq5)}\n`);
      console.log(`Pool coverage:\n\n${coverageTable(coverage)}\n`);
      save();
    }
  }
}

runScript(SPEC, main);
