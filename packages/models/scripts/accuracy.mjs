#!/usr/bin/env node
// Trains every built-in model on every corpus and prints held-out accuracy (the table of
// packages/models/README.md). Needs the built packages:
//   pnpm turbo run build --filter=@xtrust/models... && node packages/models/scripts/accuracy.mjs
// Options: --corpora spam,spam-noheaders,brown,sotu  --kinds bow-logistic,bow-mlp,embedding-mlp
//          --seed 0  --test-fraction 0.2  --json results.json
import { writeFileSync } from 'node:fs';
import { argv } from 'node:process';
import { trainAndEvaluate } from '@xtrust/models';
import { loadBrown, loadSotu, loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';

const args = Object.fromEntries(
  argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1]]] : [])),
);
const corpora = (args.corpora ?? 'spam,spam-noheaders,brown,sotu').split(',');
const kinds = (args.kinds ?? 'bow-logistic,bow-mlp,embedding-mlp').split(',');
const seed = Number(args.seed ?? 0);
const testFraction = Number(args['test-fraction'] ?? 0.2);

const loaders = {
  spam: () => ({ data: loadSpamAssassin({ headers: true }) }),
  'spam-noheaders': () => ({ data: loadSpamAssassin({ headers: false }) }),
  // Passages of one document stay on one side of the split.
  brown: () => ({ data: loadBrown({ tags: false }), group: (r) => r.meta.document }),
  sotu: () => ({ data: loadSotu() }),
};

let vectors = null;
async function wordVectors() {
  if (!vectors) {
    // Only this script touches embeddings; @xtrust/models itself takes vectors as a matrix.
    const { GloveEmbedding } = await import('@xtrust/embeddings');
    const t = (await GloveEmbedding.load()).table();
    vectors = { words: t.words, vectors: t.matrix, dim: t.dim };
  }
  return vectors;
}

const results = [];
console.log(
  `| corpus | model | train | test | labels | vocabulary | epochs | train s (wall) | train s (CPU) | test accuracy |`,
);
console.log(`| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const corpus of corpora) {
  const { data, group } = loaders[corpus]();
  const split = stratifiedSplit(data.rows, { testFraction, seed, group });
  const strip = (rows) => rows.map((r) => ({ text: r.text, label: r.label }));
  const train = strip(split.train);
  const test = strip(split.test);
  for (const kind of kinds) {
    const options = { seed, labels: data.labels };
    if (kind === 'embedding-mlp') options.vectors = await wordVectors();
    // CPU time too: on a shared machine wall time measures the neighbours as much as the training.
    const cpu0 = process.cpuUsage();
    const r = await trainAndEvaluate(kind, train, test, options);
    const cpu = process.cpuUsage(cpu0);
    const trainCpuSeconds = (cpu.user + cpu.system) / 1e6; // includes the (fast) test-set evaluation
    const row = {
      corpus,
      kind,
      train: r.trainRows,
      test: r.testRows,
      labels: data.labels.length,
      vocabulary: r.vocabularySize,
      epochs: r.epochs,
      trainSeconds: r.trainSeconds,
      trainCpuSeconds,
      testAccuracy: r.testAccuracy,
    };
    results.push(row);
    console.log(
      `| ${corpus} | ${kind} | ${row.train} | ${row.test} | ${row.labels} | ${row.vocabulary} | ${row.epochs} | ${row.trainSeconds.toFixed(1)} | ${row.trainCpuSeconds.toFixed(1)} | ${(100 * row.testAccuracy).toFixed(2)} % |`,
    );
  }
}
if (args.json) writeFileSync(args.json, `${JSON.stringify({ seed, testFraction, results }, null, 1)}\n`);
