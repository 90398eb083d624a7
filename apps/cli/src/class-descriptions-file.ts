/**
 * The `--class-descriptions FILE` option's file (issue 29): read and checked here, in a module of its own,
 * because the audit settings carry it and the data-file checks read it, and the data files' rows are typed
 * by the audit records, which are typed by the settings.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './exit.js';

/** A `--class-descriptions` file as read: its path and, by label, the words or sentence describing the class. */
export interface ClassDescriptionsFile {
  readonly file: string;
  readonly descriptions: Readonly<Record<string, string>>;
}

/**
 * Reads `--class-descriptions FILE`: a JSON object label → description (a sentence or space-separated
 * words: its content words describe the class beside its name, @xtrust/oracle class-description.ts).
 * A file that is missing, not JSON, not an object, or has a label whose value is not a non-empty string
 * is refused, naming the file and the label. (Labels are checked against the model by checkClassNames.)
 */
export function readClassDescriptions(file: string): ClassDescriptionsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(
      `--class-descriptions ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--class-descriptions ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new UsageError(
      `--class-descriptions ${file}: expected a JSON object mapping labels to descriptions, e.g. { "ham": "personal and work e-mail" }`,
    );
  const descriptions: Record<string, string> = {};
  for (const [label, value] of Object.entries(json as Record<string, unknown>)) {
    if (typeof value !== 'string' || value.trim() === '')
      throw new UsageError(
        `--class-descriptions ${file}: the description of "${label}" must be a non-empty string, got ${JSON.stringify(value)}`,
      );
    descriptions[label] = value;
  }
  return { file, descriptions };
}
