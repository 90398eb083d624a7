import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The one place the TypeScript tests of every package find the kit's committed fixtures.

/** The transformer model kit (models/transformers) in this repository. */
export const KIT = dirname(fileURLToPath(import.meta.url));

/**
 * The kit's committed fixtures (models/transformers/fixtures); XTRUST_KIT_FIXTURES points the tests
 * at another build of the same layout instead (e.g. `models/transformers/out/fixtures`).
 */
export const FIXTURES = process.env.XTRUST_KIT_FIXTURES
  ? resolve(process.env.XTRUST_KIT_FIXTURES)
  : join(KIT, 'fixtures');

/** Absolute path of a kit fixture; fails loudly (never skips) when it is absent. */
export function kitFixture(
  name: 'tiny-bert-spam' | 'tiny-bert-brown' | 'tiny-bert-shortcut' | 'tiny-bert-mlm' | 'tiny-gpt2',
): string {
  const dir = join(FIXTURES, name);
  if (!existsSync(join(dir, 'config.json')))
    throw new Error(`kit fixture ${dir} is missing (built by models/transformers: pnpm models:build)`);
  return dir;
}
