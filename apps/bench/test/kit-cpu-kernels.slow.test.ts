/**
 * The model kit's CPU-kernel pins reach the libraries: with them, Debian's OpenBLAS reports the Haswell
 * kernels whatever the CPU (on an AVX-512 machine it otherwise picks an AVX-512 core type such as
 * Cooperlake or SkylakeX, whose sums round differently and made the seeded build's bytes differ).
 * Slow: loads torch (installed by the test set-up in CI).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/oracle/kit-bert.js';

const KIT = join(ROOT, 'models', 'transformers');

/** The core type OpenBLAS reports (OPENBLAS_VERBOSE=2) for a matmul made after `prelude`. */
function openblasCore(prelude: string, env: Record<string, string> = {}): string {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(OPENBLAS_|ATEN_CPU|ONEDNN_|DNNL_)/.test(k)),
  );
  const code = `import sys; sys.path.insert(0, ${JSON.stringify(KIT)})\n${prelude}\nimport torch\na = torch.ones(64, 64)\nprint(float((a @ a)[0, 0]))`;
  const r = spawnSync('/usr/bin/python3', ['-c', code], {
    env: { ...clean, OPENBLAS_VERBOSE: '2', ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim()).toBe('64.0');
  const core = /Core: (\S+)/.exec(r.stdout + r.stderr);
  expect(core, `OpenBLAS printed no core type: ${r.stderr}`).not.toBeNull();
  return core![1];
}

describe('kit: the pins reach OpenBLAS', () => {
  it('pinned, OpenBLAS runs its Haswell kernels', { timeout: 60_000 }, () => {
    expect(openblasCore('from kit.cpu_kernels import pin_cpu_kernels\npin_cpu_kernels()')).toBe('Haswell');
  });

  it('an explicit setting wins over the pin (so the check above is not OpenBLAS ignoring the variable)', {
    timeout: 60_000,
  }, () => {
    expect(
      openblasCore('from kit.cpu_kernels import pin_cpu_kernels\npin_cpu_kernels()', {
        OPENBLAS_CORETYPE: 'Sandybridge',
      }),
    ).toBe('Sandybridge');
  });
});
