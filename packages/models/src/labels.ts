import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XtrustError } from '@xtrust/core';

/** Labels in id order from a Hugging Face config.json's id2label. */
export async function labelsFromConfig(folder: string, source: string): Promise<string[]> {
  const path = join(folder, 'config.json');
  if (!existsSync(path))
    throw new XtrustError(
      'FILE_NOT_FOUND',
      `${source}: ${path} is missing (it carries id2label); pass labels explicitly or add config.json`,
      { file: path },
    );
  let config: { id2label?: Record<string, string> };
  try {
    config = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new XtrustError(
      'PARSE_ERROR',
      `${path}: not valid JSON (${(e as Error).message})`,
      { file: path },
      { cause: e },
    );
  }
  return labelsFromId2Label(config.id2label, path);
}

/** Labels in id order from an id2label object; ids must be 0…k−1. */
export function labelsFromId2Label(id2label: Record<string, string> | undefined, where: string): string[] {
  if (!id2label || typeof id2label !== 'object')
    throw new XtrustError('PARSE_ERROR', `${where}: no id2label object`, { file: where });
  const entries = Object.entries(id2label).map(([k, v]) => [Number(k), String(v)] as const);
  entries.sort((a, b) => a[0] - b[0]);
  entries.forEach(([id], i) => {
    if (id !== i)
      throw new XtrustError('PARSE_ERROR', `${where}: id2label ids must be 0…${entries.length - 1}, found ${id}`, {
        file: where,
      });
  });
  return entries.map(([, l]) => l);
}

/** Row-wise softmax of n×k logits (Float64 arithmetic), into a Float32Array. */
export function softmaxLogits(logits: ArrayLike<number>, n: number, k: number): Float32Array {
  const out = new Float32Array(n * k);
  for (let r = 0; r < n; r++) {
    let max = -Infinity;
    for (let c = 0; c < k; c++) max = Math.max(max, logits[r * k + c]);
    let sum = 0;
    for (let c = 0; c < k; c++) sum += Math.exp(logits[r * k + c] - max);
    for (let c = 0; c < k; c++) out[r * k + c] = Math.exp(logits[r * k + c] - max) / sum;
  }
  return out;
}
