/**
 * `--lime-mode`: the optional faster LIME modes of the libraries, reachable from the CLI. `exact` (the
 * default) is LIME as the reference computes it; `adaptive` scores the neighbourhood in rounds and stops
 * once the top words are stable (@xtrust/explainers LimeOptions.adaptive); `int8` runs the model with its
 * weight matrix products quantised to int8 at load (@xtrust/models OnnxClassifierOptions.quantize — ONNX
 * models only); `int8+adaptive` both. Their agreement with `exact` is measured in apps/bench
 * (transformer-lime: top-10 Jaccard; transformer-audit: trustworthiness labels), not assumed.
 */
import { previousAdaptiveDefault, resolveAdaptive, type AdaptiveRule } from '@xtrust/explainers';
import { InvalidArgumentError, type Command } from 'commander';
import { UsageError } from './exit.js';

export const LIME_MODES = ['exact', 'adaptive', 'int8', 'int8+adaptive'] as const;
export type LimeMode = (typeof LIME_MODES)[number];
export const DEFAULT_LIME_MODE: LimeMode = 'exact';

/** What a mode changes: LIME's adaptive sample count, and the model's int8 quantisation. */
export interface LimeModeParts {
  readonly adaptive: boolean;
  readonly quantize?: 'int8';
}

/** The parts of a mode (undefined: the default, exact). */
export function limeModeParts(mode: LimeMode | undefined): LimeModeParts {
  const m = mode ?? DEFAULT_LIME_MODE;
  return {
    adaptive: m === 'adaptive' || m === 'int8+adaptive',
    ...(m === 'int8' || m === 'int8+adaptive' ? { quantize: 'int8' as const } : {}),
  };
}

/** LimeExplainer options of a mode: `{ adaptive: true }` or nothing (exact LIME adds no key, so its options stay as before). */
export function limeOptionsOf(mode: LimeMode | undefined): { adaptive?: true } {
  return limeModeParts(mode).adaptive ? { adaptive: true } : {};
}

/**
 * The adaptive stopping rule a run directory is keyed by, for a mode and LIME budget: nothing for a mode that is
 * not adaptive, nor while the default rule is the one run directories were made under before rules were keyed
 * (2026-11-24's: step samples / 20, patience 2, minJaccard 1), so those runs still resume; a later default rule is
 * in the key, so --resume refuses to finish a run under another rule than it started with.
 */
export function adaptiveRuleKey(mode: LimeMode | undefined, samples: number): { adaptiveRule?: AdaptiveRule } {
  if (!limeModeParts(mode).adaptive) return {};
  const rule = resolveAdaptive(true, samples)!;
  return JSON.stringify(rule) === JSON.stringify(previousAdaptiveDefault(samples)) ? {} : { adaptiveRule: rule };
}

/** Parses `--lime-mode`; an unknown value names the modes there are. */
export function limeModeArg(value: string): LimeMode {
  if (!(LIME_MODES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${LIME_MODES.join(', ')}, got "${value}"`);
  return value as LimeMode;
}

/** The `--lime-mode` flag (default exact). */
export function withLimeModeOption(c: Command): Command {
  return c.option('--lime-mode <mode>', LIME_MODE_HELP, limeModeArg, DEFAULT_LIME_MODE);
}

/** The flag's help: what each mode does. */
export const LIME_MODE_HELP =
  "LIME: exact (the reference's computation) | adaptive (stop sampling once the top words are stable) | int8 (the model's matrix products in int8; ONNX models only) | int8+adaptive — the last three faster and approximate (agreement measured in apps/bench)";

/** A mode with int8 on a model that is not run by onnxruntime: the usage error, naming the model and what would work. */
export function int8NeedsOnnx(
  model: string,
  kind: string,
  instead = 'an .onnx file or a Hugging Face folder with onnx/model.onnx (run by onnxruntime-node: --runtime auto or onnx)',
): UsageError {
  return new UsageError(
    `--lime-mode int8 quantises an ONNX graph, but --model ${model} is ${kind}; use ${instead}, or --lime-mode exact|adaptive`,
  );
}
