import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import {
  footrule,
  intervalSyn,
  jaccard,
  kendall,
  prepareLists,
  rankedWords,
  rbo,
  resolveMapping,
  thesaurusSyn,
  weightedFootrule,
  weightedJaccard,
  weightedKendall,
  weightedRbo,
  type Syn,
} from '../src/index.js';

const synTable =
  (entries: Record<string, number>): Syn =>
  (a, b) =>
    a === b ? 1 : (entries[`${a}>${b}`] ?? 0);

function expectInvalid(fn: () => unknown, pattern?: RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(isXtrustError(e, 'INVALID_ARGUMENT') || isXtrustError(e, 'DIMENSION_MISMATCH')).toBe(true);
    if (pattern) expect((e as Error).message).toMatch(pattern);
    return;
  }
  throw new Error('expected an XtrustError');
}

describe('list preparation', () => {
  it('rejects duplicate words by default, naming the list and the ranks', () => {
    expectInvalid(() => jaccard(['a', 'b', 'a'], ['a']), /a \(original list\).*"a" at ranks 1 and 3/);
    expectInvalid(() => kendall(['a'], ['b', 'b']), /b \(perturbed list\)/);
  });
  it('dedupes on request, keeping the first occurrence, before the cut to k', () => {
    const l = prepareLists(['a', 'a', 'b', 'c'], ['x'], { duplicates: 'dedupe', k: 2 });
    expect(l.a).toEqual(['a', 'b']);
    expect(jaccard(['a', 'b', 'a'], ['a', 'b'], { duplicates: 'dedupe' })).toBe(1);
  });
  it('cuts both lists to k; a k larger than the lists keeps them whole', () => {
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'd'], { k: 2 })).toBe(1);
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'd'], { k: 50 })).toBe(0.5);
  });
  it('rejects a bad k, non-string words and non-arrays', () => {
    expectInvalid(() => jaccard(['a'], ['a'], { k: 0 }), /options\.k/);
    expectInvalid(() => jaccard(['a'], ['a'], { k: 1.5 }), /options\.k/);
    expectInvalid(() => jaccard(['a', 3 as unknown as string], ['a']), /\[1\]/);
    expectInvalid(() => jaccard('ab' as unknown as string[], ['a']));
  });
  it('rankedWords orders an explanation by |weight|', () => {
    const e = {
      features: [
        { word: 'x', weight: 0.1 },
        { word: 'y', weight: -0.5 },
        { word: 'z', weight: 0.3 },
      ],
    };
    expect(rankedWords(e)).toEqual(['y', 'z', 'x']);
    expect(rankedWords(e, 2)).toEqual(['y', 'z']);
    expect(rankedWords(e, undefined, 'positive')).toEqual(['z', 'x']);
    expect(rankedWords(e, 1, 'positive')).toEqual(['z']);
  });
});

