/**
 * `--lime-mode` (exact | adaptive | int8 | int8+adaptive): the flag parses or fails naming the modes,
 * int8 is refused on a model onnxruntime does not run, each mode reaches the explainer and the model
 * loader (explain, audit), the run directory's key holds the mode (a resume in another mode is refused),
 * and `xtrust label` loads the model the way the store was built.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, tempDir, xtrust, xtrustAsync, type Fixture } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const TEXT = 'Click here to win FREE money now, claim your prize today and reply with your bank details';
let fx: Fixture;
let bert: string;

beforeAll(async () => {
  fx = await buildFixture();
  bert = kitFixture('tiny-bert-spam');
}, 120_000);

interface ExplanationJson {
  params: Record<string, unknown>;
  probabilities: number[];
  predictedLabel: string;
  diagnostics: Record<string, number>;
  features: { word: string; weight: number }[];
}

async function explain(mode: string): Promise<ExplanationJson> {
  const r = await xtrustAsync([
    'explain',
    '--model',
    bert,
    '--text',
    TEXT,
    '--samples',
    '500',
    '--lime-mode',
    mode,
    '--json',
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).explanations[0] as ExplanationJson;
}

describe('--lime-mode: parsing and refusals', () => {
  it('an unknown mode is one line, exit 2, naming the modes there are (explain, audit, demo, keywords, label)', () => {
    for (const command of [
      ['explain', '--model', bert, '--text', TEXT],
      ['audit', '--model', bert, '--train', 'a.csv', '--test', 'b.csv'],
      ['demo'],
      ['keywords', '--model', bert, '--train', 'a.csv'],
      ['label', '--model', bert, '--store', 'x', '--test', 'b.csv'],
    ]) {
      const r = xtrust([...command, '--lime-mode', 'fast']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(
        `'--lime-mode <mode>' argument 'fast' is invalid. expected one of exact, adaptive, int8, int8+adaptive`,
      );
    }
  });

  it('int8 on a model onnxruntime does not run is a usage error naming the model (saved xtrust model, built-in demo kind, --runtime transformers)', () => {
    const saved = xtrust(['explain', '--model', fx.model, '--text', TEXT, '--lime-mode', 'int8']);
    expect(saved.code).toBe(2);
    expect(saved.stderr).toContain(
      `--lime-mode int8 quantises an ONNX graph, but --model ${fx.model} is a saved xtrust model`,
    );
    const audit = xtrust([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--lime-mode',
      'int8+adaptive',
      '--out',
      join(tempDir(), 'a'),
    ]);
    expect(audit.code).toBe(2);
    expect(audit.stderr).toMatch(/--lime-mode int8 quantises an ONNX graph, but --model .* is a saved xtrust model/);
    const demo = xtrust(['demo', '--lime-mode', 'int8', '--out', join(tempDir(), 'd'), '--quiet']);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toMatch(/--model bow-logistic is a built-in kind; use --model bert or a Hugging Face folder/);
    const hf = xtrust(['explain', '--model', bert, '--runtime', 'transformers', '--text', TEXT, '--lime-mode', 'int8']);
    expect(hf.code).toBe(2);
    expect(hf.stderr).toMatch(/is run by the transformers\.js pipeline \(--runtime transformers\)/);
  });

  it("a mode other than exact with another --method is refused (adaptive is LIME's)", () => {
    const r = xtrust(['explain', '--model', bert, '--text', TEXT, '--method', 'omission', '--lime-mode', 'adaptive']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--lime-mode adaptive is a mode of --method lime, not of --method omission');
  });
});

describe('--lime-mode reaches LIME and the model', () => {
  it("exact is the default; adaptive sets LIME's adaptive sample count; int8 scores the quantised model (probabilities move, the label does not)", async () => {
    const [exact, adaptive, int8, both] = await Promise.all(
      ['exact', 'adaptive', 'int8', 'int8+adaptive'].map(explain),
    );
    const byDefault = JSON.parse(
      xtrust(['explain', '--model', bert, '--text', TEXT, '--samples', '500', '--json']).stdout,
    ).explanations[0] as ExplanationJson;
    expect(byDefault.features).toEqual(exact.features);
    expect(exact.params.adaptive).toBeUndefined();
    expect(int8.params.adaptive).toBeUndefined();
    expect(adaptive.params.adaptive).toEqual({ step: 25, patience: 4, minJaccard: 1 });
    expect(both.params.adaptive).toEqual({ step: 25, patience: 4, minJaccard: 1 });
    // the float model gives the same probabilities with or without adaptive sampling; int8 gives others
    // (dynamic int8 quantises activations per batch, so a text's probabilities move a little with its batch)
    expect(adaptive.probabilities).toEqual(exact.probabilities);
    both.probabilities.forEach((p, i) => expect(Math.abs(p - int8.probabilities[i])).toBeLessThan(1e-3));
    const moved = Math.max(...exact.probabilities.map((p, i) => Math.abs(p - int8.probabilities[i])));
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(0.02);
    expect(int8.predictedLabel).toBe(exact.predictedLabel);
  }, 120_000);

  it("the run directory's key holds the mode: --resume in another mode is refused, naming it", async () => {
    const input = join(tempDir(), 'texts.txt');
    writeFileSync(input, `${TEXT}\nthe meeting moved to thursday, see the attached agenda\n`);
    const out = join(tempDir(), 'run');
    const first = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--input',
      input,
      '--samples',
      '200',
      '--lime-mode',
      'int8',
      '--out',
      out,
      '--quiet',
    ]);
    expect(first.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).key.limeMode).toBe('int8');
    const other = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--input',
      input,
      '--samples',
      '200',
      '--lime-mode',
      'exact',
      '--out',
      out,
      '--resume',
      '--quiet',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('cannot resume');
    expect(other.stderr).toContain('limeMode = int8, this run has exact');
  }, 120_000);

  it('an audit records its mode (summary, run key, keyword store) and `xtrust label` loads the model as the store was built', async () => {
    const out = join(tempDir(), 'audit');
    const settings = [
      '--train-sample',
      '30',
      '--test-sample',
      '6',
      '--samples',
      '200',
      '--class-names',
      'ham=legitimate',
      '--quiet',
    ];
    const a = await xtrustAsync([
      'audit',
      '--model',
      bert,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--out',
      out,
      ...settings,
      '--lime-mode',
      'int8+adaptive',
      '--json',
    ]);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).summary.settings.limeMode).toBe('int8+adaptive');
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).key.limeMode).toBe('int8+adaptive');
    const store = JSON.parse(readFileSync(join(out, 'keywords.json'), 'utf8'));
    expect(store.provenance.explainer.params).toMatchObject({ adaptive: true, limeMode: 'int8+adaptive' });
    // every explanation of the audit was made with adaptive LIME
    const explained = readFileSync(join(out, 'predictions.explanations.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).explanation);
    expect(explained.every((e: ExplanationJson) => e.params.adaptive !== undefined)).toBe(true);

    // label: the store's mode by default, so its (int8) model fingerprint matches
    const labelOut = join(tempDir(), 'labels');
    const l = await xtrustAsync([
      'label',
      '--model',
      bert,
      '--store',
      out,
      '--test',
      fx.test,
      '--out',
      labelOut,
      '--quiet',
      '--json',
    ]);
    expect(l.stderr).toBe('');
    expect(l.code).toBe(0);
    expect(JSON.parse(readFileSync(join(labelOut, 'run.json'), 'utf8')).key.limeMode).toBe('int8+adaptive');
  }, 300_000);
});
