import { Command } from 'commander';
import type { Explainer } from '@xtrust/core';
import { loadSpamAssassin, sample, stratifiedSplit } from '@xtrust/datasets';
import { LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import { trainClassifier } from '@xtrust/models';
import { emit } from '../output.js';
import { examples, intArg, positiveIntArg, withCommonOptions } from '../options.js';
import { Progress } from '../progress.js';

/** Options of `xtrust bench`. */
export interface BenchOptions {
  texts: number;
  samples: number;
  seed: number;
  json: boolean;
  quiet: boolean;
}

/** One measured step: how many units in how many seconds. */
export interface BenchRow {
  readonly step: string;
  readonly units: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** Runs one step of the bench and measures it: its wall seconds and units per second. */
async function measureStep(step: string, units: number, fn: () => Promise<unknown>): Promise<BenchRow> {
  const t = performance.now();
  await fn();
  const seconds = (performance.now() - t) / 1000;
  return { step, units, seconds, perSecond: units / seconds };
}

/** Times the audit's steps on this machine: training, prediction, LIME and omission explanations on SpamAssassin e-mails. */
export async function runBench(
  options: BenchOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
): Promise<{ rows: BenchRow[]; texts: number; samples: number; node: string }> {
  const data = loadSpamAssassin({ headers: true });
  const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed: options.seed });
  const rows: BenchRow[] = [];
  const train = split.train.map((r) => ({ text: r.text, label: r.label }));
  let model: Awaited<ReturnType<typeof trainClassifier>> | null = null;
  progress.note(`bench: ${options.texts} test e-mails, LIME ${options.samples} samples`);
  rows.push(
    await measureStep(
      'train bow-logistic (texts)',
      train.length,
      async () => (model = await trainClassifier('bow-logistic', train, { seed: options.seed, labels: data.labels })),
    ),
  );
  const texts = sample(split.test, options.texts, options.seed).map((r) => r.text);
  const m = model!;
  rows.push(await measureStep('predictProba (texts)', texts.length, () => m.predictProba(texts)));
  const lime = new LimeExplainer({ numSamples: options.samples, seed: options.seed }) as unknown as Explainer;
  rows.push(
    await measureStep(`LIME ${options.samples} samples (explanations)`, texts.length, () => lime.explain(m, texts)),
  );
  const omission = new OmissionExplainer() as unknown as Explainer;
  rows.push(await measureStep('omission (explanations)', texts.length, () => omission.explain(m, texts)));
  return { rows, texts: texts.length, samples: options.samples, node: process.version };
}

/** Registers `xtrust bench`. */
export function benchCommand(): Command {
  const c = new Command('bench').description(
    "time the audit's steps on this machine (training, prediction, LIME, omission)",
  );
  c.option('--texts <n>', 'test e-mails explained', positiveIntArg, 50)
    .option('--samples <n>', 'LIME samples', positiveIntArg, 1000)
    .option('--seed <n>', 'seed', intArg, 0);
  withCommonOptions(c);
  examples(c, ['xtrust bench', 'xtrust bench --texts 200 --samples 5000 --json']);
  return c.action(async (opts: BenchOptions) => {
    const r = await runBench(opts);
    emit(opts.json, r, () =>
      r.rows
        .map((x) => `${x.step.padEnd(36)} ${x.units} in ${x.seconds.toFixed(2)} s (${x.perSecond.toFixed(1)}/s)`)
        .join('\n'),
    );
  });
}
