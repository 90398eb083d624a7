import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson } from '../src/harness/store.js';
import {
  buildModesSummary,
  faithfulness,
  MODES_FORMAT,
  type ModesInput,
  type ModesSummary,
  type StoredAuditRun,
} from '../src/transformer-audit/modes-summary.js';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
const COMMITTED = join(ROOT, 'apps/bench/results/sections/transformer-audit-modes.json.gz');

const key = { model: 'probe', trainSample: 2, testSample: 2, samples: 100, mode: 'exact' };
const pred = (text: string, verdict: string) => ({ text, predicted: 'ham', verdict });
const stored = (
  measured: string,
  verdicts: string[],
  keywords: Record<string, string[]>,
  oracle: Record<string, unknown>,
): StoredAuditRun => ({
  key,
  measured,
  result: { files: { predictions: verdicts.map((v, i) => pred(`t${i + 1}`, v)), keywords, oracle } },
});
const cmd = (extra: string) =>
  `xtrust audit --model m --train-sample 2 --test-sample 2 --samples 100 ${extra} --out w --quiet`;
const sitting = (wall: number, cpu: number, machine: string, finished = true) => ({ wall, cpu, machine, finished });

/** A hand-made store: exact, a fast audit, a run under an older oracle, keyword passes and whole records. */
const input: ModesInput = {
  full: { train: 4, test: 4 },
  summary: {
    file: 'summary.json.gz',
    data: {
      model: 'm',
      fraction: 0.5,
      trainSample: 2,
      testSample: 2,
      samples: 100,
      runs: [
        {
          name: 'exact',
          mode: 'exact',
          command: cmd('--lime-mode exact'),
          wall: 3600,
          cpu: 7200,
          sittings: [sitting(3600, 7200, 'A')],
          explanations: 4,
          extrapolated: { wall: 7200, cpu: 14400 },
        },
        {
          name: 'audit-fast',
          mode: 'adaptive',
          command: cmd('--lime-mode adaptive --audit-mode fast'),
          wall: 1800,
          cpu: 2700,
          sittings: [sitting(900, 1350, 'A', false), sitting(900, 1350, 'B')],
          explanations: 4,
          extrapolated: { wall: 3600, cpu: 5400 },
        },
        {
          name: 'old',
          mode: 'exact',
          command: cmd('--lime-mode exact'),
          wall: 3600,
          cpu: 7200,
          explanations: 4,
          extrapolated: { wall: 7200, cpu: 14400 },
        },
      ],
      peer: { file: 'peer.json', seconds: 90, cpuSeconds: 180, words: 10, texts: 3, threads: 2, blas: 'x' },
    },
  },
  runs: [
    {
      name: 'exact',
      file: 'runs/exact.json.gz',
      data: stored(
        '2026-01-02T00:00:00Z',
        ['trustworthy', 'untrustworthy', 'incorrect', 'trustworthy'],
        { ham: ['a', 'b', 'c', 'd'], spam: ['x', 'y'] },
        { name: 'toki' },
      ),
    },
    {
      name: 'audit-fast',
      file: 'runs/audit-fast.json.gz',
      // t2 changed (judged by exact): 3 of 4 equal, 2 of 3 judged; ham {a,b,c,e} vs {a,b,c,d}: 3 / 5
      data: stored(
        '2026-01-03T00:00:00Z',
        ['trustworthy', 'trustworthy', 'incorrect', 'trustworthy'],
        { ham: ['a', 'b', 'c', 'e'], spam: ['x', 'y'] },
        { name: 'toki' },
      ),
    },
    {
      name: 'old',
      file: 'runs/old.json.gz',
      data: stored(
        '2026-01-01T00:00:00Z',
        ['trustworthy', 'trustworthy', 'trustworthy', 'trustworthy'],
        {},
        {
          name: 'older',
        },
      ),
    },
  ],
  // the exact run of the older oracle: 'old' is read against it (4 of 4), not against today's (2 of 4)
  kept: [
    {
      file: 'runs/exact-reference-2026-01-01.json.gz',
      data: {
        measured: '2026-01-01T00:00:00Z',
        key,
        oracle: { name: 'older' },
        predictions: [1, 2, 3, 4].map((i) => pred(`t${i}`, 'trustworthy')),
      },
    },
  ],
  keywordPass: {
    file: 'keyword-pass.json.gz',
    data: {
      model: 'm',
      trainSample: 2,
      testSample: 2,
      date: '2026-01-04',
      machine: { cpuModel: 'C', cores: 2, vectorExtensions: 'AVX2' },
      reference: { keywords: { ham: ['a', 'b', 'c', 'd'], spam: ['x', 'y'] } },
      passes: [
        // exact LIME with seed 1: ham {a,b} 2 / 4 = 0.5, spam {x,z} 1 / 3
        {
          name: 'lime:100@1',
          texts: 2,
          wall: 100,
          cpu: 100,
          keywords: { ham: ['a', 'b'], spam: ['x', 'z'] },
          labelsEqual: 2,
          labelled: 2,
        },
        // ham {a,q}: 1 / 5 = 0.2, below 0.5 → not faithful; spam 1
        {
          name: 'gradient',
          texts: 2,
          wall: 36,
          cpu: 72,
          keywords: { ham: ['a', 'q'], spam: ['x', 'y'] },
          labelsEqual: 2,
          labelled: 2,
          verdict: { labelsEqual: 1, labelled: 2, wall: 360, cpu: 720 },
        },
        // ham 1, spam {x}: 1 / 2 ≥ 1 / 3 → faithful; no whole-audit labelling measured
        {
          name: 'attention',
          texts: 2,
          wall: 18,
          cpu: 18,
          keywords: { ham: ['a', 'b', 'c', 'd'], spam: ['x'] },
          labelsEqual: 2,
          labelled: 2,
        },
      ],
    },
  },
  whole: [
    {
      file: 'keyword-pass-whole-gradient.json',
      data: {
        command: cmd('--audit-mode fast --keyword-method gradient').replace(
          '--train-sample 2 --test-sample 2',
          '--train-sample 4 --test-sample 4',
        ),
        keywordMethod: 'gradient',
        sittings: [sitting(1800, 3600, 'A', false), sitting(1800, 3600, 'A')],
      },
    },
    {
      file: 'keyword-pass-other.json',
      data: {
        command: 'xtrust audit --model other --train-sample 4 --test-sample 4',
        keywordMethod: 'gradient',
        sittings: [sitting(1, 1, 'A')],
      },
    },
  ],
};

