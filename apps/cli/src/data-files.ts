import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { readCsv, readJsonl } from '@xtrust/core';
import { loadTabular } from '@xtrust/datasets';
import type { AuditRow } from './audit-records.js';
import { UsageError } from './exit.js';
import type { ClassDescriptionsFile } from './class-descriptions-file.js';

/** Columns of the user's data files. */
export interface ColumnOptions {
  readonly textColumn: string;
  readonly labelColumn: string;
  /** Optional ground truth of trustworthiness (trustworthy/untrustworthy, true/false, 1/0). */
  readonly trustColumn?: string;
}

/** SHA-256 of a file's bytes (run keys: a resumed run must read the same data). */
export function fileDigest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
}

function trustValue(v: unknown, where: string, column: string): boolean | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = String(v).trim().toLowerCase();
  if (['trustworthy', 'true', '1', 'yes'].includes(s)) return true;
  if (['untrustworthy', 'false', '0', 'no'].includes(s)) return false;
  throw new UsageError(`${where}: ${column} "${String(v)}" is not trustworthy/untrustworthy (or true/false, 1/0)`);
}

/** The trust column by line of the file (loadTabular reads only text and label, so it is read here). */
async function trustByLine(path: string, column: string): Promise<Map<number, boolean | undefined>> {
  const out = new Map<number, boolean | undefined>();
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') {
    const { columns, records } = await readCsv(path, { delimiter: ext === '.tsv' ? '\t' : ',' });
    if (!columns.includes(column))
      throw new UsageError(`${path} has no column "${column}" (columns: ${columns.join(', ')})`);
    for (const r of records) out.set(r.line, trustValue(r.values[column], `${path}:${r.line}`, column));
  } else {
    for await (const r of readJsonl<Record<string, unknown>>(path))
      out.set(r.line, trustValue(r.value?.[column], `${path}:${r.line}`, column));
  }
  return out;
}

/**
 * Reads the user's labelled texts (CSV with a header row, or JSONL) for a model with `labels`: a
 * missing file, a missing column, a row without text or label, or a label the model does not have
 * is an error naming the file and line.
 */
export async function readLabelledFile(
  path: string,
  columns: ColumnOptions,
  labels: readonly string[],
  what: string,
): Promise<AuditRow[]> {
  let data: Awaited<ReturnType<typeof loadTabular>>;
  try {
    data = await loadTabular(path, { textColumn: columns.textColumn, labelColumn: columns.labelColumn, labels });
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e.code === 'UNKNOWN_LABEL') throw new UsageError(`${what} ${e.message} (the model's labels)`);
    throw error;
  }
  const trust = columns.trustColumn ? await trustByLine(path, columns.trustColumn) : null;
  return data.rows.map((r) => {
    const t = trust?.get((r.meta as { line: number }).line);
    return { text: r.text, label: r.label, ...(t !== undefined ? { trustworthy: t } : {}) };
  });
}

/** Reads unlabelled texts: a .txt file (one text a line), or CSV/JSONL with --text-column. */
export async function readTexts(path: string, textColumn: string): Promise<string[]> {
  const ext = extname(path).toLowerCase();
  if (ext === '.txt') {
    let content: string;
    try {
      content = readFileSync(path, 'utf8');
    } catch {
      throw new UsageError(`${path}: no such file (expected one text a line)`);
    }
    return content.split(/\r?\n/).filter((l) => l.trim() !== '');
  }
  const out: string[] = [];
  if (ext === '.csv' || ext === '.tsv') {
    const { records } = await readCsv(path, { delimiter: ext === '.tsv' ? '\t' : ',', requiredColumns: [textColumn] });
    for (const r of records) out.push(requireText(r.values[textColumn], `${path}:${r.line}`, textColumn));
    return out;
  }
  if (ext === '.jsonl' || ext === '.ndjson') {
    for await (const r of readJsonl<Record<string, unknown>>(path))
      out.push(requireText(r.value?.[textColumn], `${path}:${r.line}`, textColumn));
    return out;
  }
  throw new UsageError(`${path}: expected a .txt, .csv, .tsv or .jsonl file`);
}

function requireText(v: unknown, where: string, column: string): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw new UsageError(`${where}: no text in "${column}" (expected a non-empty string)`);
  return v;
}

/** Checks --class-names against the model's labels (a name for a label the model lacks is a usage error). */
export function checkClassNames(
  classNames: Readonly<Record<string, string>>,
  labels: readonly string[],
  descriptions?: ClassDescriptionsFile,
): void {
  for (const label of Object.keys(classNames)) {
    if (!labels.includes(label))
      throw new UsageError(
        `--class-names names "${label}", which is not one of the model's labels (${labels.join(', ')})`,
      );
  }
  for (const label of Object.keys(descriptions?.descriptions ?? {})) {
    if (!labels.includes(label))
      throw new UsageError(
        `--class-descriptions ${descriptions!.file}: "${label}" is not one of the model's labels (${labels.join(', ')})`,
      );
  }
}
