import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MaskScoringNet, RidgeProblem } from '@xtrust/core';

/** The functions the compiled addon (build/Release/xtrust_native.node) exports. */
export interface Addon {
  info(): {
    threads: number;
    simd: string;
    cuda: { compiled: boolean; available: boolean; device?: string; reason?: string };
  };
  cosineMatrix(a: Float32Array, b: Float32Array, dim: number, cuda: boolean): Float32Array;
  topK(
    q: Float32Array,
    c: Float32Array,
    dim: number,
    k: number,
    corpusNormalized: boolean,
    cuda: boolean,
  ): { indices: Int32Array; scores: Float32Array };
  ridgeBatch(problems: readonly RidgeProblem[]): {
    coef: Float64Array;
    intercept: number;
    score: number;
    firstPrediction: number;
    error?: string;
    errorArgument?: string;
  }[];
  scoreMasks(net: MaskScoringNet, tokenIds: Int32Array, masks: Uint8Array, rows: number, classes: number): Float32Array;
  averageLinkage(distances: Float32Array, n: number): { merges: Int32Array; heights: Float64Array };
}

let cached: { addon: Addon | null; error?: string } | null = null;

/** The addon, or null with the reason; never throws. Both src/ and dist/ sit beside build/. */
export function loadAddon(): { addon: Addon | null; error?: string } {
  if (cached) return cached;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const file = join(root, 'build', 'Release', 'xtrust_native.node');
  if (!existsSync(file)) {
    cached = {
      addon: null,
      error: `the native addon is not built (${file} is missing; run the @xtrust/native build with cmake and a C++ compiler)`,
    };
    return cached;
  }
  try {
    const addon = createRequire(import.meta.url)(file) as Addon;
    addon.info();
    cached = { addon };
  } catch (e) {
    cached = { addon: null, error: `the native addon failed to load: ${(e as Error).message}` };
  }
  return cached;
}
