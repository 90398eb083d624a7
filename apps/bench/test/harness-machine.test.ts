import { describe, expect, it } from 'vitest';
import { cpus } from 'node:os';
import {
  cpuFamilyModel,
  cpuVectorExtensions,
  formatMachine,
  sittingMachine,
  type MachineInfo,
} from '../src/harness/machine.js';

const cpuinfo = (flags: string) =>
  `processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme ${flags}\nbugs\t\t: sysret_ss_attrs\n`;

describe('the host CPU written beside every figure', () => {
  it('names the widest vector extensions from /proc/cpuinfo flags', () => {
    expect(cpuVectorExtensions(cpuinfo('sse4_2 avx avx2 fma avx512f avx512bw avx512_vnni'))).toBe('AVX-512 + VNNI');
    expect(cpuVectorExtensions(cpuinfo('avx avx2 fma avx512f'))).toBe('AVX-512');
    expect(cpuVectorExtensions(cpuinfo('avx avx2 fma'))).toBe('AVX2 + FMA');
    expect(cpuVectorExtensions(cpuinfo('avx'))).toBe('AVX');
    expect(cpuVectorExtensions(cpuinfo('sse2'))).toBe('no AVX');
    expect(cpuVectorExtensions('')).toBe('');
  });

  it('puts them after the CPU model, and leaves them out for records made before', () => {
    const m: MachineInfo = {
      cpuModel: 'AMD EPYC',
      cores: 2,
      memoryGiB: 23.5,
      freeMemoryGiB: 20,
      loadAverage: [1, 1, 1],
      os: 'linux',
      node: 'v20',
      kernels: 'cpu',
      commit: 'abc',
    };
    expect(formatMachine({ ...m, vectorExtensions: 'AVX-512 + VNNI' })).toMatch(
      /^2 × AMD EPYC \(AVX-512 \+ VNNI\), 23.5 GiB/,
    );
    expect(formatMachine(m)).toMatch(/^2 × AMD EPYC, 23.5 GiB/);
  });

  it("a long run's sitting names this CPU, its vector extensions and x86 family where /proc/cpuinfo has them, and the core count", () => {
    const detail = [cpuVectorExtensions(), cpuFamilyModel()].filter(Boolean).join('; ');
    expect(sittingMachine()).toBe(
      `${cpus()[0]?.model.trim() ?? 'unknown CPU'}${detail ? ` (${detail})` : ''}, ${cpus().length} cores`,
    );
    expect(sittingMachine()).toMatch(/, \d+ cores$/);
  });

  it('reads the x86 family and model from a cpuinfo, and gives nothing where they are missing', () => {
    const zen4 =
      'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9R14\n';
    expect(cpuFamilyModel(zen4)).toBe('family 25 model 17');
    expect(cpuFamilyModel('processor\t: 0\nmodel name\t: Apple M3\n')).toBe('');
    expect(cpuFamilyModel('')).toBe('');
  });
});
