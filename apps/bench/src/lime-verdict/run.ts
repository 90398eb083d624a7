/**
 * Verdict-aware sampling on validation texts (issue 30, deliverable 1): label held-out predictions of a
 * classifier with TOKI twice — LIME at a fixed `--samples` (the paper's computation, `--audit-mode
 * exact`) and LIME stopping once each verdict is settled (@xtrust/oracle verdictSampling, `--audit-mode
 * fast`'s labelling) — on the same keyword store, and print how many labels are equal and how many
 * samples the fast run used per prediction (mean, median, quartiles), with wall and CPU time of both.
 *
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/lime-verdict/run.js [--model models/transformers/fixtures/tiny-bert-spam]
 *        [--oracles toki,toki-paper] [--train 150] [--test 40] [--samples 5000] [--keyword-samples 1000] [--words 120]
 *   (--help lists every option)
 *
 * Data: SpamAssassin bodies (no headers) through the model kit's split (test 0.3, validation 0.15, seed
 * 1, as models/transformers/export-corpora.mjs): the keyword store comes from `--train` training texts,
 * the labelled predictions are `--test` VALIDATION texts (never the test split, which the full-size
 * audit of issue 30 reports). Each text is cut to its first `--words` words, so an explanation's
 * neighbourhood stays in the fixture's 128-position window. Keyword identification runs once per oracle
 * with exact LIME at `--keyword-samples`; only the labelling differs between the two runs.
 */
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstWords } from '@xtrust/core';
import { loadSpamAssassin, sample, stratifiedSplit } from '@xtrust/datasets';
import { GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { LimeExplainer, VERDICT_SELECTION_GUARDS, type VerdictSelectionGuard } from '@xtrust/explainers';
import { quantile } from '@xtrust/metrics';
import { OnnxClassifier } from '@xtrust/models';
import { calibrateThetaRelate, identifyKeywords, labelPredictions, ORACLES, type TrustLabel } from '@xtrust/oracle';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { formatMachine, machineInfo } from '../harness/machine.js';
import { median, timed } from '../harness/timing.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(here, '../../../..');
const KIT_SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 } as const;

const spec = defineScript({
  usage: 'node apps/bench/dist/lime-verdict/run.js [options]',
  summary:
    'TOKI labels of validation predictions with exact LIME and with verdict-aware LIME (stop once the verdict is settled): labels equal and samples used. Markdown on stdout.',
  options: {
    model: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'classifier folder (default models/transformers/fixtures/tiny-bert-spam)',
    },
    oracles: {
      kind: 'list',
      choices: Object.keys(ORACLES),
      default: ['toki', 'toki-paper'],
      help: 'TOKI configurations (their verdict rules: toki decisive, toki-paper sum)',
    },
    train: { kind: 'integer', min: 2, default: 150, help: 'training texts for keyword identification' },
    test: { kind: 'integer', min: 1, default: 40, help: 'validation texts whose predictions are labelled' },
    samples: {
      kind: 'integer',
      min: 2,
      default: 5000,
      help: "LIME samples of the labelling (the exact run's, the fast run's cap)",
    },
    'keyword-samples': {
      kind: 'integer',
      min: 2,
      default: 1000,
      help: 'LIME samples of the keyword identification (exact LIME, shared by both runs)',
    },
    words: { kind: 'integer', min: 2, default: 120, help: 'each text cut to its first N words' },
    confidence: { kind: 'number', min: 0.5, max: 0.999999, default: 0.95, help: "the verdict rule's confidence" },
    seed: { kind: 'integer', default: 0, help: 'seed of sampling texts and LIME' },
    guards: {
      kind: 'list',
      default: ['default'],
      help: "fast runs to make, each against the same exact labels: 'default' (the rule's defaults) or '+'-joined settings pN (patience N), mN (minRows N), none|stable|swap (selection guard), e.g. p1+none,p2+none,m500+none,p1+swap",
    },
    'exact-seeds': {
      kind: 'integer',
      min: 1,
      max: 5,
      default: 1,
      help: "exact runs with LIME seeds seed, seed+1, …: the second and later are compared with the first (exact LIME's own seed-to-seed agreement, the floor)",
    },
  },
  notes: ["Each run labels the same predictions with the same keyword store; only LIME's sample count differs."],
});

