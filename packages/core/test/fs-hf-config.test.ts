import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hiddenSizeOf, readHfConfig, writeFileAtomic } from '@xtrust/core';

const dir = mkdtempSync(join(tmpdir(), 'xtrust-core-fs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes a string as UTF-8, creating the folder, and leaves no temporary file', () => {
    const file = join(dir, 'a', 'b', 'text.txt');
    writeFileAtomic(file, 'héllo\n');
    expect(readFileSync(file, 'utf8')).toBe('héllo\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['text.txt']);
  });

  it('writes one byte view, or several one after another (views into larger buffers included)', () => {
    const one = join(dir, 'one.bin');
    writeFileAtomic(one, Uint8Array.of(1, 2, 3));
    expect([...readFileSync(one)]).toEqual([1, 2, 3]);
    const many = join(dir, 'many.bin');
    const big = Uint8Array.of(9, 8, 7, 6);
    writeFileAtomic(many, [Uint8Array.of(1), big.subarray(1, 3), new Uint16Array([0x0201])]);
    // Uint16 0x0201 is the bytes 01 02 on a little-endian machine
    expect([...readFileSync(many)]).toEqual([1, 8, 7, 1, 2]);
  });

  it('replaces an existing file whole', () => {
    const file = join(dir, 'replace.txt');
    writeFileSync(file, 'a much longer old content');
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
  });
});

describe('Hugging Face config.json', () => {
  it("reads a folder's config.json, undefined when absent or not an object", () => {
    const m = join(dir, 'model');
    writeFileAtomic(join(m, 'config.json'), '{"model_type":"bert","hidden_size":128}');
    expect(readHfConfig(m)).toEqual({ model_type: 'bert', hidden_size: 128 });
    expect(readHfConfig(join(dir, 'nothing'))).toBeUndefined();
    writeFileAtomic(join(dir, 'array', 'config.json'), '[1]');
    expect(readHfConfig(join(dir, 'array'))).toBeUndefined();
  });

  it('finds the hidden size under the names BERT, T5, DistilBERT, GPT-2 and OPT use', () => {
    expect(hiddenSizeOf({ hidden_size: 768, dim: 5 })).toBe(768);
    expect(hiddenSizeOf({ d_model: 512 })).toBe(512);
    expect(hiddenSizeOf({ dim: 768, hidden_dim: 3072 })).toBe(768);
    expect(hiddenSizeOf({ n_embd: 1024 })).toBe(1024);
    expect(hiddenSizeOf({ word_embed_proj_dim: 2048 })).toBe(2048);
    // only positive integers count; a bad earlier key falls through to a good later one
    expect(hiddenSizeOf({ hidden_size: '768', dim: 64 })).toBe(64);
    expect(hiddenSizeOf({ hidden_size: 0 })).toBeUndefined();
    expect(hiddenSizeOf({ hidden_size: 7.5 })).toBeUndefined();
    expect(hiddenSizeOf({})).toBeUndefined();
    expect(hiddenSizeOf(undefined)).toBeUndefined();
  });
});
