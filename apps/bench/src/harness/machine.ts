/**
 * The machine a benchmark ran on, written next to every figure: timings mean little without cores,
 * memory, CPU model, the kernel backend in force and the commit measured.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { backendInfo } from '@xtrust/native';

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly freeMemoryGiB: number;
  readonly loadAverage: readonly number[];
  readonly os: string;
  readonly node: string;
  /** @xtrust/native's backend, threads and SIMD level. */
  readonly kernels: string;
  readonly commit: string;
  /**
   * The host's widest vector extensions (cpuVectorExtensions): onnxruntime picks its kernels from them, so
   * the same CPU model name with and without AVX-512 / VNNI gives other model-call speeds. Absent in
   * records made before it was written.
   */
  readonly vectorExtensions?: string;
}

/**
 * The vector extensions that set a transformer's CPU speed, from /proc/cpuinfo's flags: "AVX-512 + VNNI",
 * "AVX-512", "AVX2 + FMA", "AVX", or "" where they cannot be read (not Linux).
 */
export function cpuVectorExtensions(
  cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '',
): string {
  const line = cpuinfo.split('\n').find((l) => /^flags\s*:/.test(l));
  if (!line) return '';
  const flags = new Set(
    line
      .replace(/^flags\s*:/, '')
      .trim()
      .split(/\s+/),
  );
  if (flags.has('avx512f')) return flags.has('avx512_vnni') ? 'AVX-512 + VNNI' : 'AVX-512';
  if (flags.has('avx2')) return flags.has('fma') ? 'AVX2 + FMA' : 'AVX2';
  return flags.has('avx') ? 'AVX' : 'no AVX';
}

/**
 * The x86 `family F model M` of /proc/cpuinfo, or '' where it has none: one marketing name (`AMD EPYC`) covers
 * generations whose per-sample cost differs by half (Zen 4 is family 25 model 17, Zen 5 family 26).
 */
export function cpuFamilyModel(
  cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '',
): string {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(\\S+)`, 'm').exec(cpuinfo)?.[1];
  const family = field('cpu family');
  const model = field('model');
  return family && model ? `family ${family} model ${model}` : '';
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** Facts about this machine now (load average included: the machine may be shared). */
export function machineInfo(): MachineInfo {
  const c = cpus();
  const info = backendInfo();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '' ? ' (with uncommitted changes)' : '';
  return {
    cpuModel: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    os: `${platform()} ${release()}`,
    node: process.version,
    kernels: `${info.backend} (${info.threads} threads${info.simd ? `, ${info.simd}` : ''})`,
    commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty}`,
    vectorExtensions: cpuVectorExtensions(),
  };
}

/**
 * The CPU a sitting of a long run ran on, as the run records it beside its times: model, widest vector
 * extensions (they set a transformer's speed: the same model name with and without VNNI differs), x86 family
 * and model (recorded since 2026-11-27: the same name and extensions covered a Zen 4 and a Zen 5) and cores.
 */
export function sittingMachine(): string {
  const detail = [cpuVectorExtensions(), cpuFamilyModel()].filter(Boolean).join('; ');
  return `${cpus()[0]?.model.trim() ?? 'unknown CPU'}${detail ? ` (${detail})` : ''}, ${cpus().length} cores`;
}

/** One line for a report (free memory and load average left out when they were not recorded: a machine described from its files). */
export function formatMachine(m: MachineInfo): string {
  const free =
    typeof m.freeMemoryGiB === 'number' && Number.isFinite(m.freeMemoryGiB) ? ` (${m.freeMemoryGiB} GiB free)` : '';
  const load = m.loadAverage.length ? `, load average ${m.loadAverage.join(' / ')}` : ', load average not recorded';
  return `${m.cores} × ${m.cpuModel}${m.vectorExtensions ? ` (${m.vectorExtensions})` : ''}, ${m.memoryGiB} GiB memory${free}${load}; ${m.os}; Node ${m.node}; @xtrust/native ${m.kernels}; commit ${m.commit}`;
}
