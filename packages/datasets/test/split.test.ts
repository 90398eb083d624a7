import { describe, expect, it } from 'vitest';
import { sample, stratifiedSplit } from '../src/index.js';

// 100 "a", 30 "b", 7 "c" rows; the documents of ten rows each form groups
const rows = [
  ...Array.from({ length: 100 }, (_, i) => ({
    id: `a${i}`,
    label: 'a',
    text: `a ${i}`,
    doc: `A${Math.floor(i / 10)}`,
  })),
  ...Array.from({ length: 30 }, (_, i) => ({ id: `b${i}`, label: 'b', text: `b ${i}`, doc: `B${Math.floor(i / 10)}` })),
  ...Array.from({ length: 7 }, (_, i) => ({ id: `c${i}`, label: 'c', text: `c ${i}`, doc: `C${i}` })),
];
const count = (rs: readonly { label: string }[], l: string) => rs.filter((r) => r.label === l).length;

describe('stratifiedSplit', () => {
  it('splits every label by the fractions and loses no row', () => {
    const s = stratifiedSplit(rows, { testFraction: 0.2, validationFraction: 0.1, seed: 7 });
    expect([count(s.test, 'a'), count(s.test, 'b'), count(s.test, 'c')]).toEqual([20, 6, 1]);
    expect([count(s.validation, 'a'), count(s.validation, 'b'), count(s.validation, 'c')]).toEqual([10, 3, 1]);
    expect(s.train.length).toBe(137 - 27 - 14);
    const ids = [...s.train, ...s.validation, ...s.test].map((r) => r.id).sort();
    expect(ids).toEqual(rows.map((r) => r.id).sort());
    // each part keeps the input order
    expect(s.test.map((r) => rows.indexOf(r))).toEqual([...s.test.map((r) => rows.indexOf(r))].sort((x, y) => x - y));
  });

  it('is deterministic by seed and differs between seeds', () => {
    const a = stratifiedSplit(rows, { testFraction: 0.25, seed: 1 });
    const b = stratifiedSplit(rows, { testFraction: 0.25, seed: 1 });
    const c = stratifiedSplit(rows, { testFraction: 0.25, seed: 2 });
    expect(a.test.map((r) => r.id)).toEqual(b.test.map((r) => r.id));
    expect(a.test.map((r) => r.id)).not.toEqual(c.test.map((r) => r.id));
    expect(a.validation).toEqual([]);
  });

  it("does not change one label's split when another label's rows change", () => {
    const a = stratifiedSplit(rows, { testFraction: 0.3, seed: 5 });
    const fewer = stratifiedSplit(
      rows.filter((r) => r.label !== 'c'),
      { testFraction: 0.3, seed: 5 },
    );
    expect(fewer.test.filter((r) => r.label === 'a')).toEqual(a.test.filter((r) => r.label === 'a'));
  });

  it('keeps groups together and counts groups, not rows', () => {
    const s = stratifiedSplit(rows, { testFraction: 0.2, seed: 3, group: (r) => r.doc });
    const testDocs = new Set(s.test.map((r) => r.doc));
    for (const r of s.train) expect(testDocs.has(r.doc)).toBe(false);
    expect([count(s.test, 'a'), count(s.test, 'b'), count(s.test, 'c')]).toEqual([20, 10, 1]);
    const mixed = [...rows, { id: 'x', label: 'b', text: 'x', doc: 'A0' }];
    expect(() => stratifiedSplit(mixed, { testFraction: 0.2, seed: 3, group: (r) => r.doc })).toThrow(
      /group "A0" holds rows of two labels/,
    );
  });

  it('rejects bad fractions and seeds', () => {
    expect(() => stratifiedSplit(rows, { testFraction: 1, seed: 1 })).toThrow(
      /testFraction must be a number in \[0, 1\)/,
    );
    expect(() => stratifiedSplit(rows, { testFraction: 0.6, validationFraction: 0.5, seed: 1 })).toThrow(/below 1/);
    expect(() => stratifiedSplit(rows, { testFraction: 0.2, seed: 0.5 })).toThrow(/seed must be an integer/);
  });
});

describe('sample', () => {
  it('draws a stratified, seeded sample in input order', () => {
    const s = sample(rows, 40, 11);
    expect(s.length).toBe(40);
    // shares 100/137, 30/137, 7/137 of 40 = 29.2, 8.76, 2.04 → 29, 9, 2
    expect([count(s, 'a'), count(s, 'b'), count(s, 'c')]).toEqual([29, 9, 2]);
    expect(sample(rows, 40, 11)).toEqual(s);
    expect(sample(rows, 40, 12)).not.toEqual(s);
    expect(s.map((r) => rows.indexOf(r))).toEqual(s.map((r) => rows.indexOf(r)).sort((x, y) => x - y));
    expect(sample(rows, 500, 1).length).toBe(137);
    expect(() => sample(rows, -1, 1)).toThrow(/non-negative integer/);
  });
});
