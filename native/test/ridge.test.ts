import { readFileSync } from 'node:fs';
import { XtrustError, ridgeBatchTs, rng, type RidgeFit, type RidgeProblem } from '@xtrust/core';
import { backendInfo, ridgeBatch, useBackend } from '@xtrust/native';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose } from './helpers.js';

interface FixtureCase {
  name: string;
  rows: number;
  cols: number;
  binary: boolean;
  x: number[];
  y: number[];
  sampleWeight: number[] | null;
  alpha: number;
  coef: number[];
  intercept: number;
  score: number | null;
  firstPrediction: number;
}

// Made by fixtures/make-ridge-fixture.py with Debian's scikit-learn.
const fixture = JSON.parse(readFileSync(new URL('./fixtures/ridge-sklearn.json', import.meta.url), 'utf8')) as {
  cases: FixtureCase[];
};
const problems: RidgeProblem[] = fixture.cases.map((c) => ({
  x: c.binary ? Uint8Array.from(c.x) : Float32Array.from(c.x),
  rows: c.rows,
  cols: c.cols,
  y: Float64Array.from(c.y),
  ...(c.sampleWeight ? { sampleWeight: Float64Array.from(c.sampleWeight) } : {}),
  alpha: c.alpha,
}));
const hasNative = backendInfo().available.includes('cpu');
afterAll(() => {
  useBackend('auto');
});

function expectFit(
  got: RidgeFit,
  want: { coef: ArrayLike<number>; intercept: number; score: number | null; firstPrediction: number },
  what: string,
) {
  expectClose(got.coef, want.coef, 1e-4, 1e-8, `${what} coef`);
  expectClose(
    [got.intercept, got.firstPrediction],
    [want.intercept, want.firstPrediction],
    1e-4,
    1e-8,
    `${what} intercept/prediction`,
  );
  expectClose([got.score], [want.score ?? NaN], 1e-4, 1e-8, `${what} score`);
}

/** A LIME-sized random batch: binary designs with the first row all ones, kernel weights. */
function limeBatch(seed: number, count: number, rows: number, cols: number): RidgeProblem[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, e) => {
    const x = new Uint8Array(rows * cols);
    const y = new Float64Array(rows);
    const w = new Float64Array(rows);
    const beta = Float64Array.from({ length: cols }, () => r.normal());
    for (let i = 0; i < rows; i++) {
      let on = 0;
      let lin = 0;
      for (let c = 0; c < cols; c++) {
        const v = i === 0 || r.float() < 0.6 ? 1 : 0;
        x[i * cols + c] = v;
        on += v;
        lin += v * beta[c];
      }
      const dist = Math.sqrt((cols - on) / cols);
      w[i] = Math.sqrt(Math.exp(-(dist * dist) / 0.5625));
      y[i] = 1 / (1 + Math.exp(-0.3 * lin + 0.1 * r.normal()));
    }
    return { x, rows, cols, y, sampleWeight: w, alpha: 1 + (e % 3) };
  });
}

describe('ridge against scikit-learn (fixture)', () => {
  it.each(fixture.cases.map((c, i) => [c.name, i] as const))('ridgeBatchTs: %s', (_name, i) => {
    expectFit(ridgeBatchTs([problems[i]])[0], fixture.cases[i], fixture.cases[i].name);
  });

  it('ridgeBatch (the default backend) solves the whole fixture in one batch', () => {
    useBackend('auto');
    const fits = ridgeBatch(problems);
    fits.forEach((f, i) => expectFit(f, fixture.cases[i], fixture.cases[i].name));
  });

  it('a binary design as Uint8Array and as Float32Array give the same fit', () => {
    const i = fixture.cases.findIndex((c) => c.binary);
    const asFloat = { ...problems[i], x: Float32Array.from(problems[i].x) };
    expectFit(ridgeBatch([asFloat])[0], fixture.cases[i], 'float copy');
  });
});

describe.skipIf(!hasNative)('native ridgeBatch equals the TS twin', () => {
  it('on a seeded LIME-like batch, float32 y and weights too', () => {
    useBackend('cpu');
    const batch = limeBatch(7, 12, 300, 25);
    batch.push({
      ...batch[0],
      y: Float32Array.from(batch[0].y),
      sampleWeight: Float32Array.from(batch[0].sampleWeight!),
    });
    batch.push({ ...batch[1], sampleWeight: undefined });
    const native = ridgeBatch(batch);
    const ts = ridgeBatchTs(batch);
    native.forEach((f, i) => expectFit(f, ts[i], `problem ${i}`));
  });

  it('on edge cases: one row, one column, constant column, dual form', () => {
    useBackend('cpu');
    const native = ridgeBatch(problems);
    const ts = ridgeBatchTs(problems);
    native.forEach((f, i) => expectFit(f, ts[i], fixture.cases[i].name));
  });
});

describe.each(['ts', 'cpu'] as const)('ridge bad input (%s backend)', (b) => {
  it.skipIf(b === 'cpu' && !hasNative)('throws XtrustError naming the problem and field', () => {
    useBackend(b);
    const p = limeBatch(3, 1, 10, 4)[0];
    const bad = (q: Partial<RidgeProblem> & Record<string, unknown>, argument: string) => {
      try {
        ridgeBatch([p, { ...p, ...q } as RidgeProblem]);
      } catch (e) {
        expect(e).toBeInstanceOf(XtrustError);
        expect((e as XtrustError).details.argument).toBe(argument);
        expect((e as XtrustError).message).toContain(argument);
        return;
      }
      expect.fail(`no error for ${argument}`);
    };
    bad({ rows: 9 }, 'problems[1].x');
    bad({ x: Array.from(p.x) as unknown as Uint8Array }, 'problems[1].x');
    bad({ y: new Float64Array(3) }, 'problems[1].y');
    bad({ y: Array.from(p.y) as unknown as Float64Array }, 'problems[1].y');
    bad({ sampleWeight: new Float64Array(10).fill(-1) }, 'problems[1].sampleWeight');
    bad({ sampleWeight: new Float64Array(10) }, 'problems[1].sampleWeight');
    bad({ alpha: -1 }, 'problems[1].alpha');
    bad({ alpha: NaN }, 'problems[1].alpha');
    const nanX = Float32Array.from(p.x);
    nanX[13] = NaN;
    bad({ x: nanX }, 'problems[1].x');
    const nanY = Float64Array.from(p.y);
    nanY[2] = NaN;
    bad({ y: nanY }, 'problems[1].y');
    // alpha = 0 with a duplicated column: a singular system, reported, not a crash.
    const dup = new Float32Array(40);
    for (let i = 0; i < 10; i++) dup[i * 4] = dup[i * 4 + 1] = i % 2;
    bad({ x: dup, alpha: 0 }, 'problems[1]');
  });
});