interface Guard {
  readonly label: string;
  readonly options: { confidence: number; patience?: number; minRows?: number; selectionGuard?: VerdictSelectionGuard };
}

/** Parses one --guards entry. */
function parseGuard(spec: string, confidence: number): Guard {
  const options: { confidence: number; patience?: number; minRows?: number; selectionGuard?: VerdictSelectionGuard } = {
    confidence,
  };
  if (spec === 'default') return { label: 'default', options };
  for (const part of spec.split('+')) {
    if (/^p\d+$/.test(part)) options.patience = Number(part.slice(1));
    else if (/^m\d+$/.test(part)) options.minRows = Number(part.slice(1));
    else if ((VERDICT_SELECTION_GUARDS as readonly string[]).includes(part))
      options.selectionGuard = part as VerdictSelectionGuard;
    else
      throw new UsageError(
        `--guards: "${part}" of "${spec}" is not pN, mN, ${VERDICT_SELECTION_GUARDS.join(', ')} or default`,
      );
  }
  return { label: spec, options };
}

await runScript(spec, async (o) => {
  const model = resolve(o.model ?? join(ROOT, 'models/transformers/fixtures/tiny-bert-spam'));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const classifier = await OnnxClassifier.load(model).catch((e: Error) => {
    throw new UsageError(`--model ${model}: ${e.message.split('\n')[0]}`);
  });
  const data = loadSpamAssassin({ headers: false });
  const split = stratifiedSplit(data.rows, KIT_SPLIT);
  const cut = (rows: readonly { text: string; label: string }[]) =>
    rows.map((r) => ({ text: firstWords(r.text, o.words), label: r.label }));
  const train = cut(sample([...split.train], Math.min(o.train, split.train.length), o.seed));
  const valid = cut(sample([...split.validation], Math.min(o.test, split.validation.length), o.seed + 1));
  log(`${train.length} training texts, ${valid.length} validation texts (first ${o.words} words) of ${model}`);
  const glove = await GloveEmbedding.load();
  const { thetaRelate } = await calibrateThetaRelate(glove, wordnet(), { seed: 0 });
  const rows: string[] = [];
  const floors: string[] = [];
  for (const oracle of o.oracles) {
    log(`${oracle}: keyword identification (exact LIME, ${o['keyword-samples']} samples)`);
    const store = await identifyKeywords(
      classifier,
      train.map((r) => r.text),
      train.map((r) => r.label),
      {
        explainer: new LimeExplainer({ numSamples: o['keyword-samples'], numFeatures: 10, seed: o.seed }),
        embeddings: [glove],
        thetaRelate: { [glove.name]: thetaRelate },
        oracle: ORACLES[oracle],
        topK: 10,
        seed: o.seed,
      },
    );
    const texts = valid.map((r) => r.text);
    const common = (seed: number) => ({
      embeddings: [glove],
      explainer: new LimeExplainer({ numSamples: o.samples, numFeatures: 10, seed }),
      trueLabels: valid.map((r) => r.label),
    });
    log(`${oracle}: labelling ${valid.length} predictions, exact LIME (${o.samples} samples)`);
    const exact = await timed(() => labelPredictions(store, classifier, texts, common(o.seed)));
    const correct = exact.value.map((_l, i) => i).filter((i) => exact.value[i].verdict !== 'incorrect');
    const counts = (ls: readonly TrustLabel[]) =>
      ['trustworthy', 'untrustworthy', 'unknown'].map((v) => ls.filter((l) => l.verdict === v).length).join(' / ');
    for (const guard of o.guards.map((g) => parseGuard(g, o.confidence))) {
      log(`${oracle}: labelling again, verdict-aware LIME (confidence ${o.confidence}, guard ${guard.label})`);
      const fast = await timed(() =>
        labelPredictions(store, classifier, texts, { ...common(o.seed), verdictSampling: guard.options }),
      );
      const judged = correct.map((i) => ({
        i,
        exact: exact.value[i].verdict,
        fast: fast.value[i].verdict,
        samples: fast.value[i].samples,
      }));
      const equal = judged.filter((x) => x.exact === x.fast).length;
      const used = judged.map((x) => x.samples).filter((n): n is number => n !== undefined);
      const mean = used.reduce((a, b) => a + b, 0) / Math.max(1, used.length);
      rows.push(
        `| ${oracle} (${ORACLES[oracle].verdictRule}) | ${guard.label} | ${judged.length} | ${counts(exact.value)} | ${equal} of ${judged.length} (${((100 * equal) / Math.max(1, judged.length)).toFixed(1)} %) | ${mean.toFixed(0)} | ${median(used).toFixed(0)} | ${used.length ? `${quantile(used, 0.25).toFixed(0)}–${quantile(used, 0.75).toFixed(0)}` : '—'} | ${Math.min(...used)}–${Math.max(...used)} | ${used.filter((n) => n >= o.samples).length} | ${exact.wall.toFixed(1)} / ${exact.cpu.toFixed(1)} | ${fast.wall.toFixed(1)} / ${fast.cpu.toFixed(1)} | ${(exact.cpu / fast.cpu).toFixed(2)}× |`,
      );
      log(`  row: ${rows[rows.length - 1]}`);
      for (const d of judged.filter((x) => x.exact !== x.fast))
        log(`  differs (${guard.label}): prediction ${d.i}: exact ${d.exact}, fast ${d.fast} (${d.samples} samples)`);
    }
    // exact LIME's own seed-to-seed agreement last: the guards' rows come first in a run that is cut short
    for (let k = 1; k < o['exact-seeds']; k++) {
      log(`${oracle}: labelling again, exact LIME seed ${o.seed + k}`);
      const other = await timed(() => labelPredictions(store, classifier, texts, common(o.seed + k)));
      const equal = correct.filter((i) => other.value[i].verdict === exact.value[i].verdict).length;
      floors.push(
        `| ${oracle} (${ORACLES[oracle].verdictRule}) | ${o.seed} vs ${o.seed + k} | ${correct.length} | ${counts(exact.value)} vs ${counts(other.value)} | ${equal} of ${correct.length} (${((100 * equal) / Math.max(1, correct.length)).toFixed(1)} %) | ${exact.cpu.toFixed(1)} / ${other.cpu.toFixed(1)} |`,
      );
      log(`  floor: ${floors[floors.length - 1]}`);
      for (const i of correct)
        if (other.value[i].verdict !== exact.value[i].verdict)
          log(
            `  seeds differ: prediction ${i}: seed ${o.seed} ${exact.value[i].verdict}, seed ${o.seed + k} ${other.value[i].verdict}`,
          );
    }
  }
  await classifier.release();
  const m = machineInfo();
  const out = [
    `Verdict-aware LIME on ${valid.length} validation predictions of ${model.replace(`${ROOT}/`, '')} (SpamAssassin bodies, the kit's split, first ${o.words} words; keyword store from ${train.length} training texts at LIME ${o['keyword-samples']}); labelling LIME ${o.samples} samples exact vs verdict-aware (confidence ${o.confidence}), seed ${o.seed}.`,
    '',
    '| oracle (verdict rule) | guard | correct predictions labelled | exact: trustworthy / untrustworthy / unknown | labels equal | fast samples mean | median | quartiles | min–max | at the cap | exact wall / CPU s | fast wall / CPU s | CPU speed-up |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(floors.length === 0
      ? []
      : [
          "Exact LIME's own seed-to-seed agreement (the same predictions and keyword store, LIME seeds differ):",
          '',
          '| oracle (verdict rule) | seeds | correct predictions | exact labels (t / u / unknown) | labels equal | CPU s |',
          '| --- | --- | --- | --- | --- | --- |',
          ...floors,
          '',
        ]),
    `Machine: ${formatMachine(m)} (${cpus().length} cores).`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
});
