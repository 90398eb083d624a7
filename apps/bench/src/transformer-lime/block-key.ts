import { OnnxClassifier } from '@xtrust/models';
import { modelFingerprint } from '@xtrust/oracle';

/**
 * A stored block's key as this run's keys are: a block stored when keys named the graph's bytes (`graph`) names the
 * model by its fingerprint when those bytes are this folder's (the same file computes the same function).
 */
export function asCurrentKey(
  stored: Record<string, unknown>,
  digest: string,
  fingerprint: string,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(stored).map(([k, v]) => (k === 'graph' && v === digest ? ['model', fingerprint] : [k, v])),
  );
}

/**
 * The model a block is measured on, by what it computes: oracle's modelFingerprint of the float32 classifier (its
 * probabilities, rounded to 1e-4, on fixed probe texts; the CLI keys its runs by it). A re-export of the same weights
 * changes the graph's bytes, not the function (out/bert-spam on 2026-11-25: its weights now shared with the gradient
 * graph), and must not send hours of blocks to be measured again.
 */
export async function fingerprintOf(dir: string): Promise<string> {
  const clf = await OnnxClassifier.load(dir, { threads: 1 });
  try {
    return await modelFingerprint(clf);
  } finally {
    await clf.release();
  }
}
