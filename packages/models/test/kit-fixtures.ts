import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The transformer model kit (models/transformers) in this repository. */
export const KIT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'models', 'transformers');

/**
 * The transformer model kit's committed fixtures (models/transformers/fixtures), resolved from the
 * repository root; XTRUST_KIT_FIXTURES points the checks at another build of the same layout instead.
 */
export const FIXTURES = process.env.XTRUST_KIT_FIXTURES
  ? resolve(process.env.XTRUST_KIT_FIXTURES)
  : resolve(KIT, 'fixtures');
