import { basename, extname } from 'node:path';
import { readCsv, readJsonl, XtrustError } from '@xtrust/core';
import { SkipCounter, type Dataset, type Row } from './dataset.js';

export interface TabularOptions {
  /** Column (CSV) or field (JSONL) holding the text. */
  textColumn: string;
  /** Column or field holding the label. */
  labelColumn: string;
  /** Column or field with a row id (default: `<file name>:<line>`). */
  idColumn?: string;
  /** Default: from the extension (.csv, .tsv → csv; .jsonl, .ndjson → jsonl). */
  format?: 'csv' | 'jsonl';
  /** CSV field delimiter (default ',' and a tab for .tsv). */
  delimiter?: string;
  /** The allowed labels, in this order; a row with another label is an UNKNOWN_LABEL error. Default: the labels found, sorted. */
  labels?: readonly string[];
  /** What a bad row does: throw (default) or skip it and count it in `skipped`. */
  onBadRow?: 'throw' | 'skip';
}

export interface TabularMeta {
  /** 1-based line of the file where the row starts. */
  readonly line: number;
}

interface RawRecord {
  line: number;
  get(column: string): unknown;
  /** Set when a JSONL line is valid JSON but not an object (it cannot carry named fields). */
  notObject?: string;
}

function inferFormat(path: string, options: TabularOptions): 'csv' | 'jsonl' {
  if (options.format) return options.format;
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new XtrustError(
    'INVALID_ARGUMENT',
    `${path}: cannot tell the format from the extension "${ext}" (expected .csv, .tsv, .jsonl or .ndjson, or pass format: 'csv' | 'jsonl')`,
    { file: path },
  );
}

async function records(path: string, format: 'csv' | 'jsonl', options: TabularOptions): Promise<RawRecord[]> {
  if (format === 'csv') {
    const delimiter = options.delimiter ?? (extname(path).toLowerCase() === '.tsv' ? '\t' : ',');
    const required = [options.textColumn, options.labelColumn, ...(options.idColumn ? [options.idColumn] : [])];
    const { records: rs } = await readCsv(path, { delimiter, requiredColumns: required });
    return rs.map((r) => ({ line: r.line, get: (c) => r.values[c] }));
  }
  const out: RawRecord[] = [];
  for await (const { line, value } of readJsonl(path)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      const notObject = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
      out.push({ line, get: () => undefined, notObject });
      continue;
    }
    const obj = value as Record<string, unknown>;
    out.push({ line, get: (c) => (Object.hasOwn(obj, c) ? obj[c] : undefined) });
  }
  return out;
}

/**
 * Loads a user's labelled texts from a CSV file (with a header row) or a JSONL file (one object per
 * line). Errors name the file and line and what was expected: FILE_NOT_FOUND for a missing file,
 * PARSE_ERROR for malformed CSV or JSON, INVALID_ARGUMENT for a CSV header without the named
 * columns, DATASET_ROW for a row without its text or label (or with a non-text value),
 * EMPTY_TEXT for a text that is empty or only white space, UNKNOWN_LABEL for a label outside
 * `options.labels`. With `onBadRow: 'skip'` the row errors are counted in `skipped` instead.
 */
export async function loadTabular(path: string, options: TabularOptions): Promise<Dataset<TabularMeta>> {
  const format = inferFormat(path, options);
  const raw = await records(path, format, options);
  const file = basename(path);
  const skipped = new SkipCounter();
  const rows: Row<TabularMeta>[] = [];
  const allowed = options.labels ? new Set(options.labels) : null;
  const where = (line: number) => `${path}:${line}`;
  const field = format === 'csv' ? 'column' : 'field';

  for (const rec of raw) {
    const problem = (code: 'DATASET_ROW' | 'EMPTY_TEXT' | 'UNKNOWN_LABEL', reason: string, message: string) => {
      if (options.onBadRow === 'skip') {
        skipped.add(reason);
        return;
      }
      throw new XtrustError(code, `${where(rec.line)}: ${message}`, { file: path, line: rec.line });
    };
    if (rec.notObject) {
      problem(
        'DATASET_ROW',
        'not a JSON object',
        `expected a JSON object with fields "${options.textColumn}" and "${options.labelColumn}", got ${rec.notObject}`,
      );
      continue;
    }
    const text = rec.get(options.textColumn);
    const label = rec.get(options.labelColumn);
    if (text === undefined || text === null) {
      problem('DATASET_ROW', 'no text', `no text: ${field} "${options.textColumn}" is missing (expected a string)`);
      continue;
    }
    if (typeof text !== 'string') {
      problem(
        'DATASET_ROW',
        'text is not a string',
        `${field} "${options.textColumn}" holds ${Array.isArray(text) ? 'an array' : `a ${typeof text}`} (expected a string)`,
      );
      continue;
    }
    if (text.trim() === '') {
      problem(
        'EMPTY_TEXT',
        'empty text',
        `empty text in ${field} "${options.textColumn}" (expected a non-empty string)`,
      );
      continue;
    }
    const labelText =
      typeof label === 'string'
        ? label.trim()
        : typeof label === 'number' || typeof label === 'boolean'
          ? String(label)
          : undefined;
    if (labelText === undefined || labelText === '') {
      const got =
        label === undefined
          ? 'is missing'
          : label === null
            ? 'is null'
            : typeof label === 'string'
              ? 'is empty'
              : `holds ${Array.isArray(label) ? 'an array' : `a ${typeof label}`}`;
      problem(
        'DATASET_ROW',
        'no label',
        `no label: ${field} "${options.labelColumn}" ${got} (expected a label string)`,
      );
      continue;
    }
    if (allowed && !allowed.has(labelText)) {
      problem('UNKNOWN_LABEL', 'unknown label', `label "${labelText}" is not one of ${[...allowed].join(', ')}`);
      continue;
    }
    let id = `${file}:${rec.line}`;
    if (options.idColumn) {
      const v = rec.get(options.idColumn);
      if (typeof v === 'string' && v !== '') id = v;
      else if (typeof v === 'number') id = String(v);
    }
    rows.push({ id, text, label: labelText, meta: { line: rec.line } });
  }
  if (rows.length === 0 && skipped.report().count === 0) {
    throw new XtrustError(
      'DATASET_ROW',
      `${path}: no rows (expected at least one row with "${options.textColumn}" and "${options.labelColumn}")`,
      { file: path },
    );
  }
  const labels = options.labels ? [...options.labels] : [...new Set(rows.map((r) => r.label))].sort();
  return { name: file.replace(/\.[^.]+$/, ''), labels, rows, skipped: skipped.report() };
}
