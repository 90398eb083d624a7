import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { FIXTURES, KIT } from '../../../models/transformers/fixture-paths.js';

/**
 * onnxruntime-node against PyTorch on the committed weights (issue 15, deliverable 2): Debian's
 * /usr/bin/python3 + torch rebuilds each fixture's module from config.json and the ONNX graph's
 * initializers (models/transformers/check_onnx.py) and runs seeded random inputs — padded batches,
 * both token types, random integrated-gradient scales and output weights — which were never seen by the
 * build; every output must agree with onnxruntime-node's within 1e-4 (gradients: 1e-4 of their largest
 * entry when that exceeds 1). Installs python3-torch with apt when it is missing (CI runs as root on Debian).
 */
const PYTHON = '/usr/bin/python3';
const CHECK = join(KIT, 'check_onnx.py');

function hasTorch(): boolean {
  return spawnSync(PYTHON, ['-c', 'import torch, numpy'], { stdio: 'ignore' }).status === 0;
}

/** Debian's torch (and the threaded OpenBLAS, without which its matmuls crawl), installed when missing. */
function ensureTorch(): void {
  if (hasTorch()) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `${PYTHON} cannot import torch: apt-get install -y python3-torch libopenblas0-pthread (or bash models/transformers/setup.sh)`,
    );
  execSync(
    'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-torch python3-numpy libopenblas0-pthread',
    { stdio: 'inherit' },
  );
  if (!hasTorch()) throw new Error('python3-torch was installed but torch still does not import');
}

interface Config {
  architectures: string[];
  vocab_size: number;
  max_position_embeddings: number;
  num_hidden_layers: number;
  id2label?: Record<string, string>;
}
interface Inputs {
  input_ids: number[][];
  attention_mask: number[][];
  token_type_ids: number[][];
  embedding_scale: number[][];
  output_weights: number[][];
}

const NAMES = ['tiny-bert-spam', 'tiny-bert-brown', 'tiny-bert-shortcut', 'tiny-bert-mlm', 'tiny-gpt2'];
const configs = Object.fromEntries(
  NAMES.map((n) => [n, JSON.parse(readFileSync(join(FIXTURES, n, 'config.json'), 'utf8')) as Config]),
);

/** Seeded random inputs: three texts of different lengths ([CLS] random pieces [SEP], right-padded), the first one reaching the position limit. */
function randomInputs(config: Config, seed: number): Inputs {
  const r = rng(seed);
  const S = config.max_position_embeddings;
  const lengths = [S, Math.max(3, Math.floor(S / 3)), 4];
  const labels = config.id2label ? Object.keys(config.id2label).length : 1;
  const ids = lengths.map((n) =>
    Array.from({ length: S }, (_, i) => (i === 0 ? 2 : i === n - 1 ? 3 : i < n ? 5 + r.int(config.vocab_size - 5) : 0)),
  );
  return {
    input_ids: ids,
    attention_mask: lengths.map((n) => Array.from({ length: S }, (_, i) => (i < n ? 1 : 0))),
    token_type_ids: lengths.map((n, b) =>
      Array.from({ length: S }, (_, i) => (b === 0 && i >= n / 2 && i < n ? 1 : 0)),
    ),
    embedding_scale: lengths.map(() => Array.from({ length: S }, () => r.float())),
    output_weights: lengths.map(() => Array.from({ length: labels }, () => r.normal())),
  };
}

const int64 = (rows: number[][]) =>
  new ort.Tensor('int64', BigInt64Array.from(rows.flat().map(BigInt)), [rows.length, rows[0].length]);
const float32 = (rows: number[][]) =>
  new ort.Tensor('float32', Float32Array.from(rows.flat()), [rows.length, rows[0].length]);

