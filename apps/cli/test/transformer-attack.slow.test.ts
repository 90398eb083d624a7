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
        '3',
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
      expect(records).toHaveLength(3);
      for (const rec of records) {
        expect(rec.recipe).toBe(recipe === 'toki' ? 'toki-guided' : 'a2t');
        if (rec.status === 'succeeded') expect(rec.adversarialPrediction).not.toBe(rec.originalPrediction);
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
    if (summary.perplexity.samples > 0) expect(Number.isFinite(summary.perplexity.deltaPP)).toBe(true);
    else expect(summary.perplexity.deltaPP).toBeNull();
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
