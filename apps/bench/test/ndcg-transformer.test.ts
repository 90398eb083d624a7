import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, KIT_GPT2, KIT_MLM, NDCG_TRANSFORMER, ROOT } from '../src/index.js';

const ctx = (quick: boolean) => ({ quick, log: () => {} });
const ndcg = BENCHMARKS.find((b) => b.name === 'ndcg')!;
const argsOf = (quick: boolean): string[] => {
  const s = ndcg.script!(ctx(quick));
  if ('skipped' in s) throw new Error(s.skipped);
  return s.args;
};
const value = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('ndcg section: the transformer rows (003 Table 1)', () => {
  it('passes the kit Brown classifier to the NDCG script with the documented sizes', () => {
    // the fixture is committed; its absence would silently drop the transformer table
    expect(existsSync(join(ROOT, NDCG_TRANSFORMER, 'onnx/model.onnx'))).toBe(true);
    const full = argsOf(false);
    expect(value(full, '--model')).toBe(join(ROOT, NDCG_TRANSFORMER));
    expect(value(full, '--model-texts')).toBe('100');
    expect(value(full, '--model-samples')).toBe('1000');
    const quick = argsOf(true);
    expect(value(quick, '--model')).toBe(join(ROOT, NDCG_TRANSFORMER));
    expect(value(quick, '--model-texts')).toBe('20');
    expect(value(quick, '--model-samples')).toBe('300');
    // the bag-of-words sizes are unchanged
    expect(value(quick, '--texts')).toBe('40');
    expect(full).not.toContain('--texts');
  });
});

describe('cea-tef-kit section: CEA vs TEF with the kit language models', () => {
  it('passes the kit masked LM and GPT-2 to the attack bench, with an output folder of its own', () => {
    const b = BENCHMARKS.find((x) => x.name === 'cea-tef-kit')!;
    const cbow = BENCHMARKS.find((x) => x.name === 'cea-tef')!;
    for (const quick of [false, true]) {
      const s = b.script!(ctx(quick));
      if ('skipped' in s) throw new Error(s.skipped);
      expect(value(s.args, '--task')).toBe('cea');
      expect(value(s.args, '--mlm')).toBe(join(ROOT, KIT_MLM));
      expect(value(s.args, '--causal-lm')).toBe(join(ROOT, KIT_GPT2));
      const c = cbow.script!(ctx(quick));
      if ('skipped' in c) throw new Error(c.skipped);
      // resumed JSONL records are keyed by case/attack/ρ only: the two sections must never share a folder
      expect(value(s.args, '--out')).not.toBe(value(c.args, '--out'));
    }
  });
});
