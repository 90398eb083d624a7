import { type Command, InvalidArgumentError } from 'commander';
import { required } from '../config.js';
import { defaultThreads, type Runtime } from '../model-loader.js';
import { positiveIntArg } from '../options.js';

function runtimeArg(value: string): Runtime {
  if (value !== 'auto' && value !== 'onnx' && value !== 'transformers')
    throw new InvalidArgumentError('expected auto, onnx or transformers');
  return value;
}

/** Parsed flags of withModelOptions (the data files themselves are declared by each command). */
export interface ModelFlags {
  model: string;
  textColumn: string;
  labelColumn: string;
  allowRemote: boolean;
  runtime: Runtime;
  /** onnxruntime intra-op threads; undefined: every core (model-loader's defaultThreads). */
  threads?: number;
  /** Parallel scoring sessions of an ONNX model sharing the threads; undefined: one. */
  sessions?: number;
}

/** The model-loading part of the flags, as loadModel takes them: one place, so a new loading flag reaches every command. */
export function loadFlags(flags: ModelFlags): {
  allowRemote: boolean;
  runtime: Runtime;
  threads?: number;
  sessions?: number;
} {
  return { allowRemote: flags.allowRemote, runtime: flags.runtime, threads: flags.threads, sessions: flags.sessions };
}

/** Model, data and model-loading flags shared by the commands that take a user's model. */
export function withModelOptions(c: Command, data: 'train-test' | 'test' | 'train' | 'none'): Command {
  required(
    c,
    '--model <path>',
    'an .onnx file (with its tokenizer.json), a Hugging Face model folder, a saved xtrust model folder, or a hub id with --allow-remote',
  );
  if (data === 'train-test' || data === 'train')
    required(c, '--train <file>', 'labelled training texts (.csv with a header row, or .jsonl)');
  if (data === 'train-test' || data === 'test') required(c, '--test <file>', 'labelled test texts (.csv or .jsonl)');
  return c
    .option('--text-column <name>', 'column (CSV) or field (JSONL) holding the text', 'text')
    .option('--label-column <name>', 'column or field holding the label', 'label')
    .option('--allow-remote', 'let a Hugging Face hub id download (off: everything stays local)', false)
    .option(
      '--runtime <name>',
      'how a Hugging Face folder runs: auto | onnx (onnxruntime-node) | transformers (transformers.js pipeline)',
      runtimeArg,
      'auto',
    )
    .option(
      '--threads <n>',
      `threads an ONNX model's forward passes use (onnxruntime intra-op; default: every core, ${defaultThreads()} here)`,
      positiveIntArg,
    )
    .option(
      '--sessions <n>',
      `ONNX models: score LIME's and SHAP's perturbations on n sessions in parallel, each in its own thread on threads / n intra-op threads (default 1; on a small transformer n = cores is faster, same results)`,
      positiveIntArg,
    );
}
