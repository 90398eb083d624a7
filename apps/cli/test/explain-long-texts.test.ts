/**
 * `xtrust explain` on a text past the model's position limit (issue 49, item 7): a notice names the
 * text and how many of its words the model saw, the JSON carries `seen`, and `--windows` explains the
 * whole text in consecutive windows the model sees whole. Model: the kit's tiny-bert-spam (64 positions).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainClassifier } from '@xtrust/models';
import { tempDir, xtrust, xtrustAsync } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const WORDS = 'please send the quarterly report and claim your free prize before the meeting tomorrow'.split(' ');
const LONG = Array.from({ length: 150 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
const SHORT = 'claim your free prize now';
let bert: string;

beforeAll(() => {
  bert = kitFixture('tiny-bert-spam');
});

interface Out {
  explanations: { text: string; seen?: { words: number; of: number }; features: unknown[] }[];
  notices: string[];
  windows?: { text: number; window: number; of: number; from: number; to: number; words: number }[];
}

describe('xtrust explain on long texts', () => {
  it('prints a notice naming the cut text and the words the model saw; none for a short text', async () => {
    const json = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--method',
      'omission',
      '--text',
      LONG,
      SHORT,
      '--json',
    ]);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as Out;
    const seen = out.explanations[0].seen!;
    expect(seen.of).toBe(150);
    expect(seen.words).toBeGreaterThan(10);
    expect(seen.words).toBeLessThan(64);
    expect(out.explanations[1].seen).toBeUndefined();
    expect(out.notices).toHaveLength(1);

    const human = await xtrustAsync(['explain', '--model', bert, '--method', 'omission', '--text', LONG, SHORT]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(
      `notice: the model saw only the first ${seen.words} of 150 words of "please send the quarterly report`,
    );
    expect(human.stdout).toContain('--windows');
    expect(human.stdout.match(/notice:/g)).toHaveLength(1);
  });

  it('--windows explains every word in consecutive windows the model sees whole', async () => {
    const r = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--method',
      'lime',
      '--samples',
      '100',
      '--windows',
      '--text',
      LONG,
      SHORT,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    const w = out.windows!;
    expect(w.length).toBe(out.explanations.length);
    const long = w.filter((x) => x.text === 0);
    expect(long.length).toBeGreaterThan(2);
    expect(long[0].from).toBe(0);
    expect(long[long.length - 1].to).toBe(150);
    long.forEach((x, j) => {
      expect(x.window).toBe(j);
      expect(x.of).toBe(long.length);
      if (j > 0) expect(x.from).toBe(long[j - 1].to);
    });
    // no window is cut, and the short text is one window of its own
    expect(out.explanations.every((e) => e.seen === undefined)).toBe(true);
    expect(out.notices).toEqual([]);
    expect(w[w.length - 1]).toMatchObject({ text: 1, window: 0, of: 1, from: 0, to: 5 });
    expect(out.explanations[out.explanations.length - 1].text).toBe(SHORT);

    const human = await xtrustAsync(['explain', '--model', bert, '--samples', '100', '--windows', '--text', LONG]);
    expect(human.stdout).toContain(`text 1, window 1 of ${long.length} (words 1–${long[0].to} of 150)`);
  });

  it('--windows over an --input file writes every window to explanations.jsonl', async () => {
    const dir = tempDir();
    const input = join(dir, 'texts.txt');
    writeFileSync(input, `${LONG}\n${SHORT}\n`);
    const out = join(dir, 'run');
    const r = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--method',
      'omission',
      '--windows',
      '--input',
      input,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout) as Out & { file: string };
    const lines = readFileSync(res.file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(res.explanations.length);
    expect(res.windows!.filter((w) => w.text === 0).at(-1)!.to).toBe(150);
    expect(res.windows!.at(-1)).toMatchObject({ text: 1, of: 1 });
  });

  it('the transformers.js runtime reports its limit too: --windows covers every word, no window cut', async () => {
    const r = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--runtime',
      'transformers',
      '--method',
      'omission',
      '--windows',
      '--text',
      LONG,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    const w = out.windows!;
    expect(w.length).toBeGreaterThan(1);
    expect(w[0].from).toBe(0);
    expect(w.at(-1)!.to).toBe(150);
    w.forEach((x, j) => j > 0 && expect(x.from).toBe(w[j - 1].to));
    for (const e of out.explanations) expect(e.seen).toBeUndefined();
  });

  it('--windows on a model that cannot say its limit is a usage error naming the model', async () => {
    const dir = tempDir();
    // each text twice: the built-in model keeps words seen at least twice
    const rows = ['free prize now', 'meeting at noon', 'claim your cash', 'see the agenda']
      .flatMap((text) => [text, text])
      .map((text, i) => ({ text, label: (i >> 1) % 2 ? 'ham' : 'spam' }));
    const model = join(dir, 'bow');
    await (await trainClassifier('bow-logistic', rows, { seed: 1, labels: ['ham', 'spam'] })).save(model);
    const r = xtrust(['explain', '--model', model, '--windows', '--text', SHORT]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--windows needs a model that reports its position limit`);
    expect(r.stderr).toContain(`--model ${model}`);
  });
});
