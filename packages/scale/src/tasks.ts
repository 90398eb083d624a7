/**
 * What a worker does with a chunk of instances — the same code a local run uses, so a queued run and a
 * local run with the same seed store byte-identical results. Results are per instance: an instance the
 * method refuses (an empty text) gets an error result and the rest of the chunk goes on; a problem with
 * the job itself (a model that cannot be read) fails the whole job with the reason.
 */
import { XtrustError, type Classifier, type Explanation, type WordEmbedding } from '@xtrust/core';
import { explainerByName } from '@xtrust/explainers';
import { BuiltinClassifier } from '@xtrust/models';
import type { Instance, ModelOptions, TaskSpec } from './job.js';

/**
 * Loads the classifier a job names, with the job's model options (int8). The CLI passes its own loader
 * (ONNX, Hugging Face folders); the default reads saved xtrust models.
 */
export type ModelLoader = (path: string, options?: ModelOptions) => Promise<Classifier>;

/** The result of one instance as stored under its idempotent key. */
export interface InstanceResult {
  readonly id: string;
  readonly index: number;
  /** The method's output (explain: predicted/explained label, probabilities, features; label: the verdict; attack: the record). */
  readonly result?: unknown;
  /** Why this instance has no result (the method refused it). */
  readonly error?: string;
}

/** Default loader: a folder saved by `BuiltinClassifier.save` (model.json + weights); it has no int8 form. */
export const loadBuiltinModel: ModelLoader = async (path, options) => {
  if (options?.quantize)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `int8 quantisation needs an ONNX model; ${path} is loaded as a saved xtrust model (run \`xtrust worker\`, which loads ONNX folders)`,
      { argument: 'modelOptions' },
    );
  return BuiltinClassifier.load(path);
};

/** Per-process cache of models, embeddings, stores and attacks, keyed by what they were loaded from. */
export class Resources {
  private readonly cache = new Map<string, Promise<unknown>>();
  constructor(readonly loadModel: ModelLoader = loadBuiltinModel) {}

  /** The value for `key`, made once by `make`; a failed make is forgotten so a later job can try again. */
  get<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.cache.set(key, p);
      p.catch(() => this.cache.delete(key));
    }
    return p;
  }

  /** The job's classifier; an unreadable path is an XtrustError naming the path and the cause. Cached per path and options (int8 is another model). */
  model(path: string, options?: ModelOptions): Promise<Classifier> {
    const quantize = options?.quantize;
    return this.get(`model:${path}${quantize ? `:${quantize}` : ''}`, async () => {
      try {
        return await (quantize ? this.loadModel(path, { quantize }) : this.loadModel(path));
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        throw new XtrustError(
          'FILE_UNREADABLE',
          `cannot load model ${path}${quantize ? ` (${quantize})` : ''}: ${why}`,
          { file: path },
          { cause: e },
        );
      }
    });
  }
}

/** Instances explained per call: enough for LIME's batched ridge, small enough to save progress often. */
export const MINI_BATCH = 8;

