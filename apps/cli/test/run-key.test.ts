import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKI_DEFAULT, TOKI_NAME_ONLY } from '@xtrust/oracle';
import { runKeySettings, type AuditSettings } from '../src/audit-settings.js';
import { RunDir } from '../src/run-dir.js';

const settings: AuditSettings = { trainSample: 10, testSample: 5, samples: 100, topK: 10, oracle: 'toki', thetaDist: 0.3, thetaConf: 0.9, seed: 0, classNames: {}, ensemble: ['glove'], limeMode: 'exact' };

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
    expect(() => RunDir.open(dir, 'audit', { ...runKeySettings(settings) }, true)).toThrow(/cannot resume: .* was made with oracle\.classDescription = /);
    // the same configuration resumes
    const again = join(mkdtempSync(join(tmpdir(), 'xtrust-runkey-')), 'run');
    RunDir.open(again, 'audit', { ...runKeySettings(settings) }, false);
    expect(RunDir.open(again, 'audit', { ...runKeySettings(settings) }, true).resumed).toBe(true);
  });
});
