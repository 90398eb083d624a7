/**
 * A stored block's key as this run's keys are: a block stored when keys named the graph's bytes (`graph`) names the
 * model by its fingerprint when those bytes are this folder's (the same file computes the same function).
 */
export function asCurrentKey(stored: Record<string, unknown>, digest: string, fingerprint: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(stored).map(([k, v]) => (k === 'graph' && v === digest ? ['model', fingerprint] : [k, v])));
}
