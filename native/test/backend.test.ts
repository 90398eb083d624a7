import { XtrustError } from '@xtrust/core';
import { backend, backendInfo, cosineMatrix, useBackend } from '@xtrust/native';
import { afterEach, describe, expect, it } from 'vitest';

const saved = process.env.XTRUST_BACKEND;
afterEach(() => {
  if (saved === undefined) delete process.env.XTRUST_BACKEND;
  else process.env.XTRUST_BACKEND = saved;
  useBackend('auto');
});

describe('backend selection', () => {
  it('auto picks the best available: cuda only with a device, else cpu when the addon is built, else ts', () => {
    const info = backendInfo();
    expect(info.available[0]).toBe('ts');
    expect(useBackend('auto')).toBe(info.available[info.available.length - 1]);
    expect(backend()).toBe(useBackend('auto'));
    if (!info.available.includes('cuda') && info.available.includes('cpu')) expect(backend()).toBe('cpu');
    if (backend() !== 'ts') {
      expect(info.threads).toBeGreaterThanOrEqual(1);
      expect(info.simd).toBeTruthy();
    } else {
      expect(info.notes.join(' ')).toMatch(/not built|failed to load/);
    }
    // Kernels without a CUDA version run on the CPU even when cuda is in force.
    expect(backendInfo().kernels.averageLinkage).toBe(backend() === 'ts' ? 'ts' : 'cpu');
  });

  it('XTRUST_BACKEND forces a backend and fails clearly when it cannot run', () => {
    process.env.XTRUST_BACKEND = 'ts';
    expect(useBackend()).toBe('ts');
    expect(backendInfo().kernels.topK).toBe('ts');
    process.env.XTRUST_BACKEND = 'quantum';
    expect(() => useBackend()).toThrow(/XTRUST_BACKEND must be ts, cpu, cuda or auto/);
    for (const b of ['cpu', 'cuda'] as const) {
      process.env.XTRUST_BACKEND = b;
      if (backendInfo().available.includes(b)) {
        expect(useBackend()).toBe(b);
      } else {
        let err: unknown;
        try {
          useBackend();
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(XtrustError);
        expect((err as XtrustError).code).toBe('BACKEND_UNAVAILABLE');
        expect((err as XtrustError).message).toContain(`"${b}"`);
      }
    }
  });

  it('a forced TS backend computes the same results as the default one', () => {
    const a = Float32Array.from([1, 2, 3, 0, 0, 0, -1, 0.5, 2]);
    const dflt = cosineMatrix(a, a, 3);
    useBackend('ts');
    const ts = cosineMatrix(a, a, 3);
    dflt.forEach((v, i) => expect(v).toBeCloseTo(ts[i], 5));
  });

  it('importing never throws, even with a bad XTRUST_BACKEND', async () => {
    process.env.XTRUST_BACKEND = 'bogus';
    const mod = await import('../src/index.js');
    expect(typeof mod.topK).toBe('function');
  });
});
