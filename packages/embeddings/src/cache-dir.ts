import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder xtrust keeps derived files in: `$XTRUST_CACHE_DIR`, else `$XDG_CACHE_HOME/xtrust`
 * (XDG Base Directory spec), else `~/.cache/xtrust`. Read at each call so tests can redirect it.
 */
export function cacheDir(): string {
  const own = process.env.XTRUST_CACHE_DIR;
  if (own && own.trim() !== '') return own;
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && xdg.trim() !== '') return join(xdg, 'xtrust');
  return join(homedir(), '.cache', 'xtrust');
}