describe('Syn forms', () => {
  it('interval form clips the cosine to [0, 1] and gives 1 for identical words', () => {
    const syn = intervalSyn((a, b) => ({ 'good>bad': -0.4, 'good>great': 0.83, 'x>y': 1.2 })[`${a}>${b}`] ?? 0);
    expect(syn('good', 'bad')).toBe(0);
    expect(syn('good', 'great')).toBe(0.83);
    expect(syn('x', 'y')).toBe(1);
    expect(syn('frog', 'frog')).toBe(1);
    expectInvalid(() => intervalSyn(() => Number.NaN)('a', 'b'), /cosine/);
  });
  it('thesaurus form is the 0/1 characteristic function of S_a', () => {
    const syn = thesaurusSyn(new Map([['sick', ['ill', 'sickly']]]));
    expect(syn('sick', 'sickly')).toBe(1);
    expect(syn('sick', 'frog')).toBe(0);
    expect(syn('sickly', 'sick')).toBe(0); // S_a is directional
    expect(syn('frog', 'frog')).toBe(1);
    const pred = thesaurusSyn((a, b) => a[0] === b[0]);
    expect(pred('worried', 'woeful')).toBe(1);
    expect(pred('worried', 'alarmed')).toBe(0);
  });
  it('uses only mapped pairs whose original left B and whose substitute is new in B', () => {
    const l = prepareLists(['a', 'b', 'c', 'd'], ['b', 'x', 'a', 'y']);
    const pairs = resolveMapping(
      l,
      [
        ['a', 'z'], // a is still in B: unchanged, ignored
        ['c', 'x'], // used
        ['d', 'q'], // q not in B: d is simply missing
        ['e', 'y'], // e not in A: ignored
      ],
      () => 0.5,
    );
    expect(pairs).toEqual([{ a: 'c', b: 'x', i: 2, j: 1, syn: 0.5 }]);
  });
  it('rejects a mapping that is not one-to-one and a Syn outside [0, 1]', () => {
    expectInvalid(
      () =>
        weightedJaccard(
          ['a', 'b'],
          ['x'],
          [
            ['a', 'x'],
            ['b', 'x'],
          ],
          () => 1,
        ),
      /one-to-one/,
    );
    expectInvalid(
      () =>
        weightedJaccard(
          ['a'],
          ['x'],
          [
            ['a', 'x'],
            ['a', 'y'],
          ],
          () => 1,
        ),
      /one-to-one/,
    );
    expectInvalid(() => weightedJaccard(['a'], ['x'], new Map([['a', 'x']]), () => 1.5), /syn\("a", "x"\)/);
    expectInvalid(() => weightedJaccard(['a'], ['x'], new Map([['a', 'x']]), () => Number.NaN), /syn/);
    expectInvalid(() => weightedJaccard(['a'], ['x'], { a: 'x' } as never, () => 1), /mapping/);
  });
});

describe('Jaccard (001 Eqs. 1–3)', () => {
  it('hand-computed values and edge cases', () => {
    expect(jaccard(['a', 'b', 'c'], ['b', 'c', 'd'])).toBe(0.5);
    expect(jaccard(['a', 'b', 'c'], ['c', 'b', 'a'])).toBe(1);
    expect(jaccard(['a', 'b'], ['c'])).toBe(0);
    expect(jaccard([], [])).toBe(1);
    expect(jaccard(['a'], [])).toBe(0);
    expect(jaccard(['a', 'b', 'c', 'd'], ['a'])).toBe(0.25); // different lengths
  });
  it("reproduces the paper's worked example: Syn = 0.9, 0.6, 0.3 gives 0.3, and 0.6 with merged pairs", () => {
    const A = ['a', 'b', 'c'];
    const B = ['α', 'β', 'γ'];
    const M = new Map([
      ['a', 'α'],
      ['b', 'β'],
      ['c', 'γ'],
    ]);
    const syn = synTable({ 'a>α': 0.9, 'b>β': 0.6, 'c>γ': 0.3 });
    expect(jaccard(A, B)).toBe(0);
    expect(weightedJaccard(A, B, M, syn)).toBeCloseTo(0.3, 12);
    expect(weightedJaccard(A, B, M, syn, { denominator: 'merged' })).toBeCloseTo(0.6, 12);
  });
  it('weighting adds Syn of mapped pairs to the intersection; Syn = 0 gives the standard value', () => {
    // A = {a, b, c}, B = {a, b, x}, c → x with Syn 0.5: (2 + 0.5) / 4
    expect(weightedJaccard(['a', 'b', 'c'], ['a', 'b', 'x'], [['c', 'x']], () => 0.5)).toBe(0.625);
    expect(weightedJaccard(['a', 'b', 'c'], ['a', 'b', 'x'], [['c', 'x']], () => 0)).toBe(0.5);
    expect(weightedJaccard(['a', 'b', 'c'], ['a', 'b', 'x'], [['c', 'x']], () => 1, { denominator: 'merged' })).toBe(1);
    expect(weightedJaccard([], [], [], () => 1)).toBe(1);
    expectInvalid(() => weightedJaccard(['a'], ['a'], [], () => 1, { denominator: 'both' as never }), /denominator/);
  });
});

