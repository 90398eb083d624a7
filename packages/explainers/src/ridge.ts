import { ridgeBatchTs, type RidgeFit, type RidgeProblem } from '@xtrust/core';
import { backend as nativeBackend, ridgeBatch as nativeRidgeBatch } from '@xtrust/native';

export type { RidgeFit, RidgeProblem };

/** Which implementation solves LIME's regressions: `auto` (@xtrust/native's backend in force), `ts`, or `native`. */
export type RidgeBackend = 'auto' | 'ts' | 'native';

/**
 * The backend the regressions will run on: `ts` when asked or when XTRUST_BACKEND=ts, else the
 * backend @xtrust/native has in force (`cpu`, `cuda`, or `ts` when the addon is not built here).
 */
export function resolveRidgeBackend(requested: RidgeBackend = 'auto'): 'ts' | 'cpu' | 'cuda' {
  if (requested === 'ts') return 'ts';
  if (requested === 'auto' && process.env.XTRUST_BACKEND?.trim().toLowerCase() === 'ts') return 'ts';
  return nativeBackend();
}

/**
 * Solves many weighted ridge regressions in one call — scikit-learn's
 * `Ridge(alpha, fit_intercept=True).fit(X, y, sample_weight)` each — on @xtrust/native's `ridgeBatch`
 * (C++ threads) or on core's TypeScript twin.
 */
export function ridgeBatch(problems: readonly RidgeProblem[], backend: 'ts' | 'cpu' | 'cuda'): RidgeFit[] {
  if (problems.length === 0) return [];
  return backend === 'ts' ? ridgeBatchTs(problems) : nativeRidgeBatch(problems);
}
