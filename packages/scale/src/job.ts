/**
 * The job payload that travels through Redis between `enqueueAudit` and the workers. It carries the
 * work (instances and how to process them) and never a credential: the Redis URL reaches a worker
 * through its own option or environment, not through a job.
 */
import { XtrustError } from '@xtrust/core';

/** Tag of every xtrust job payload; a payload without it did not come from xtrust. */
export const JOB_FORMAT = 'xtrust.scale.job';
/**
 * Version of the payload layout. Bump it whenever a field changes meaning: a worker refuses a payload
 * of another version (with the reason) instead of computing something subtly different. Version 2 added
 * `task.modelOptions` (int8 quantisation): a version-1 worker would ignore it and score the float model.
 */
export const JOB_VERSION = 2;
/** The xtrust version that writes payloads here (reported in refusals so the operator knows what to upgrade). */
export const XTRUST_VERSION = '0.1.0';

/** What a job does with its instances. */
export type JobKind = 'explain' | 'label' | 'attack';

/** One unit of work: its id is the idempotent result key, so it must be unique within a run. */
export interface Instance {
  readonly id: string;
  readonly text: string;
  /** Ground truth (labelling marks wrong predictions `incorrect`; attacks use it as the goal's label). */
  readonly label?: string;
  /** Position in the run's instance list (attacks derive their per-instance seed from it, as a local run does). */
  readonly index: number;
}

/** How a worker loads the job's model besides its path: `quantize: 'int8'` (ONNX graphs only) runs its matrix products in int8. */
export interface ModelOptions {
  readonly quantize?: 'int8';
}

/** How a job is processed: everything a worker needs besides the model file and Redis. */
export interface TaskSpec {
  readonly kind: JobKind;
  /** Model path every worker can read (a shared disk or the same path on each machine). */
  readonly model: string;
  /** How the model is loaded (absent: as saved). Part of the work: the same path quantised is another model. */
  readonly modelOptions?: ModelOptions;
  /** explain / label: the explanation method (`lime`, `omission`, …) and its options, seed included. */
  readonly explainer?: { readonly name: string; readonly options?: Readonly<Record<string, unknown>> };
  /** label: the keyword store file and the embeddings of its ensemble (`glove`, `cf`, `use`). */
  readonly label?: {
    readonly store: string;
    readonly embeddings: readonly string[];
    readonly mode?: 'toki' | 'toki-ki-ablated';
  };
  /** attack: the recipe (`a2t`) and the run seed. */
  readonly attack?: { readonly recipe: string; readonly seed?: number };
}

/** The payload of one BullMQ job: a chunk of a run's instances. */
export interface JobPayload {
  readonly format: typeof JOB_FORMAT;
  readonly version: number;
  readonly xtrust: string;
  readonly runId: string;
  readonly chunk: number;
  readonly task: TaskSpec;
  readonly instances: readonly Instance[];
}

/** Builds a payload of this version. */
export function makePayload(runId: string, chunk: number, task: TaskSpec, instances: readonly Instance[]): JobPayload {
  return { format: JOB_FORMAT, version: JOB_VERSION, xtrust: XTRUST_VERSION, runId, chunk, task, instances };
}

/**
 * Checks a payload read from Redis. Returns it typed, or throws an XtrustError('INCOMPATIBLE') whose
 * message says which version wrote it and which this worker reads.
 */
export function checkPayload(data: unknown): JobPayload {
  const p = data as Partial<JobPayload> | null;
  if (!p || typeof p !== 'object' || p.format !== JOB_FORMAT) {
    throw new XtrustError(
      'INCOMPATIBLE',
      `job payload is not an xtrust job (format ${JSON.stringify(p?.format ?? null)}, expected "${JOB_FORMAT}")`,
    );
  }
  if (p.version !== JOB_VERSION) {
    throw new XtrustError(
      'INCOMPATIBLE',
      `job payload version ${String(p.version)} was written by xtrust ${String(p.xtrust ?? 'unknown')}; this worker (xtrust ${XTRUST_VERSION}) reads version ${JOB_VERSION} — run workers and the auditing process from the same xtrust version`,
      { payloadVersion: p.version, workerVersion: JOB_VERSION, writtenBy: p.xtrust },
    );
  }
  if (typeof p.runId !== 'string' || !Number.isInteger(p.chunk) || !p.task || !Array.isArray(p.instances)) {
    throw new XtrustError('INCOMPATIBLE', 'job payload lacks runId, chunk, task or instances');
  }
  const kinds: JobKind[] = ['explain', 'label', 'attack'];
  if (!kinds.includes(p.task.kind))
    throw new XtrustError(
      'INCOMPATIBLE',
      `job payload has unknown kind ${JSON.stringify(p.task.kind)}; expected ${kinds.join(', ')}`,
    );
  if (typeof p.task.model !== 'string' || p.task.model === '')
    throw new XtrustError('INCOMPATIBLE', 'job payload has no model path');
  const mo = p.task.modelOptions as Record<string, unknown> | undefined;
  if (
    mo !== undefined &&
    (typeof mo !== 'object' ||
      mo === null ||
      Object.keys(mo).some((k) => k !== 'quantize') ||
      (mo.quantize !== undefined && mo.quantize !== 'int8'))
  ) {
    throw new XtrustError(
      'INCOMPATIBLE',
      `job payload has model options ${JSON.stringify(mo)} this worker does not know (it knows { quantize: "int8" })`,
    );
  }
  return p as JobPayload;
}

/** BullMQ job id of a chunk: deterministic, so enqueueing a run twice (a resume) adds nothing new. */
export function jobId(runId: string, chunk: number): string {
  return `${runId}.${chunk}`;
}

/** Redis keys of a run (outside BullMQ's own keys). */
export function runKeys(runId: string, prefix = 'xtrust') {
  return {
    /** Hash instance id → result JSON: HSET of the same id twice leaves one entry, so a retried job never counts twice. */
    results: `${prefix}:run:${runId}:results`,
    /** JSON of the run's size and chunking, written by enqueueAudit, read by collect. */
    meta: `${prefix}:run:${runId}:meta`,
  };
}

/** A run id safe as a Redis key and BullMQ job id part. */
export function checkRunId(runId: string): string {
  if (typeof runId !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(runId)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `run id must be 1–100 letters, digits, "_" or "-", got ${JSON.stringify(runId)}`,
      { argument: 'runId' },
    );
  }
  return runId;
}
