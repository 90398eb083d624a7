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
}

/** The session options of an OnnxClassifier: the thread count and the tuned defaults, overridable. */
export function sessionOptions(threads: number | undefined, tuning: SessionTuning = {}): InferenceSession.SessionOptions {
  return {
    ...(threads ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {}),
    graphOptimizationLevel: tuning.graphOptimizationLevel ?? 'all',
    executionMode: tuning.executionMode ?? 'sequential',
    enableCpuMemArena: tuning.enableCpuMemArena ?? true,
    enableMemPattern: tuning.enableMemPattern ?? true,
  };
}
