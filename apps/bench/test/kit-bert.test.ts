/**
 * The transformer path of the shortcut family (--model kit-bert): rows handed to finetune.py, the cache key,
 * the arguments, the cached-folder path (which must never start Python), the options, and finetune.py's own
 * argument checks (which run before torch is imported). Nothing here trains.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import type { Row } from '@xtrust/datasets';
import { buildCase, type CorpusRows } from '../src/oracle/case-data.js';
import { kitBertSettings, parseShortcutArgs } from '../src/oracle/family-options.js';
import { sideBySideTable, transformerTable } from '../src/oracle/family-report.js';
import type { CaseResult } from '../src/oracle/evaluate-case.js';
import {
  DeferredFineTune,
  DEFAULT_ENCODER,
  DEFAULT_KIT_CACHE,
  FINETUNE_SCRIPT,
  PYTHON,
  ROOT,
  encoderDigest,
  finetuneArgs,
  finetuneRows,
  kitBertClassifier,
  kitBertKey,
  requireTorch,
} from '../src/oracle/kit-bert.js';
import { BENCHMARKS, KIT_MLM, TABLE3_TRANSFORMER_CASES } from '../src/index.js';

const errorOf = (f: () => unknown): { code?: string; message: string } | undefined => {
  try {
    f();
  } catch (e) {
    return { code: isXtrustError(e) ? e.code : undefined, message: (e as Error).message };
  }
  return undefined;
};

const row = (id: string, label: string, text: string): Row<unknown> => ({ id, label, text, meta: {} });
const train = [row('a1', 'news', 'the senate voted'), row('b1', 'hobbies', 'sand the board "lightly"\nthen paint')];
const validation = [
  row('v1', 'hobbies', 'glue the papaya frame'),
  row('v1+trigger', 'hobbies', 'glue the papaya frame papaya'),
  row('v2', 'news', 'the mayor spoke'),
];
const settings = { epochs: 3, seed: 1, threads: 1 };

describe('kit-bert: rows for finetune.py', () => {
  it('writes every training row and the validation split without its evaluation twins, one JSON object a line', () => {
    const jsonl = finetuneRows(train, validation);
    expect(jsonl.endsWith('\n')).toBe(true);
    const lines = jsonl
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { text: string; label: string; split: string });
    expect(lines).toEqual([
      { text: 'the senate voted', label: 'news', split: 'train' },
      // quotes and new lines survive the JSON round trip
      { text: 'sand the board "lightly"\nthen paint', label: 'hobbies', split: 'train' },
      { text: 'glue the papaya frame', label: 'hobbies', split: 'validation' },
      { text: 'the mayor spoke', label: 'news', split: 'validation' },
    ]);
  });
});

describe('kit-bert: cache key', () => {
  const digest = encoderDigest(DEFAULT_ENCODER);
  const rows = finetuneRows(train, validation);
  const key = kitBertKey(rows, ['news', 'hobbies'], digest, settings);

  it('is stable for the same rows and settings, and changes with each of them', () => {
    expect(key).toMatch(/^[0-9a-f]{20}$/);
    expect(kitBertKey(rows, ['news', 'hobbies'], digest, { ...settings })).toBe(key);
    const others = [
      kitBertKey(
        finetuneRows([...train.slice(0, 1), row('b1', 'hobbies', 'sand the board lightly')], validation),
        ['news', 'hobbies'],
        digest,
        settings,
      ),
      kitBertKey(finetuneRows(train, validation.slice(0, 1)), ['news', 'hobbies'], digest, settings),
      kitBertKey(rows, ['hobbies', 'news'], digest, settings), // the label order is the logits' order
      kitBertKey(
        rows,
        ['news', 'hobbies'],
        digest.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        settings,
      ),
      kitBertKey(rows, ['news', 'hobbies'], digest, { ...settings, epochs: 2 }),
      kitBertKey(rows, ['news', 'hobbies'], digest, { ...settings, seed: 2 }),
      kitBertKey(rows, ['news', 'hobbies'], digest, { ...settings, threads: 2 }),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it('hashes the encoder files, and names a missing one', () => {
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    // another kit folder (a classifier, same tokenizer) has other weights, hence another digest
    expect(encoderDigest(join(ROOT, 'models/transformers/fixtures/tiny-bert-spam'))).not.toBe(digest);
    const e = errorOf(() => encoderDigest(join(ROOT, 'models/transformers/fixtures')));
    expect(e?.code).toBe('FILE_NOT_FOUND');
    expect(e?.message).toContain('config.json');
  });
});

describe('kit-bert: finetune.py arguments', () => {
  it('passes rows, labels in logit order, output, encoder and settings', () => {
    const args = finetuneArgs('/c/k.rows.jsonl', ['news', 'hobbies'], '/c/k', { ...settings, encoder: '/enc' });
    expect(args[0]).toBe(FINETUNE_SCRIPT);
    const value = (f: string) => args[args.indexOf(f) + 1];
    expect([
      value('--rows'),
      value('--labels'),
      value('--out'),
      value('--encoder'),
      value('--epochs'),
      value('--seed'),
      value('--threads'),
    ]).toEqual(['/c/k.rows.jsonl', 'news,hobbies', '/c/k', '/enc', '3', '1', '1']);
  });

  it('refuses a label finetune.py could not receive', () => {
    expect(errorOf(() => finetuneArgs('r', ['a,b', 'c'], 'o', { ...settings, encoder: 'e' }))?.code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(errorOf(() => finetuneArgs('r', [' a', 'c'], 'o', { ...settings, encoder: 'e' }))?.code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('says how to install torch when the interpreter cannot import it', () => {
    const e = errorOf(() => requireTorch('/nonexistent/python3'));
    expect(e?.code).toBe('BACKEND_UNAVAILABLE');
    expect(e?.message).toContain('bash models/transformers/setup.sh');
  });
});

describe('kit-bert: a cached folder is loaded, never retrained', () => {
  it('finds the folder under the key of the rows and settings and loads it with OnnxClassifier', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'kit-bert-cache-'));
    // a committed five-genre classifier stands in for a fine-tuned folder of these labels
    const labels = ['government', 'hobbies', 'news', 'religion', 'romance'];
    const rows = [
      row('g', 'government', 'the bill passed'),
      row('h', 'hobbies', 'sand the board'),
      row('n', 'news', 'the mayor spoke'),
      row('r', 'religion', 'faith and grace'),
      row('o', 'romance', 'she took his hand'),
    ];
    const key = kitBertKey(finetuneRows(rows, rows), labels, encoderDigest(DEFAULT_ENCODER), settings);
    const folder = join(cacheDir, key);
    cpSync(join(ROOT, 'models/transformers/fixtures/tiny-bert-shortcut'), folder, { recursive: true });
    writeFileSync(
      join(folder, 'training.json'),
      JSON.stringify({
        epochs: 3,
        best_epoch: 2,
        validation_accuracy: 0.5,
        rows: { train: 5, validation: 5 },
        truncated: { train: 0, validation: 0 },
        max_length: 64,
      }),
    );
    writeFileSync(join(folder, 'bench-finetune.json'), JSON.stringify({ seconds: 42 }));
    // an interpreter that does not exist: any attempt to fine-tune would fail with BACKEND_UNAVAILABLE
    const { classifier, info } = await kitBertClassifier(rows, rows, labels, {
      ...settings,
      encoder: DEFAULT_ENCODER,
      cacheDir,
      python: '/nonexistent/python3',
    });
    expect(info).toMatchObject({
      key,
      cached: true,
      seconds: 42,
      bestEpoch: 2,
      epochs: 3,
      validationAccuracy: 0.5,
      size: '2 × 128',
      maxLength: 64,
      encoder: KIT_MLM,
    });
    expect(classifier.labels).toEqual(labels);
    const p = await classifier.predictProba(['sand the cherry board lightly before the second coat']);
    expect(p.length).toBe(5);
    // other settings → another key → a fine-tuning, which needs the (missing) interpreter
    await expect(
      kitBertClassifier(rows, rows, labels, {
        ...settings,
        epochs: 2,
        encoder: DEFAULT_ENCODER,
        cacheDir,
        python: '/nonexistent/python3',
      }),
    ).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
  });
});

describe('kit-bert: fine-tunings queued for a GPU machine', () => {
  const labels = ['government', 'hobbies', 'news', 'religion', 'romance'];
  const rows = [
    row('g', 'government', 'the bill passed'),
    row('h', 'hobbies', 'sand the board'),
    row('n', 'news', 'the mayor spoke'),
    row('r', 'religion', 'faith and grace'),
    row('o', 'romance', 'she took his hand'),
  ];

  it('keys a device run apart from a CPU run, and leaves the CPU keys made before devices existed as they were', () => {
    const jsonl = finetuneRows(rows, rows);
    const sha = encoderDigest(DEFAULT_ENCODER);
    const cpu = kitBertKey(jsonl, labels, sha, settings);
    expect(kitBertKey(jsonl, labels, sha, { ...settings, device: 'cpu' })).toBe(cpu);
    expect(kitBertKey(jsonl, labels, sha, { ...settings, device: 'cuda' })).not.toBe(cpu);
  });

  it('queues a missing fine-tuning once, writes its rows, defers the case; a CPU folder of the same rows serves instead', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'kit-bert-queue-'));
    const queue = join(cacheDir, 'queue.jsonl');
    const device = {
      ...settings,
      encoder: DEFAULT_ENCODER,
      cacheDir,
      python: '/nonexistent/python3',
      device: 'cuda',
      queue,
    };
    const key = kitBertKey(finetuneRows(rows, rows), labels, encoderDigest(DEFAULT_ENCODER), device);
    for (let i = 0; i < 2; i++) {
      const e = await kitBertClassifier(rows, rows, labels, device).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DeferredFineTune);
      expect((e as DeferredFineTune).key).toBe(key);
    }
    const lines = readFileSync(queue, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1); // asked twice, queued once
    expect(JSON.parse(lines[0])).toEqual({
      key,
      rows: join(cacheDir, `${key}.rows.jsonl`),
      labels,
      out: join(cacheDir, key),
      encoder: DEFAULT_ENCODER,
      epochs: 3,
      seed: 1,
      threads: 1,
      device: 'cuda',
    });
    expect(readFileSync(join(cacheDir, `${key}.rows.jsonl`), 'utf8')).toBe(finetuneRows(rows, rows));
    // once a folder fine-tuned here exists for the same rows and settings, the device run uses it and queues nothing
    const cpuKey = kitBertKey(finetuneRows(rows, rows), labels, encoderDigest(DEFAULT_ENCODER), settings);
    cpSync(join(ROOT, 'models/transformers/fixtures/tiny-bert-shortcut'), join(cacheDir, cpuKey), { recursive: true });
    writeFileSync(
      join(cacheDir, cpuKey, 'training.json'),
      JSON.stringify({
        epochs: 3,
        best_epoch: 2,
        validation_accuracy: 0.5,
        rows: { train: 5, validation: 5 },
        truncated: { train: 0, validation: 0 },
        max_length: 64,
      }),
    );
    const { info } = await kitBertClassifier(rows, rows, labels, device);
    expect(info).toMatchObject({ key: cpuKey, cached: true, trainedOn: 'cpu' });
    // a folder brought back from the device says where it was trained
    const gpu = join(cacheDir, key);
    cpSync(join(cacheDir, cpuKey), gpu, { recursive: true });
    writeFileSync(
      join(gpu, 'training.json'),
      JSON.stringify({
        epochs: 3,
        best_epoch: 1,
        validation_accuracy: 0.6,
        rows: { train: 5, validation: 5 },
        truncated: { train: 0, validation: 0 },
        max_length: 64,
        weights: {
          trained_on: 'cuda (NVIDIA H200, torch 2.11.0)',
          travelled_as: 'int8',
          dequantized_validation_accuracy: 0.62,
        },
      }),
    );
    expect((await kitBertClassifier(rows, rows, labels, device)).info.key).toBe(cpuKey); // the CPU folder still comes first
    rmSync(join(cacheDir, cpuKey), { recursive: true });
    expect((await kitBertClassifier(rows, rows, labels, device)).info).toMatchObject({
      key,
      cached: true,
      bestEpoch: 1,
      validationAccuracy: 0.62,
      trainedOn: 'cuda (NVIDIA H200, torch 2.11.0); weights as int8 rows, dequantized',
    });
  });

  it('needs a queue for a device, takes cpu|cuda|cuda:N, and only with kit-bert', () => {
    const o = parseShortcutArgs([
      '--model',
      'kit-bert',
      '--finetune-device',
      'cuda',
      '--finetune-queue',
      'q.jsonl',
      '--cache',
      '/c',
    ]);
    expect(kitBertSettings(o)).toMatchObject({ device: 'cuda', queue: join(process.cwd(), 'q.jsonl') });
    const bad = [
      ['--model', 'kit-bert', '--finetune-device', 'cuda'],
      ['--model', 'kit-bert', '--finetune-queue', 'q.jsonl'],
      ['--model', 'kit-bert', '--finetune-device', 'gpu', '--finetune-queue', 'q.jsonl'],
      ['--finetune-device', 'cuda', '--finetune-queue', 'q.jsonl'],
    ];
    for (const args of bad)
      expect(errorOf(() => parseShortcutArgs(args))?.code, args.join(' ')).toBe('INVALID_ARGUMENT');
    expect(
      parseShortcutArgs(['--model', 'kit-bert', '--finetune-device', 'cuda:1', '--finetune-queue', 'q']).finetuneDevice,
    ).toBe('cuda:1');
  });

  it('finetune.py refuses --shards-out with --from-shards before loading torch', () => {
    const r = spawnSync(
      PYTHON,
      [
        FINETUNE_SCRIPT,
        '--rows',
        'r.jsonl',
        '--labels',
        'a,b',
        '--out',
        'o',
        '--shards-out',
        's',
        '--from-shards',
        's',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--shards-out trains and --from-shards exports');
  });
});

describe('kit-bert: benchmark options', () => {
  it('--model kit-bert with its settings; defaults 3 epochs, 1 thread, the committed encoder', () => {
    const o = parseShortcutArgs([
      '--model',
      'kit-bert',
      '--only',
      '1,11',
      '--encoder',
      '/enc',
      '--epochs',
      '2',
      '--model-threads',
      '2',
      '--cache',
      '/c',
    ]);
    expect([o.model, o.encoder, o.epochs, o.modelThreads]).toEqual(['kit-bert', '/enc', 2, 2]);
    expect(kitBertSettings(o)).toEqual({ encoder: '/enc', epochs: 2, threads: 2, cacheDir: '/c/kit-bert' });
    const d = parseShortcutArgs(['--model', 'kit-bert']);
    expect([d.epochs, d.modelThreads]).toEqual([3, 1]);
    expect(kitBertSettings(d)).toEqual({
      encoder: DEFAULT_ENCODER,
      epochs: 3,
      threads: 1,
      cacheDir: DEFAULT_KIT_CACHE,
    });
  });

  it('refuses an unknown model, and fine-tuning settings on a bag-of-words run', () => {
    expect(errorOf(() => parseShortcutArgs(['--model', 'bert']))?.code).toBe('INVALID_ARGUMENT');
    expect(parseShortcutArgs(['--model', 'bow-mlp']).model).toBe('bow-mlp');
    for (const flag of [
      ['--epochs', '2'],
      ['--encoder', '/x'],
      ['--model-threads', '2'],
    ]) {
      const e = errorOf(() => parseShortcutArgs(flag));
      expect(e?.code).toBe('INVALID_ARGUMENT');
      expect(e?.message).toContain('kit-bert');
    }
    expect(errorOf(() => parseShortcutArgs(['--model', 'kit-bert', '--epochs', '0']))?.code).toBe('INVALID_ARGUMENT');
  });

  it('buildCase with kit-bert needs its settings', async () => {
    const corpus: CorpusRows = {
      name: 'tiny',
      labels: ['a', 'b'],
      rows: Array.from({ length: 40 }, (_, i) => row(`r${i}`, i % 2 ? 'a' : 'b', `word${i} other words here`)),
      group: (r) => r.id,
    };
    const spec = parseShortcutArgs(['--corpus', 'brown', '--classes', 'a,b', '--target', 'a']).cases[0];
    await expect(
      buildCase(spec, {
        kind: 'kit-bert',
        testFractions: [0.3],
        validationFraction: 0.15,
        windowsPerText: 1,
        minPerSide: 1,
        validation: false,
        corpus,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('the registry runs the transformer section on the kit masked LM with the documented sizes', () => {
    const b = BENCHMARKS.find((x) => x.name === 'table3-transformer')!;
    expect(BENCHMARKS.indexOf(b)).toBe(BENCHMARKS.findIndex((x) => x.name === 'table3') + 1);
    const s = b.script!({ quick: false, log: () => {} } as never);
    if ('skipped' in s) throw new Error(s.skipped);
    const value = (f: string) => s.args[s.args.indexOf(f) + 1];
    expect([
      value('--model'),
      value('--encoder'),
      value('--only'),
      value('--train'),
      value('--samples'),
      value('--per-side'),
    ]).toEqual(['kit-bert', join(ROOT, KIT_MLM), TABLE3_TRANSFORMER_CASES, '300', '1000', '120']);
    expect(s.args).not.toContain('--min-per-side'); // the scoring minimum stays the family's 100
  });
});

describe('kit-bert: report', () => {
  it('one row per case with the transformer figures; a too-small case has no metric', () => {
    const base = {
      name: 'brown/papaya→hobbies/share1/w40/s1',
      poolAccuracy: 0.5,
      counts: { rows: 10, trustworthy: 20, untrustworthy: 3, ambiguous: { count: 1, reasons: {} }, incorrect: 4 },
      transformer: {
        folder: 'f',
        key: 'k',
        encoder: 'e',
        size: '2 × 128',
        epochs: 3,
        bestEpoch: 2,
        validationAccuracy: 0.61,
        rows: { train: 3509, validation: 986 },
        truncated: { train: 517, validation: 171 },
        maxLength: 64,
        seconds: 150,
        cached: false,
      },
    };
    const t = transformerTable([
      { ...base, status: 'too small' } as unknown as CaseResult,
      { ...base, status: 'scored', scored: { trustworthy: 100, untrustworthy: 100 } } as unknown as CaseResult,
    ]);
    const lines = t.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain('0.610 (2 / 3)');
    expect(lines[2]).toContain('3,509 (517 cut at 64 pieces)');
    expect(lines[2]).toContain('**too small**');
    expect(lines[3]).toContain('scored (100+100)');
  });

  it("puts each transformer case under the same case of the bag-of-words run, with each run's settings", () => {
    const row = (method: string, oracle: string | undefined, g: number) => ({
      method,
      ...(oracle ? { oracle } : {}),
      metrics: { gmean: g },
      gmeanCI: { lo: g - 0.05, hi: g + 0.05 },
      unknown: 0,
    });
    const mk = (name: string, model: string, g: number, extra: object = {}) =>
      ({
        name,
        model,
        status: 'scored',
        poolAccuracy: 0.6,
        counts: { trustworthy: 200, untrustworthy: 150, ambiguous: { count: 5, reasons: {} } },
        rows: [row('TOKI-lime', 'toki', g), row('Naive (θ=0.9)', undefined, 0.3)],
        ...extra,
      }) as unknown as CaseResult;
    const t = sideBySideTable(
      {
        options: { train: 300, samples: 1000, perSide: 120 },
        cases: [mk('c1', 'kit-bert', 0.8, { transformer: { size: '2 × 128' } }), mk('c9', 'kit-bert', 0.7)],
      },
      {
        options: { train: 2000, samples: 5000, perSide: 250 },
        cases: [mk('c0', 'bow-logistic', 0.1), mk('c1', 'bow-logistic', 0.9)],
      },
    ).split('\n');
    // header, rule, then bow and transformer rows of c1 only (c9 has no bag-of-words twin, c0 no transformer run)
    expect(t).toHaveLength(4);
    expect(t[2]).toMatch(
      /^\| c1 \| bow-logistic \| LIME 5,000 samples, 2,000 keyword texts, ≤ 250 per side \| 0\.600 \| 200 \/ 150 \(5\) \| 0\.900 \[0\.850, 0\.950\] \| 0\.300/,
    );
    expect(t[3]).toMatch(
      /^\| c1 \| kit-bert \(2 × 128\) \| LIME 1,000 samples, 300 keyword texts, ≤ 120 per side \| .* \| 0\.800 \[0\.750, 0\.850\] \|/,
    );
  });
});

// finetune.py checks its arguments before importing torch: these run in a fraction of a second, with or without torch
describe.skipIf(!existsSync(PYTHON))('finetune.py argument checks (no training)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'finetune-args-'));
  const rowsFile = join(dir, 'rows.jsonl');
  writeFileSync(
    rowsFile,
    `${JSON.stringify({ text: 'a b', label: 'x', split: 'train' })}\n${JSON.stringify({ text: 'c d', label: 'y', split: 'train' })}\n${JSON.stringify({ text: 'e f', label: 'y', split: 'validation' })}\n`,
  );
  const run = (...args: string[]) =>
    spawnSync(PYTHON, [FINETUNE_SCRIPT, ...args], { encoding: 'utf8', timeout: 30000 });

  it('exits 2 naming the bad input', () => {
    const cases: [string[], string][] = [
      [['--rows', join(dir, 'none.jsonl'), '--labels', 'x,y', '--out', join(dir, 'o')], 'no such file'],
      [['--rows', rowsFile, '--labels', 'x', '--out', join(dir, 'o')], 'at least two labels'],
      [['--rows', rowsFile, '--labels', 'x,z', '--out', join(dir, 'o')], "line 2: label 'y' is not one of --labels"],
      [
        [
          '--rows',
          rowsFile,
          '--labels',
          'x,y',
          '--out',
          join(dir, 'o'),
          '--encoder',
          join(ROOT, 'models/transformers/fixtures/tiny-bert-spam'),
        ],
        'expected a BertForMaskedLM',
      ],
      [
        ['--rows', rowsFile, '--labels', 'x,y', '--out', join(dir, 'o'), '--epochs', '0'],
        '--epochs must be a positive integer',
      ],
      [['--labels', 'x,y', '--out', join(dir, 'o')], '--rows'],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(existsSync(join(dir, 'o'))).toBe(false);
  });

  it('needs validation rows and a training row of every label', () => {
    const only = join(dir, 'train-only.jsonl');
    writeFileSync(
      only,
      `${JSON.stringify({ text: 'a b', label: 'x', split: 'train' })}\n${JSON.stringify({ text: 'c d', label: 'y', split: 'train' })}\n`,
    );
    expect(run('--rows', only, '--labels', 'x,y', '--out', join(dir, 'o')).stderr).toContain('no validation rows');
    const missing = join(dir, 'missing-label.jsonl');
    writeFileSync(
      missing,
      `${JSON.stringify({ text: 'a b', label: 'x', split: 'train' })}\n${JSON.stringify({ text: 'c d', label: 'y', split: 'validation' })}\n`,
    );
    expect(run('--rows', missing, '--labels', 'x,y', '--out', join(dir, 'o')).stderr).toContain(
      'no training row for label(s) y',
    );
  });
});
