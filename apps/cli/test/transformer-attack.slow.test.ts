// Attacks through the CLI on the model kit's transformer classifier (tiny-bert-spam): A2T and
// TOKI-guided (keyword store from an audit of the same model), and CEA with the kit's masked LM
// (tiny-bert-mlm) proposing words and its causal LM (tiny-gpt2) giving the perplexity distance.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, tempDir, xtrustAsync, type Fixture } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

let fx: Fixture;
let bert: string;
let auditRun: string;

beforeAll(async () => {
  fx = await buildFixture();
  bert = kitFixture('tiny-bert-spam');
  auditRun = join(tempDir(), 'audit');
  const r = await xtrustAsync([
    'audit',
    '--model',
    bert,
    '--train',
    fx.train,
    '--test',
    fx.test,
    '--out',
    auditRun,
    '--train-sample',
    '60',
    '--test-sample',
    '8',
    '--samples',
    '100',
    '--class-names',
    'ham=legitimate',
    '--quiet',
    '--json',
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}, 600_000);

/** Test texts the prediction attacks get: the first two (the XSS texts) are misclassified by this model and skipped. */
const TEXTS = 12;

describe('xtrust attack on a transformer folder', () => {
  it.each(['a2t', 'toki'])(
    '--recipe %s attacks the first test texts of the BERT classifier',
    async (recipe) => {
      const out = join(tempDir(), 'attack');
      const r = await xtrustAsync([
        'attack',
        '--recipe',
        recipe,
        '--model',
        bert,
        '--test',
        fx.test,
        '--store',
        auditRun,
        '--max-texts',
        String(TEXTS),
        '--out',
        out,
        '--json',
        '--quiet',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const records = readFileSync(join(out, 'attacks.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(records).toHaveLength(TEXTS);
      for (const rec of records) expect(rec.recipe).toBe(recipe === 'toki' ? 'toki-guided' : 'a2t');
      // the summary counts what the records say, and some attack succeeds by flipping the prediction
      const { summary } = JSON.parse(r.stdout);
      const won = records.filter((x) => x.status === 'succeeded');
      expect(summary.succeeded).toBe(won.length);
      expect(summary.failed).toBe(records.filter((x) => x.status === 'failed').length);
      expect(summary.skipped).toBe(records.filter((x) => x.status === 'skipped').length);
      expect(won.length, `${recipe}: ${JSON.stringify(records.map((x) => [x.status, x.reason]))}`).toBeGreaterThan(0);
      for (const rec of won) {
        expect(rec.adversarial).not.toBe(rec.original);
        expect(rec.adversarialPrediction).not.toBe(rec.originalPrediction);
      }
    },
    600_000,
  );

  it('--recipe cea --mlm <kit masked LM> --causal-lm <kit GPT-2>: masked-LM candidates and Δ_PP in the summary', async () => {
    const out = join(tempDir(), 'cea');
    const r = await xtrustAsync([
      'attack',
      '--recipe',
      'cea',
      '--model',
      bert,
      '--test',
      fx.test,
      '--mlm',
      kitFixture('tiny-bert-mlm'),
      '--causal-lm',
      kitFixture('tiny-gpt2'),
      '--max-texts',
      '3',
      '--out',
      out,
      '--json',
      '--quiet',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { summary } = JSON.parse(r.stdout);
    expect(summary.attack.recipe).toBe('cea');
    expect(summary.attack.candidateSource).toContain('tiny-bert-mlm');
    expect(summary.perplexity.languageModel).toBe(kitFixture('tiny-gpt2'));
    expect(summary.perplexity.samples).toBe(summary.succeeded);
    // CEA succeeds on these texts, so Δ_PP is measured (it is null only when nothing succeeded)
    expect(summary.succeeded).toBeGreaterThan(0);
    expect(Number.isFinite(summary.perplexity.deltaPP)).toBe(true);
  }, 600_000);

  it('--causal-lm with a recipe that has no perplexity distance is a usage error', async () => {
    const r = await xtrustAsync([
      'attack',
      '--recipe',
      'a2t',
      '--model',
      bert,
      '--test',
      fx.test,
      '--causal-lm',
      kitFixture('tiny-gpt2'),
      '--out',
      join(tempDir(), 'x'),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--causal-lm is used by --recipe cea and tef only/);
  });
});
