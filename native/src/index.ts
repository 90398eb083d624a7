/**
 * @xtrust/native: the numeric kernels of xtrust, run by the C++ addon (CPU threads, or CUDA when a
 * device is present) and by their TypeScript twins in @xtrust/core when the addon is not built or
 * cannot load. Importing this module never throws; every kernel validates its arguments in TS first,
 * so bad input is a thrown XtrustError naming the argument, never a crash of the process.
 */
import {
  XtrustError,
  averageLinkageTs,
  checkCosineArgs,
  checkDistanceMatrix,
  checkRidgeProblems,
  checkTopKArgs,
  cosineMatrixTs,
  makeDendrogram,
  netClasses,
  normalizeRows,
  ridgeBatchTs,
  scoreMasksTs,
  topKTs,
  validateNet,
  type Dendrogram,
  type MaskScoringNet,
  type RidgeFit,
  type RidgeProblem,
  type TopKOptions,
  type TopKResult,
  type XtrustErrorCode,
} from '@xtrust/core';
import { loadAddon, type Addon } from './addon.js';
import { gpuPays, type PlacedKernel } from './placement.js';

export { PLACEMENT_RATES, estimateSeconds, gpuPays, type PlacedKernel } from './placement.js';

export type { Dendrogram, MaskScoringNet, RidgeFit, RidgeProblem, TopKOptions, TopKResult } from '@xtrust/core';

/** Where the kernels run: the TypeScript twins, the C++ CPU kernels, or CUDA (on a device). */
export type Backend = 'ts' | 'cpu' | 'cuda';
export type KernelName = 'cosineMatrix' | 'topK' | 'ridgeBatch' | 'scoreMasks' | 'averageLinkage';

export interface BackendInfo {
  /** The backend in force (what `backend()` returns). */
  readonly backend: Backend;
  /** Backends that can run here, best last. */
  readonly available: readonly Backend[];
  /**
   * The backend each kernel runs on (kernels without a CUDA version run on the CPU). Under an automatic
   * CUDA backend, 'cuda' for cosineMatrix and topK means "calls large enough to pay" (`placement`).
   */
  readonly kernels: Readonly<Record<KernelName, Backend>>;
  /** Worker threads of the CPU backend (0 for ts). */
  readonly threads: number;
  /** The CUDA device's name, when one is in use. */
  readonly device?: string;
  /** The SIMD level the CPU kernels dispatched to ("avx2+fma", "avx+fma", "sse4.2"). */
  readonly simd?: string;
  /** Why the addon or CUDA is not available, when it is not. */
  readonly notes: readonly string[];
}

interface State {
  backend: Backend;
  addon: Addon | null;
  notes: string[];
  /** CUDA chosen by 'auto' places each call by its size; a forced 'cuda' runs every call on the device. */
  forced: boolean;
  /** The CPU backend's worker threads, read once (placement weighs every call against them). */
  threads: number;
}

let state: State | null = null;

function available(addon: Addon | null): Backend[] {
  const out: Backend[] = ['ts'];
  if (addon) out.push('cpu');
  if (addon?.info().cuda.available) out.push('cuda');
  return out;
}

function resolve(requested: string | undefined): State {
  const { addon, error } = loadAddon();
  const notes: string[] = [];
  if (error) notes.push(error);
  const info = addon?.info();
  if (info && !info.cuda.available && info.cuda.reason) notes.push(`cuda: ${info.cuda.reason}`);
  const avail = available(addon);
  const want = requested?.trim().toLowerCase() || 'auto';
  const threads = info?.threads ?? 1;
  if (want === 'auto') return { backend: avail[avail.length - 1], addon, notes, forced: false, threads };
  if (want !== 'ts' && want !== 'cpu' && want !== 'cuda') {
    throw new XtrustError('INVALID_ARGUMENT', `XTRUST_BACKEND must be ts, cpu, cuda or auto, got "${requested}"`, {
      argument: 'XTRUST_BACKEND',
    });
  }
  if (!avail.includes(want)) {
    throw new XtrustError(
      'BACKEND_UNAVAILABLE',
      `backend "${want}" is unavailable here: ${notes.join('; ') || 'unknown reason'}`,
      { backend: want, available: avail },
    );
  }
  return { backend: want, addon: want === 'ts' ? null : addon, notes, forced: true, threads };
}

