// The CLI on a real BERT-architecture classifier folder (the model kit's committed tiny-bert-spam):
// explain with every method, audit with both runtimes, and gate on the audit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, tempDir, xtrustAsync, type Fixture } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const TEXT = 'Click here to win FREE money now, claim your prize!';
let fx: Fixture;
let bert: string;

beforeAll(async () => {
  fx = await buildFixture();
  bert = kitFixture('tiny-bert-spam');
}, 120_000);

describe('xtrust explain on a transformer folder', () => {
  it.each(['lime', 'omission', 'kernel-shap', 'attention', 'gradient', 'integrated-gradients'])(
    '--method %s',
    async (method) => {
      const r = await xtrustAsync([
        'explain',
        '--model',
        bert,
        '--text',
        TEXT,
        '--method',
        method,
        '--samples',
        '200',
        '--json',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const [e] = JSON.parse(r.stdout).explanations;
      expect(e.method).toBe(method);
      expect(['ham', 'spam']).toContain(e.predictedLabel);
      expect(e.features.length).toBeGreaterThan(3);
      for (const f of e.features) {
        expect(TEXT.toLowerCase()).toContain(f.word.toLowerCase());
        expect(Number.isFinite(f.weight)).toBe(true);
      }
    },
    120_000,
  );

  it('--runtime transformers also explains with attention (no gradient graph through the pipeline)', async () => {
    const att = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--runtime',
      'transformers',
      '--text',
      TEXT,
      '--method',
      'attention',
      '--json',
    ]);
    expect(att.code).toBe(0);
    const viaOnnx = await xtrustAsync(['explain', '--model', bert, '--text', TEXT, '--method', 'attention', '--json']);
    const a = JSON.parse(att.stdout).explanations[0].features;
    const b = JSON.parse(viaOnnx.stdout).explanations[0].features;
    expect(a.map((f: { word: string }) => f.word)).toEqual(b.map((f: { word: string }) => f.word));
    a.forEach((f: { weight: number }, i: number) => expect(Math.abs(f.weight - b[i].weight)).toBeLessThan(1e-5));
  }, 120_000);
});

describe('xtrust audit and gate on a transformer folder', () => {
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

  async function audit(extra: string[]) {
    const out = join(tempDir(), 'run');
    const r = await xtrustAsync([
      'audit',
      '--model',
      bert,
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
    const summary = JSON.parse(r.stdout).summary;
    const predictions = readFileSync(join(out, 'predictions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    return { out, summary, predictions };
  }

  it('--runtime onnx and --runtime transformers audit with the same predictions (≤ 1e-5); gate reads the run', async () => {
    const onnx = await audit(['--runtime', 'onnx']);
    const hf = await audit(['--runtime', 'transformers']);
    expect(onnx.summary.data.auditedTestRows).toBe(8);
    expect(hf.predictions.map((p) => p.predicted)).toEqual(onnx.predictions.map((p) => p.predicted));
    hf.predictions.forEach((p, i) =>
      expect(Math.abs(p.confidence - onnx.predictions[i].confidence)).toBeLessThan(1e-5),
    );

    // the report shows the last-layer attention beside LIME for each prediction
    expect(onnx.predictions.every((p) => Array.isArray(p.attention) && p.attention.length > 0)).toBe(true);
    const html = readFileSync(join(onnx.out, 'report.html'), 'utf8');
    expect(html.split('<h5>attention (last layer, heads averaged)</h5>').length - 1).toBe(8);
    expect(html.split('<h5>LIME</h5>').length - 1).toBe(8);

    // the gate reads the run's share: it passes at that share and above (at 0 when none is untrustworthy) and
    // fails (exit 1) below it (a failing gate on the built-in model's audit: audit.test.ts)
    const share = onnx.summary.untrustworthyShare as number;
    const v = onnx.summary.verdicts;
    expect(v.trustworthy + v.untrustworthy + v.incorrect + v.unknown).toBe(8);
    expect(share).toBeCloseTo(v.untrustworthy / (v.trustworthy + v.untrustworthy), 12);
    const loose = await xtrustAsync(['gate', '--run', onnx.out, '--max-untrustworthy', '1', '--json']);
    expect(JSON.parse(loose.stdout)).toMatchObject({ passed: true, untrustworthyShare: share });
    expect(loose.code).toBe(0);
    const atShare = await xtrustAsync(['gate', '--run', onnx.out, '--max-untrustworthy', String(share), '--json']);
    expect(JSON.parse(atShare.stdout)).toMatchObject({ passed: true, untrustworthyShare: share });
    expect(atShare.code).toBe(0);
    if (share > 0) {
      const tight = await xtrustAsync(['gate', '--run', onnx.out, '--max-untrustworthy', String(share / 2)]);
      expect(tight.code).toBe(1);
      expect(tight.stdout).toMatch(/^FAILED/);
    }
  }, 600_000);
});

describe('xtrust demo --model: bad values', () => {
  it('a --model that is neither a built-in kind, bert, nor a folder is a usage error', async () => {
    const r = await xtrustAsync(['demo', '--model', 'no-such-model', '--out', join(tempDir(), 'x'), '--quiet']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/bert, or a Hugging Face model folder/);
  });

  it('--model bert with a dataset the kit has no classifier for is a usage error naming the ones it has', async () => {
    const r = await xtrustAsync([
      'demo',
      '--model',
      'bert',
      '--dataset',
      'sotu',
      '--out',
      join(tempDir(), 'x'),
      '--quiet',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no classifier for --dataset sotu \(it has spamassassin, brown\)/);
  });
});
