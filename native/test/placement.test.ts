import { PLACEMENT_RATES, backendInfo, estimateSeconds, gpuPays, placement, useBackend } from '@xtrust/native';
import { afterAll, describe, expect, it } from 'vitest';

afterAll(() => {
  useBackend('auto');
});

describe('placement of cosine calls between the CPU and a CUDA device', () => {
  it('estimates both sides from the documented rates (hand-computed)', () => {
    expect(PLACEMENT_RATES.margin).toBe(2);
    // topK, 1,000 queries × 20,000 rows × 100, 16 threads: CPU 4e9 / (16 · 25e9) = 10 ms;
    // GPU 2 ms + 4·100·21,000 B / 6e9 B/s (1.4 ms) + 4e9 / 7e12 (0.571 ms) = 3.971 ms.
    const t = estimateSeconds('topK', 1000, 20_000, 100, 16);
    expect(t.cpu).toBeCloseTo(0.01, 9);
    expect(t.gpu).toBeCloseTo(0.002 + 0.0014 + 4e9 / 7e12, 9);
    expect(gpuPays('topK', 1000, 20_000, 100, 16)).toBe(true);
    // cosineMatrix, 3,000 × 3,000 × 100: the 36 MB result's copy back (30 ms) dominates the GPU side.
    const c = estimateSeconds('cosineMatrix', 3000, 3000, 100, 16);
    expect(c.cpu).toBeCloseTo(1.8e9 / 4e11, 9);
    expect(c.gpu).toBeCloseTo(0.002 + 2.4e6 / 6e9 + 36e6 / 1.2e9 + 1.8e9 / 7e12, 9);
    expect(gpuPays('cosineMatrix', 3000, 3000, 100, 16)).toBe(false);
    // The same matrix on one CPU thread: 72 ms against 32.66 ms, past the margin of 2.
    expect(gpuPays('cosineMatrix', 3000, 3000, 100, 1)).toBe(true);
  });

  it('keeps small searches on the CPU and sends vocabulary-wide batches to the device (the H200 crossovers)', () => {
    // Measured (16 threads): 1 query over 341,479 rows: CPU 6 ms, CUDA 23 ms; 1,000 queries: CPU 187 ms, CUDA 33 ms.
    expect(gpuPays('topK', 1, 341_479, 100, 16)).toBe(false);
    expect(gpuPays('topK', 10, 341_479, 100, 16)).toBe(false);
    expect(gpuPays('topK', 1000, 341_479, 100, 16)).toBe(true);
    expect(gpuPays('topK', 10_000, 341_479, 100, 16)).toBe(true);
    // Cosine matrices were output-bound on both sides there: the CPU won at every size tried.
    expect(gpuPays('cosineMatrix', 10_000, 10_000, 768, 16)).toBe(false);
    expect(gpuPays('cosineMatrix', 1000, 341_479, 100, 16)).toBe(false);
    // Fewer CPU threads move the crossover towards the device.
    expect(gpuPays('topK', 100, 341_479, 100, 2)).toBe(true);
  });

  it('placement() follows the backend in force: never cuda without a device, always cuda when forced', () => {
    const info = backendInfo();
    for (const b of info.available) {
      useBackend(b);
      const small = placement('topK', 1, 10, 4);
      if (b === 'cuda') expect(small).toBe('cuda');
      else expect(small).toBe(b);
    }
    useBackend('auto');
    if (!info.available.includes('cuda')) {
      expect(placement('topK', 10_000, 341_479, 100)).toBe(backendInfo().backend);
    } else {
      expect(placement('topK', 1, 341_479, 100)).toBe('cpu');
      expect(placement('topK', 10_000, 341_479, 100)).toBe('cuda');
    }
  });
});
