import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Hugging Face model folder's `config.json` as an object, or undefined when the folder has none or it
 * is not a JSON object (a caller that only wants hints from it goes on without them).
 */
export function readHfConfig(dir: string): Record<string, unknown> | undefined {
  try {
    const c: unknown = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    return c !== null && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The keys a Hugging Face config.json names its model width by, in the order they are tried. */
const HIDDEN_SIZE_KEYS = ['hidden_size', 'd_model', 'dim', 'n_embd', 'word_embed_proj_dim'] as const;

/**
 * A transformer's hidden size (width of its token states) from its Hugging Face config: the first of
 * `hidden_size` (BERT), `d_model` (T5, BART), `dim` (DistilBERT), `n_embd` (GPT-2), `word_embed_proj_dim`
 * (OPT) that is a positive integer; undefined when none is.
 */
export function hiddenSizeOf(config: Readonly<Record<string, unknown>> | undefined): number | undefined {
  if (!config) return undefined;
  for (const k of HIDDEN_SIZE_KEYS) {
    const v = config[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}
