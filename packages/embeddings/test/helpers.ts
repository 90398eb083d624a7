import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder for one test. */
export function tempDir(prefix = 'xtrust-emb-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a small file in the wink embeddings JSON layout: each vector followed by its norm and row index. */
export function writeWinkJson(dir: string, vectors: Record<string, number[]>, name = 'tiny.json'): string {
  const words = Object.keys(vectors);
  const dim = vectors[words[0]].length;
  const body: Record<string, number[]> = {};
  words.forEach((w, i) => {
    const v = vectors[w];
    body[w] = [...v, Math.hypot(...v), i];
  });
  const json = {
    precision: 8,
    l2NormIndex: dim,
    wordIndex: dim + 1,
    size: words.length,
    dimensions: dim,
    words,
    vectors: body,
    unkVector: new Array(dim + 2).fill(0),
  };
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(json));
  return file;
}

export const TINY: Record<string, number[]> = {
  king: [1, 0.9, 0, 0.1],
  queen: [0.95, 1, 0, 0.1],
  apple: [0, 0.1, 1, 0.2],
  pear: [0, 0.15, 0.9, 0.3],
  'new\u00e9': [0.5, -0.5, 0.5, -0.5],
  good: [0.2, 0.2, 0.2, 1],
};
