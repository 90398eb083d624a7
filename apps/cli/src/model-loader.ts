import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Classifier } from '@xtrust/core';
import { BuiltinClassifier, HfClassifier, OnnxClassifier } from '@xtrust/models';
import { UsageError } from './exit.js';
import { int8NeedsOnnx } from './lime-mode.js';

/** How a Hugging Face layout folder runs: onnxruntime-node directly, or the transformers.js pipeline; auto picks onnx when onnx/model.onnx is there. */
export type Runtime = 'auto' | 'onnx' | 'transformers';

/**
 * The onnxruntime intra-op threads of a model loaded without `--threads`: every core this process may
 * use. Left to itself, onnxruntime-node picked **one** thread on this project's 2-core machine, so a
 * transformer audit ran on half of it (one core at 100 %, the other idle).
 */
export function defaultThreads(): number {
  return availableParallelism();
}

/** What `--model` named and how it was loaded. */
export interface LoadedModel {
  readonly classifier: Classifier;
  /** 'onnx' (onnxruntime-node), 'huggingface' (transformers.js) or 'builtin' (a saved xtrust model folder). */
  readonly kind: 'onnx' | 'huggingface' | 'builtin';
  readonly source: string;
}

/** A folder holding `tokenizer.json` for an ONNX graph: the graph's folder, or its parent for the HF layout `onnx/model.onnx`. */
function tokenizerFolderOf(onnxFile: string): string | null {
  for (const dir of [dirname(onnxFile), dirname(dirname(onnxFile))])
    if (existsSync(join(dir, 'tokenizer.json'))) return dir;
  return null;
}

/**
 * Loads `--model`: an `.onnx` file (next to, or one folder below, its tokenizer.json and config.json),
 * a Hugging Face layout folder (config.json + tokenizer + onnx/), a saved built-in xtrust model folder
 * (model.json), or — only with `allowRemote` — a hub id. A path that does not exist, or is not a
 * classifier, is a usage error naming it. `quantize: 'int8'` (`--lime-mode int8`) loads an ONNX graph with
 * its matrix products in int8; on any other kind of model it is a usage error. `threads`: onnxruntime's
 * intra-op threads for an ONNX model (default: defaultThreads(), every core); `sessions` (> 1): that many
 * parallel scoring sessions sharing the threads (OnnxClassifier's `sessions`), ONNX models only.
 */
export async function loadModel(
  spec: string,
  options: {
    allowRemote?: boolean;
    labels?: readonly string[];
    runtime?: Runtime;
    quantize?: 'int8';
    threads?: number;
    sessions?: number;
  } = {},
): Promise<LoadedModel> {
  const runtime = options.runtime ?? 'auto';
  const quantize = options.quantize;
  const threads = options.threads ?? defaultThreads();
  const sessions = options.sessions ?? 1;
  const onnxOnly = (what: string) => {
    if (sessions > 1)
      throw new UsageError(
        `--sessions applies to ONNX models (an .onnx file, or a Hugging Face folder run by onnxruntime-node); --model ${spec} is ${what}`,
      );
  };
  const pool = sessions > 1 ? { sessions } : {};
  const path = resolve(spec);
  if (!existsSync(path)) {
    if (options.allowRemote && /^[\w.-]+\/[\w.-]+$/.test(spec)) {
      if (runtime === 'onnx')
        throw new UsageError(`--runtime onnx needs a local folder; a hub id loads through --runtime transformers`);
      if (quantize) throw int8NeedsOnnx(spec, 'a hub id (run by the transformers.js pipeline)');
      onnxOnly('a hub id (run by the transformers.js pipeline)');
      return { classifier: await HfClassifier.load(spec, { allowRemote: true }), kind: 'huggingface', source: spec };
    }
    throw new UsageError(
      `--model ${spec} does not exist (expected an .onnx file, a Hugging Face model folder, or a saved xtrust model folder${/^[\w.-]+\/[\w.-]+$/.test(spec) ? '; for a hub id pass --allow-remote' : ''})`,
    );
  }
  if (statSync(path).isFile()) {
    if (runtime === 'transformers')
      throw new UsageError(`--runtime transformers needs a model folder, not the file ${spec}`);
    if (!spec.endsWith('.onnx')) throw new UsageError(`--model ${spec} is a file but not an .onnx graph`);
    const folder = tokenizerFolderOf(path);
    if (!folder)
      throw new UsageError(
        `--model ${spec}: no tokenizer.json next to the graph or in its parent folder (export it in Hugging Face layout)`,
      );
    return {
      classifier: await OnnxClassifier.load(folder, {
        modelFile: relative(folder, path),
        labels: options.labels,
        quantize,
        threads,
        ...pool,
      }),
      kind: 'onnx',
      source: spec,
    };
  }
  if (existsSync(join(path, 'model.json'))) {
    if (quantize) throw int8NeedsOnnx(spec, 'a saved xtrust model (its scoring is not an ONNX graph)');
    onnxOnly('a saved xtrust model');
    return { classifier: await BuiltinClassifier.load(path), kind: 'builtin', source: spec };
  }
  if (existsSync(join(path, 'config.json'))) {
    if (runtime !== 'transformers' && existsSync(join(path, 'onnx', 'model.onnx'))) {
      return {
        classifier: await OnnxClassifier.load(path, { labels: options.labels, quantize, threads, ...pool }),
        kind: 'onnx',
        source: spec,
      };
    }
    if (quantize)
      throw int8NeedsOnnx(
        spec,
        runtime === 'transformers'
          ? 'run by the transformers.js pipeline (--runtime transformers)'
          : 'a Hugging Face folder without onnx/model.onnx',
      );
    onnxOnly(
      runtime === 'transformers'
        ? 'run by the transformers.js pipeline (--runtime transformers)'
        : 'a Hugging Face folder without onnx/model.onnx',
    );
    return { classifier: await HfClassifier.load(path), kind: 'huggingface', source: spec };
  }
  throw new UsageError(
    `--model ${spec} is a folder but not a classifier: no model.json (xtrust), config.json (Hugging Face) or ${basename(spec)}.onnx inside`,
  );
}
