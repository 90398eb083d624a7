import { describe, expect, it } from 'vitest';
import { wilsonInterval, XtrustError } from '../src/index.js';

describe('wilsonInterval', () => {
  it('matches hand-computed Wilson 95 % intervals', () => {
    // 5 of 10: centre 0.5, half = (1.96/(1+0.38415)) * sqrt(0.025 + 0.0096) = 0.2634…
    const a = wilsonInterval(5, 10);
    expect(a.rate).toBe(0.5);
    expect(a.lo).toBeCloseTo(0.2366, 4);
    expect(a.hi).toBeCloseTo(0.7634, 4);
    // 81 of 263 (Wilson's interval as tabulated by Newcombe 1998, example: 0.2553–0.3662)
    const b = wilsonInterval(81, 263);
    expect(b.lo).toBeCloseTo(0.2553, 4);
    expect(b.hi).toBeCloseTo(0.3662, 4);
  });

  it('stays inside [0, 1] and is exact at the ends', () => {
    const none = wilsonInterval(0, 20);
    expect(none.lo).toBe(0);
    expect(none.hi).toBeCloseTo(0.1611, 4);
    const all = wilsonInterval(20, 20);
    expect(all.hi).toBe(1);
    expect(all.lo).toBeCloseTo(0.8389, 4);
    expect(wilsonInterval(0, 0)).toEqual({ rate: Number.NaN, lo: 0, hi: 1 });
  });

  it('refuses counts that are not a binomial outcome', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(XtrustError);
    expect(() => wilsonInterval(-1, 2)).toThrow(/successes/);
    expect(() => wilsonInterval(1, 2.5)).toThrow(/trials/);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/z/);
  });
});
