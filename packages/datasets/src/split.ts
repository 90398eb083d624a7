import { rng, XtrustError } from '@xtrust/core';
import type { Row } from './dataset.js';

export interface SplitOptions<R> {
  /** Share of each label's rows (or groups) that goes to the test set, in [0, 1). */
  testFraction: number;
  seed: number;
  /** Share that goes to a validation set (default 0). */
  validationFraction?: number;
  /**
   * Keeps rows that share a key on the same side (e.g. `(r) => r.meta.document` for Brown passages,
   * so no document is half in train and half in test). Fractions then count groups, not rows; every
   * row of a group must have the same label.
   */
  group?: (row: R) => string;
}

export interface Split<R> {
  readonly train: R[];
  readonly validation: R[];
  readonly test: R[];
}

/** FNV-1a: a label's own stream, so one label's split does not change when another label is added. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

function checkFraction(name: string, f: number): void {
  if (!(typeof f === 'number' && f >= 0 && f < 1)) {
    throw new XtrustError('INVALID_ARGUMENT', `stratifiedSplit: ${name} must be a number in [0, 1), got ${String(f)}`, {
      argument: name,
    });
  }
}

/**
 * Deterministic stratified split: within each label, the rows (or groups) are shuffled with a
 * generator seeded from `seed` and the label, and the first round(n·testFraction) go to test, the
 * next round(n·validationFraction) to validation, the rest to train. A label with at least two units
 * and a positive fraction gets at least one test unit; train always keeps at least one. Each part
 * keeps the input order, so the same rows and seed give the same split whatever else changes.
 */
export function stratifiedSplit<R extends Pick<Row<unknown>, 'label'>>(
  rows: readonly R[],
  options: SplitOptions<R>,
): Split<R> {
  const tf = options.testFraction;
  const vf = options.validationFraction ?? 0;
  checkFraction('testFraction', tf);
  checkFraction('validationFraction', vf);
  if (tf + vf >= 1)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `stratifiedSplit: testFraction + validationFraction must be below 1, got ${tf + vf}`,
      { argument: 'testFraction' },
    );
  if (!Number.isInteger(options.seed))
    throw new XtrustError('INVALID_ARGUMENT', `stratifiedSplit: seed must be an integer, got ${String(options.seed)}`, {
      argument: 'seed',
    });

  // Units: single rows, or groups of rows with one label.
  const unitOf = new Int32Array(rows.length);
  const unitLabel: string[] = [];
  const groupIndex = new Map<string, number>();
  rows.forEach((r, i) => {
    if (!options.group) {
      unitOf[i] = unitLabel.push(r.label) - 1;
      return;
    }
    const key = options.group(r);
    let u = groupIndex.get(key);
    if (u === undefined) {
      u = unitLabel.push(r.label) - 1;
      groupIndex.set(key, u);
    } else if (unitLabel[u] !== r.label) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `stratifiedSplit: group "${key}" holds rows of two labels ("${unitLabel[u]}" and "${r.label}" at row ${i}); a group must have one label`,
        { group: key, row: i },
      );
    }
    unitOf[i] = u;
  });

  const byLabel = new Map<string, number[]>();
  unitLabel.forEach((l, u) => {
    const list = byLabel.get(l);
    if (list) list.push(u);
    else byLabel.set(l, [u]);
  });
  // 0 train, 1 validation, 2 test
  const side = new Uint8Array(unitLabel.length);
  for (const [label, units] of byLabel) {
    const n = units.length;
    let nTest = Math.round(n * tf);
    let nVal = Math.round(n * vf);
    if (tf > 0 && nTest === 0 && n >= 2) nTest = 1;
    if (vf > 0 && nVal === 0 && n - nTest >= 2) nVal = 1;
    while (nTest + nVal > n - 1 && n > 0) {
      if (nVal > 0) nVal--;
      else nTest--;
    }
    const r = rng((options.seed ^ hash32(label)) | 0);
    const order = r.shuffle(units.slice());
    for (let i = 0; i < nTest; i++) side[order[i]] = 2;
    for (let i = nTest; i < nTest + nVal; i++) side[order[i]] = 1;
  }
  const train: R[] = [];
  const validation: R[] = [];
  const test: R[] = [];
  rows.forEach((row, i) => [train, validation, test][side[unitOf[i]]].push(row));
  return { train, validation, test };
}

/**
 * A stratified random sample of `n` rows (all rows when n ≥ rows.length): each label gets its share
 * of n by largest remainders (ties to the label that sorts first), rows drawn with a seeded generator
 * per label, returned in input order.
 */
export function sample<R extends Pick<Row<unknown>, 'label'>>(rows: readonly R[], n: number, seed: number): R[] {
  if (!Number.isInteger(n) || n < 0)
    throw new XtrustError('INVALID_ARGUMENT', `sample: n must be a non-negative integer, got ${String(n)}`, {
      argument: 'n',
    });
  if (!Number.isInteger(seed))
    throw new XtrustError('INVALID_ARGUMENT', `sample: seed must be an integer, got ${String(seed)}`, {
      argument: 'seed',
    });
  if (n >= rows.length) return rows.slice();
  const byLabel = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const list = byLabel.get(r.label);
    if (list) list.push(i);
    else byLabel.set(r.label, [i]);
  });
  const labels = [...byLabel.keys()].sort();
  const quota = labels.map((l) => (byLabel.get(l)!.length * n) / rows.length);
  const take = quota.map(Math.floor);
  let left = n - take.reduce((a, b) => a + b, 0);
  const byRemainder = labels.map((_, i) => i).sort((a, b) => quota[b] - take[b] - (quota[a] - take[a]) || a - b);
  for (const i of byRemainder) {
    if (left === 0) break;
    take[i]++;
    left--;
  }
  const keep = new Uint8Array(rows.length);
  labels.forEach((l, li) => {
    const idx = byLabel.get(l)!;
    const picked = rng((seed ^ hash32(l)) | 0).sampleIndices(idx.length, take[li]);
    for (const p of picked) keep[idx[p]] = 1;
  });
  return rows.filter((_, i) => keep[i] === 1);
}
