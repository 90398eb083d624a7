import { describe, expect, it } from 'vitest';
import { argmaxRow, checkProbabilities, labelIndex, isXtrustError } from '@xtrust/core';

describe('checkProbabilities', () => {
  it('accepts a valid matrix', () => {
    const m = Float32Array.from([0.2, 0.8, 1, 0]);
    expect(checkProbabilities(m, 2, 2, 'm')).toBe(m);
  });

  it('rejects NaN, the wrong shape, the wrong type and rows not summing to 1', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return null;
    };
    const nan = err(() => checkProbabilities(Float32Array.from([NaN, 1]), 1, 2, 'toy'));
    expect(isXtrustError(nan, 'BAD_MODEL_OUTPUT')).toBe(true);
    expect((nan as Error).message).toBe('toy returned NaN at row 0, class 0; expected a probability in [0, 1]');
    expect(() => checkProbabilities(new Float32Array(3), 2, 2, 'toy')).toThrow(
      'toy returned 3 values; expected 2×2 = 4',
    );
    expect(() => checkProbabilities([0.5, 0.5] as unknown as Float32Array, 1, 2, 'toy')).toThrow(/a plain array/);
    expect(() => checkProbabilities(Float32Array.from([0.5, 0.6]), 1, 2, 'toy')).toThrow(/sums to 1\.1/);
  });

  it('normalises when asked and warns once', () => {
    const warnings: string[] = [];
    const m = checkProbabilities(Float32Array.from([1, 1, 0.5, 0.5, 2, 2]), 3, 2, 'toy', {
      normalise: true,
      warn: (w) => warnings.push(w),
    });
    expect([...m]).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(warnings).toHaveLength(1);
  });
});

describe('labels', () => {
  it('finds argmax per row and label indices', () => {
    expect(argmaxRow([0.1, 0.9, 0.7, 0.3], 1, 2)).toBe(0);
    expect(argmaxRow([0.1, 0.9], 0, 2)).toBe(1);
    expect(labelIndex(['ham', 'spam'], 'spam')).toBe(1);
    expect(() => labelIndex(['ham', 'spam'], 'eggs', 'explained label')).toThrow(
      'explained label "eggs" is not one of the classifier\'s labels (ham, spam)',
    );
  });
});