function explanationJson(e: Explanation) {
  return {
    method: e.method,
    params: e.params,
    seed: e.seed ?? null,
    predicted: e.predictedLabel,
    explained: e.explainedLabel,
    probabilities: e.probabilities ? Array.from(e.probabilities) : null,
    features: e.features.map((f) => [f.word, f.weight] as const),
    diagnostics: e.diagnostics ?? null,
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function embeddingByName(name: string): Promise<WordEmbedding> {
  // imported on demand: only labelling jobs pay for the embedding packages
  const emb = await import('@xtrust/embeddings');
  if (name === 'glove') return emb.GloveEmbedding.load();
  if (name === 'cf' || name === 'counter-fitted') return emb.CounterFittedEmbedding.load();
  if (name === 'use') return emb.UseEmbedding.load();
  throw new XtrustError('INVALID_ARGUMENT', `unknown embedding "${name}"; expected glove, cf or use`, {
    argument: 'embeddings',
  });
}

/**
 * Processes `instances` (already filtered to those without a result) and calls `onResults` after each
 * mini-batch, so a killed worker loses at most one mini-batch of work.
 */
export async function processInstances(
  task: TaskSpec,
  instances: readonly Instance[],
  resources: Resources,
  onResults: (results: InstanceResult[]) => Promise<void> | void,
): Promise<void> {
  const classifier = await resources.model(task.model, task.modelOptions);
  if (task.kind === 'explain') {
    const spec = task.explainer ?? { name: 'lime' };
    const explainer = explainerByName(spec.name, { ...(spec.options ?? {}) });
    for (let s = 0; s < instances.length; s += MINI_BATCH) {
      const batch = instances.slice(s, s + MINI_BATCH);
      await onResults(await explainBatch(batch, (texts) => explainer.explain(classifier, texts)));
      // let BullMQ's lock renewal run between batches of CPU-bound work
      await new Promise((r) => setImmediate(r));
    }
    return;
  }
  if (task.kind === 'label') {
    if (!task.label) throw new XtrustError('INVALID_ARGUMENT', 'label job without label settings (store, embeddings)');
    const { store: storePath, embeddings: names, mode } = task.label;
    const oracle = await import('@xtrust/oracle');
    const store = await resources.get(`store:${storePath}`, () => oracle.KeywordStore.load(storePath));
    const embeddings = await Promise.all(names.map((n) => resources.get(`embedding:${n}`, () => embeddingByName(n))));
    // a store made for another model fails the job (not each instance); checked once per worker, as it hashes the model
    await resources.get(`checked:${storePath}:${task.model}`, () => store.checkClassifier(classifier));
    const spec = task.explainer ?? { name: 'lime' };
    const explainer = explainerByName(spec.name, { ...(spec.options ?? {}) });
    for (let s = 0; s < instances.length; s += MINI_BATCH) {
      const batch = instances.slice(s, s + MINI_BATCH);
      const label = async (b: readonly Instance[]) => {
        const truth = b.every((x) => x.label !== undefined) ? b.map((x) => x.label!) : undefined;
        const out = await oracle.labelPredictions(
          store,
          classifier,
          b.map((x) => x.text),
          { explainer, embeddings, mode, trueLabels: truth, skipFingerprintCheck: true },
        );
        return out.map(({ text: _text, ...rest }) => rest);
      };
      await onResults(await isolate(batch, label));
      await new Promise((r) => setImmediate(r));
    }
    return;
  }
  if (task.kind === 'attack') {
    const recipe = task.attack?.recipe ?? 'a2t';
    if (recipe !== 'a2t')
      throw new XtrustError('INVALID_ARGUMENT', `unknown attack recipe "${recipe}"; workers run a2t`, {
        argument: 'recipe',
      });
    const attackPkg = await import('@xtrust/attack');
    const attack = await resources.get(`attack:${recipe}:${task.model}`, async () => {
      const cf = (await resources.get('embedding:cf', () => embeddingByName('cf'))) as never;
      return attackPkg.a2t(classifier as never, {
        embedding: cf,
        encoder: new attackPkg.MeanVectorEncoder(cf),
        posTagger: attackPkg.WinkPosTagger.load(),
      });
    });
    const seed = task.attack?.seed ?? 0;
    for (const x of instances) {
      let r: InstanceResult;
      try {
        // the per-instance seed comes from the instance's place in the whole run, exactly as Attack.run derives it
        const rec = await attack.attack(x.text, {
          label: x.label,
          id: x.id,
          index: x.index,
          seed: attackPkg.instanceSeed(seed, x.index),
        });
        r = { id: x.id, index: x.index, result: rec };
      } catch (e) {
        r = { id: x.id, index: x.index, error: message(e) };
      }
      await onResults([r]);
    }
    return;
  }
  throw new XtrustError('INVALID_ARGUMENT', `unknown job kind ${String((task as TaskSpec).kind)}`);
}

/** Explains a batch in one call; when the method refuses the batch, explains one by one so only the bad instance gets an error. */
async function explainBatch(
  batch: readonly Instance[],
  explain: (texts: string[]) => Promise<Explanation[]>,
): Promise<InstanceResult[]> {
  return isolate(batch, async (b) => {
    const exps = await explain(b.map((x) => x.text));
    if (exps.length % b.length !== 0)
      throw new XtrustError('BAD_MODEL_OUTPUT', `explainer returned ${exps.length} explanations for ${b.length} texts`);
    const per = exps.length / b.length;
    return b.map((_, i) => {
      const mine = exps.slice(i * per, (i + 1) * per).map(explanationJson);
      return per === 1 ? mine[0] : mine;
    });
  });
}

async function isolate(
  batch: readonly Instance[],
  run: (b: readonly Instance[]) => Promise<unknown[]>,
): Promise<InstanceResult[]> {
  try {
    const out = await run(batch);
    return batch.map((x, i) => ({ id: x.id, index: x.index, result: out[i] }));
  } catch (e) {
    if (batch.length === 1) return [{ id: batch[0].id, index: batch[0].index, error: message(e) }];
    const results: InstanceResult[] = [];
    for (const x of batch) results.push(...(await isolate([x], run)));
    return results;
  }
}

/** Stored form of a result: one JSON string, the same bytes whether a worker or a local run made it. */
export function resultJson(r: InstanceResult): string {
  return JSON.stringify(
    r.error !== undefined
      ? { id: r.id, index: r.index, error: r.error }
      : { id: r.id, index: r.index, result: r.result },
  );
}

/** Runs a whole task in this process (the reference a queued run must match). Returns id → stored JSON. */
export async function runLocal(
  task: TaskSpec,
  instances: readonly (Omit<Instance, 'index'> & { index?: number })[],
  resources = new Resources(),
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // positions as enqueueAudit numbers them, so stored results match byte for byte
  const indexed: Instance[] = instances.map((x, i) => ({ ...x, index: x.index ?? i }));
  await processInstances(task, indexed, resources, (rs) => {
    for (const r of rs) out.set(r.id, resultJson(r));
  });
  return out;
}
