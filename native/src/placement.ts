/**
 * Where a cosine kernel call runs when the backend is chosen automatically and a CUDA device is
 * present. A GPU call pays fixed costs the CPU does not — allocations, the copy of both operands to
 * the device on every call, and for a cosine matrix the copy of the whole m×n result back — so small
 * calls, and calls whose result is large next to their arithmetic, are faster on the CPU threads.
 *
 * The estimate is a roofline of each side with rates measured on an H200 (driver 580, host CPU 16
 * threads of a Xeon in a Firecracker VM, `node apps/bench/dist/native/run.js --only cuda`, 2026-11-26):
 * pageable host-to-device copies ≈ 6 GB/s, device-to-host ≈ 1.2 GB/s, the dot-product kernel ≈ 7 TFLOP/s,
 * ≈ 2 ms of fixed cost per call, and ≈ 25 GFLOP/s per CPU thread for the AVX kernels. The call goes to
 * the GPU when the CPU's estimate is at least twice the GPU's: a wrong guess near the crossover costs
 * little, a GPU call that loses to the CPU by 4× (one query against a 341,479-word vocabulary) is what
 * the margin avoids. `XTRUST_BACKEND=cuda` bypasses this and runs every call on the device.
 */
export type PlacedKernel = 'cosineMatrix' | 'topK';

/** Rates behind the estimate (seconds = bytes / rate, flops / rate). */
export const PLACEMENT_RATES = {
  gpuFixedSeconds: 2e-3,
  hostToDeviceBytesPerSecond: 6e9,
  deviceToHostBytesPerSecond: 1.2e9,
  gpuFlopsPerSecond: 7e12,
  cpuFlopsPerSecondPerThread: 25e9,
  /** The GPU must be estimated this many times faster before a call moves there. */
  margin: 2,
} as const;

/** Estimated seconds of one call on each side: `m` queries (rows of a), `n` corpus rows (rows of b), `d` dimensions. */
export function estimateSeconds(
  kernel: PlacedKernel,
  m: number,
  n: number,
  d: number,
  cpuThreads: number,
): { cpu: number; gpu: number } {
  const r = PLACEMENT_RATES;
  const flops = 2 * m * n * d;
  const upload = (4 * d * (m + n)) / r.hostToDeviceBytesPerSecond;
  // topK brings back m·k indices and scores (negligible); cosineMatrix brings back all m·n scores.
  const download = kernel === 'cosineMatrix' ? (4 * m * n) / r.deviceToHostBytesPerSecond : 0;
  return {
    cpu: flops / (Math.max(1, cpuThreads) * r.cpuFlopsPerSecondPerThread),
    gpu: r.gpuFixedSeconds + upload + download + flops / r.gpuFlopsPerSecond,
  };
}

/** Whether a call of this size runs faster on the device than on `cpuThreads` CPU threads, by the margin. */
export function gpuPays(kernel: PlacedKernel, m: number, n: number, d: number, cpuThreads: number): boolean {
  const e = estimateSeconds(kernel, m, n, d, cpuThreads);
  return e.cpu >= PLACEMENT_RATES.margin * e.gpu;
}
