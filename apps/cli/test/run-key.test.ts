import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKI_DEFAULT, TOKI_NAME_ONLY } from '@xtrust/oracle';
import { resolveAdaptive } from '@xtrust/explainers';
import { runKeySettings, type AuditSettings } from '../src/audit-settings.js';
import { adaptiveRuleKey } from '../src/lime-mode.js';
import { RunDir } from '../src/run-dir.js';

const settings: AuditSettings = {
  trainSample: 10,
  testSample: 5,
  samples: 100,
  topK: 10,
  oracle: 'toki',
  thetaDist: 0.3,
  thetaConf: 0.9,
  seed: 0,
  classNames: {},
  ensemble: ['glove'],
  limeMode: 'exact',
};

describe('a run key holds the oracle by its configuration, not its name', () => {
  it('keys the whole configuration of the named oracle', () => {
    expect(runKeySettings(settings).oracle).toEqual(TOKI_DEFAULT);
    expect(runKeySettings({ ...settings, oracle: 'toki-name' }).oracle).toEqual(TOKI_NAME_ONLY);
    expect(runKeySettings({ ...settings, oracle: undefined }).oracle).toEqual(TOKI_DEFAULT);
  });

  it('a run started when "toki" meant the class name alone is not resumed under today\'s toki, and the message names the field', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'xtrust-runkey-')), 'run');
    // what a run directory made before the class descriptions holds: the same name, another configuration
    RunDir.open(dir, 'audit', { ...runKeySettings(settings), oracle: { ...TOKI_NAME_ONLY, name: 'toki' } }, false);
    expect(() => RunDir.open(dir, 'audit', { ...runKeySettings(settings) }, true)).toThrow(
      // the first field that differs is named (today's toki differs from it in several)
      /cannot resume: .* was made with oracle\.(categoryNesting|classDescription) = /,
    );
    // the same configuration resumes
    const again = join(mkdtempSync(join(tmpdir(), 'xtrust-runkey-')), 'run');
    RunDir.open(again, 'audit', { ...runKeySettings(settings) }, false);
    expect(RunDir.open(again, 'audit', { ...runKeySettings(settings) }, true).resumed).toBe(true);
  });
});

describe("a run key holds an adaptive mode's stopping rule once it is not the rule unkeyed runs were made under", () => {
  it('keys nothing for exact and int8 (no rule), nor for the rule of 2026-11-24 (step samples / 20, patience 2, J 1)', () => {
    expect(adaptiveRuleKey('exact', 5000)).toEqual({});
    expect(adaptiveRuleKey('int8', 5000)).toEqual({});
    expect(adaptiveRuleKey(undefined, 5000)).toEqual({});
    const rule = resolveAdaptive(true, 5000)!;
    const first = rule.step === 250 && rule.patience === 2 && rule.minJaccard === 1;
    // today's default decides: unkeyed while it is 2026-11-24's, in the key (and so in --resume's check) once it is not
    expect(adaptiveRuleKey('adaptive', 5000)).toEqual(first ? {} : { adaptiveRule: rule });
    expect(adaptiveRuleKey('int8+adaptive', 5000)).toEqual(first ? {} : { adaptiveRule: rule });
    expect(runKeySettings({ ...settings, limeMode: 'int8+adaptive', samples: 5000 }).adaptiveRule).toEqual(
      first ? undefined : rule,
    );
  });

  it('a run made under another rule is not resumed, and the message names the rule', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'xtrust-runkey-')), 'run');
    const now = runKeySettings({ ...settings, limeMode: 'adaptive', samples: 5000 });
    RunDir.open(dir, 'audit', { ...now, adaptiveRule: { step: 500, patience: 4, minJaccard: 0.8 } }, false);
    expect(() => RunDir.open(dir, 'audit', { ...now }, true)).toThrow(/cannot resume: .*adaptiveRule/);
  });
});