function maxAbsDiff(a: ArrayLike<number>, b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('onnxruntime-node equals PyTorch on the committed transformer weights', () => {
  let dir: string;
  const inputs: Record<string, Inputs> = {};
  let torchOut: Record<string, Record<string, number[] | number[][]>>;

  beforeAll(() => {
    ensureTorch();
    dir = mkdtempSync(join(tmpdir(), 'xtrust-kit-'));
    NAMES.forEach((n, i) => (inputs[n] = randomInputs(configs[n], 100 + i)));
    writeFileSync(join(dir, 'inputs.json'), JSON.stringify(inputs));
    const r = spawnSync(PYTHON, [CHECK, FIXTURES, join(dir, 'inputs.json'), join(dir, 'outputs.json')], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`check_onnx.py failed (${r.status}): ${r.stderr}`);
    torchOut = JSON.parse(readFileSync(join(dir, 'outputs.json'), 'utf8'));
  }, 600_000);
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  for (const name of ['tiny-bert-spam', 'tiny-bert-brown', 'tiny-bert-shortcut']) {
    it(`${name}: logits, every layer's attentions, and the gradient graph against autograd`, async () => {
      const x = inputs[name];
      const t = torchOut[name] as Record<string, number[] & number[][]>;
      const feeds = {
        input_ids: int64(x.input_ids),
        attention_mask: int64(x.attention_mask),
        token_type_ids: int64(x.token_type_ids),
      };
      const s = await ort.InferenceSession.create(join(FIXTURES, name, 'onnx', 'model.onnx'));
      const out = await s.run(feeds);
      expect(maxAbsDiff(out.logits.data as Float32Array, t.logits)).toBeLessThanOrEqual(1e-4);
      for (let l = 0; l < configs[name].num_hidden_layers; l++)
        expect(
          maxAbsDiff(out[`attentions.${l}`].data as Float32Array, t.attentions[l]),
          `attentions.${l}`,
        ).toBeLessThanOrEqual(1e-4);
      const g = await ort.InferenceSession.create(join(FIXTURES, name, 'onnx', 'model_grad.onnx'));
      const gout = await g.run({
        ...feeds,
        embedding_scale: float32(x.embedding_scale),
        output_weights: float32(x.output_weights),
      });
      expect(maxAbsDiff(gout.logits.data as Float32Array, t.grad_logits)).toBeLessThanOrEqual(1e-4);
      expect(maxAbsDiff(gout.inputs_embeds.data as Float32Array, t.inputs_embeds)).toBeLessThanOrEqual(1e-6);
      const scale = t.gradients.reduce((m: number, v: number) => Math.max(m, Math.abs(v)), 0);
      expect(scale).toBeGreaterThan(1e-3);
      expect(maxAbsDiff(gout.gradients.data as Float32Array, t.gradients)).toBeLessThanOrEqual(
        1e-4 * Math.max(1, scale),
      );
    });
  }

  it('tiny-bert-mlm: [batch, sequence, vocab] logits', async () => {
    const x = inputs['tiny-bert-mlm'];
    const s = await ort.InferenceSession.create(join(FIXTURES, 'tiny-bert-mlm', 'onnx', 'model.onnx'));
    const out = await s.run({
      input_ids: int64(x.input_ids),
      attention_mask: int64(x.attention_mask),
      token_type_ids: int64(x.token_type_ids),
    });
    expect(
      maxAbsDiff(out.logits.data as Float32Array, torchOut['tiny-bert-mlm'].logits as number[]),
    ).toBeLessThanOrEqual(1e-4);
  });

  it('tiny-gpt2: [batch, sequence, vocab] logits', async () => {
    const x = inputs['tiny-gpt2'];
    const s = await ort.InferenceSession.create(join(FIXTURES, 'tiny-gpt2', 'onnx', 'model.onnx'));
    const out = await s.run({ input_ids: int64(x.input_ids), attention_mask: int64(x.attention_mask) });
    expect(maxAbsDiff(out.logits.data as Float32Array, torchOut['tiny-gpt2'].logits as number[])).toBeLessThanOrEqual(
      1e-4,
    );
  });
});
