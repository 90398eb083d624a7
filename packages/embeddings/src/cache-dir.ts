import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

/**
 * Writes `chunks` to `file` atomically: into a temporary file in the same folder, fsync'd, then
 * renamed over the target — a reader never sees a half-written cache, and two processes building the
 * same cache at once both end with a complete file. Throws on any I/O error (callers decide).
 */
export function writeFileAtomic(file: string, chunks: readonly ArrayBufferView[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd = -1;
  try {
    fd = openSync(tmp, 'w');
    for (const c of chunks) {
      const bytes = new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, Math.min(bytes.length - off, 1 << 26));
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, file);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}
