import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SittingArchive } from '../src/transformer-lime/sitting-archive.js';

type B = { measured: string; key: { words: number }; ratio: number };
const block = (measured: string, words: number, ratio: number): B => ({ measured, key: { words }, ratio });
const legacyName = (tag: string, b: B) => `${tag}-${b.measured.replace(/[:.]/g, '-')}-block.json`;

describe('transformer-lime: the sittings archive', () => {
  it("folds the one-file-per-sitting folder in, removes it, and reads a tag's blocks oldest first", () => {
    const out = mkdtempSync(join(tmpdir(), 'xtrust-sittings-'));
    mkdirSync(join(out, 'sittings'));
    const a = block('2026-11-25T15:25:34.346Z', 250, 11);
    const b = block('2026-11-25T13:30:32.832Z', 250, 12);
    // a tag that is a prefix of another: the old reader matched both and relied on the key to tell them apart
    const c = block('2026-11-26T13:39:23.194Z', 250, 13);
    writeFileSync(join(out, 'sittings', legacyName('bert-spam-250-sessions2', a)), JSON.stringify(a));
    writeFileSync(join(out, 'sittings', legacyName('bert-spam-250-sessions2', b)), JSON.stringify(b));
    writeFileSync(join(out, 'sittings', legacyName('bert-spam-250-sessions2-texts30', c)), JSON.stringify(c));
    const archive = SittingArchive.open<B>(out);
    expect(existsSync(join(out, 'sittings'))).toBe(false);
    expect(archive.size).toBe(3);
    expect(archive.of('bert-spam-250-sessions2', () => true).map((x) => x.ratio)).toEqual([12, 11]);
    expect(archive.of('bert-spam-250-sessions2-texts30', () => true)).toEqual([c]);
    expect(archive.of('bert-spam-250-sessions2', (x) => x.ratio > 11)).toEqual([b]);
    // written at once, and read back by a later run
    expect(SittingArchive.open<B>(out).of('bert-spam-250-sessions2', () => true)).toEqual([b, a]);
  });

  it('keeps a new sitting at once and never the same sitting twice', () => {
    const out = mkdtempSync(join(tmpdir(), 'xtrust-sittings-'));
    const archive = SittingArchive.open<B>(out);
    expect(archive.size).toBe(0);
    const a = block('2026-11-26T22:00:00.000Z', 40, 9);
    archive.add('bert-spam-40', a);
    archive.add('bert-spam-40', a);
    expect(archive.size).toBe(1);
    expect(existsSync(join(out, 'sittings.json.gz'))).toBe(true);
    expect(SittingArchive.open<B>(out).of('bert-spam-40', () => true)).toEqual([a]);
    expect(SittingArchive.open<B>(out).of('bert-spam-120', () => true)).toEqual([]);
  });
});
