import { XtrustError, type SentenceEncoder } from '@xtrust/core';
import { checkSameLength, checkStringArray, invalid } from './validate.js';

/**
 * Cosine similarity between originals[i] and others[i] under a sentence encoder, for every i, with a
 * single batched `encode` call. A zero embedding has cosine 0 with everything.
 * Throws BAD_MODEL_OUTPUT when the encoder returns the wrong size or a non-finite number.
 */
export async function pairCosines(
  encoder: SentenceEncoder,
  originals: readonly string[],
  others: readonly string[],
): Promise<Float64Array> {
  if (!encoder || typeof encoder.encode !== 'function') throw invalid('encoder', 'a SentenceEncoder', encoder);
  checkStringArray('originals', originals);
  checkStringArray('perturbed', others);
  checkSameLength('originals', originals, 'perturbed', others);
  const n = originals.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const dim = encoder.dim;
  const e = await encoder.encode([...originals, ...others]);
  if (!e || e.length !== 2 * n * dim) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `encoder "${encoder.name}" returned ${e?.length} numbers for ${2 * n} texts of dimension ${dim}`,
      {
        encoder: encoder.name,
        expected: 2 * n * dim,
        got: e?.length,
      },
    );
  }
  for (let i = 0; i < n; i++) {
    const a = i * dim;
    const b = (n + i) * dim;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = 0; d < dim; d++) {
      const x = e[a + d];
      const y = e[b + d];
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    if (!Number.isFinite(dot) || !Number.isFinite(na) || !Number.isFinite(nb)) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `encoder "${encoder.name}" returned a non-finite embedding for text ${i}`,
        { encoder: encoder.name, index: i },
      );
    }
    const denom = Math.sqrt(na) * Math.sqrt(nb);
    out[i] = denom > 0 ? Math.max(-1, Math.min(1, dot / denom)) : 0;
  }
  return out;
}
