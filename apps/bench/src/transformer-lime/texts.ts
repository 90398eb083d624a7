import { existsSync } from 'node:fs';
import { rng, tokenize } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import { readJson } from '../harness/store.js';

/**
 * `count` SpamAssassin bodies (headers removed) with at least `words` words, each cut after its
 * `words`-th word (separators up to there kept), chosen with a fixed seed.
 */
export function textsOfLength(words: number, count: number, seed = 16): string[] {
  const rows = loadSpamAssassin({ headers: false }).rows;
  const order = rng(seed).shuffle(rows.map((_, i) => i));
  const out: string[] = [];
  for (const i of order) {
    const text = rows[i].text;
    const toks = tokenize(text);
    if (toks.length < words) continue;
    // Skip base64 blobs and markup-heavy bodies: the comparison is about prose.
    const mean = toks.slice(0, words).reduce((s, t) => s + t.text.length, 0) / words;
    if (mean > 9) continue;
    out.push(text.slice(0, toks[words - 1].end));
    if (out.length === count) break;
  }
  return out;
}

/**
 * Texts for choosing settings (the adaptive stopping rule, the batch size): drawn with another seed,
 * the benchmark's texts (seed 16, 3 per length) excluded, so no setting is tuned on what it is judged on.
 */
export function validationTexts(words: number, count: number): string[] {
  const benchmark = new Set(textsOfLength(words, 3));
  return textsOfLength(words, count + 3, 17)
    .filter((t) => !benchmark.has(t))
    .slice(0, count);
}

/**
 * A block's texts: its `<tag>-texts.json[.gz]` file when there is one, else drawn again — textsOfLength is
 * seeded and the corpus ships with @xtrust/datasets, so the 30-text blocks' texts files are not committed (the
 * results folder has a git budget). Callers check what they get against the block's digest or probabilities.
 */
export function blockTexts(file: string, words: number, count: number): string[] {
  return existsSync(file) ? readJson<string[]>(file) : textsOfLength(words, count);
}
