import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The model kit's committed fixtures (models/transformers/fixtures at the repository root);
 * XTRUST_KIT_FIXTURES points the tests at another build of the same layout, as the kit's own tests do.
 */
export const FIXTURES = process.env.XTRUST_KIT_FIXTURES
  ? resolve(process.env.XTRUST_KIT_FIXTURES)
  : resolve(dirname(fileURLToPath(import.meta.url)), '../../../models/transformers/fixtures');

/** Absolute path of a committed kit fixture; fails loudly (never skips) when it is absent. */
export function kitFixture(name: 'tiny-bert-spam' | 'tiny-bert-brown' | 'tiny-bert-mlm' | 'tiny-gpt2'): string {
  const dir = join(FIXTURES, name);
  if (!existsSync(join(dir, 'config.json'))) throw new Error(`kit fixture ${dir} is missing (built by models/transformers: pnpm models:build)`);
  return dir;
}
