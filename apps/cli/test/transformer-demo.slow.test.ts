// `xtrust demo --model bert` end to end on the model kit's spam classifier (tiny-bert-spam): held-out
// accuracy on the kit's test split (≈ 1,800 texts, the slow part), audit, report with attention beside LIME.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, xtrustAsync } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

describe('xtrust demo --model bert', () => {
  it('runs end to end offline on the kit spam classifier; the report shows attention beside LIME', async () => {
    const out = join(tempDir(), 'demo');
    const r = await xtrustAsync([
      'demo',
      '--model',
      'bert',
      '--out',
      out,
      '--train-sample',
      '40',
      '--test-sample',
      '6',
      '--samples',
      '100',
      '--json',
      '--quiet',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { summary, files } = JSON.parse(r.stdout);
    expect(summary.model.source).toBe(kitFixture('tiny-bert-spam'));
    expect(summary.model.kind).toBe('transformer (onnxruntime-node)');
    expect(summary.data.dataset).toBe('SpamAssassin (bodies)');
    expect(summary.data.auditedTestRows).toBe(6);
    // the kit's split: the same held-out texts and accuracy as the kit's build measured (training.json)
    const kit = JSON.parse(readFileSync(join(kitFixture('tiny-bert-spam'), 'training.json'), 'utf8'));
    expect(summary.model.testTexts).toBe(kit.test_size);
    expect(Math.abs(summary.model.testAccuracy - kit.test_accuracy)).toBeLessThan(1e-3);
    expect(summary.model.note).toMatch(/kit's held-out test split/);
    const html = readFileSync(files.report, 'utf8');
    expect(html.split('<h5>attention (last layer, heads averaged)</h5>').length - 1).toBe(6);
    const predictions = readFileSync(files.predictions, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const p of predictions) {
      expect(p.features.length).toBeGreaterThan(0);
      expect(p.attention.every((f: { weight: number }) => f.weight >= 0)).toBe(true);
    }
  }, 600_000);
});
