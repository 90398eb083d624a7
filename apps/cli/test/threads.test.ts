// --threads and its default: an ONNX model's forward passes run on every core unless told otherwise.
// Left to itself, onnxruntime-node gave a session one thread on this project's 2-core machine, so a
// transformer audit used half of it. onnxruntime's intra-op pool starts (threads − 1) threads of its own
// when a session is created (the calling thread is the last one), which is what these tests count.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OnnxClassifier } from '@xtrust/models';
import { defaultThreads, loadModel } from '../src/model-loader.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';
import { xtrustAsync } from './helpers.js';

const threadsOfThisProcess = () => readdirSync('/proc/self/task').length;

/** Threads this process gained while loading the model with `options` (the model stays loaded until released). */
async function threadsStarted(options: {
  threads?: number;
  sessions?: number;
}): Promise<{ started: number; model: OnnxClassifier }> {
  const before = threadsOfThisProcess();
  const { classifier } = await loadModel(kitFixture('tiny-bert-spam'), options);
  return { started: threadsOfThisProcess() - before, model: classifier as OnnxClassifier };
}

let bert: string;
beforeAll(async () => {
  bert = kitFixture('tiny-bert-spam');
  // a first load starts the process-wide threads (onnxruntime's globals, libuv's pool) once, so the
  // counts below see only each session's own pool
  const warm = await loadModel(bert, { threads: 1 });
  await (warm.classifier as OnnxClassifier).release();
}, 60_000);

describe('onnxruntime threads of a loaded model', () => {
  it('default: every core (availableParallelism), one pool thread per core beyond the calling one', async () => {
    expect(defaultThreads()).toBe(availableParallelism());
    const { started, model } = await threadsStarted({});
    expect(started).toBe(availableParallelism() - 1);
    await model.release();
  });

  it('threads: 1 starts no pool thread; threads: 3 starts two', async () => {
    const one = await threadsStarted({ threads: 1 });
    expect(one.started).toBe(0);
    const three = await threadsStarted({ threads: 3 });
    expect(three.started).toBe(2);
    await one.model.release();
    await three.model.release();
  });

  it('--threads must be a positive integer, named in the error', async () => {
    for (const bad of ['0', 'two', '1.5']) {
      const r = await xtrustAsync(['explain', '--model', bert, '--text', 'win money now', '--threads', bad]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/--threads/);
      expect(r.stderr).toMatch(/positive integer/);
    }
  });

  it('--threads 1 explains with the same weights as the default', async () => {
    const run = async (extra: string[]) => {
      const r = await xtrustAsync([
        'explain',
        '--model',
        bert,
        '--text',
        'Click here to win FREE money now, claim your prize!',
        '--samples',
        '300',
        '--json',
        ...extra,
      ]);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect(await run(['--threads', '1'])).toEqual(await run([]));
  });
});

describe('--sessions: parallel scoring sessions of an ONNX model', () => {
  it('explains with the same weights as one session; the worker threads end with the command', async () => {
    const run = async (extra: string[]) => {
      const r = await xtrustAsync([
        'explain',
        '--model',
        bert,
        '--text',
        'Click here to win FREE money now, claim your prize today and reply with your bank details',
        '--samples',
        '400',
        '--json',
        ...extra,
      ]);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect(await run(['--sessions', '2', '--threads', '2'])).toEqual(await run(['--threads', '1']));
  });

  it('starts one worker thread per session beyond the main session, each with its share of the threads', async () => {
    const before = threadsOfThisProcess();
    const { classifier } = await loadModel(bert, { threads: 2, sessions: 2 });
    // the main session on 2 threads (one pool thread), two worker threads on one thread each (none of their own)
    expect(threadsOfThisProcess() - before).toBeGreaterThanOrEqual(1 + 2);
    await (classifier as OnnxClassifier).release();
  });

  it('is refused, naming the model, where onnxruntime does not run the model; a bad count is named', async () => {
    const hf = await xtrustAsync([
      'explain',
      '--model',
      bert,
      '--runtime',
      'transformers',
      '--text',
      'win money now',
      '--sessions',
      '2',
    ]);
    expect(hf.code).toBe(2);
    expect(hf.stderr).toContain(`--sessions applies to ONNX models`);
    expect(hf.stderr).toContain(bert);
    const bad = await xtrustAsync(['explain', '--model', bert, '--text', 'win money now', '--sessions', '0']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--sessions/);
  });
});
