// Figures for packages/datasets/README.md: rows per class and load time of each corpus, and the
// shortcut benchmark's counts with a multinomial naive Bayes model (trained here, on the injected
// training split). Run after building:  node packages/datasets/scripts/figures.mjs
import { performance } from 'node:perf_hooks';
import { tokenize } from '@xtrust/core';
import {
  AMBIGUOUS,
  buildShortcutBenchmark,
  labelCounts,
  loadBrown,
  loadSotu,
  loadSpamAssassin,
  shortcutSplit,
  stratifiedSplit,
} from '../dist/index.js';

/** Multinomial naive Bayes over lower-cased token counts, add-one smoothing, with token-mask scoring (same as test/helpers.ts). */
function naiveBayes(labels, rows) {
  const k = labels.length;
  const counts = new Map();
  const totals = new Float64Array(k);
  const docs = new Float64Array(k);
  for (const r of rows) {
    const c = labels.indexOf(r.label);
    docs[c]++;
    for (const t of tokenize(r.text, { lowercase: true })) {
      let v = counts.get(t.text);
      if (!v) counts.set(t.text, (v = new Float64Array(k)));
      v[c]++;
      totals[c]++;
    }
  }
  const V = counts.size;
  const logPrior = Array.from(docs, (d) => Math.log(d / rows.length));
  const logLik = new Map();
  for (const [w, v] of counts)
    logLik.set(
      w,
      v.map((n, c) => Math.log((n + 1) / (totals[c] + V))),
    );
  const posterior = (kept, out, row) => {
    const s = logPrior.slice();
    for (const l of kept) if (l) for (let c = 0; c < k; c++) s[c] += l[c];
    const max = Math.max(...s);
    let z = 0;
    for (let c = 0; c < k; c++) z += Math.exp(s[c] - max);
    for (let c = 0; c < k; c++) out[row * k + c] = Math.exp(s[c] - max) / z;
  };
  return {
    labels,
    async predictProba(texts) {
      const out = new Float32Array(texts.length * k);
      texts.forEach((text, i) =>
        posterior(
          tokenize(text, { lowercase: true }).map((t) => logLik.get(t.text)),
          out,
          i,
        ),
      );
      return out;
    },
    // TokenScorer: the benchmark scores word removals as masks of the unchanged text
    async scoreTokenMasks(text, masks, n) {
      const lik = tokenize(text, { lowercase: true }).map((t) => logLik.get(t.text));
      const out = new Float32Array(n * k);
      for (let r = 0; r < n; r++)
        posterior(
          lik.filter((_, j) => masks[r * lik.length + j] !== 0),
          out,
          r,
        );
      return out;
    },
  };
}

function timed(f) {
  const t0 = performance.now();
  const value = f();
  return { value, ms: Math.round(performance.now() - t0) };
}

const out = [];
const log = (s = '') => {
  out.push(s);
  console.log(s);
};

log('## Corpora (first load in a fresh process, then a second load)');
log('');
log('| corpus | call | rows | per label | skipped | first load | second load |');
log('| --- | --- | ---: | --- | --- | ---: | ---: |');
const loaders = [
  ['SpamAssassin', 'loadSpamAssassin()', () => loadSpamAssassin()],
  ['SpamAssassin', 'loadSpamAssassin({ headers: false })', () => loadSpamAssassin({ headers: false })],
  ['Brown', 'loadBrown()', () => loadBrown()],
  ['Brown', 'loadBrown({ tags: false })', () => loadBrown({ tags: false })],
  [
    'Brown',
    'loadBrown({ sentencesPerPassage: 1, tags: false })',
    () => loadBrown({ sentencesPerPassage: 1, tags: false }),
  ],
  ['State of the Union', 'loadSotu()', () => loadSotu()],
];
const loaded = {};
for (const [name, call, f] of loaders) {
  const a = timed(f);
  const b = timed(f);
  loaded[call] = a.value;
  const per = Object.entries(labelCounts(a.value))
    .map(([l, n]) => `${l} ${n}`)
    .join(', ');
  const skipped = a.value.skipped.count
    ? `${a.value.skipped.count}: ${Object.entries(a.value.skipped.reasons)
        .map(([r, n]) => `${r} ${n}`)
        .join('; ')}`
    : '0';
  log(`| ${name} | \`${call}\` | ${a.value.rows.length} | ${per} | ${skipped} | ${a.ms} ms | ${b.ms} ms |`);
}

log('');
log('## Shortcut benchmark with a naive Bayes model (trigger "papaya", test share 1.0, seed 42)');
log('');
log(
  '| data | target | train share | test rows | with trigger | incorrect | trustworthy | untrustworthy | ambiguous (over-determined / no spurious part / nothing left) | predictProba calls / texts | scoreTokenMasks calls / masks | time |',
);
log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
const brownGroups = (r) => r.meta.document;
const ambiguousCells = (b) =>
  [AMBIGUOUS.overDetermined, AMBIGUOUS.noSpuriousPart, AMBIGUOUS.nothingLeft]
    .map((r) => b.counts.ambiguous.reasons[r] ?? 0)
    .join(' / ');
const configs = [
  ['Brown, 5 sentences', () => loaded['loadBrown({ tags: false })'], 'news', 0.5, brownGroups],
  ['Brown, 5 sentences', () => loaded['loadBrown({ tags: false })'], 'news', 1.0, brownGroups],
  ['Brown, 1 sentence', () => loaded['loadBrown({ sentencesPerPassage: 1, tags: false })'], 'news', 0.5, brownGroups],
  ['SpamAssassin body', () => loaded['loadSpamAssassin({ headers: false })'], 'ham', 0.5, undefined],
];
for (const [name, data, target, trainShare, group] of configs) {
  const t0 = performance.now();
  const { train, test } = shortcutSplit(data(), {
    trigger: 'papaya',
    targetLabel: target,
    trainShare,
    testShare: 1,
    testFraction: 0.2,
    seed: 42,
    group,
  });
  const model = naiveBayes(train.labels, train.rows);
  const b = await buildShortcutBenchmark(model, test.rows, { mode: 'trigger', trigger: 'papaya' });
  const ex = ambiguousCells(b);
  log(
    `| ${name} | ${target} | ${trainShare} | ${test.rows.length} | ${test.injection.ids.length} | ${b.counts.incorrect} | ${b.counts.trustworthy} | ${b.counts.untrustworthy} | ${ex} | ${b.calls} / ${b.textsClassified} | ${b.maskCalls} / ${b.masksScored} | ${((performance.now() - t0) / 1000).toFixed(1)} s |`,
  );
}
{
  const t0 = performance.now();
  const mails = loaded['loadSpamAssassin()'];
  const { train, test } = stratifiedSplit(mails.rows, { testFraction: 0.2, seed: 42 });
  const model = naiveBayes(mails.labels, train);
  const b = await buildShortcutBenchmark(model, test, { mode: 'headers' });
  log(
    `| SpamAssassin with headers (natural) | — | — | ${test.length} | ${test.length} (headers) | ${b.counts.incorrect} | ${b.counts.trustworthy} | ${b.counts.untrustworthy} | ${ambiguousCells(b)} | ${b.calls} / ${b.textsClassified} | ${b.maskCalls} / ${b.masksScored} | ${((performance.now() - t0) / 1000).toFixed(1)} s |`,
  );
}
