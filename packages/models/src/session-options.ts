import type { InferenceSession } from 'onnxruntime-node';

/** onnxruntime session settings an OnnxClassifier may override. */
export interface SessionTuning {
  /** Graph optimisation level. Default `all` (measured in the README's "Transformer scoring"). */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** `sequential` (default): the graph of a BERT is a chain, so parallel execution only adds scheduling. */
  executionMode?: 'sequential' | 'parallel';
  /** onnxruntime's CPU memory arena. Default true. */
  enableCpuMemArena?: boolean;
  /** Memory pattern planning (helps only for repeated identical shapes). Default true. */
  enableMemPattern?: boolean;
  /**
   * Turns on onnxruntime's own profiler: every node's kernel time is recorded and written, as a Chrome
   * trace, to `<profileFilePrefix>_<date and time>.json` when the classifier's `endProfiling()` is called.
   * For measuring where a graph's time goes (apps/bench's profile.js --ops); off by default, since
   * recording every node of every run costs time of its own.
   */
  profileFilePrefix?: string;
}

/** The session options of an OnnxClassifier: the thread count and the tuned defaults, overridable. */
export function sessionOptions(
  threads: number | undefined,
  tuning: SessionTuning = {},
): InferenceSession.SessionOptions {
  return {
    ...(threads ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {}),
    graphOptimizationLevel: tuning.graphOptimizationLevel ?? 'all',
    executionMode: tuning.executionMode ?? 'sequential',
    enableCpuMemArena: tuning.enableCpuMemArena ?? true,
    enableMemPattern: tuning.enableMemPattern ?? true,
    ...(tuning.profileFilePrefix !== undefined
      ? { enableProfiling: true, profileFilePrefix: tuning.profileFilePrefix }
      : {}),
  };
}
