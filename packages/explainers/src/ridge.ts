import { ridgeBatchTs, type RidgeFit, type RidgeProblem } from '@xtrust/core';

export type { RidgeFit, RidgeProblem };

/** Which implementation solves LIME's regressions. */
export type RidgeBackend = 'auto' | 'ts' | 'native';

interface NativeRidge {
  ridgeBatch(problems: readonly RidgeProblem[]): RidgeFit[] | Promise<RidgeFit[]>;
  backend?: () => string;
}

let nativeLoad: Promise<NativeRidge | null> | undefined;

/** @xtrust/native when it is installed and loads, else null (the addon is an accelerator, never a requirement). */
async function loadNative(): Promise<NativeRidge | null> {
  nativeLoad ??= (async () => {
    try {
      const spec = '@xtrust/native';
      const mod = (await import(spec)) as Partial<NativeRidge>;
      return typeof mod.ridgeBatch === 'function' ? (mod as NativeRidge) : null;
    } catch {
      return null;
    }
  })();
  return nativeLoad;
}

/** The backend `auto` resolves to: `ts` when XTRUST_BACKEND=ts or the addon is missing, else `native`. */
export async function resolveRidgeBackend(requested: RidgeBackend = 'auto'): Promise<'ts' | 'native'> {
  if (requested === 'ts') return 'ts';
  if (requested === 'auto' && process.env.XTRUST_BACKEND === 'ts') return 'ts';
  const native = await loadNative();
  if (native) return 'native';
  if (requested === 'native') {
    const { XtrustError } = await import('@xtrust/core');
    throw new XtrustError('BACKEND_UNAVAILABLE', 'ridge backend "native" was requested but @xtrust/native is not installed or failed to load');
  }
  return 'ts';
}

/**
 * Solves many weighted ridge regressions in one call — scikit-learn's
 * `Ridge(alpha, fit_intercept=True).fit(X, y, sample_weight)` each — on @xtrust/native's
 * `ridgeBatch` when available, else on core's TypeScript twin.
 */
export async function ridgeBatch(problems: readonly RidgeProblem[], backend: RidgeBackend = 'auto'): Promise<RidgeFit[]> {
  if (problems.length === 0) return [];
  const which = await resolveRidgeBackend(backend);
  if (which === 'native') {
    const native = (await loadNative())!;
    return await native.ridgeBatch(problems);
  }
  return ridgeBatchTs(problems);
}
