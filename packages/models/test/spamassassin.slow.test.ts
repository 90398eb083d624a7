import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';
import { exportOnnx, HfClassifier, OnnxClassifier, trainAndEvaluate, type BuiltinKind } from '../src/index.js';
import { maxAbsDiff } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'xtrust-spam-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Full-size run (CI only): the whole SpamAssassin training split, then the three-way check on the
// trained model over the real held-out e-mails.
describe('SpamAssassin with headers, full training split', () => {
  const data = loadSpamAssassin({ headers: true });
  const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed: 0 });
  const strip = (rows: typeof split.train) => rows.map((r) => ({ text: r.text, label: r.label }));
  const train = strip(split.train);
  const test = strip(split.test);

  it.each(['bow-logistic', 'bow-mlp'] as BuiltinKind[])(
    '%s reaches ≥ 97 %% held-out accuracy and exports exactly',
    async (kind) => {
      const report = await trainAndEvaluate(kind, train, test, { seed: 0, labels: data.labels });
      console.log(
        `${kind}: accuracy ${report.testAccuracy.toFixed(4)}, ${report.trainSeconds.toFixed(1)} s, ${report.epochs} epochs`,
      );
      expect(report.testAccuracy).toBeGreaterThanOrEqual(0.97);
      const dir = join(tmp, kind);
      await exportOnnx(report.classifier, dir);
      const texts = test.slice(0, 300).map((r) => r.text);
      const ts = await report.classifier.predictProba(texts);
      expect(maxAbsDiff(ts, await (await OnnxClassifier.load(dir)).predictProba(texts))).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(ts, await (await HfClassifier.load(dir)).predictProba(texts))).toBeLessThanOrEqual(1e-5);
    },
    600_000,
  );
});