describe('Kendall rank distance (001 Eqs. 4–5)', () => {
  it('position-wise dissonance normalised by the longer list', () => {
    expect(kendall(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(kendall(['a', 'b', 'c'], ['a', 'c', 'b'])).toBeCloseTo(1 / 3, 12);
    expect(kendall(['a', 'b', 'c'], ['a', 'b'])).toBeCloseTo(2 / 3, 12); // excess element dissonant
    expect(kendall(['a'], ['a', 'b', 'c', 'd'])).toBeCloseTo(1 / 4, 12);
    expect(kendall([], [])).toBe(1);
    expect(kendall(['a'], [])).toBe(0);
  });
  it('a mapped pair at the same rank counts 1 − Syn; elsewhere a mapping changes nothing', () => {
    expect(weightedKendall(['a', 'b', 'c'], ['a', 'x', 'c'], [['b', 'x']], () => 0.5)).toBeCloseTo(5 / 6, 12);
    expect(weightedKendall(['a', 'b', 'c'], ['a', 'x', 'c'], [['b', 'x']], () => 1)).toBe(1);
    // b → x moved from rank 2 to rank 3: positions 2 and 3 both dissonant, no weighting
    expect(weightedKendall(['a', 'b', 'c'], ['a', 'c', 'x'], [['b', 'x']], () => 1)).toBeCloseTo(1 / 3, 12);
    // thesaurus form: a non-synonym counts as a full dissonance
    expect(
      weightedKendall(
        ['a', 'b'],
        ['a', 'x'],
        [['b', 'x']],
        thesaurusSyn(() => false),
      ),
    ).toBe(0.5);
  });
});

describe('Spearman footrule, top-k with penalty k/2 (001 Eqs. 6–7)', () => {
  it('hand-computed values', () => {
    expect(footrule(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'])).toBe(1);
    expect(footrule(['a', 'b', 'c', 'd'], ['b', 'a', 'c', 'd'])).toBe(0.75); // F = 2, ⌊16/2⌋ = 8
    expect(footrule(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'x'])).toBe(0.75); // d missing: p = 2
    expect(footrule(['a', 'b', 'c', 'd'], ['d', 'c', 'b', 'a'])).toBe(0); // F = 8 = max
    expect(footrule(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'x'], { penalty: 4 })).toBe(0.5);
  });
  it('clips at 0 when the penalties exceed ⌊k²/2⌋ (odd k, disjoint lists)', () => {
    const A = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const B = ['h', 'i', 'j', 'k', 'l', 'm', 'n'];
    expect(footrule(A, B)).toBe(0); // F = 7 · 3.5 = 24.5 > 24
  });
  it('edge cases: empty lists, k = 1, different lengths', () => {
    expect(footrule([], [])).toBe(1);
    expect(footrule(['a'], [])).toBe(0);
    expect(footrule([], ['a'])).toBe(0);
    expect(footrule(['a'], ['a'])).toBe(1);
    expect(footrule(['a'], ['b'])).toBe(0);
    // k = max(2, 3) = 3, norm 4: a at 0 vs 2 → 2; b at 1 vs 1 → 0
    expect(footrule(['a', 'b'], ['x', 'b', 'a'])).toBe(0.5);
    // B shorter: k = 3, c missing: p = 1.5
    expect(footrule(['a', 'b', 'c'], ['a', 'b'])).toBeCloseTo(1 - 1.5 / 4, 12);
    expectInvalid(() => footrule(['a'], ['a'], { penalty: -1 }), /penalty/);
  });
  it('weighted: s = min(|i − j| / Syn, |A| − 1) for mapped pairs', () => {
    const A = ['a', 'b', 'c', 'd'];
    // d → x at the same rank: s = 0
    expect(weightedFootrule(A, ['a', 'b', 'c', 'x'], [['d', 'x']], () => 0.5)).toBe(1);
    // d → x moved from rank 4 to rank 1: a, b, c each moved by 1; s = min(3 / 0.5, 3) = 3 → F = 6
    expect(weightedFootrule(A, ['x', 'a', 'b', 'c'], [['d', 'x']], () => 0.5)).toBe(0.25);
    // the standard measure charges only p = 2 for the missing d: F = 5 — higher than weighted
    expect(footrule(A, ['x', 'a', 'b', 'c'])).toBe(0.375);
    // moved by 1 with Syn 0.8: s = 1.25
    expect(weightedFootrule(A, ['a', 'b', 'x', 'c'], [['d', 'x']], () => 0.8)).toBeCloseTo(1 - (1 + 1.25) / 8, 12);
    // Syn = 0 gives the cap |A| − 1 = 3, even without displacement
    expect(weightedFootrule(A, ['a', 'b', 'c', 'x'], [['d', 'x']], () => 0)).toBe(1 - 3 / 8);
  });
});

describe('RBO_EXT (001 Eq. 8, Webber et al. 2010 Eq. 32)', () => {
  it('identical lists score 1 for any p; disjoint lists 0', () => {
    for (const p of [0.1, 0.5, 0.7, 0.9, 0.99]) {
      expect(rbo(['a', 'b', 'c'], ['a', 'b', 'c'], p)).toBeCloseTo(1, 12);
      expect(rbo(['a', 'b', 'c'], ['d', 'e', 'f'], p)).toBe(0);
    }
  });
  it('hand-computed values', () => {
    // X1 = 0, X2 = 2: (1−p)/p · (2/2)·p² + (2/2)·p² = 0.25 + 0.25
    expect(rbo(['a', 'b'], ['b', 'a'], 0.5)).toBeCloseTo(0.5, 12);
    // X1 = 1, X2 = 1, X3 = 2 with p = 0.5: (1)(0.5 + 0.125 + 0.0833) + (2/3)(0.125)
    expect(rbo(['a', 'b', 'c'], ['a', 'x', 'b'], 0.5)).toBeCloseTo(0.5 + 0.125 + (2 / 3) * 0.125 + (2 / 3) * 0.125, 12);
  });
  it('uneven lists: a short list that is a prefix of the long one extrapolates to 1', () => {
    expect(rbo(['a'], ['a', 'b'], 0.5)).toBeCloseTo(1, 12);
    expect(rbo(['a', 'b', 'c'], ['a'], 0.9)).toBeCloseTo(1, 12);
    // S = [x], L = [a, x]: X1 = 0, X2 = 1, X_s = 0 → (1−p)/p·(1/2)p² + (1/2)p² = p/2·(1−p) + p²/2
    expect(rbo(['x'], ['a', 'x'], 0.5)).toBeCloseTo(0.125 + 0.125, 12);
  });
  it('edge cases and p validation', () => {
    expect(rbo([], [], 0.9)).toBe(1);
    expect(rbo(['a'], [], 0.9)).toBe(0);
    expectInvalid(() => rbo(['a'], ['a'], 1), /p: expected a number in \(0, 1\)/);
    expectInvalid(() => rbo(['a'], ['a'], 0));
    expectInvalid(() => rbo(['a'], ['a'], Number.NaN));
  });
  it('weighted: the overlap at each depth grows by Syn of the mapped pairs seen in both prefixes', () => {
    // A = [a, b], B = [x, b], a → x with Syn 0.5, p = 0.5: X1 = 0.5, X2 = 1.5
    // (1−p)/p·(0.5·0.5 + 0.75·0.25) + 0.75·0.25 = 0.4375 + 0.1875
    expect(weightedRbo(['a', 'b'], ['x', 'b'], [['a', 'x']], () => 0.5, 0.5)).toBeCloseTo(0.625, 12);
    expect(rbo(['a', 'b'], ['x', 'b'], 0.5)).toBeCloseTo(0.25, 12);
    expect(weightedRbo(['a', 'b'], ['x', 'b'], [['a', 'x']], () => 1, 0.5)).toBeCloseTo(1, 12);
    expect(weightedRbo(['a', 'b'], ['x', 'b'], [['a', 'x']], () => 0, 0.5)).toBeCloseTo(0.25, 12);
  });
});

describe('weighting with k and the thesaurus form', () => {
  it('a substitute cut off by k leaves its original missing (penalty, no Syn)', () => {
    const A = ['a', 'b', 'c', 'd'];
    const B = ['a', 'b', 'c', 'x'];
    // k = 3: d and x are both cut; lists equal
    expect(weightedFootrule(A, B, [['d', 'x']], () => 0.2, { k: 3 })).toBe(1);
    // B = [x, a, b, c] with k = 3: d is cut from A, x stays in B but its original is gone
    expect(weightedJaccard(A, ['x', 'a', 'b', 'c'], [['d', 'x']], () => 1, { k: 3 })).toBe(0.5); // {a,b} / {a,b,c,x}
    // A = [d, a, b] (k = 3), B = [a, b, c, x]: x beyond k, d missing → p = 1.5; a, b moved by 1 each
    expect(weightedFootrule(['d', 'a', 'b', 'c'], ['a', 'b', 'c', 'x'], [['d', 'x']], () => 1, { k: 3 })).toBeCloseTo(
      1 - (1.5 + 2) / 4,
      12,
    );
  });
  it('the thesaurus form makes synonyms count fully and others not at all', () => {
    const syn = thesaurusSyn(new Map([['sick', new Set(['sickly'])]]));
    const A = ['rash', 'sick', 'worried'];
    const B = ['rash', 'sickly', 'alarmed'];
    const M = new Map([
      ['sick', 'sickly'],
      ['worried', 'alarmed'],
    ]);
    expect(weightedJaccard(A, B, M, syn)).toBeCloseTo(2 / 5, 12);
    expect(weightedKendall(A, B, M, syn)).toBeCloseTo(2 / 3, 12);
    expect(weightedRbo(A, B, M, syn, 0.5)).toBeCloseTo(rbo(['rash', 'sick', 'w'], ['rash', 'sick', 'a'], 0.5), 12);
  });
});

describe('precomputeSyn: an async synonymity source as a pure Syn', () => {
  it('scores all pairs of all mappings in one synPairs call', async () => {
    const { precomputeSyn } = await import('../src/index.js');
    let calls = 0;
    const source = {
      synPairs: async (a: readonly string[], b: readonly string[]) => {
        calls++;
        return Float32Array.from(a, (w, i) => (w.length === b[i].length ? 0.5 : 0.25));
      },
    };
    const syn = await precomputeSyn(source, [
      new Map([['ab', 'xy']]),
      [
        ['abc', 'x'],
        ['ab', 'xy'],
      ],
    ]);
    expect(calls).toBe(1);
    expect(syn('ab', 'xy')).toBe(0.5);
    expect(syn('abc', 'x')).toBe(0.25);
    expect(syn('q', 'q')).toBe(1);
    expectInvalid(() => syn('ab', 'zz'), /precomputeSyn/);
    expect(weightedJaccard(['ab', 'c'], ['xy', 'c'], [['ab', 'xy']], syn)).toBeCloseTo(1.5 / 3, 12);
  });
  it('falls back to an async syn(a, b)', async () => {
    const { precomputeSyn } = await import('../src/index.js');
    const syn = await precomputeSyn({ syn: async () => 0.7 }, [[['a', 'b']]]);
    expect(syn('a', 'b')).toBe(0.7);
  });
});
