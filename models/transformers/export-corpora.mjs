#!/usr/bin/env node
/**
 * Writes the kit's corpora as JSONL (one {id, text, label, split, ...} object a line) into
 * models/transformers/out/data, from the bundled corpora through the built @xtrust/datasets API, with
 * the seeded stratified splits the TypeScript side uses (testFraction 0.3, validationFraction 0.15,
 * seed 1 — the oracle benchmark's settings, apps/bench/src/oracle/shortcut.ts), so a held-out
 * accuracy of a kit model is honest and the TS side can reuse the same test rows.
 *
 *   node models/transformers/export-corpora.mjs [--out models/transformers/out/data]
 *
 * Needs `pnpm turbo run build --filter=@xtrust/datasets` first (it imports the built dist).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const outArg = process.argv.indexOf('--out');
const out = outArg >= 0 ? resolve(process.argv[outArg + 1]) : resolve(here, 'out', 'data');

const load = async (pkg) => {
  try {
    return await import(pathToFileURL(resolve(root, 'packages', pkg, 'dist', 'index.js')).href);
  } catch (e) {
    throw new Error(
      `cannot import packages/${pkg}/dist/index.js (build it first: npx -y pnpm@10 turbo run build --filter=@xtrust/${pkg}): ${e.message}`,
    );
  }
};
const { loadBrown, loadSotu, loadSpamAssassin, stratifiedSplit, shortcutSplit } = await load('datasets');
const { firstWords } = await load('core');

/** The split settings shared with the TS side (the oracle benchmark's). */
export const SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 };
/** Brown genres with nameable classes (oracle benchmark and the NDCG reproduction use the same five). */
export const BROWN_CLASSES = ['news', 'religion', 'hobbies', 'government', 'romance'];
/** The oracle benchmark's planted trigger, target class and text cut. */
export const SHORTCUT = { trigger: 'cherry', targetLabel: 'hobbies', trainShare: 1.0, testShare: 0.5, words: 40 };

mkdirSync(out, { recursive: true });
const summary = {};

function write(name, parts, extra = () => ({})) {
  const lines = [];
  const counts = {};
  for (const [split, rows] of Object.entries(parts)) {
    for (const r of rows) {
      lines.push(JSON.stringify({ id: r.id, text: r.text, label: r.label, split, ...extra(r) }));
      counts[split] = (counts[split] ?? 0) + 1;
    }
  }
  writeFileSync(resolve(out, `${name}.jsonl`), `${lines.join('\n')}\n`);
  summary[name] = counts;
}

// Brown: five nameable genres, passages of 5 sentences, no document on both sides of the split.
const brownAll = loadBrown({ tags: false });
const group = (r) => r.meta.document;
const brown5 = brownAll.rows.filter((r) => BROWN_CLASSES.includes(r.label));
write('brown', stratifiedSplit(brown5, { ...SPLIT, group }), (r) => ({ document: r.meta.document }));
// The other ten genres: unlabelled text for pre-training only.
write('brown-other', { train: brownAll.rows.filter((r) => !BROWN_CLASSES.includes(r.label)) });

// SpamAssassin bodies (no headers) and with headers: the same ids, hence the same split.
const spamBodies = loadSpamAssassin({ headers: false });
write('spam', stratifiedSplit(spamBodies.rows, SPLIT), (r) => ({ group: r.meta.group }));
const spamHeaders = loadSpamAssassin({ headers: true });
write('spam-headers', stratifiedSplit(spamHeaders.rows, SPLIT), (r) => ({
  group: r.meta.group,
  bodyStart: r.meta.bodyStart,
}));

// State of the Union paragraphs.
const sotu = loadSotu();
write('sotu', stratifiedSplit(sotu.rows, SPLIT), (r) => ({ year: r.meta.year, president: r.meta.president }));

// The planted shortcut (oracle benchmark, case "brown"): first 40 words, "cherry" in every hobbies
// training text and half of its test texts.
const cut = { ...brownAll, rows: brown5.map((r) => ({ ...r, text: firstWords(r.text, SHORTCUT.words) })) };
const sc = shortcutSplit(cut, {
  trigger: SHORTCUT.trigger,
  targetLabel: SHORTCUT.targetLabel,
  trainShare: SHORTCUT.trainShare,
  testShare: SHORTCUT.testShare,
  ...SPLIT,
  group,
});
write('brown-shortcut', { train: sc.train.rows, validation: sc.validation.rows, test: sc.test.rows }, (r) => ({
  document: r.meta.document,
  trigger: !!r.meta.trigger,
}));

// The tokenizer check's texts: the first 1,000 rows of each loader, in the loader's own order (the
// fast test in packages/models loads the same rows through @xtrust/datasets and compares ids).
const check = [];
const firstRows = { brown: brownAll.rows, sotu: sotu.rows, spam: spamBodies.rows, 'spam-headers': spamHeaders.rows };
for (const [corpus, rows] of Object.entries(firstRows))
  for (const r of rows.slice(0, 1000)) check.push(JSON.stringify({ corpus, id: r.id, text: r.text }));
writeFileSync(resolve(out, 'tokenizer-check.jsonl'), `${check.join('\n')}\n`);

writeFileSync(
  resolve(out, 'summary.json'),
  `${JSON.stringify({ split: SPLIT, brownClasses: BROWN_CLASSES, shortcut: SHORTCUT, counts: summary }, null, 2)}\n`,
);
process.stderr.write(`corpora written to ${out}: ${JSON.stringify(summary)}\n`);
