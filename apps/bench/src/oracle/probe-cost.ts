/**
 * What the category probes cost (issue 48, deliverable 5: seconds per 1,000 texts on bow-logistic and on
 * the kit BERT): @xtrust/datasets `probeCategories` over 1,000 SpamAssassin texts, all seven categories,
 * on the models a user audits —
 *
 * - `bow`: the demo's model (bow-logistic on SpamAssassin with headers, split 0.2 seed 0, trained here as
 *   `xtrust demo` trains it) over 1,000 texts of its test split;
 * - `tiny-bert`: the kit's committed fixture models/transformers/fixtures/tiny-bert-spam (2 × 128);
 * - `bert-spam`, `bert-spam-int8`: the full-size kit classifier models/transformers/out/bert-spam (4 × 256,
 *   128 positions; built by `pnpm models:build`, not in git), float and on its int8 graph;
 *
 * the BERTs over `sample(loadSpamAssassin({ headers: false }).rows, 1000, 0)` (bodies: what they were trained
 * on). Each model is probed `--repeat` times back to back, same seed (the results are identical; only the
 * seconds differ); the figures go to packages/datasets/README.md with the host they came from.
 *
 *   node apps/bench/dist/oracle/probe-cost.js [--models bow,tiny-bert,bert-spam,bert-spam-int8] [--threads 2]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Classifier } from '@xtrust/core';
import { leansOn, loadSpamAssassin, probeCategories, sample, stratifiedSplit } from '@xtrust/datasets';
import { OnnxClassifier, trainClassifier } from '@xtrust/models';
import { defineScript, formatMachine, machineInfo, runScript, type Options } from '../harness/index.js';
import { ROOT } from './kit-bert.js';

const PROBE_MODELS = ['bow', 'tiny-bert', 'bert-spam', 'bert-spam-int8'] as const;
type ProbeModel = (typeof PROBE_MODELS)[number];

const TINY_BERT = 'models/transformers/fixtures/tiny-bert-spam';
const KIT_BERT_SPAM = 'models/transformers/out/bert-spam';

/** The model and its 1,000 texts; null when a kit folder is not built here. */
async function setup(name: ProbeModel, texts: number, threads: number) {
  if (name === 'bow') {
    const data = loadSpamAssassin({ headers: true });
    const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed: 0 });
    const model = await trainClassifier('bow-logistic', split.train, { seed: 0, labels: data.labels });
    return { model: model as Classifier, texts: sample(split.test, texts, 0).map((r) => r.text), what: 'demo split' };
  }
  const dir = join(ROOT, name === 'tiny-bert' ? TINY_BERT : KIT_BERT_SPAM);
  if (!existsSync(join(dir, 'onnx/model.onnx'))) return null;
  const model = await OnnxClassifier.load(dir, {
    threads,
    ...(name === 'bert-spam-int8' ? { quantize: 'int8' as const } : {}),
  });
  const rows = sample(loadSpamAssassin({ headers: false }).rows, texts, 0);
  return { model: model as Classifier, texts: rows.map((r) => r.text), what: 'bodies' };
}

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/probe-cost.js [options]',
  summary:
    'Seconds per 1,000 texts of the category probes (probeCategories, all categories) on bow-logistic and BERTs.',
  options: {
    models: { kind: 'list', default: [...PROBE_MODELS], choices: PROBE_MODELS, help: 'the models probed' },
    texts: { kind: 'integer', default: 1000, min: 1, help: 'texts probed per model' },
    repeat: { kind: 'integer', default: 2, min: 1, help: 'runs per model, back to back' },
    threads: { kind: 'integer', default: 2, min: 1, help: 'onnxruntime threads (BERTs)' },
  },
});

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  console.log(formatMachine(machineInfo()));
  console.log('| model | texts | seconds per 1,000 texts (each run) | model calls | texts scored | leans on |');
  console.log('| --- | ---: | --- | ---: | ---: | --- |');
  for (const name of o.models as ProbeModel[]) {
    const s = await setup(name, o.texts, o.threads);
    if (!s) {
      console.log(`| ${name} | — | not built here (pnpm models:build) | | | |`);
      continue;
    }
    const per: string[] = [];
    let last: Awaited<ReturnType<typeof probeCategories>> | undefined;
    for (let r = 0; r < o.repeat; r++) {
      last = await probeCategories(s.model, s.texts, { seed: 0 });
      per.push(((last.cost.seconds * 1000) / s.texts.length).toFixed(2));
    }
    const leans = leansOn(last!).map((p) => p.category);
    console.log(
      `| ${name} (${s.what}) | ${s.texts.length} | ${per.join(', ')} | ${last!.cost.modelCalls} | ${last!.cost.textsScored} | ${leans.join(', ') || 'none'} |`,
    );
  }
}

runScript(SPEC, main);
