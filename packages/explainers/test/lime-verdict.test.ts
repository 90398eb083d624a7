import { rng } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  LimeExplainer,
  normalQuantile,
  resolveVerdict,
  ridgeWithSandwich,
  sampleLimeMasks,
  limeDistances,
  limeKernel,
  verdictCanStop,
  verdictChecks,
  verdictMinRows,
  VERDICT_SELECTION_GUARD,
  type VerdictFit,
  type VerdictOption,
} from '../src/index.js';
import { LinearBowModel } from './models.js';

/**
 * A hand-made verdict in the shape of TOKI's sum rule: S = Σ over words of positive weight of
 * role(w)·weight, role +1 (related), −1 (unrelated) or 0 (neutral); the verdict is S ≥ 0.
 */
function sumRule(
  roles: Record<string, number>,
  extra: Partial<VerdictOption> = {},
): VerdictOption & { prepared: number } {
  const rule = {
    name: 'test:sum',
    prepared: 0,
    ...extra,
    prepare(ctx: { words: readonly string[] }) {
      rule.prepared++;
      const role = ctx.words.map((w) => roles[w] ?? 0);
      return (fit: VerdictFit) => {
        let value = 0;
        const gradient = new Float64Array(fit.coef.length);
        fit.features.forEach((f, j) => {
          if (fit.coef[j] > 0) {
            value += role[f] * fit.coef[j];
            gradient[j] = role[f];
          }
        });
        return { value, gradient };
      };
    },
  };
  return rule;
}

/** The statistic of a finished explanation, as the rule computes it. */
function statisticOf(
  exp: { features: readonly { word: string; weight: number }[] },
  roles: Record<string, number>,
): number {
  let s = 0;
  for (const f of exp.features) if (f.weight > 0) s += (roles[f.word] ?? 0) * f.weight;
  return s;
}

describe('normalQuantile (Acklam)', () => {
  it('gives the standard normal quantiles to 1e-8', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963985, 8);
    // the Bonferroni quantile of 0.95 over 19 checks: two-sided 0.05/19
    expect(normalQuantile(1 - 0.05 / 38)).toBeCloseTo(3.0075, 3);
    expect(normalQuantile(1e-6)).toBeCloseTo(-4.753424309, 6);
    expect(() => normalQuantile(1)).toThrow(/p must be in \(0, 1\)/);
  });
});