describe('transformer-audit: the summary of the audit modes', () => {
  const s = buildModesSummary(input);
  const mode = (name: string) => s.modes.find((m) => m.name === name)!;

  it("exact's seed-to-seed per class comes from the lime:<samples>@<seed> pass against keyword-pass's reference", () => {
    expect(s.exactSeedToSeed.perClass).toEqual({ ham: 0.5, spam: 1 / 3 });
    expect(s.exactSeedToSeed.source).toBe('keyword-pass.json.gz#lime:100@1');
    // the seed pass is the floor, not a mode
    expect(s.modes.map((m) => m.name)).toEqual([
      'exact',
      'audit-fast',
      'old',
      'keyword-pass gradient',
      'keyword-pass attention',
      'whole fast, gradient keyword pass',
    ]);
  });

  it('transformer-audit runs: hours as stored, labels by text against exact, Jaccard per class, faithful, host of the sittings', () => {
    const exact = mode('exact');
    expect(exact).toMatchObject({
      limeMode: 'exact',
      auditMode: 'exact',
      keywordMethod: 'lime',
      measuredFraction: 0.5,
      hours: { extrapolated: 2, measured: 1 },
      cpuHours: { extrapolated: 4, measured: 2 },
      extrapolated: true,
      labelsEqual: null,
      keywordJaccard: null,
      faithful: null,
      host: 'A',
    });
    const fast = mode('audit-fast');
    expect(fast).toMatchObject({
      limeMode: 'adaptive',
      auditMode: 'fast',
      hours: { extrapolated: 1, measured: 0.5 },
      cpuHours: { extrapolated: 1.5, measured: 0.75 },
      labelsEqual: 3,
      labelsCompared: 4,
      labelsJudgedEqual: 2,
      labelsJudged: 3,
      keywordJaccard: { ham: 0.6, spam: 1 },
      exactSeedToSeed: { ham: 0.5, spam: 1 / 3 },
      faithful: true,
      host: 'A / B',
    });
  });

  it('a run under another oracle is read against the kept exact run of that oracle', () => {
    const old = mode('old');
    expect(old.labelsEqual).toBe(4);
    expect(old.labelsCompared).toBe(4);
    expect(old.notes.join(' ')).toContain('the exact run of 2026-01-01');
    // no keyword sets kept by that reference: null, said
    expect(old.keywordJaccard).toBeNull();
    expect(old.faithful).toBeNull();
    expect(old.host).toBeNull();
  });

  it("keyword-pass's passes: whole-audit hours only where the labelling was measured; faithful against the floor", () => {
    const g = mode('keyword-pass gradient');
    expect(g.keywordJaccard).toEqual({ ham: 0.2, spam: 1 });
    expect(g.faithful).toBe(false);
    expect(g.labelsEqual).toBe(1);
    expect(g.labelsCompared).toBe(2);
    // (36 × 4/2 + 360 × 4/2) s and (36 + 360) s
    expect(g.hours.extrapolated).toBeCloseTo(0.22, 12);
    expect(g.hours.measured).toBeCloseTo(0.11, 12);
    expect(g.cpuHours.extrapolated).toBeCloseTo(0.44, 12);
    expect(g.host).toBe('C (AVX2), 2 cores');
    const a = mode('keyword-pass attention');
    expect(a.hours).toEqual({ extrapolated: null, measured: null });
    // 18 s × 4/2 and 18 s
    expect(a.keywordPassHours?.wall.extrapolated).toBeCloseTo(0.01, 12);
    expect(a.keywordPassHours?.wall.measured).toBeCloseTo(0.005, 12);
    expect(a.labelsEqual).toBe(2);
    expect(a.keywordJaccard).toEqual({ ham: 1, spam: 0.5 });
    expect(a.faithful).toBe(true);
  });

  it('whole records of the model: measured whole, sittings summed, labels null with the reason; other models left out', () => {
    const w = mode('whole fast, gradient keyword pass');
    expect(w).toMatchObject({
      auditMode: 'fast',
      keywordMethod: 'gradient',
      measuredFraction: 1,
      hours: { extrapolated: 1, measured: 1 },
      cpuHours: { extrapolated: 2, measured: 2 },
      extrapolated: false,
      labelsEqual: null,
      keywordJaccard: { ham: 0.2, spam: 1 },
      faithful: false,
      host: 'A',
    });
    expect(w.notes.join(' ')).toContain('labels:');
    expect(s.notes.join(' ')).toContain('keyword-pass-other.json: a whole audit of other');
  });

  it("the peer: seconds per explanation × the exact audit's explanations ÷ fraction, no host", () => {
    // 90 s × 4 / 0.5 = 720 s
    expect(s.peer?.hours.extrapolated).toBeCloseTo(0.2, 12);
    expect(s.peer?.cpuHours.extrapolated).toBeCloseTo(0.4, 12);
    expect(s.peer?.host).toBeNull();
  });

  it('without a seed-to-seed pass the floor is null per class, and so is faithful', () => {
    const kp = input.keywordPass!;
    const without = buildModesSummary({
      ...input,
      keywordPass: { ...kp, data: { ...kp.data, passes: kp.data.passes.filter((p) => !p.name.includes('@')) } },
    });
    expect(without.exactSeedToSeed.perClass).toEqual({ ham: null, spam: null });
    expect(without.exactSeedToSeed.notes[0]).toContain('no lime:100@<seed> pass');
    expect(without.modes.find((m) => m.name === 'audit-fast')?.faithful).toBeNull();
  });

  it('faithful: false when one class is below the floor, true at or above it in every class, null when unknown', () => {
    const floor = { ham: 0.5, spam: 0.3 };
    expect(faithfulness({ ham: 0.5, spam: 0.3 }, floor)).toBe(true);
    expect(faithfulness({ ham: 0.49, spam: 0.9 }, floor)).toBe(false);
    expect(faithfulness({ ham: 0.4, spam: null }, floor)).toBe(false);
    expect(faithfulness({ ham: 0.6, spam: null }, floor)).toBeNull();
    expect(faithfulness(null, floor)).toBeNull();
    expect(faithfulness({ ham: 1, spam: 1 }, { ham: null, spam: 0.3 })).toBeNull();
  });
});

describe.skipIf(!existsSync(COMMITTED))('transformer-audit: the committed summary of the audit modes', () => {
  it('parses and holds exact and the fast audit with finite hours', () => {
    const s = readJson<ModesSummary>(COMMITTED);
    expect(s.format).toBe(MODES_FORMAT);
    for (const name of ['exact', 'audit-fast']) {
      const m = s.modes.find((x) => x.name === name);
      expect(m, name).toBeDefined();
      expect(Number.isFinite(m!.hours.extrapolated), name).toBe(true);
      expect(Number.isFinite(m!.hours.measured), name).toBe(true);
      expect(Number.isFinite(m!.cpuHours.extrapolated), name).toBe(true);
    }
    expect(s.modes.find((m) => m.name === 'audit-fast')?.auditMode).toBe('fast');
  });
});