/** Runs an addon call, turning the addon's argument errors into XtrustError. */
function native<T>(call: () => T): T {
  try {
    return call();
  } catch (e) {
    const err = e as Error & { xtrustCode?: string; argument?: string };
    if (typeof err?.xtrustCode === 'string') {
      throw new XtrustError(
        err.xtrustCode as XtrustErrorCode,
        err.message,
        err.argument ? { argument: err.argument } : {},
        { cause: e },
      );
    }
    throw e;
  }
}

function current(): State {
  if (state === null) state = resolve(process.env.XTRUST_BACKEND);
  return state;
}

/** The backend the kernels run on: `XTRUST_BACKEND` (ts|cpu|cuda) when set, else the best available. */
export function backend(): Backend {
  return current().backend;
}

/**
 * Switches backend for this process: a backend name, 'auto' (the best available), or nothing to
 * read `XTRUST_BACKEND` again. Throws BACKEND_UNAVAILABLE when the backend cannot run here.
 * Returns the backend now in force.
 */
export function useBackend(b?: Backend | 'auto'): Backend {
  state = resolve(b ?? process.env.XTRUST_BACKEND);
  return state.backend;
}

/**
 * Where a cosine call of m query rows against n corpus rows of d dimensions runs now: 'cuda' only on
 * the CUDA backend, and under 'auto' only when the size estimate says the device pays (see
 * `gpuPays`); 'cpu' or 'ts' otherwise.
 */
export function placement(kernel: PlacedKernel, m: number, n: number, d: number): Backend {
  const s = current();
  if (s.backend !== 'cuda') return s.backend;
  if (s.forced) return 'cuda';
  return gpuPays(kernel, m, n, d, s.threads) ? 'cuda' : 'cpu';
}

/** What runs, where, and why not the rest. */
export function backendInfo(): BackendInfo {
  const s = current();
  const { addon: loaded } = loadAddon();
  const info = s.addon?.info();
  const onCpu: Backend = s.backend === 'ts' ? 'ts' : 'cpu';
  const gpu: Backend = s.backend === 'cuda' ? 'cuda' : onCpu;
  return {
    backend: s.backend,
    available: available(loaded),
    kernels: { cosineMatrix: gpu, topK: gpu, ridgeBatch: onCpu, scoreMasks: onCpu, averageLinkage: onCpu },
    threads: info?.threads ?? 0,
    ...(s.backend === 'cuda' && info?.cuda.device ? { device: info.cuda.device } : {}),
    ...(info ? { simd: info.simd } : {}),
    notes: s.notes,
  };
}

/**
 * Cosine similarities of every row of `a` (m×dim) with every row of `b` (n×dim): an m×n row-major
 * Float32Array. A zero vector has similarity 0 with everything.
 */
export function cosineMatrix(a: Float32Array, b: Float32Array, dim: number): Float32Array {
  const s = current();
  if (!s.addon) return cosineMatrixTs(a, b, dim);
  checkCosineArgs(a, b, dim, false);
  const addon = s.addon;
  const onGpu = placement('cosineMatrix', a.length / dim, b.length / dim, dim) === 'cuda';
  return native(() => addon.cosineMatrix(a, b, dim, onGpu));
}

/**
 * The k most cosine-similar corpus rows of every query (k is clipped to the corpus size), best first,
 * ties to the smaller index. The corpus is processed in blocks: m×n is never materialised.
 */
export function topK(
  queries: Float32Array,
  corpus: Float32Array,
  dim: number,
  k: number,
  options: TopKOptions = {},
): TopKResult {
  const s = current();
  if (!s.addon) return topKTs(queries, corpus, dim, k, options);
  const normalized = options.corpusNormalized === true;
  // The addon scans what it normalises; a corpus said to be normalised is scanned here.
  const [, , kk] = checkTopKArgs(queries, corpus, dim, k, false, normalized);
  const addon = s.addon;
  const onGpu = placement('topK', queries.length / dim, corpus.length / dim, dim) === 'cuda';
  const r = native(() => addon.topK(queries, corpus, dim, kk, normalized, onGpu));
  return { k: kk, indices: r.indices, scores: r.scores };
}

/**
 * A corpus prepared once for repeated `topK` searches: validated and normalised at construction, so a
 * search costs only the dot products.
 */
export class CosineIndex {
  readonly dim: number;
  readonly size: number;
  readonly #unit: Float32Array;