describe("ridgeWithSandwich (LIME's ridge and the sandwich standard error of a linear statistic)", () => {
  // 6 rows, 2 columns; weights and targets chosen by hand
  const data = Uint8Array.from([1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0]);
  const weights = [1, 0.5, 0.8, 0.3, 0.9, 0.6];
  const y = [0.9, 0.4, 0.5, 0.1, 0.7, 0.6];

  it('with one column: β = Σw x̃ ỹ / (Σw x̃² + α), se² = Σ w² e² x̃² / A² · n/(n − 2)', () => {
    const { fit, se } = ridgeWithSandwich(data, 6, 2, Int32Array.from([0]), weights, y, 1);
    const sw = weights.reduce((a, b) => a + b, 0);
    const x = [1, 1, 0, 0, 1, 1];
    const mx = x.reduce((a, xi, i) => a + weights[i] * xi, 0) / sw;
    const my = y.reduce((a, yi, i) => a + weights[i] * yi, 0) / sw;
    let A = 1;
    let b = 0;
    x.forEach((xi, i) => {
      A += weights[i] * (xi - mx) ** 2;
      b += weights[i] * (xi - mx) * (y[i] - my);
    });
    const beta = b / A;
    expect(fit.coef[0]).toBeCloseTo(beta, 12);
    expect(fit.intercept).toBeCloseTo(my - beta * mx, 12);
    let meat = 0;
    x.forEach((xi, i) => {
      const e = y[i] - my - (xi - mx) * beta;
      meat += weights[i] ** 2 * e * e * (xi - mx) ** 2;
    });
    expect(se([1])).toBeCloseTo(Math.sqrt(((meat / (A * A)) * 6) / 4), 12);
    expect(se([-2])).toBeCloseTo(2 * se([1]), 12);
  });

  it('with two columns: gᵀ A⁻¹ M A⁻¹ g by an explicit 2×2 inverse', () => {
    const { fit, se } = ridgeWithSandwich(data, 6, 2, Int32Array.from([0, 1]), weights, y, 1);
    const sw = weights.reduce((a, b) => a + b, 0);
    const X = [0, 1, 2, 3, 4, 5].map((r) => [data[2 * r], data[2 * r + 1]]);
    const m = [0, 1].map((j) => X.reduce((a, row, i) => a + weights[i] * row[j], 0) / sw);
    const my = y.reduce((a, yi, i) => a + weights[i] * yi, 0) / sw;
    const A = [
      [1, 0],
      [0, 1],
    ];
    const b = [0, 0];
    X.forEach((row, i) => {
      const xc = [row[0] - m[0], row[1] - m[1]];
      for (let p = 0; p < 2; p++) {
        b[p] += weights[i] * xc[p] * (y[i] - my);
        for (let q = 0; q < 2; q++) A[p][q] += weights[i] * xc[p] * xc[q];
      }
    });
    const det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
    const inv = [
      [A[1][1] / det, -A[0][1] / det],
      [-A[1][0] / det, A[0][0] / det],
    ];
    const beta = [inv[0][0] * b[0] + inv[0][1] * b[1], inv[1][0] * b[0] + inv[1][1] * b[1]];
    expect(fit.coef[0]).toBeCloseTo(beta[0], 12);
    expect(fit.coef[1]).toBeCloseTo(beta[1], 12);
    const g = [1, -1];
    const u = [inv[0][0] * g[0] + inv[0][1] * g[1], inv[1][0] * g[0] + inv[1][1] * g[1]];
    let meat = 0;
    X.forEach((row, i) => {
      const xc = [row[0] - m[0], row[1] - m[1]];
      const e = y[i] - my - xc[0] * beta[0] - xc[1] * beta[1];
      meat += weights[i] ** 2 * e * e * (xc[0] * u[0] + xc[1] * u[1]) ** 2;
    });
    expect(se(g)).toBeCloseTo(Math.sqrt((meat * 6) / 3), 12);
  });

  it('has a zero standard error when the local model is exact (linear target, alpha 0: no residuals)', () => {
    const d = 5;
    const s = sampleLimeMasks(d, 400, rng(3));
    const w = limeKernel(limeDistances(s.kept, d), 25);
    const yy = new Float64Array(400);
    for (let r = 0; r < 400; r++) yy[r] = 0.1 + 0.3 * s.data[r * d] - 0.2 * s.data[r * d + 3];
    const { se } = ridgeWithSandwich(s.data, 400, d, Int32Array.from([0, 3]), w, yy, 0);
    expect(se([1, 1])).toBeLessThan(1e-9);
  });
});

describe("the verdict rule's schedule", () => {
  it('checks from max(minRows, 2d) rounded up to a round, Bonferroni over the checks left before the budget', () => {
    const rule = resolveVerdict(sumRule({}), 5000)!;
    expect(rule).toMatchObject({ step: 250, minRows: 200, patience: 1, confidence: 0.95 });
    expect(verdictMinRows(rule, 10)).toBe(200);
    expect(verdictMinRows(rule, 300)).toBe(600);
    expect(verdictChecks(rule, 10, 5000)).toBe(19); // 250, 500, …, 4750
    expect(verdictChecks(rule, 300, 5000)).toBe(17); // 750, …, 4750
    expect(verdictChecks(rule, 2500, 5000)).toBe(0);
    expect(verdictCanStop(rule, 2374, 5000)).toBe(false); // one check (4750): a stop needs patience + 1 = 2
    expect(verdictChecks(rule, 2374, 5000)).toBe(1);
    expect(verdictCanStop({ ...rule, patience: 0 }, 2374, 5000)).toBe(true);
  });
});

