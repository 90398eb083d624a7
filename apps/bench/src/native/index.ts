import type { BenchResult } from '../harness/result.js';
import { benchClustering, type ClusterBenchOptions } from './cluster.js';
import { benchCuda, type CudaBenchOptions } from './cuda.js';
import { benchRidge, type RidgeBenchOptions } from './ridge.js';
import { benchTopK, type TopKBenchOptions } from './topk.js';

export { benchClustering, benchCuda, benchRidge, benchTopK };

export interface NativeBenchOptions {
  /** Which benchmarks (default all four; cuda reports nothing where no CUDA device answers). */
  only?: ('topk' | 'cluster' | 'ridge' | 'cuda')[];
  /** Smaller sizes for a quick look (2,000 queries; 2,000/5,000 words; 20 explanations). */
  quick?: boolean;
  log?: (line: string) => void;
  topk?: TopKBenchOptions;
  cluster?: ClusterBenchOptions;
  ridge?: RidgeBenchOptions;
  cuda?: CudaBenchOptions;
}

/** The benchmarks of issue 8 (@xtrust/native against its TS twins, numpy/OpenBLAS, ml-hclust and SciPy), and its CUDA backend against the CPU one and PyTorch where a device answers. */
export async function runNativeBenchmarks(options: NativeBenchOptions = {}): Promise<BenchResult[]> {
  const only = new Set(options.only ?? ['topk', 'cluster', 'ridge', 'cuda']);
  const log = options.log;
  const q = options.quick === true;
  const out: BenchResult[] = [];
  if (only.has('ridge')) out.push(...(await benchRidge({ log, ...(q ? { explanations: 20 } : {}), ...options.ridge })));
  if (only.has('cluster'))
    out.push(...(await benchClustering({ log, ...(q ? { sizes: [2000, 5000] } : {}), ...options.cluster })));
  if (only.has('topk'))
    out.push(
      ...(await benchTopK({ log, ...(q ? { queries: 2000, tsQueries: 20, repeats: 1 } : {}), ...options.topk })),
    );
  if (only.has('cuda'))
    out.push(...(await benchCuda({ log, ...(q ? { queries: 2000, repeats: 1 } : {}), ...options.cuda })));
  return out;
}
