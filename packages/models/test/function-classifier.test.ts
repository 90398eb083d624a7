import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { FunctionClassifier } from '../src/index.js';

describe('FunctionClassifier', () => {
  it('passes probabilities through (Float32Array or rows), batched', async () => {
    const calls: number[] = [];
    const c = new FunctionClassifier(
      ['short', 'long'],
      (texts) => {
        calls.push(texts.length);
        return texts.map((t) => (t.length > 5 ? [0.25, 0.75] : [1, 0]));
      },
      { batchSize: 2 },
    );
    expect(Array.from(await c.predictProba(['a', 'a long text', 'b']))).toEqual([1, 0, 0.25, 0.75, 1, 0]);
    expect(calls).toEqual([2, 1]);
    const f = new FunctionClassifier(['x', 'y'], async (texts) => new Float32Array(texts.length * 2).fill(0.5));
    expect(Array.from(await f.predictProba(['q']))).toEqual([0.5, 0.5]);
  });

  it('names the classifier when the output is NaN, the wrong shape or not probabilities', async () => {
    const bad = (fn: (t: readonly string[]) => never) => new FunctionClassifier(['a', 'b'], fn, { name: 'my scorer' });
    const expectBad = (p: Promise<unknown>, re: RegExp) =>
      expect(p).rejects.toSatisfy(
        (e) =>
          isXtrustError(e, 'BAD_MODEL_OUTPUT') &&
          /my scorer/.test((e as Error).message) &&
          re.test((e as Error).message),
      );
    await expectBad(bad((t) => t.map(() => [NaN, 1]) as never).predictProba(['x']), /NaN/);
    await expectBad(bad(() => new Float32Array(3) as never).predictProba(['x']), /expected 1×2/);
    await expectBad(bad(() => [[0.5, 0.5]] as never).predictProba(['x', 'y']), /1 rows for 2 texts/);
    await expectBad(bad((t) => t.map(() => [0.2, 0.2, 0.6]) as never).predictProba(['x']), /row 0 of 3 values/);
    await expectBad(bad((t) => t.map(() => [0.7, 0.7]) as never).predictProba(['x']), /sums to 1\.4/);
    await expectBad(bad(() => 'nope' as never).predictProba(['x']), /returned a string/);
  });

  it('rejects bad construction and texts that are not strings', async () => {
    expect(() => new FunctionClassifier([], () => [])).toThrow(/labels/);
    expect(() => new FunctionClassifier(['a', 'a'], () => [])).toThrow(/distinct/);
    expect(() => new FunctionClassifier(['a'], 3 as never)).toThrow(/must be a function/);
    const c = new FunctionClassifier(['a', 'b'], (t) => t.map(() => [0.5, 0.5]));
    await expect(c.predictProba([1 as unknown as string])).rejects.toSatisfy(
      (e) => isXtrustError(e, 'INVALID_ARGUMENT') && /texts\[0\]/.test((e as Error).message),
    );
    expect((await c.predictProba([])).length).toBe(0);
  });
});
