import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { XtrustError, type GradientOptions } from '@xtrust/core';

/** Throws INVALID_ARGUMENT unless `texts` is an array of strings (naming the first offending element). */
export function requireTexts(texts: unknown, source: string): asserts texts is readonly string[] {
  if (!Array.isArray(texts)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${source}: texts must be an array of strings, got ${texts === null ? 'null' : typeof texts}`,
      { argument: 'texts', source },
    );
  }
  for (let i = 0; i < texts.length; i++) {
    if (typeof texts[i] !== 'string') {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${source}: texts[${i}] is ${texts[i] === null ? 'null' : typeof texts[i]}; expected a string`,
        { argument: 'texts', index: i, source },
      );
    }
  }
}

/** Throws INVALID_ARGUMENT unless `text` is a string. */
export function requireText(text: unknown, source: string): asserts text is string {
  if (typeof text !== 'string') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${source}: text must be a string, got ${text === null ? 'null' : typeof text}`,
      { argument: 'text', source },
    );
  }
}

/** Path of `name` inside `dir`; FILE_NOT_FOUND naming the file when it is absent. */
export function requireFile(dir: string, name: string, what: string): string {
  if (!existsSync(dir))
    throw new XtrustError('FILE_NOT_FOUND', `${what}: model folder ${dir} does not exist`, { file: dir });
  const path = join(dir, name);
  if (!existsSync(path))
    throw new XtrustError('FILE_NOT_FOUND', `${what}: ${path} is missing (expected ${name} in the model folder)`, {
      file: path,
    });
  return path;
}

/** Splits [0, n) into consecutive batches of at most `size`. */
export function* batches(n: number, size: number): Generator<[number, number]> {
  for (let s = 0; s < n; s += size) yield [s, Math.min(n, s + size)];
}

/** Throws INVALID_ARGUMENT unless `v` is a positive integer. */
export function requirePositiveInt(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
    throw new XtrustError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${String(v)}`, {
      argument: name,
    });
  return v;
}

/**
 * The checked arguments of an `inputGradients(text, labelIndex, options)` call (the GradientProvider
 * contract of @xtrust/core): UNKNOWN_LABEL for a label index outside the model's labels, INVALID_ARGUMENT for
 * a non-string text, an unknown `output` or a scale that is not a finite number — each naming `source`.
 */
export function gradientRequest(
  source: string,
  labels: readonly string[],
  text: unknown,
  labelIndex: number,
  options: GradientOptions,
): { output: 'probability' | 'logit'; scales: number[] } {
  requireText(text, source);
  const k = labels.length;
  if (!Number.isInteger(labelIndex) || labelIndex < 0 || labelIndex >= k) {
    throw new XtrustError(
      'UNKNOWN_LABEL',
      `${source}: label index ${labelIndex} is not one of 0…${k - 1} (${labels.join(', ')})`,
      { labelIndex },
    );
  }
  const output = options.output ?? 'probability';
  if (output !== 'probability' && output !== 'logit')
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${source}: output must be "probability" or "logit", got ${String(output)}`,
      { argument: 'output' },
    );
  const scales = Array.from(options.scales ?? [1]);
  scales.forEach((s, i) => {
    if (typeof s !== 'number' || !Number.isFinite(s))
      throw new XtrustError('INVALID_ARGUMENT', `${source}: scales[${i}] is ${s}; expected a finite number`, {
        argument: 'scales',
      });
  });
  return { output, scales };
}
