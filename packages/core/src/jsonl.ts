import {
  createReadStream,
  promises as fs,
  openSync,
  writeSync,
  fsyncSync,
  closeSync,
  existsSync,
  fstatSync,
  readSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { XtrustError } from './errors.js';

/** One parsed JSONL record and the 1-based line it came from. */
export interface JsonlRecord<T> {
  readonly line: number;
  readonly value: T;
}

async function openForRead(path: string) {
  try {
    await fs.access(path);
  } catch {
    throw new XtrustError('FILE_NOT_FOUND', `${path}: no such file (expected a JSONL file, one JSON value per line)`, {
      file: path,
    });
  }
  return createReadStream(path, { encoding: 'utf8' });
}

/**
 * Streams a JSONL file, one JSON value per non-blank line. A malformed line throws PARSE_ERROR with
 * the file and line number. With `tolerateTruncatedTail`, an unparsable *last* line without a final
 * newline (a run killed mid-write) is skipped and reported through `onTruncated` instead.
 */
export async function* readJsonl<T = unknown>(
  path: string,
  options: { tolerateTruncatedTail?: boolean; onTruncated?: (line: number) => void } = {},
): AsyncGenerator<JsonlRecord<T>> {
  const stream = await openForRead(path);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  let pendingError: { line: number; error: unknown; text: string } | null = null;
  for await (const text of lines) {
    lineNo++;
    if (pendingError) throw parseError(path, pendingError.line, pendingError.error);
    if (text.trim() === '') continue;
    try {
      yield { line: lineNo, value: JSON.parse(text) as T };
    } catch (error) {
      if (!options.tolerateTruncatedTail) throw parseError(path, lineNo, error);
      pendingError = { line: lineNo, error, text };
    }
  }
  if (pendingError) {
    const content = await fs.readFile(path, 'utf8');
    if (content.endsWith('\n')) throw parseError(path, pendingError.line, pendingError.error);
    options.onTruncated?.(pendingError.line);
  }
}

function parseError(path: string, line: number, error: unknown): XtrustError {
  return new XtrustError(
    'PARSE_ERROR',
    `${path}:${line}: not valid JSON (${(error as Error).message})`,
    { file: path, line },
    { cause: error },
  );
}

/** Reads a whole JSONL file into memory (see readJsonl). */
export async function readJsonlAll<T = unknown>(path: string): Promise<JsonlRecord<T>[]> {
  const out: JsonlRecord<T>[] = [];
  for await (const r of readJsonl<T>(path)) out.push(r);
  return out;
}

/** Writes values as a JSONL file (replacing it) atomically: a temporary file renamed into place. */
export async function writeJsonl(path: string, values: Iterable<unknown>): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  let body = '';
  for (const v of values) body += `${JSON.stringify(v)}\n`;
  await fs.writeFile(tmp, body, 'utf8');
  await fs.rename(tmp, path);
}

/**
 * Appends JSON records to a file, one line each, flushed to disk as they come, so a long run that is
 * killed loses at most the line being written (which readJsonl's tolerateTruncatedTail then skips).
 * If the file ends in a partial line (an earlier crash), the writer starts on a fresh line.
 */
export class JsonlWriter {
  private fd: number;
  private readonly fsync: boolean;
  readonly path: string;

  constructor(path: string, options: { fsync?: boolean } = {}) {
    this.path = path;
    this.fsync = options.fsync ?? false;
    const exists = existsSync(path);
    this.fd = openSync(path, 'a+');
    if (exists) this.repairTail();
  }

  private repairTail(): void {
    // A killed writer may have left half a line; start a new line so the next record parses.
    const { size } = fstatSync(this.fd);
    if (size === 0) return;
    const buf = Buffer.alloc(1);
    readSync(this.fd, buf, 0, 1, size - 1);
    if (buf[0] !== 0x0a) writeSync(this.fd, '\n');
  }

  /** Appends one record as a single write (one line). */
  write(value: unknown): void {
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
    if (this.fsync) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}
