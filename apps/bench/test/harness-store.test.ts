import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isGzipPath, readJson, writeJsonAtomic } from '../src/harness/index.js';
import { loadSection, loadSections, type Section, saveSection } from '../src/harness/store.js';

const dir = mkdtempSync(join(tmpdir(), 'xtrust-harness-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results JSON, plain or gzipped', () => {
  const value = {
    cases: [
      { name: 'brown/laptop→news', gmean: 0.924 },
      { name: 'spam/mind→ham', gmean: 0.9 },
    ],
    note: 'café',
  };

  it('writes a name ending in .gz gzipped, the same bytes for the same value, and reads it back', () => {
    const a = join(dir, 'a.json.gz');
    const b = join(dir, 'b.json.gz');
    writeJsonAtomic(a, value);
    writeJsonAtomic(b, value);
    const bytes = readFileSync(a);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(bytes.equals(readFileSync(b))).toBe(true); // no time stamp in the header
    expect(gunzipSync(bytes).toString('utf8')).toBe(`${JSON.stringify(value)}\n`);
    expect(readJson(a)).toEqual(value);
  });

  it('writes other names as text (indented when asked) and reads either kind whatever the name', () => {
    const plain = join(dir, 'plain.json');
    writeJsonAtomic(plain, value, 1);
    expect(readFileSync(plain, 'utf8')).toBe(`${JSON.stringify(value, null, 1)}\n`);
    expect(readJson(plain)).toEqual(value);
    expect(isGzipPath(plain)).toBe(false);
    expect(isGzipPath(join(dir, 'x.json.gz'))).toBe(true);
  });
});

describe('stored sections: the JSON a person edits, the printed tables gzipped beside it', () => {
  const sections = join(dir, 'sections');
  const section: Section = {
    name: 'demo',
    title: 'A demo section',
    description: 'what it compares',
    command: 'pnpm bench --only demo',
    date: '2026-11-27T00:00:00.000Z',
    seconds: 1,
    quick: false,
    machine: { cpuModel: 'test', cores: 2 } as Section['machine'],
    status: 'ok',
    order: 3,
    markdown: '| a | b |\n| --- | --- |\n| 1 | 2 |',
  };

  it('keeps markdown out of the JSON, in <name>.md.gz, and loads the section whole', () => {
    saveSection(sections, section);
    const json = readJson<Section>(join(sections, 'demo.json'));
    expect(json.markdown).toBeUndefined();
    expect(json.title).toBe('A demo section');
    expect(gunzipSync(readFileSync(join(sections, 'demo.md.gz'))).toString('utf8')).toBe(section.markdown);
    expect(loadSection(sections, 'demo')).toEqual(section);
    expect(loadSections(sections).map((s) => s.markdown)).toEqual([section.markdown]);
  });

  it('drops the tables file when a run prints nothing, and reads a section stored with its tables inline', () => {
    saveSection(sections, { ...section, markdown: undefined });
    expect(existsSync(join(sections, 'demo.md.gz'))).toBe(false);
    expect(loadSection(sections, 'demo')?.markdown).toBeUndefined();
    writeJsonAtomic(join(sections, 'old.json'), { ...section, name: 'old' }, 2);
    expect(loadSection(sections, 'old')?.markdown).toBe(section.markdown);
    expect(loadSection(sections, 'absent')).toBeUndefined();
  });
});
