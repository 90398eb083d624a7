import { promises as fs } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { XtrustError } from './errors.js';

/** A CSV data row as an object keyed by the header, and the 1-based file line where the record starts. */
export interface CsvRecord {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Reads a CSV file with a header row (RFC 4180 quoting, via csv-parse). Every record must have as
 * many fields as the header; a ragged or malformed record throws PARSE_ERROR with the file and line.
 * `requiredColumns` are checked against the header up front.
 */
export async function readCsv(
  path: string,
  options: { delimiter?: string; requiredColumns?: readonly string[] } = {},
): Promise<{ columns: string[]; records: CsvRecord[] }> {
  let content: string;
  try {
    content = await fs.readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new XtrustError('FILE_NOT_FOUND', `${path}: no such file (expected a CSV file with a header row)`, {
        file: path,
      });
    throw new XtrustError(
      'FILE_UNREADABLE',
      `${path}: cannot read (${(error as Error).message})`,
      { file: path },
      { cause: error },
    );
  }
  return parseCsv(content, path, options);
}

/** Parses CSV text (see readCsv); `source` names it in errors. */
export function parseCsv(
  content: string,
  source: string,
  options: { delimiter?: string; requiredColumns?: readonly string[] } = {},
): { columns: string[]; records: CsvRecord[] } {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(content, {
      delimiter: options.delimiter ?? ',',
      bom: true,
      info: true,
      relax_column_count: false,
      skip_empty_lines: true,
    }) as never;
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new XtrustError(
      'PARSE_ERROR',
      `${source}${e.lines ? `:${e.lines}` : ''}: malformed CSV (${e.message})`,
      { file: source, line: e.lines },
      { cause: error },
    );
  }
  if (rows.length === 0)
    throw new XtrustError('PARSE_ERROR', `${source}: empty CSV file (expected a header row)`, { file: source });
  const columns = rows[0].record.map((c) => c.trim());
  for (const required of options.requiredColumns ?? []) {
    if (!columns.includes(required)) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${source}: no column "${required}" (columns are: ${columns.join(', ')})`,
        { file: source, column: required },
      );
    }
  }
  const records: CsvRecord[] = [];
  let previousEnd = rows[0].info.lines;
  for (const { record, info } of rows.slice(1)) {
    const values: Record<string, string> = {};
    columns.forEach((c, i) => (values[c] = record[i]));
    records.push({ line: previousEnd + 1, values });
    previousEnd = info.lines;
  }
  return { columns, records };
}

/** Serialises rows to CSV text with a header (quoting as needed). */
export function toCsv(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const cols = columns ?? (rows.length ? Object.keys(rows[0]) : []);
  return stringify(rows as Record<string, unknown>[], { header: true, columns: cols as string[] });
}

/** Writes rows to a CSV file atomically. */
export async function writeCsv(
  path: string,
  rows: readonly Record<string, unknown>[],
  columns?: readonly string[],
): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await fs.writeFile(tmp, toCsv(rows, columns), 'utf8');
  await fs.rename(tmp, path);
}
