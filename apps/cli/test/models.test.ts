import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinClassifier, exportOnnx } from '@xtrust/models';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, tempDir, xtrustAsync, type Fixture } from './helpers.js';

let fx: Fixture;
let hfFolder: string;
const SETTINGS = [
  '--train-sample',
  '30',
  '--test-sample',
  '8',
  '--samples',
  '100',
  '--class-names',
  'ham=legitimate',
  '--quiet',
  '--json',
];

beforeAll(async () => {
  fx = await buildFixture();
  // the fixture's model exported in Hugging Face layout: onnx/model.onnx, config.json, tokenizer.json
  hfFolder = join(fx.dir, 'hf-model');
  await exportOnnx(await BuiltinClassifier.load(fx.model), hfFolder);
}, 120_000);

/** Audits with `model` and returns the predictions (label and confidence) it wrote. */
async function audit(model: string, extra: string[] = []): Promise<{ predicted: string; confidence: number }[]> {
  const out = join(tempDir(), 'run');
  const r = await xtrustAsync([
    'audit',
    '--model',
    model,
    '--train',
    fx.train,
    '--test',
    fx.test,
    '--out',
    out,
    ...SETTINGS,
    ...extra,
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).summary.data.auditedTestRows).toBe(8);
  return readFileSync(join(out, 'predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('xtrust audit loads ONNX and Hugging Face models', () => {
  it('an HF folder (onnxruntime), its .onnx file, and the transformers.js pipeline agree with the built-in model', async () => {
    const builtin = await audit(fx.model);
    const runs = [
      await audit(hfFolder),
      await audit(join(hfFolder, 'onnx', 'model.onnx')),
      await audit(hfFolder, ['--runtime', 'transformers']),
    ];
    for (const run of runs) {
      expect(run.map((p) => p.predicted)).toEqual(builtin.map((p) => p.predicted));
      run.forEach((p, i) => expect(Math.abs(p.confidence - builtin[i].confidence)).toBeLessThan(1e-4));
    }
  }, 600_000);

  it('a .onnx file without a tokenizer next to it is a usage error', async () => {
    const lonely = join(tempDir(), 'model.onnx');
    copyFileSync(join(hfFolder, 'onnx', 'model.onnx'), lonely);
    const r = await xtrustAsync(['audit', '--model', lonely, '--train', fx.train, '--test', fx.test]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^xtrust: --model .*no tokenizer\.json next to the graph/);
  });
});
