/**
 * Tables 3/5 of 001_3eb24fee3e674c02.txt (and 004's Table 5 layout): success rates of the
 * explanation-similarity attack under each ranked-list measure, unweighted ("base") and weighted by
 * synonymity ("synw"), with three sources of Syn: GloVe cosine, counter-fitted GloVe cosine (both in
 * the interval form), and the WordNet thesaurus (1 for synonyms, else 0). The attack records come
 * from the attack engineer's harness (apps/bench/src/attack/run.ts --task similarity), so one attack
 * run is re-scored with every Syn source.
 *
 *   node apps/bench/dist/reproductions/synonymity.js --records apps/bench/results/attack/spam-xaifooler.jsonl
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { readJsonlAll } from '@xtrust/core';
import { CounterFittedEmbedding, GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { intervalSyn, thesaurusSyn, type Syn } from '@xtrust/metrics';
import { formatSimilarityTable, similaritySuccessTable, type AttackRecord } from '@xtrust/attack';
import { defineScript, parseOrExit } from '../harness/options.js';

const { records: file } = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/reproductions/synonymity.js [options]',
    summary:
      "Success rates of the explanation-similarity attack, unweighted and weighted by GloVe, counter-fitted GloVe and WordNet synonymity (001 Tables 3/5), re-scored from the similarity section's attack records.",
    options: {
      records: {
        kind: 'string',
        placeholder: 'FILE',
        default: 'apps/bench/results/attack/spam-xaifooler.jsonl',
        help: 'the attack records (JSONL) of `attack/run.js --task similarity`',
      },
    },
  }),
);
if (!existsSync(file)) {
  console.error(
    `no attack records at ${file}: run \`pnpm bench --only similarity\` (or node apps/bench/dist/attack/run.js --task similarity) first`,
  );
  process.exit(1);
}

/** Cosine of two words in a static embedding (0 when either is unknown), through its unit-row matrix. */
function cosineOf(e: {
  unitMatrix(): Float32Array;
  indexOf(w: string): number;
  dim: number;
}): (a: string, b: string) => number {
  const unit = e.unitMatrix();
  const dim = e.dim;
  return (a, b) => {
    const i = e.indexOf(a.toLowerCase());
    const j = e.indexOf(b.toLowerCase());
    if (i < 0 || j < 0) return 0;
    let s = 0;
    for (let d = 0; d < dim; d++) s += unit[i * dim + d] * unit[j * dim + d];
    return s;
  };
}

const records = (await readJsonlAll<AttackRecord>(file)).map((r) => r.value);
const wn = wordnet();
const sources: [string, Syn][] = [
  ['GloVe cosine (interval form)', intervalSyn(cosineOf(await GloveEmbedding.load()))],
  ['counter-fitted GloVe cosine (interval form)', intervalSyn(cosineOf(await CounterFittedEmbedding.load()))],
  [
    'WordNet thesaurus (1 for synonyms)',
    thesaurusSyn((a, b) => wn.synonyms(a.toLowerCase()).includes(b.toLowerCase())),
  ],
];
console.log(
  `${records.length} attack records from ${relative(process.cwd(), file) || file} (explanation-similarity attack guided by RBO p=0.5, k=10, omission explanations); success = similarity below τ.\n`,
);
for (const [name, syn] of sources) {
  console.log(`### Syn = ${name}\n`);
  console.log(`${formatSimilarityTable(similaritySuccessTable(records, syn, { k: 10 }))}\n`);
}
