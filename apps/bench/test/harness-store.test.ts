import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isGzipPath, readJson, writeJsonAtomic } from '../src/harness/index.js';

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
