import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `data` to `file` atomically, creating its folder: into a temporary file in the same folder
 * (unique per process and call), fsync'd, then renamed over the target. A reader never sees a
 * half-written file, a process killed mid-write leaves the old file (or none), and two processes writing
 * the same file at once both end with a complete one. `data`: a string (written as UTF-8), bytes, or a
 * list of byte views written one after another (a large cache without concatenating it first). Throws on
 * any I/O error after removing the temporary file.
 */
export function writeFileAtomic(file: string, data: string | ArrayBufferView | readonly ArrayBufferView[]): void {
  const chunks = typeof data === 'string' ? [Buffer.from(data, 'utf8')] : ArrayBuffer.isView(data) ? [data] : data;
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