  constructor(corpus: Float32Array, dim: number) {
    checkTopKArgs(new Float32Array(0), corpus, dim, 1);
    // (validated once here: the unit copy below is private, so searches skip the scan)
    this.dim = dim;
    this.size = corpus.length / dim;
    this.#unit = normalizeRows(corpus, dim);
  }

  /** `topK(queries, corpus, dim, k)` over this index's corpus. */
  topK(queries: Float32Array, k: number): TopKResult {
    const s = current();
    if (!s.addon) return topKTs(queries, this.#unit, this.dim, k, { corpusNormalized: true });
    const [, , kk] = checkTopKArgs(queries, this.#unit, this.dim, k, false, false);
    const addon = s.addon;
    const onGpu = placement('topK', queries.length / this.dim, this.size, this.dim) === 'cuda';
    const r = native(() => addon.topK(queries, this.#unit, this.dim, kk, true, onGpu));
    return { k: kk, indices: r.indices, scores: r.scores };
  }
}

/**
 * Many independent weighted ridge regressions at once, each exactly scikit-learn's
 * `Ridge(alpha, fit_intercept=True).fit(X, y, sample_weight)`: coefficients, intercept, the weighted
 * R² `score(X, y, sample_weight)` and the prediction for the first row. Binary Uint8Array designs are
 * used as they are.
 */
export function ridgeBatch(problems: readonly RidgeProblem[]): RidgeFit[] {
  const s = current();
  if (!s.addon) return ridgeBatchTs(problems);
  checkRidgeProblems(problems, false);
  const addon = s.addon;
  const out = native(() => addon.ridgeBatch(problems));
  return out.map((r, i) => {
    if (r.error) {
      const argument = r.errorArgument ? `problems[${i}].${r.errorArgument}` : `problems[${i}]`;
      throw new XtrustError('INVALID_ARGUMENT', `${argument}: ${r.error}`, { argument });
    }
    return { coef: r.coef, intercept: r.intercept, score: r.score, firstPrediction: r.firstPrediction };
  });
}

const checkedNets = new WeakSet<MaskScoringNet>();

/**
 * Class probabilities (rows×classes) of a built-in model for `rows` token-presence masks of one text:
 * `tokenIds[t]` is token t's vocabulary id (−1: unknown), `masks` is rows×tokens, non-zero = kept.
 */
export function scoreMasks(net: MaskScoringNet, tokenIds: Int32Array, masks: Uint8Array, rows: number): Float32Array {
  if (!checkedNets.has(net)) {
    validateNet(net);
    checkedNets.add(net);
  }
  if (!(tokenIds instanceof Int32Array))
    throw new XtrustError('INVALID_ARGUMENT', 'tokenIds must be an Int32Array', { argument: 'tokenIds' });
  if (!(masks instanceof Uint8Array))
    throw new XtrustError('INVALID_ARGUMENT', 'masks must be a Uint8Array', { argument: 'masks' });
  if (!Number.isInteger(rows) || rows < 0)
    throw new XtrustError('INVALID_ARGUMENT', `rows must be an integer ≥ 0, got ${String(rows)}`, { argument: 'rows' });
  if (masks.length !== rows * tokenIds.length) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `scoreMasks: masks has ${masks.length} values, expected rows×tokens = ${rows}×${tokenIds.length}`,
      { argument: 'masks' },
    );
  }
  const vocab = net.input.vocabSize;
  for (let t = 0; t < tokenIds.length; t++) {
    if (tokenIds[t] >= vocab || tokenIds[t] < -1) {
      throw new XtrustError('INVALID_ARGUMENT', `tokenIds[${t}] is ${tokenIds[t]}, outside −1…${vocab - 1}`, {
        argument: 'tokenIds',
        index: t,
      });
    }
  }
  const s = current();
  if (!s.addon) return scoreMasksTs(net, tokenIds, masks, rows);
  const addon = s.addon;
  return native(() => addon.scoreMasks(net, tokenIds, masks, rows, netClasses(net)));
}

/**
 * Average-linkage (UPGMA) clustering of n points from their n×n symmetric distance matrix, by the
 * nearest-neighbour chain in O(n²): merges in scipy's convention, with `cut(threshold)`.
 */
export function averageLinkage(distances: Float32Array, n: number): Dendrogram {
  const s = current();
  if (!s.addon) return averageLinkageTs(distances, n);
  checkDistanceMatrix(distances, n, false);
  const addon = s.addon;
  const r = native(() => addon.averageLinkage(distances, n));
  return makeDendrogram(n, r.merges, r.heights);
}
