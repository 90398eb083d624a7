/**
 * A stopping rule's agreement with the peer on the benchmark's own texts, without running the peer again. The
 * peer's explanations are seeded and deterministic — the same top words and weights, bit for bit, in every
 * sitting and on every host measured (2026-11-26: the 250-word block's first five texts, re-run on another
 * EPYC, equal the stored ones) — so a rule's top-10 Jaccard against the peer, and the paired gap to the peer's
 * seed-to-seed agreement, can be computed from the peer explanations a stored block already holds: the
 * xtrust side alone is run, about a fifth of a block's time. What it does not give is the same-run speed
 * ratio (the peer's seconds are another sitting's): that stays transformer-lime's, measured with the peer
 * interleaved per text. xtrust's seconds and samples per explanation are printed, and its explanations are
 * stored text by text (resumed by a later run with the same key).
 *
 *   node apps/bench/dist/transformer-lime/rule-agreement.js --model models/transformers/out/bert-spam \
 *        --rules 250,4,1 [--words 250,40,120] [--texts 30] [--sessions 2] [--from-modes exact,int8+adaptive]
 *        [--out apps/bench/results/transformer-lime]
 *
 * The stored blocks read are `<model>-<words>[-sessions<n>]-texts<N>` (transformer-lime-30's): the peer explanations
 * come from `<tag>-parts.json.gz`, the texts from `<tag>-texts.json.gz` or drawn again (readStoredBlock).
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { mean } from '../lime-parity/metrics.js';
import { defineScript, parseOrExit, textLengthsOption } from '../harness/options.js';
import { readJson, writeJsonAtomic } from '../harness/store.js';
import { timed } from '../harness/timing.js';
import { fingerprintOf } from './block-key.js';
import { hostOf } from './host.js';
import { adaptiveRuleText, parseAdaptiveRules } from './adaptive-rule.js';
import { modeAgreement, readStoredBlock, type SideResult, type TextPart } from './text-parts.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(here, '../../../..');

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/transformer-lime/rule-agreement.js --model DIR --rules STEP,PATIENCE,J[;…] [options]',
    summary:
      "Runs xtrust's int8+adaptive LIME at each rule on a stored transformer-lime block's texts and judges its top 10 against the peer explanations that block holds (seeded and deterministic): the agreement gap with its 95 % interval, without the peer's hours. No speed ratio: that is transformer-lime's.",
    options: {
      model: {
        kind: 'string',
        placeholder: 'DIR',
        required: true,
        help: 'the kit classifier the blocks were measured on',
      },
      rules: {
        kind: 'custom',
        placeholder: 'S,P,J[;S,P,J]',
        parse: parseAdaptiveRules,
        required: true,
        help: 'stopping rules to judge',
      },
      words: textLengthsOption([250, 40, 120], 'text lengths (stored blocks)'),
      texts: { kind: 'integer', min: 1, default: 30, help: 'texts per length of the stored blocks' },
      samples: { kind: 'integer', min: 2, default: 5000, help: "LIME budget (the stored blocks')" },
      sessions: { kind: 'integer', min: 1, default: 2, help: "xtrust's scoring sessions (the stored blocks')" },
      threads: { kind: 'integer', min: 1, default: 2, help: 'onnxruntime threads in all' },
      out: {
        kind: 'string',
        placeholder: 'DIR',
        help: 'where the stored blocks are, and where the explanations are kept (default apps/bench/results/transformer-lime)',
      },
    },
  }),
);
const out = resolve(o.out ?? join(ROOT, 'apps/bench/results/transformer-lime'));
const MODE = 'int8+adaptive';

interface Kept {
  key: Record<string, unknown>;
  results: (SideResult & { index: number; measured: string; host: string })[];
}

const fingerprint = await fingerprintOf(o.model);
const clf = await OnnxClassifier.load(o.model, {
  threads: o.threads,
  batchSize: 32,
  quantize: 'int8',
  ...(o.sessions > 1 ? { sessions: o.sessions } : {}),
});
const host = hostOf();
const rows: string[] = [];
/** Same-run ratios from a rule's block measured with the peer (transformer-lime --adaptive-rule), as far as it has got. */
const speedRows: string[] = [];
try {
  for (const words of o.words) {
    const tag = `${basename(o.model)}-${words}${o.sessions > 1 ? `-sessions${o.sessions}` : ''}-texts${o.texts}`;
    const stored = readStoredBlock(out, tag, fingerprint);
    const texts = stored.texts;
    const storedModes = stored.key.modes as string[];
    for (const rule of o.rules) {
      const file = join(out, `${tag}-rule${rule.step}-${rule.patience}-${rule.minJaccard}-replay.json.gz`);
      const key = {
        model: fingerprint,
        textsSha256: stored.key.textsSha256,
        samples: o.samples,
        sessions: o.sessions,
        threads: o.threads,
        mode: MODE,
        rule,
      };
      const kept: Kept =
        existsSync(file) && JSON.stringify(readJson<Kept>(file).key) === JSON.stringify(key)
          ? readJson<Kept>(file)
          : { key, results: [] };
      const lime = new LimeExplainer({ numSamples: o.samples, numFeatures: 10, seed: 1, adaptive: rule });
      for (const [i, text] of texts.entries()) {
        if (kept.results.some((r) => r.index === i)) continue;
        const t = await timed(() => lime.explain(clf, [text]));
        const [e] = t.value;
        kept.results.push({
          index: i,
          label: e.explainedLabel,
          features: e.features.map((f) => [f.word, f.weight]),
          seconds: t.wall,
          cpuSeconds: t.cpu,
          samples: Number(e.diagnostics?.samples ?? o.samples),
          measured: new Date().toISOString(),
          host,
        });
        kept.results.sort((a, b) => a.index - b.index);
        writeJsonAtomic(file, kept);
        process.stderr.write(
          `[rule-agreement] ${tag}, ${adaptiveRuleText(rule)}: text ${i + 1} of ${texts.length} (${kept.results.at(-1)!.seconds.toFixed(1)} s)\n`,
        );
      }
      const parts = stored.parts.map((p) => ({
        ...p,
        ours: { ...p.ours, replay: kept.results.find((r) => r.index === p.index)! },
      }));
      const gapText = (mode: string) => {
        const g = modeAgreement(parts, mode).gap!;
        return `${g.estimate >= 0 ? '+' : ''}${g.estimate.toFixed(3)} [${g.lo.toFixed(3)}, ${g.hi.toFixed(3)}]${g.estimate >= -0.05 ? '' : ' (outside)'}`;
      };
      // the rule's own block with the peer interleaved (transformer-lime --modes int8+adaptive --adaptive-rule …), finished or not
      const withPeer = join(out, `${tag}-rule${rule.step}-${rule.patience}-${rule.minJaccard}-parts.json.gz`);
      if (existsSync(withPeer)) {
        const measured = readJson<{ parts: TextPart[] }>(withPeer).parts.filter((p) => p.ours[MODE]);
        if (measured.length) {
          const ratios = measured
            .map((p) => mean(p.peer.map((x) => x.seconds)) / p.ours[MODE].seconds)
            .sort((a, b) => a - b);
          const same = measured.filter((p) => {
            const r = kept.results.find((k) => k.index === p.index);
            return (
              r &&
              JSON.stringify(r.features.map((f) => f[0])) === JSON.stringify(p.ours[MODE].features.map((f) => f[0])) &&
              r.samples === p.ours[MODE].samples
            );
          }).length;
          speedRows.push(
            `| ${words} | ${adaptiveRuleText(rule)} | ${measured.length} of ${texts.length} | ${ratios[Math.floor((ratios.length - 1) / 2)].toFixed(2)}× (${ratios[0].toFixed(2)}–${ratios.at(-1)!.toFixed(2)}×) | ${mean(measured.map((p) => mean(p.peer.map((x) => x.seconds)))).toFixed(1)} / ${mean(measured.map((p) => p.ours[MODE].seconds)).toFixed(1)} | ${same} of ${measured.length} | ${[...new Set(measured.map((p) => `${p.measured.slice(0, 10)} on ${p.host}`))].join('; ')} |`,
          );
        }
      }
      const stamp = [...new Set(kept.results.map((r) => `${r.measured.slice(0, 10)} on ${r.host}`))].join('; ');
      rows.push(
        `| ${words} | ${texts.length} | ${adaptiveRuleText(rule)} | ${gapText('replay')} | ${mean(kept.results.map((r) => r.samples)).toFixed(0)} of ${o.samples} | ${mean(kept.results.map((r) => r.seconds)).toFixed(2)} | ${storedModes.includes(MODE) ? `${gapText(MODE)}, ${mean(stored.parts.map((p) => p.ours[MODE].samples)).toFixed(0)} samples` : '—'} | ${storedModes.includes('exact') ? gapText('exact') : '—'} | ${stamp} |`,
      );
    }
  }
} finally {
  await clf.release();
}
console.log(
  `\n${MODE} LIME at each stopping rule on transformer-lime-30's texts (${o.texts} per length, ${o.samples} samples, ${o.sessions > 1 ? `${o.sessions} sessions` : 'one session'} on ${o.threads} threads), judged against the peer explanations stored with those blocks (Python lime + PyTorch, seeds 1 and 2: seeded and deterministic, so not run again). ` +
    "Gap = mean over texts of (xtrust vs peer seed 1) − (peer seed 1 vs seed 2) top-10 Jaccard, 95 % paired bootstrap interval; the bound is a gap ≥ −0.05. The stored block's own rows (the 2026-11-24 rule, and exact) are read from its parts, for comparison on the same texts. No speed ratio here (the peer's seconds are another sitting's): transformer-lime's blocks give it.\n",
);
console.log(
  "| words | texts | rule | gap to the peer's seed-to-seed [95 % CI] | samples used (mean) | xtrust s / explanation | stored int8+adaptive (2026-11-24 rule): gap, samples | stored exact: gap | measured |",
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
if (speedRows.length) {
  console.log(
    "\nThe same-run speed, from each rule's block measured with the peer interleaved per text (transformer-lime --modes int8+adaptive --adaptive-rule …; texts measured so far — a block resumes across sittings): peer / xtrust per text, median (lowest–highest), mean seconds, and how many of those texts' explanations this replay reproduced exactly (same top words in order, same samples).\n",
  );
  console.log(
    '| words | rule | texts with the peer | peer / xtrust per text | peer s / xtrust s | replay identical | measured |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of speedRows) console.log(r);
}