describe('LimeExplainer with verdict-aware sampling', () => {
  // p(pos) hinges on one word: with "xyzzy" σ(3.3) ≈ 0.96, without it σ(−2.7) ≈ 0.06
  const decisive = new LinearBowModel({ xyzzy: 6, good: 0.2, fine: 0.1 }, -3);
  const TEXT = 'good fine xyzzy plot the movie was ok and nice';
  const ROLES = { good: 1, fine: 1, xyzzy: -1 };

  it("stops after two checks (500 of 5,000 rows) when one unrelated word carries the prediction, with the exact run's verdict", async () => {
    const lime = new LimeExplainer({ numSamples: 5000, seed: 3 });
    const rule = sumRule(ROLES);
    const [fast] = await lime.explain(decisive, [TEXT], { verdict: rule });
    const [exact] = await lime.explain(decisive, [TEXT]);
    expect(rule.prepared).toBe(1);
    expect(fast.params.samplesUsed).toBe(500);
    expect(fast.diagnostics!.samples).toBe(500);
    expect(fast.params.verdict).toEqual({
      name: 'test:sum',
      confidence: 0.95,
      step: 250,
      minRows: 200,
      patience: 1,
      selectionGuard: VERDICT_SELECTION_GUARD,
    });
    expect(fast.diagnostics!.verdictSide).toBe(-1);
    expect(fast.diagnostics!.verdictHigh).toBeLessThan(0);
    // the statistic of the returned explanation is the one checked, and the exact explanation's has the same sign
    expect(statisticOf(fast, ROLES)).toBeCloseTo(fast.diagnostics!.verdictValue, 9);
    expect(statisticOf(fast, ROLES)).toBeLessThan(-0.5);
    expect(statisticOf(exact, ROLES)).toBeLessThan(-0.5);
    expect(fast.features[0].word).toBe('xyzzy');
  });

  it("returns exact LIME at the samples it used (its rows are a prefix of the exact run's)", async () => {
    const lime = new LimeExplainer({ numSamples: 5000, seed: 3 });
    const [fast] = await lime.explain(decisive, [TEXT], { verdict: sumRule(ROLES) });
    const [prefix] = await lime.explain(decisive, [TEXT], { numSamples: fast.params.samplesUsed as number });
    expect(fast.features).toEqual(prefix.features);
    expect(fast.diagnostics!.intercept).toBe(prefix.diagnostics!.intercept);
  });

  it('runs to the cap when the verdict is a tie in the limit (a related and an unrelated word of equal effect), and then is exact LIME', async () => {
    const tie = new LinearBowModel({ alpha: 1, beta: 1 }, -1);
    const text = 'alpha beta gamma delta epsilon zeta';
    const lime = new LimeExplainer({ numSamples: 3000, seed: 11 });
    const [fast] = await lime.explain(tie, [text], { verdict: sumRule({ alpha: 1, beta: -1 }) });
    const [exact] = await lime.explain(tie, [text]);
    expect(fast.params.samplesUsed).toBe(3000);
    expect(fast.diagnostics!.verdictSide).toBe(0);
    expect(fast.diagnostics!.verdictLow).toBeLessThan(0);
    expect(fast.diagnostics!.verdictHigh).toBeGreaterThan(0);
    expect(fast.features).toEqual(exact.features);
  });

  it('selection guards (stable: the same selected set as the previous check; swap: the top k with its last word swapped for the runner-up settled too) still stop early on a settled verdict, never earlier than none, and still run a tie to the cap', async () => {
    const lime = new LimeExplainer({ numSamples: 5000, seed: 3 });
    const tie = new LinearBowModel({ alpha: 1, beta: 1 }, -1);
    const tieText = 'alpha beta gamma delta epsilon zeta';
    const [none] = await lime.explain(decisive, [TEXT], { verdict: sumRule(ROLES, { selectionGuard: 'none' }) });
    for (const selectionGuard of ['stable', 'swap'] as const) {
      const [fast] = await lime.explain(decisive, [TEXT], { verdict: sumRule(ROLES, { selectionGuard }) });
      expect(fast.params.verdict).toMatchObject({ selectionGuard });
      expect(fast.params.samplesUsed as number).toBeGreaterThanOrEqual(none.params.samplesUsed as number);
      expect(fast.params.samplesUsed as number).toBeLessThan(5000);
      expect(statisticOf(fast, ROLES)).toBeLessThan(-0.5);
      const [prefix] = await lime.explain(decisive, [TEXT], { numSamples: fast.params.samplesUsed as number });
      expect(fast.features).toEqual(prefix.features);
      const [t] = await new LimeExplainer({ numSamples: 3000, seed: 11 }).explain(tie, [tieText], {
        verdict: sumRule({ alpha: 1, beta: -1 }, { selectionGuard }),
      });
      expect(t.params.samplesUsed).toBe(3000);
    }
  });

  it('is deterministic: the same seed and inputs give byte-identical explanations, alone or in a batch', async () => {
    const lime = new LimeExplainer({ numSamples: 3000, seed: 5 });
    const texts = [TEXT, 'xyzzy fine nice plot the end', 'good movie xyzzy'];
    const a = await lime.explain(decisive, texts, { verdict: sumRule(ROLES) });
    const b = await lime.explain(decisive, texts, { verdict: sumRule(ROLES) });
    const alone = await lime.explain(decisive, [texts[1]], { verdict: sumRule(ROLES) });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a[1])).toBe(JSON.stringify(alone[0]));
    const other = await lime.explain(decisive, [TEXT], { verdict: sumRule(ROLES), seed: 6 });
    expect(JSON.stringify(other[0])).not.toBe(JSON.stringify(a[0]));
  });

  it("stops at the first check when prepare says the verdict does not depend on the explanation ('settled'), and samples everything for null", async () => {
    const lime = new LimeExplainer({ numSamples: 2000, seed: 1 });
    const settled = { name: 'settled', prepare: () => 'settled' as const };
    const [s] = await lime.explain(decisive, [TEXT], { verdict: settled });
    expect(s.params.samplesUsed).toBe(200); // step 100, first check at max(200, 2·10)
    const [n] = await lime.explain(decisive, [TEXT], { verdict: { name: 'none', prepare: () => null } });
    const [exact] = await lime.explain(decisive, [TEXT]);
    expect(n.params.samplesUsed).toBe(2000);
    expect(n.features).toEqual(exact.features);
  });

  it('leaves exact LIME untouched when no verdict is given (no verdict keys in params or diagnostics)', async () => {
    const [exact] = await new LimeExplainer({ numSamples: 1000, seed: 2 }).explain(decisive, [TEXT]);
    expect(exact.params.verdict).toBeUndefined();
    expect(exact.params.samplesUsed).toBeUndefined();
    expect(exact.diagnostics!.verdictValue).toBeUndefined();
    expect(exact.diagnostics!.samples).toBe(1000);
  });

  it('refuses bad verdict options, naming the option', async () => {
    const lime = new LimeExplainer({ numSamples: 1000 });
    const ok = sumRule(ROLES);
    await expect(lime.explain(decisive, [TEXT], { verdict: ok, adaptive: true })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { argument: 'verdict' },
    });
    await expect(lime.explain(decisive, [TEXT], { verdict: { ...ok, confidence: 1 } })).rejects.toThrow(
      /verdict\.confidence must be a number in \(0, 1\)/,
    );
    await expect(lime.explain(decisive, [TEXT], { verdict: { ...ok, step: 0 } })).rejects.toThrow(/verdict\.step/);
    await expect(lime.explain(decisive, [TEXT], { verdict: { ...ok, minRows: 1 } })).rejects.toThrow(
      /verdict\.minRows/,
    );
    await expect(lime.explain(decisive, [TEXT], { verdict: { ...ok, patience: -1 } })).rejects.toThrow(
      /verdict\.patience/,
    );
    await expect(
      lime.explain(decisive, [TEXT], { verdict: { ...ok, selectionGuard: 'top' as never } }),
    ).rejects.toThrow(/verdict\.selectionGuard must be one of none, stable, swap/);
    await expect(
      lime.explain(decisive, [TEXT], { verdict: { name: 'x' } as unknown as VerdictOption }),
    ).rejects.toThrow(/verdict must be \{ name, prepare/);
    await expect(lime.explain(decisive, [TEXT], { verdict: { ...ok, name: '' } })).rejects.toThrow(/verdict\.name/);
    const wrong = { name: 'wrong', prepare: () => () => ({ value: 1, gradient: [1] }) };
    await expect(lime.explain(decisive, [TEXT], { verdict: wrong })).rejects.toThrow(
      /one gradient entry per selected feature/,
    );
  });
});
