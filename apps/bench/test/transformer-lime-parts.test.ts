import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../src/harness/store.js';
import {
  modeAgreement,
  readStoredBlock,
  TextPartStore,
  type SideResult,
  type TextPart,
} from '../src/transformer-lime/text-parts.js';
import { textsOfLength } from '../src/transformer-lime/texts.js';

const dir = mkdtempSync(join(tmpdir(), 'xtrust-transformer-lime-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A side whose top 10 are `words` (weights falling, so the order is the listed one). */
const side = (words: string, seconds = 1): SideResult => ({
  label: 'spam',
  features: [...words].map((w, i) => [w, 1 - i / 20]),
  seconds,
  cpuSeconds: 2 * seconds,
  samples: 5000,
});
const part = (index: number, ours: string, peer1: string, peer2: string): TextPart => ({
  index,
  peer: [side(peer1, 60), side(peer2, 62)],
  peerProbabilities: [0.2, 0.8],
  ours: { exact: side(ours, 10) },
  measured: '2026-11-26T12:00:00.000Z',
  host: 'test host',
  load: 1,
  peerMeta: { torch: 'x' },
});

describe('transformer-lime: blocks recorded text by text', () => {
  it('resumes with the texts of the same key, starts over under another, and refuses a text twice', () => {
    const file = join(dir, 'block-parts.json.gz');
    const key = { words: 120, texts: ['a', 'b', 'c'] };
    const first = TextPartStore.open(file, key);
    expect(first.parts).toEqual([]);
    first.add(part(1, 'abcdefghij', 'abcdefghij', 'abcdefghij'));
    first.add(part(0, 'abcdefghij', 'abcdefghij', 'abcdefghij'));
    const again = TextPartStore.open(file, { words: 120, texts: ['a', 'b', 'c'] });
    expect(again.parts.map((p) => p.index)).toEqual([0, 1]);
    expect(again.has(1) && !again.has(2)).toBe(true);
    expect(() => again.add(part(1, 'abcdefghij', 'abcdefghij', 'abcdefghij'))).toThrow(/already recorded/);
    expect(TextPartStore.open(file, { words: 120, texts: ['a', 'b', 'x'] }).parts).toEqual([]);
    again.remove();
    expect(TextPartStore.open(file, key).parts).toEqual([]);
  });

  it("pairs each text's agreement with the peer against the peer's own seed-to-seed (hand-computed)", () => {
    // text 0: ours = peer seed 1 (J 1), seeds share 5 of 15 (J 1/3): gap +2/3;
    // text 1: ours shares 5 of 15 with seed 1 (J 1/3), the seeds agree (J 1): gap −2/3.
    const parts = [
      part(0, 'abcdefghij', 'abcdefghij', 'abcdeklmno'),
      part(1, 'abcdepqrst', 'abcdefghij', 'abcdefghij'),
    ];
    const a = modeAgreement(parts, 'exact');
    expect(a.oursPeer).toEqual([1, 1 / 3]);
    expect(a.peerPeer).toEqual([1 / 3, 1]);
    expect(a.gap!.estimate).toBeCloseTo(0, 12);
    // resamples of two texts average −2/3, 0 or +2/3 (a quarter of them at each end): the 95 % interval spans both ends
    expect(a.gap!.lo).toBeCloseTo(-2 / 3, 12);
    expect(a.gap!.hi).toBeCloseTo(2 / 3, 12);
    expect(modeAgreement(parts, 'exact')).toEqual(a); // seeded
    expect(() => modeAgreement(parts, 'int8')).toThrow(/no result for mode int8/);
  });

  it('leaves the gap out when the peer ran one seed', () => {
    const one = { ...part(0, 'abcdefghij', 'abcdefghij', 'abcdefghij'), peer: [side('abcdefghij')] };
    const a = modeAgreement([one], 'exact');
    expect(a.peerPeer).toEqual([]);
    expect(a.gap).toBeUndefined();
  });
});

describe('readStoredBlock: a finished block to judge against', () => {
  const texts = ['one text', 'another text'];
  const sha = createHash('sha256').update(JSON.stringify(texts)).digest('hex');
  const write = (tag: string, model: string, parts: number, textsSha = sha) => {
    writeJsonAtomic(join(dir, `${tag}-texts.json.gz`), texts);
    writeJsonAtomic(join(dir, `${tag}-parts.json.gz`), {
      key: { model, textsSha256: textsSha },
      parts: Array.from({ length: parts }, (_, index) => ({ index, peer: [], ours: {} })),
    });
  };

  it('reads a finished block of this model, and refuses another model, other texts or an unfinished one', () => {
    write('done', 'm1', 2);
    const b = readStoredBlock(dir, 'done', 'm1');
    expect(b.texts).toEqual(texts);
    expect(b.parts.map((p) => p.index)).toEqual([0, 1]);
    expect(() => readStoredBlock(dir, 'done', 'm2')).toThrow(/measured on another model \(m1, this one m2\)/);
    write('half', 'm1', 1);
    expect(() => readStoredBlock(dir, 'half', 'm1')).toThrow(/holds 1 of 2 texts: finish the block first/);
    write('moved', 'm1', 2, 'not-these');
    expect(() => readStoredBlock(dir, 'moved', 'm1')).toThrow(/moved-texts.json.gz are not the texts/);
    expect(() => readStoredBlock(dir, 'absent', 'm1')).toThrow(/no stored block absent/);
  });

  it('draws the texts again from their seed when the block has no texts file, and checks them against its digest', () => {
    const drawn = textsOfLength(40, 2);
    const digest = createHash('sha256').update(JSON.stringify(drawn)).digest('hex');
    const parts = [0, 1].map((index) => ({ index, peer: [], ours: {} }));
    writeJsonAtomic(join(dir, 'nofile-parts.json.gz'), { key: { model: 'm1', words: 40, textsSha256: digest }, parts });
    expect(readStoredBlock(dir, 'nofile', 'm1').texts).toEqual(drawn);
    writeJsonAtomic(join(dir, 'otherseed-parts.json.gz'), { key: { model: 'm1', words: 40, textsSha256: sha }, parts });
    expect(() => readStoredBlock(dir, 'otherseed', 'm1')).toThrow(
      /the texts drawn again for otherseed are not the texts/,
    );
  });
});
