import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCsv, firstWords } from '@xtrust/core';
import { buildShortcutBenchmark, injectTrigger, loadSpamAssassin, sample, stratifiedSplit } from '@xtrust/datasets';
import { trainClassifier } from '@xtrust/models';

/** The built CLI (tests run the real executable, as a user would). */
export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

/** Runs the built CLI to completion. */
export function xtrust(args: readonly string[], options: { cwd?: string } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the built CLI asynchronously (other tests' timers keep running). */
export function xtrustAsync(
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'xtrust-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Hostile texts: they must show in the report as text and never run. */
export const XSS_TEXTS = [
  '<script>window.__xss = 1</script> win money now, free offer, click here to claim',
  '<img src=x onerror="window.__xss = 2"> claim your free prize money today, click now',
];

/** A small audit setting on disk: a saved built-in model, train.csv and test.csv (with the XSS texts and a trust column). */
export interface Fixture {
  readonly dir: string;
  readonly model: string;
  readonly train: string;
  readonly test: string;
  readonly labels: readonly string[];
  /** The trust column's ground truth of the correct predictions, in row order. */
  readonly truth: readonly ('trustworthy' | 'untrustworthy')[];
}

/**
 * Builds the fixture: 240 training and 40 test e-mail bodies of SpamAssassin (first 50 words), with
 * the word "papaya" planted in every spam training text and in half the spam test texts, a bow-logistic
 * model trained on them and saved, and a `trust` column holding the ground truth of issue 14's
 * definition (buildShortcutBenchmark: untrustworthy when removing "papaya" flips the prediction,
 * trustworthy when the text has none or survives while "papaya" alone gives another class, empty
 * when ambiguous or incorrect). Far fewer than 100 of each kind: the comparison is "too small". (The
 * model recognises these 50-word spam texts without the trigger, so nearly all are trustworthy.)
 */
export async function buildFixture(dir = tempDir()): Promise<Fixture> {
  mkdirSync(dir, { recursive: true });
  const data = loadSpamAssassin({ headers: false });
  const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed: 1 });
  const short = (rows: readonly { id: string; text: string; label: string }[]) =>
    rows.map((r) => ({ id: r.id, text: firstWords(r.text, 50), label: r.label }));
  const ds = (rows: { id: string; text: string; label: string }[]) => ({
    name: 'fixture',
    labels: data.labels,
    rows,
    skipped: { count: 0, reasons: {} },
  });
  const train = injectTrigger(ds(short(sample(split.train, 240, 1))), {
    trigger: 'papaya',
    targetLabel: 'spam',
    share: 1,
    seed: 1,
  }).rows;
  const planted = injectTrigger(ds(short(sample(split.test, 38, 1))), {
    trigger: 'papaya',
    targetLabel: 'spam',
    share: 0.5,
    seed: 2,
  }).rows;
  const test = [...XSS_TEXTS.map((text, i) => ({ id: `xss-${i}`, text, label: 'spam' })), ...planted];
  const model = await trainClassifier('bow-logistic', train, { seed: 1, labels: data.labels });
  const truth = new Map(
    (await buildShortcutBenchmark(model, test, { mode: 'trigger', trigger: 'papaya' })).cases.map((c) => [
      c.id,
      c.truth,
    ]),
  );
  const modelDir = join(dir, 'model');
  if (!existsSync(join(modelDir, 'model.json'))) await model.save(modelDir);
  writeFileSync(
    join(dir, 'train.csv'),
    toCsv(
      train.map((r) => ({ text: r.text, label: r.label })),
      ['text', 'label'],
    ),
  );
  writeFileSync(
    join(dir, 'test.csv'),
    toCsv(
      test.map((r) => ({ text: r.text, label: r.label, trust: truth.get(r.id) ?? '' })),
      ['text', 'label', 'trust'],
    ),
  );
  return {
    dir,
    model: modelDir,
    train: join(dir, 'train.csv'),
    test: join(dir, 'test.csv'),
    labels: data.labels,
    truth: [...truth.values()],
  };
}

/** Flags of a small, fast audit (LIME with few samples). */
export const SMALL_AUDIT = [
  '--train-sample',
  '120',
  '--test-sample',
  '0',
  '--samples',
  '200',
  '--class-names',
  'ham=legitimate',
  '--quiet',
];
