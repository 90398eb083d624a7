import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isXtrustError } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { loadTabular } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'xtrust-tabular-'));
function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content, 'utf8');
  return p;
}

/** The XtrustError a promise rejects with (fails the test when it resolves). */
async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isXtrustError(e)) return e;
    throw e;
  }
  throw new Error('expected an XtrustError');
}

const opts = { textColumn: 'text', labelColumn: 'label' };

describe('loadTabular', () => {
  it('reads CSV with quoted multi-line fields and records each row line', async () => {
    const p = file('reviews.csv', 'id,text,label\n1,"great, really",pos\n2,"bad\nand long",neg\n3,fine,pos\n');
    const d = await loadTabular(p, { ...opts, idColumn: 'id' });
    expect(d.name).toBe('reviews');
    expect(d.labels).toEqual(['neg', 'pos']);
    expect(d.rows).toEqual([
      { id: '1', text: 'great, really', label: 'pos', meta: { line: 2 } },
      { id: '2', text: 'bad\nand long', label: 'neg', meta: { line: 3 } },
      { id: '3', text: 'fine', label: 'pos', meta: { line: 5 } },
    ]);
  });

  it('reads JSONL, numeric labels included, and keeps a given label order', async () => {
    const p = file('data.jsonl', '{"text":"one","label":1}\n\n{"text":"zero","label":0}\n');
    const d = await loadTabular(p, { ...opts, labels: ['1', '0'] });
    expect(d.labels).toEqual(['1', '0']);
    expect(d.rows.map((r) => [r.id, r.label])).toEqual([
      ['data.jsonl:1', '1'],
      ['data.jsonl:3', '0'],
    ]);
  });

  it('names a missing file', async () => {
    const e = await failure(loadTabular(join(dir, 'nope.csv'), opts));
    expect(e.code).toBe('FILE_NOT_FOUND');
    expect(e.message).toContain('nope.csv');
  });

  it('names file and line of a CSV row without label and of an empty text', async () => {
    const noLabel = await failure(loadTabular(file('a.csv', 'text,label\nok,x\nhello,\n'), opts));
    expect(noLabel.code).toBe('DATASET_ROW');
    expect(noLabel.message).toBe(
      `${join(dir, 'a.csv')}:3: no label: column "label" is empty (expected a label string)`,
    );
    const empty = await failure(loadTabular(file('b.csv', 'text,label\nok,x\n"  ",y\n'), opts));
    expect(empty.code).toBe('EMPTY_TEXT');
    expect(empty.message).toBe(`${join(dir, 'b.csv')}:3: empty text in column "text" (expected a non-empty string)`);
    expect(empty.details).toEqual({ file: join(dir, 'b.csv'), line: 3 });
  });

  it('names a CSV header without the text column, and a ragged row', async () => {
    const e = await failure(loadTabular(file('c.csv', 'body,label\nok,x\n'), opts));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain('no column "text" (columns are: body, label)');
    const ragged = await failure(loadTabular(file('d.csv', 'text,label\nok,x\nmore,y,z\n'), opts));
    expect(ragged.code).toBe('PARSE_ERROR');
    expect(ragged.message).toContain('d.csv:3');
  });

  it('names file and line of a JSONL row without text, with a non-string text, a non-object, and malformed JSON', async () => {
    const noText = await failure(loadTabular(file('e.jsonl', '{"text":"a","label":"x"}\n{"label":"y"}\n'), opts));
    expect(noText.code).toBe('DATASET_ROW');
    expect(noText.message).toBe(`${join(dir, 'e.jsonl')}:2: no text: field "text" is missing (expected a string)`);
    const numeric = await failure(loadTabular(file('f.jsonl', '{"text":5,"label":"y"}\n'), opts));
    expect(numeric.message).toBe(`${join(dir, 'f.jsonl')}:1: field "text" holds a number (expected a string)`);
    const arr = await failure(loadTabular(file('g.jsonl', '["a","b"]\n'), opts));
    expect(arr.message).toContain('g.jsonl:1: expected a JSON object with fields "text" and "label", got an array');
    const bad = await failure(loadTabular(file('h.jsonl', '{"text":"a","label":"x"}\n{"text":\n'), opts));
    expect(bad.code).toBe('PARSE_ERROR');
    expect(bad.message).toContain('h.jsonl:2');
    const nullLabel = await failure(loadTabular(file('i.jsonl', '{"text":"a","label":null}\n'), opts));
    expect(nullLabel.message).toContain('i.jsonl:1: no label: field "label" is null');
  });

  it('rejects a label outside the given labels, and skips bad rows on request', async () => {
    const p = file('j.csv', 'text,label\nok,x\nbad,z\n,x\nfine,y\n');
    const e = await failure(loadTabular(p, { ...opts, labels: ['x', 'y'] }));
    expect(e.code).toBe('UNKNOWN_LABEL');
    expect(e.message).toContain('j.csv:3: label "z" is not one of x, y');
    const d = await loadTabular(p, { ...opts, labels: ['x', 'y'], onBadRow: 'skip' });
    expect(d.rows.map((r) => r.text)).toEqual(['ok', 'fine']);
    expect(d.skipped).toEqual({ count: 2, reasons: { 'empty text': 1, 'unknown label': 1 } });
  });

  it('asks for a format when the extension does not tell, and refuses a file with no rows', async () => {
    const e = await failure(loadTabular(file('k.txt', 'text,label\na,b\n'), opts));
    expect(e.message).toContain('cannot tell the format from the extension ".txt"');
    const d = await loadTabular(join(dir, 'k.txt'), { ...opts, format: 'csv' });
    expect(d.rows.length).toBe(1);
    const none = await failure(loadTabular(file('l.jsonl', '\n\n'), opts));
    expect(none.code).toBe('DATASET_ROW');
    expect(none.message).toContain('no rows');
  });
});
