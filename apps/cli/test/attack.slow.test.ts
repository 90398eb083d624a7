import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, SMALL_AUDIT, tempDir, xtrustAsync, type Fixture } from './helpers.js';

let fx: Fixture;
let store: string;
beforeAll(async () => {
  fx = await buildFixture();
  store = join(fx.dir, 'keywords');
  const r = await xtrustAsync([
    'keywords',
    '--model',
    fx.model,
    '--train',
    fx.train,
    '--out',
    store,
    '--json',
    ...SMALL_AUDIT.filter((a, i) => a !== '--test-sample' && SMALL_AUDIT[i - 1] !== '--test-sample'),
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}, 300_000);

describe('xtrust attack through @xtrust/attack', () => {
  it.each(['a2t', 'toki', 'cea', 'tef', 'xaifooler'])(
    '--recipe %s attacks the first test texts and records each (resumable JSONL)',
    async (recipe) => {
      const out = join(tempDir(), recipe);
      const r = await xtrustAsync([
        'attack',
        '--recipe',
        recipe,
        '--model',
        fx.model,
        '--test',
        fx.test,
        '--store',
        store,
        '--max-texts',
        '4',
        '--out',
        out,
        '--json',
        '--quiet',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const { summary } = JSON.parse(r.stdout);
      expect(summary.total).toBe(4);
      expect(summary.succeeded + summary.failed + summary.skipped).toBe(4);
      const records = readFileSync(join(out, 'attacks.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(records.map((x) => x.index)).toEqual([0, 1, 2, 3]);
      // a resumed finished run attacks nothing again
      const again = await xtrustAsync([
        'attack',
        '--recipe',
        recipe,
        '--model',
        fx.model,
        '--test',
        fx.test,
        '--store',
        store,
        '--max-texts',
        '4',
        '--out',
        out,
        '--resume',
        '--json',
        '--quiet',
      ]);
      expect(again.code).toBe(0);
      expect(readFileSync(join(out, 'attacks.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
    },
    300_000,
  );

  it('--recipe toki without a store is a usage error', async () => {
    const r = await xtrustAsync([
      'attack',
      '--recipe',
      'toki',
      '--model',
      fx.model,
      '--test',
      fx.test,
      '--out',
      join(tempDir(), 'x'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^xtrust: --recipe toki needs --store/);
  });

  it('demo --attack shows attack examples in the report', async () => {
    const out = join(tempDir(), 'demo');
    const r = await xtrustAsync([
      'demo',
      '--out',
      out,
      '--train-sample',
      '60',
      '--test-sample',
      '30',
      '--samples',
      '150',
      '--attack',
      'toki',
      '--attack-texts',
      '2',
      '--json',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    const { summary, files } = JSON.parse(r.stdout);
    expect(summary.attack.total).toBe(Math.min(2, summary.verdicts.untrustworthy));
    if (summary.attack.attacked > 0)
      expect(readFileSync(files.report, 'utf8').includes('<h2>Attack examples</h2>')).toBe(true);
  }, 600_000);

  it('audit --attack records the attacks and the report shows them; xtrust report keeps them', async () => {
    const out = join(tempDir(), 'audit');
    const r = await xtrustAsync([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--out',
      out,
      '--attack',
      'a2t',
      '--attack-texts',
      '2',
      '--json',
      ...SMALL_AUDIT,
    ]);
    expect(r.code).toBe(0);
    const { summary, files } = JSON.parse(r.stdout);
    expect(summary.attack.recipe).toBe('a2t');
    const records = readFileSync(join(out, 'attack-records.jsonl'), 'utf8').trim().split('\n');
    expect(records).toHaveLength(summary.attack.total);
    const shows = (html: string) => html.includes('<h2>Attack examples</h2>');
    if (summary.attack.attacked > 0) {
      expect(shows(readFileSync(files.report, 'utf8'))).toBe(true);
      const again = await xtrustAsync(['report', '--run', out, '--output', join(out, 'again.html')]);
      expect(again.code).toBe(0);
      expect(shows(readFileSync(join(out, 'again.html'), 'utf8'))).toBe(true);
    }
  }, 600_000);

  it('--recipe cea --mlm runs CEA with a fill-mask model folder (a CBOW model trained here, exported in HF layout)', async () => {
    const { trainMaskedWordModel } = await import('@xtrust/attack');
    const texts = readFileSync(fx.train, 'utf8').split('\n').slice(1);
    const mlm = join(tempDir(), 'mlm');
    await trainMaskedWordModel(texts, { seed: 1 }).exportFillMask(mlm);
    const out = join(tempDir(), 'cea-mlm');
    const r = await xtrustAsync([
      'attack',
      '--recipe',
      'cea',
      '--mlm',
      mlm,
      '--model',
      fx.model,
      '--test',
      fx.test,
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
    expect(summary.recipe).toBe('cea');
    expect(summary.total).toBe(3);
    const misuse = await xtrustAsync([
      'attack',
      '--recipe',
      'a2t',
      '--mlm',
      mlm,
      '--model',
      fx.model,
      '--test',
      fx.test,
      '--out',
      join(tempDir(), 'x'),
    ]);
    expect(misuse.code).toBe(2);
  }, 600_000);
});
