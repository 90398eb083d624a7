import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's Python, where python3-numpy (OpenBLAS) and python3-scipy live (python3 on PATH may be a pyenv one). */
export const PYTHON = process.env.XTRUST_BENCH_PYTHON ?? '/usr/bin/python3';
// peers.py stays in src/ (tsc does not copy it): from src/native/ and from dist/native/ alike.
const SCRIPT = fileURLToPath(new URL('../../src/native/peers.py', import.meta.url));

/** Whether numpy and SciPy import under PYTHON; the reason when not. */
export function pythonPeers(): { ok: true } | { ok: false; reason: string } {
  const r = spawnSync(PYTHON, ['-c', 'import numpy, scipy'], { encoding: 'utf8' });
  if (r.status === 0) return { ok: true };
  return {
    ok: false,
    reason: `${PYTHON} cannot import numpy and scipy (apt-get install -y python3-numpy python3-scipy): ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`,
  };
}

/** Runs peers.py with float32 matrices written to a temporary folder; returns its JSON. */
export function runPeer<T>(
  command: string,
  matrices: Record<string, Float32Array>,
  args: (name: Record<string, string>) => string[],
): T {
  const dir = mkdtempSync(join(tmpdir(), 'xtrust-bench-'));
  try {
    const files: Record<string, string> = {};
    for (const [name, m] of Object.entries(matrices)) {
      files[name] = join(dir, `${name}.f32`);
      writeFileSync(files[name], new Uint8Array(m.buffer, m.byteOffset, m.byteLength));
    }
    const r = spawnSync(PYTHON, [SCRIPT, command, ...args(files)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`peers.py ${command} failed: ${r.stderr || r.error?.message}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
