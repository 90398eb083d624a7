/**
 * @xtrust/scale: audits that fan out over many processes and machines through BullMQ on Redis.
 * `enqueueAudit` splits a run into chunk jobs, `startWorker` processes them with the same code as a
 * local run (`runLocal`), `collect` reads the results back in instance order. Results are stored under
 * their instance id, so a job retried after a killed worker never counts an instance twice.
 */
export {
  JOB_FORMAT,
  JOB_VERSION,
  XTRUST_VERSION,
  makePayload,
  checkPayload,
  jobId,
  runKeys,
  checkRunId,
  type JobKind,
  type Instance,
  type TaskSpec,
  type ModelOptions,
  type JobPayload,
} from './job.js';
export { redactUrl, redactor } from './redact.js';
export { probeRedis, openRedis, redisUrl, REDIS_URL_ENV, REDIS_CA_ENV, type ConnectOptions } from './redis.js';
export {
  Resources,
  processInstances,
  runLocal,
  resultJson,
  loadBuiltinModel,
  MINI_BATCH,
  type ModelLoader,
  type InstanceResult,
} from './tasks.js';
export {
  enqueueAudit,
  collect,
  forgetRun,
  withQueue,
  DEFAULT_QUEUE,
  RUN_TTL_S,
  type QueueConnection,
  type EnqueueOptions,
  type EnqueueResult,
  type CollectOptions,
  type CollectResult,
  type ChunkFailure,
} from './queue.js';
export { startWorker, type WorkerOptions, type RunningWorker } from './worker.js';
export { QueuedExplainer, type QueuedExplainerOptions } from './queued-explainer.js';
