import { Command } from 'commander';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';
import { trainAndEvaluate, type BuiltinKind } from '@xtrust/models';

/** Options of `xtrust demo`. */
export interface DemoOptions {
  model: BuiltinKind;
  seed: number;
  testFraction: number;
  json: boolean;
}

/** What `xtrust demo` found: the model's held-out accuracy and the data's label counts. */
export interface DemoResult {
  dataset: string;
  model: BuiltinKind;
  seed: number;
  labels: string[];
  labelCounts: { train: Record<string, number>; test: Record<string, number> };
  testAccuracy: number;
  trainSeconds: number;
  epochs: number;
  vocabularySize: number;
}

function countLabels(rows: readonly { label: string }[], labels: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(labels.map((l) => [l, 0]));
  for (const r of rows) counts[r.label] = (counts[r.label] ?? 0) + 1;
  return counts;
}

/** Trains a built-in model on SpamAssassin (with headers) and measures it on a held-out split. */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const data = loadSpamAssassin({ headers: true });
  const split = stratifiedSplit(data.rows, { testFraction: options.testFraction, seed: options.seed });
  const strip = (rows: readonly { text: string; label: string }[]) => rows.map((r) => ({ text: r.text, label: r.label }));
  const train = strip(split.train);
  const test = strip(split.test);
  const r = await trainAndEvaluate(options.model, train, test, { seed: options.seed, labels: data.labels });
  return {
    dataset: 'spam-assassin (with headers)',
    model: options.model,
    seed: options.seed,
    labels: [...data.labels],
    labelCounts: { train: countLabels(train, data.labels), test: countLabels(test, data.labels) },
    testAccuracy: r.testAccuracy,
    trainSeconds: r.trainSeconds,
    epochs: r.epochs,
    vocabularySize: r.vocabularySize,
  };
}

/** Human-readable lines for a demo result. */
export function formatDemo(r: DemoResult): string {
  const counts = (c: Record<string, number>) => Object.entries(c).map(([l, n]) => `${l} ${n}`).join(', ');
  return [
    `dataset        ${r.dataset}`,
    `model          ${r.model} (seed ${r.seed}, ${r.epochs} epochs, ${r.vocabularySize} words, ${r.trainSeconds.toFixed(1)} s)`,
    `train labels   ${counts(r.labelCounts.train)}`,
    `test labels    ${counts(r.labelCounts.test)}`,
    `test accuracy  ${(100 * r.testAccuracy).toFixed(2)} %`,
  ].join('\n');
}

/** Registers `xtrust demo`. */
export function demoCommand(): Command {
  return new Command('demo')
    .description('train a built-in model on SpamAssassin (with headers) and report its held-out accuracy')
    .option('--model <kind>', 'built-in model: bow-logistic | bow-mlp', 'bow-logistic')
    .option('--seed <n>', 'seed of the split and the training', (v) => Number.parseInt(v, 10), 0)
    .option('--test-fraction <f>', 'share of each label held out for testing', Number.parseFloat, 0.2)
    .option('--json', 'print the result as JSON', false)
    .action(async (opts: DemoOptions) => {
      const result = await runDemo(opts);
      process.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : formatDemo(result) + '\n');
    });
}
