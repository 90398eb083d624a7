/**
 * The model kit's CPU-kernel pins (models/transformers/kit/cpu_kernels.py): the variables that make
 * OpenBLAS, ATen and oneDNN pick their AVX2 kernels on every x86-64 CPU, so a seeded build gives the same
 * bytes on an AVX-512 machine as elsewhere. Runs /usr/bin/python3 without torch (a stand-in module plays
 * torch for the import-order check); kit-cpu-kernels.slow.test.ts checks that OpenBLAS obeys.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/oracle/kit-bert.js';

const KIT = join(ROOT, 'models', 'transformers');
const PINNED = ['OPENBLAS_CORETYPE', 'ATEN_CPU_CAPABILITY', 'ONEDNN_MAX_CPU_ISA', 'DNNL_MAX_CPU_ISA'];

/** Runs `code` in /usr/bin/python3 with the kit on sys.path and `env` in place of the pinned variables. */
function python(code: string, env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !PINNED.includes(k)));
  const r = spawnSync('/usr/bin/python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(KIT)})\n${code}`], {
    env: { ...clean, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

describe('kit: pin_cpu_kernels', () => {
  it('sets every pin to the AVX2 kernels and returns them', () => {
    const r = python(
      'import json, os\nfrom kit.cpu_kernels import pin_cpu_kernels\nprint(json.dumps([pin_cpu_kernels(), {k: os.environ[k] for k in ' +
        JSON.stringify(PINNED) +
        '}]))',
    );
    expect(r.status, r.stderr).toBe(0);
    const expected = {
      OPENBLAS_CORETYPE: 'Haswell',
      ATEN_CPU_CAPABILITY: 'avx2',
      ONEDNN_MAX_CPU_ISA: 'AVX2',
      DNNL_MAX_CPU_ISA: 'AVX2',
    };
    expect(JSON.parse(r.stdout)).toEqual([expected, expected]);
  });

  it('keeps a setting the environment already has', () => {
    const r = python('import json\nfrom kit.cpu_kernels import pin_cpu_kernels\nprint(json.dumps(pin_cpu_kernels()))', {
      OPENBLAS_CORETYPE: 'Zen',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ OPENBLAS_CORETYPE: 'Zen', ATEN_CPU_CAPABILITY: 'avx2' });
  });

  it('refuses to run once torch is loaded, when the libraries have already chosen', () => {
    const r = python(
      "import types\nsys.modules['torch'] = types.ModuleType('torch')\nfrom kit.cpu_kernels import pin_cpu_kernels\npin_cpu_kernels()",
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/RuntimeError: pin_cpu_kernels\(\) must run before torch is imported/);
  });

  it('a second call after torch loaded is fine when every pin is already set (finetune.py pins, then imports build.py)', () => {
    const r = python(
      "import json, types\nfrom kit.cpu_kernels import pin_cpu_kernels\nfirst = pin_cpu_kernels()\nsys.modules['torch'] = types.ModuleType('torch')\nprint(json.dumps(pin_cpu_kernels() == first))",
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('true');
  });

  it('runs in build.py and finetune.py before their first torch import', () => {
    for (const script of ['build.py', 'finetune.py']) {
      const r = python(
        `src = open(${JSON.stringify(join(KIT, script))}).read()\nlines = src.splitlines()\npin = next(i for i, l in enumerate(lines) if 'pin_cpu_kernels()' in l)\ntorch = next(i for i, l in enumerate(lines) if l.strip() == 'import torch' or l.strip().startswith('import torch '))\nprint(pin < torch)`,
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, script).toBe('True');
    }
  });
});
