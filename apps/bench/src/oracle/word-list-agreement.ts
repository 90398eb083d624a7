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
import { type Classifier, type WordEmbedding } from '@xtrust/core';
import { stratifiedSplit, wordWindows } from '@xtrust/datasets';
import { OnnxClassifier, trainClassifier } from '@xtrust/models';
import { identifyKeywords, relatedness, type KeywordStore } from '@xtrust/oracle';
import { CLASS_NAMES, type CorpusName } from './family.js';
import { loadCorpus } from './case-data.js';
import { makeExplainer } from './evaluate-case.js';
import { CachedExplainer } from './cached-explainer.js';
import { candidateOracle, embedding, thetaRelateOf } from './oracle-setups.js';
import { coverageTable, halfLists, LIST_HALVES, listsCoverage, type ListHalf, loadWordLists, relatednessAgainstLists, relatednessTable, WORD_LIST_CORPORA, type ClassRelatedness, type WordListCorpus } from './relatedness-lists.js';
import { defineScript, machineInfo, orderAfter, readJson, runScript, saveSection, UsageError, writeBenchmarks, writeJsonAtomic, type Options } from '../harness/index.js';
import { BENCHMARKS, ROOT } from '../index.js';
import { bandSummary, configurationSummary } from './family-report.js';
import type { FamilyResults } from './shortcut.js';

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
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results (with --append: rows of the same corpus, model and oracle are replaced, the others kept)' },
    append: { kind: 'flag', help: 'add this run\'s rows to the --out file instead of overwriting it' },
    from: { kind: 'string', placeholder: 'FILE', help: 'print the tables of a results file instead of running' },
    'write-section': { kind: 'flag', help: "with --from: store it as the bench's oracle-word-lists section and re-render BENCHMARKS.md" },
    validation: { kind: 'string', placeholder: 'FILE', help: 'with --write-section: a shortcut.js --family validation results file whose per-configuration and per-band G-means go into the section (the description candidate against toki on shortcut detection)' },
    note: { kind: 'string', placeholder: 'TEXT', help: 'with --write-section: a paragraph of observations added to the section' },
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
  /** Keyword status on each half of the lists (halfLists: alternate words in file order); absent in runs before the halves existed. */
  readonly halves?: Readonly<Record<ListHalf, readonly ClassRelatedness[]>>;
  /** The words each class was described by, when the configuration describes classes (KeywordStore.descriptionItems). */
  readonly descriptions?: Readonly<Record<string, readonly string[]>>;
}

/** A class's figures as stored: the counts, precision and recall, and the words it got wrong (not the whole lists). */
function slim(rs: readonly ClassRelatedness[]): ClassRelatedness[] {
  return rs.map((r) => ({ ...r, unjudgedWords: [] }));
}

interface AgreementFile {
  readonly argv: readonly string[];
  readonly date: string;
  readonly results: CorpusAgreement[];
}

