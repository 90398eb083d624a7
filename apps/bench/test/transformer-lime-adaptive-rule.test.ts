import { describe, expect, it } from 'vitest';
import { resolveAdaptive } from '@xtrust/explainers';
import {
  adaptiveRuleText,
  parseAdaptiveRule,
  parseAdaptiveRules,
  ruleNeedsKey,
} from '../src/transformer-lime/adaptive-rule.js';

describe('transformer-lime: adaptive stopping rules on the command line and in keys', () => {
  it('parses STEP,PATIENCE,J and lists of them, naming what was expected', () => {
    expect(parseAdaptiveRule('250,4,1')).toEqual({ step: 250, patience: 4, minJaccard: 1 });
    expect(parseAdaptiveRules('250,4,1;500,2,0.8')).toEqual([
      { step: 250, patience: 4, minJaccard: 1 },
      { step: 500, patience: 2, minJaccard: 0.8 },
    ]);
    for (const bad of [
      '250,4',
      '250,4,1,2',
      '0,4,1',
      '250,0,1',
      '250,4,0',
      '250,4,1.5',
      '25.5,4,1',
      '250,,1',
      'a,b,c',
    ]) {
      expect(() => parseAdaptiveRule(bad), bad).toThrow(
        `expected STEP,PATIENCE,MIN_JACCARD such as 250,4,1 (positive integers, then a number in (0, 1]), got "${bad}"`,
      );
    }
    expect(adaptiveRuleText({ step: 250, patience: 4, minJaccard: 1 })).toBe('step 250, patience 4, J ≥ 1');
  });

  it("keys a rule only when it is not 2026-11-24's (step budget / 20, patience 2, J 1), at any budget", () => {
    expect(ruleNeedsKey({ step: 250, patience: 2, minJaccard: 1 }, 5000)).toBe(false);
    expect(ruleNeedsKey({ step: 25, patience: 2, minJaccard: 1 }, 500)).toBe(false);
    expect(ruleNeedsKey({ step: 250, patience: 4, minJaccard: 1 }, 5000)).toBe(true);
    expect(ruleNeedsKey({ step: 500, patience: 2, minJaccard: 1 }, 5000)).toBe(true);
    expect(ruleNeedsKey({ step: 250, patience: 2, minJaccard: 0.8 }, 5000)).toBe(true);
    // the rule blocks were stored under is also what step budget / 20 rounds up to at an odd budget
    expect(ruleNeedsKey({ step: 51, patience: 2, minJaccard: 1 }, 1001)).toBe(false);
    // today's default, whatever it is, is judged by the same rule
    expect(ruleNeedsKey(resolveAdaptive(true, 5000)!, 5000)).toBe(
      !(resolveAdaptive(true, 5000)!.patience === 2 && resolveAdaptive(true, 5000)!.minJaccard === 1),
    );
  });
});
