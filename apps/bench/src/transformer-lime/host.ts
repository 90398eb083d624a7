import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * The CPU a block is measured on: blocks are reused across sittings, and a sitting may land on another
 * machine, where both sides' speeds differ (the ratio is same-run; the seconds are the host's). Model name,
 * x86 family/model and the vector extensions onnxruntime's and OpenBLAS's kernels choose between.
 */
export function hostOf(): string {
  const cores = cpus();
  let detail = '';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1]?.trim();
    const flags = new Set((field('flags') ?? '').split(/\s+/));
    const ext = ['avx2', 'avx512f', 'avx512_vnni', 'avx_vnni', 'amx_int8'].filter((f) => flags.has(f));
    detail = `, family ${field('cpu family') ?? '?'} model ${field('model') ?? '?'}${ext.length ? `, ${ext.join(' ')}` : ''}`;
  } catch {
    // not Linux: the model name alone
  }
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}${detail}`;
}