const pct = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** The tables of a results file: per model and configuration, precision and recall per class in both readings. */
export function agreementMarkdown(results: readonly CorpusAgreement[]): string {
  const out: string[] = [];
  const groups = new Map<string, CorpusAgreement[]>();
  for (const r of results) {
    const key = `${r.model}|${r.oracle}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  out.push('| model | oracle | classes with precision and recall ≥ 0.8 (keyword status) | (Eq. 5, every listed word) | function words called related (Eq. 5) |', '| --- | --- | ---: | ---: | ---: |');
  for (const rs of groups.values()) {
    const ok = (xs: readonly ClassRelatedness[]) => xs.filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
    const all = rs.flatMap((r) => r.keyword).length;
    out.push(`| ${rs[0].model} | ${rs[0].oracle} | ${rs.reduce((a, r) => a + ok(r.keyword), 0)} / ${all} | ${rs.reduce((a, r) => a + ok(r.eq5), 0)} / ${all} | ${rs.reduce((a, r) => a + r.eq5.reduce((b, x) => b + x.functionWordsCalledRelated.length, 0), 0)} |`);
  }
  out.push('');
  const halved = results.filter((r) => r.halves);
  if (halved.length > 0) {
    out.push(
      '#### Keyword status on the two halves of the lists',
      '',
      'Each class\'s related and unrelated lists split by alternate words in file order (halfLists): every choice of a candidate read only the **choice** half; the **report** half was read by none. Precision / recall of "related" among the listed words in the class\'s pool; ✓ = both ≥ 0.8.',
      '',
    );
    const oracles = [...new Set(halved.map((r) => r.oracle))];
    const models = [...new Set(halved.map((r) => r.model))];
    for (const model of models) {
      const rows = halved.filter((r) => r.model === model);
      const classes = [...new Set(rows.flatMap((r) => r.keyword.map((k) => `${r.corpus}|${k.label}`)))];
      out.push(`${model}:`, '', `| class | ${oracles.map((o) => `${o}: choice P / R | report P / R`).join(' | ')} |`, `| --- | ${oracles.map(() => '---: | ---:').join(' | ')} |`);
      const cell = (x: ClassRelatedness | undefined) => (x ? `${pct(x.precision)} / ${pct(x.recall)}${(x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8 ? ' ✓' : ''}` : '—');
      for (const c of classes) {
        const [corpus, label] = c.split('|');
        const cells = oracles.map((o) => {
          const r = rows.find((x) => x.oracle === o && x.corpus === corpus);
          return `${cell(r?.halves?.choice.find((k) => k.label === label))} | ${cell(r?.halves?.report.find((k) => k.label === label))}`;
        });
        out.push(`| ${corpus} ${label} | ${cells.join(' | ')} |`);
      }
      const count = (o: string, h: ListHalf) => rows.filter((r) => r.oracle === o).flatMap((r) => r.halves![h]).filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
      out.push(`| **classes ✓ (of ${classes.length})** | ${oracles.map((o) => `${count(o, 'choice')} | ${count(o, 'report')}`).join(' | ')} |`, '');
    }
  }
  for (const r of results) {
    out.push(`#### ${r.corpus}, ${r.model} (held-out accuracy ${r.testAccuracy.toFixed(3)}), oracle ${r.oracle}`, '');
    out.push('| class | listed related / unrelated | in pool (related / unrelated) | keyword status: precision | recall | Eq. 5: precision | recall | Eq. 5 false positives (first 8) |', '| --- | --- | --- | ---: | ---: | ---: | ---: | --- |');
    r.keyword.forEach((k, i) => {
      const e = r.eq5[i];
      const c = r.coverage.find((x) => x.label === k.label);
      out.push(`| ${k.label} | ${k.related} / ${k.unrelated} | ${c ? `${c.relatedInPool} / ${c.unrelatedInPool}` : '—'} | ${pct(k.precision)} | ${pct(k.recall)} | ${pct(e.precision)} | ${pct(e.recall)} | ${e.falsePositives.slice(0, 8).join(', ')}${e.falsePositives.length > 8 ? ', …' : ''} |`);
    });
    out.push('');
  }
  return out.join('\n');
}

/** BENCHMARKS.md's headline: the default's classes at precision and recall ≥ 0.8 against the paper's configuration. */
function agreementHeadline(results: readonly CorpusAgreement[], from: string) {
  const of = (oracle: string) => results.filter((r) => r.oracle === oracle);
  const reading = (all: readonly ClassRelatedness[], name: string) => {
    // a class none of whose listed words was judged (none in its pool) has no precision or recall: not a 0
    const rs = all.filter((x) => x.precision !== null || x.recall !== null);
    const unjudged = all.length - rs.length;
    const none = unjudged ? `; ${unjudged} class${unjudged > 1 ? 'es' : ''} with no listed word judged` : '';
    if (rs.length === 0) return `${name}: no class with a listed word judged`;
    const ok = rs.filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
    const p = rs.map((x) => x.precision ?? 0).sort((a, b) => a - b);
    const r = rs.map((x) => x.recall ?? 0).sort((a, b) => a - b);
    return `${name} ${ok} of ${rs.length} classes at precision and recall ≥ 0.8 (precision ${p[0].toFixed(2)}–${p[p.length - 1].toFixed(2)}, recall ${r[0].toFixed(2)}–${r[r.length - 1].toFixed(2)}${none})`;
  };
  const summary = (oracle: string) => {
    const rs = of(oracle);
    if (rs.length === 0) return '—';
    return `${reading(rs.flatMap((r) => r.keyword), 'keyword status')}; ${reading(rs.flatMap((r) => r.eq5), 'Eq. 5')}; models ${[...new Set(rs.map((r) => r.model))].join(', ')}`;
  };
  const toki = of('toki').flatMap((r) => [...r.keyword, ...r.eq5]);
  const judged = toki.filter((x) => x.precision !== null || x.recall !== null);
  const met = judged.length > 0 && judged.every((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8);
  return {
    question: "Does TOKI's keyword step call 'related' the words a person calls related to a class, and not the others (function words never)?",
    xtrust: `toki (the default: class names with their WordNet descriptions): ${summary('toki')}${of('toki-name').length ? ` · toki-name (class names alone, the default before issue 29's descriptions): ${summary('toki-name')}` : ''}`,
    peer: `same run: toki-paper ${summary('toki-paper')}`,
    goal: 'precision and recall of "related" ≥ 0.8 for every class (issue 29)',
    met: (met ? 'yes' : 'no') as 'yes' | 'no',
    from,
  };
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
  const status = (label: string, word: string) => (pools.get(label)?.has(word) ? store.isKeyword(label, word) : undefined);
  return {
    keyword: relatednessAgainstLists(lists, status),
    eq5: relatednessAgainstLists(lists, (label, word) => eq5.get(label)?.get(word)),
    halves: Object.fromEntries(LIST_HALVES.map((h) => [h, relatednessAgainstLists(halfLists(lists, h), status)])) as Record<ListHalf, ClassRelatedness[]>,
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
  const earlier: CorpusAgreement[] = o.append && o.out && existsSync(o.out) ? readJson<AgreementFile>(o.out).results : [];
  const out: CorpusAgreement[] = [];
  const save = () => {
    if (!o.out) return;
    const kept = earlier.filter((e) => !out.some((r) => r.corpus === e.corpus && r.model === e.model && r.oracle === e.oracle));
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
      const row: CorpusAgreement = {
        corpus, model: modelName, testAccuracy: right / data.test.length, oracle: name, keyword: slim(a.keyword), eq5: slim(a.eq5), halves: { choice: slim(a.halves.choice), report: slim(a.halves.report) },
        coverage: coverage.map((c) => ({ ...c, relatedMissing: [], unrelatedMissing: [] })), seconds: (performance.now() - t0) / 1000,
        ...(store.descriptionItems(store.labels[0]) ? { descriptions: Object.fromEntries(store.labels.map((l) => [l, store.descriptionItems(l)!])) } : {}),
      };
      if (row.descriptions) for (const [l, d] of Object.entries(row.descriptions)) console.log(`description of ${l}: ${d.join(', ')}`);
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
