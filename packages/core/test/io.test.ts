import { mkdtempSync, writeFileSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  JsonlWriter,
  parseCsv,
  readCsv,
  readJsonl,
  readJsonlAll,
  toCsv,
  writeCsv,
  writeJsonl,
  isXtrustError,
} from '@xtrust/core';

const dir = mkdtempSync(join(tmpdir(), 'xtrust-core-io-'));

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('JSONL', () => {
  it('round-trips values with line numbers, skipping blank lines', async () => {
    const p = join(dir, 'a.jsonl');
    await writeJsonl(p, [{ a: 1 }, 'two', [3]]);
    appendFileSync(p, '\n{"b":4}\n');
    const rows = await readJsonlAll(p);
    expect(rows.map((r) => r.value)).toEqual([{ a: 1 }, 'two', [3], { b: 4 }]);
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 5]);
  });

  it('names the file and line of a malformed record', async () => {
    const p = join(dir, 'bad.jsonl');
    writeFileSync(p, '{"ok":1}\n{oops}\n{"ok":2}\n');
    await expect(readJsonlAll(p)).rejects.toThrow(`${p}:2: not valid JSON`);
  });

  it('reports a missing file as FILE_NOT_FOUND', async () => {
    const e = await readJsonlAll(join(dir, 'nope.jsonl')).catch((x) => x);
    expect(isXtrustError(e, 'FILE_NOT_FOUND')).toBe(true);
  });

  it('tolerates only a truncated last line when asked (a killed writer)', async () => {
    const p = join(dir, 'trunc.jsonl');
    writeFileSync(p, '{"i":1}\n{"i":2}\n{"i":');
    let truncated = 0;
    const rows = await collect(readJsonl(p, { tolerateTruncatedTail: true, onTruncated: (l) => (truncated = l) }));
    expect(rows.map((r) => (r.value as { i: number }).i)).toEqual([1, 2]);
    expect(truncated).toBe(3);
    await expect(readJsonlAll(p)).rejects.toThrow(/:3: not valid JSON/);
    // A bad line in the middle is corruption, not truncation.
    writeFileSync(p, '{"i":1}\n{"i":\n{"i":3}\n');
    await expect(collect(readJsonl(p, { tolerateTruncatedTail: true }))).rejects.toThrow(/:2:/);
  });

  it('appends records and repairs a partial last line before appending', () => {
    const p = join(dir, 'append.jsonl');
    writeFileSync(p, '{"i":1}\n{"i":');
    const w = new JsonlWriter(p);
    w.write({ i: 2 });
    w.close();
    expect(readFileSync(p, 'utf8')).toBe('{"i":1}\n{"i":\n{"i":2}\n');
  });
});

describe('CSV', () => {
  it('parses quoted fields with commas, quotes and newlines, with record start lines', () => {
    const csv = 'text,label\n"Hello, ""world""",spam\n"two\nlines",ham\nplain,ham\n';
    const { columns, records } = parseCsv(csv, 'mem.csv');
    expect(columns).toEqual(['text', 'label']);
    expect(records.map((r) => r.values.text)).toEqual(['Hello, "world"', 'two\nlines', 'plain']);
    expect(records.map((r) => r.line)).toEqual([2, 3, 5]);
  });

  it('names the file and line of a ragged record', () => {
    expect(() => parseCsv('a,b\n1,2\n3\n', 'rag.csv')).toThrow(/rag\.csv:3: malformed CSV/);
  });

  it('checks required columns against the header', () => {
    expect(() => parseCsv('body,label\nx,y\n', 'cols.csv', { requiredColumns: ['text'] })).toThrow(
      'cols.csv: no column "text" (columns are: body, label)',
    );
  });

  it('round-trips through writeCsv/readCsv', async () => {
    const p = join(dir, 'rt.csv');
    const rows = [
      { text: 'a, "b"\nc', label: 'x' },
      { text: 'd', label: 'y' },
    ];
    await writeCsv(p, rows);
    const back = await readCsv(p);
    expect(back.records.map((r) => r.values)).toEqual(rows);
    expect(toCsv([{ a: 1 }])).toBe('a\n1\n');
  });

  it('reports a missing CSV file as FILE_NOT_FOUND', async () => {
    const e = await readCsv(join(dir, 'missing.csv')).catch((x) => x);
    expect(isXtrustError(e, 'FILE_NOT_FOUND')).toBe(true);
  });
});
