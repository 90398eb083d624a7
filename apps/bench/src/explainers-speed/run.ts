/**
 * Speed of every explainer on a built-in bag-of-words model over SpamAssassin e-mails (first 3,000
 * characters), recorded in packages/explainers/README.md:
 *
 *   pnpm turbo run build --filter=@xtrust/bench
 *   node apps/bench/dist/explainers-speed/run.js [--texts 1000] [--model DIR]
 *
 * The model is the one the lime-parity harness trained (apps/bench/results/lime-parity/model) when it
 * exists, else a bow-logistic trained here on the whole corpus.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Classifier, Explainer } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import {
  GradientExplainer,
  IntegratedGradientsExplainer,
  KernelShapExplainer,
  LimeExplainer,
  OmissionExplainer,
} from '@xtrust/explainers';
import { BuiltinClassifier, trainClassifier } from '@xtrust/models';
import { backendInfo } from '@xtrust/native';
import { defineScript, parseOrExit } from '../harness/options.js';
import { timed } from '../harness/timing.js';

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/explainers-speed/run.js [options]',
    summary:
      'Time per explanation of every explainer on a built-in bag-of-words model over SpamAssassin e-mails (first 3,000 characters).',
    options: {
      texts: { kind: 'integer', min: 2, default: 1000, help: 'e-mails explained (LIME and Kernel SHAP: at most 100)' },
      model: {
        kind: 'string',
        placeholder: 'DIR',
        help: 'a built-in model folder (default: apps/bench/results/lime-parity/model when there, else a bow-logistic trained here)',
      },
    },
  }),
);
const n = o.texts;
const modelDir = o.model ?? join(process.cwd(), 'apps/bench/results/lime-parity/model');
const data = loadSpamAssassin();
const texts = data.rows.slice(0, n).map((r) => r.text.slice(0, 3000));
const model: Classifier = existsSync(join(modelDir, 'model.json'))
  ? await BuiltinClassifier.load(modelDir)
  : await trainClassifier(
      'bow-logistic',
      data.rows.map((r) => ({ text: r.text, label: r.label })),
      { seed: 1, labels: data.labels },
    );

async function time(
  name: string,
  explainer: Explainer<Record<string, unknown>>,
  count: number,
  options: Record<string, unknown> = {},
) {
  const subset = texts.slice(0, count);
  await explainer.explain(model, subset.slice(0, 2), options); // warm-up
  const { wall, cpu } = await timed(() => explainer.explain(model, subset, options));
  console.log(
    `| ${name} | ${count} | ${wall.toFixed(2)} | ${cpu.toFixed(2)} | ${((wall / count) * 1000).toFixed(1)} |`,
  );
}

const info = backendInfo();
console.log(
  `\nbuilt-in ${(model as BuiltinClassifier).kind ?? 'model'}, SpamAssassin first 3,000 characters; native backend ${info.backend} (${info.threads} threads); load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')} on ${cpus().length} cores\n`,
);
console.log('| method | texts | wall s | CPU s | ms per text (wall) |');
console.log('| --- | --- | --- | --- | --- |');
await time('omission (leave-one-out)', new OmissionExplainer() as Explainer<Record<string, unknown>>, n);
await time('gradient × input', new GradientExplainer() as Explainer<Record<string, unknown>>, n);
await time('gradient L2', new GradientExplainer({ variant: 'l2' }) as Explainer<Record<string, unknown>>, n);
await time(
  'integrated gradients (50 steps)',
  new IntegratedGradientsExplainer() as Explainer<Record<string, unknown>>,
  n,
);
await time(
  'Kernel SHAP (2d + 2,048 coalitions)',
  new KernelShapExplainer() as Explainer<Record<string, unknown>>,
  Math.min(n, 100),
);
await time(
  'LIME (5,000 samples, 10 features)',
  new LimeExplainer() as Explainer<Record<string, unknown>>,
  Math.min(n, 100),
);
