/**
 * Timing for the bench scripts: wall and CPU time of a piece of work, CPU time of other processes from
 * /proc (Linux), and the median / ratio every comparison is reported with. CPU time matters as much as
 * wall time here: the machines are shared, and wall time swings with other work while CPU time does not.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** Peer median over our median (above 1: we are faster). */
export function speedup(ours: readonly number[], peer: readonly number[]): number {
  return median(peer) / median(ours);
}

/** What `timed` measured: the work's value, wall seconds and this process's CPU seconds (all its threads). */
export interface Timed<T> {
  readonly value: T;
  readonly wall: number;
  readonly cpu: number;
}

/** What was measured since `t0` (performance.now()) and `c0` (process.cpuUsage()), with the work's value. */
function measured<T>(value: T, t0: number, c0: NodeJS.CpuUsage): Timed<T> {
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1e6 };
}

/** Runs `work` and measures its wall time and this process's user + system CPU time (native thread pools included). */
export async function timed<T>(work: () => Promise<T> | T): Promise<Timed<T>> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return measured(await work(), t0, c0);
}

/** `timed` for synchronous work (a kernel call): measured without an await, so no other task runs inside the measurement. */
export function timedSync<T>(work: () => T): Timed<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return measured(work(), t0, c0);
}

let ticks: number | undefined;
/** The kernel's clock ticks per second (USER_HZ), in which /proc reports CPU time. */
export function clockTicks(): number {
  ticks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
  return ticks;
}

/**
 * CPU seconds (user + system) from /proc/<pid>/stat: `own` the process's own threads, `children` its
 * reaped children (cutime + cstime: a child counts once it has exited and been waited for), `all` both.
 * 0 when the process is gone or /proc is not there.
 */
export function procCpuSeconds(pid: number | 'self', part: 'own' | 'children' | 'all' = 'own'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after "(comm)" start at field 3 (state): utime, stime, cutime, cstime are fields 14–17
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(f[11]) + Number(f[12]);
    const children = Number(f[13]) + Number(f[14]);
    return (part === 'own' ? own : part === 'children' ? children : own + children) / clockTicks();
  } catch {
    return 0;
  }
}
