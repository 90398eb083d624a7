import { TextDecoder } from 'node:util';

/**
 * Just enough RFC 5322 / MIME to separate an e-mail's header block from its text content: header
 * unfolding, multipart walking, quoted-printable and base64 decoding, charset decoding. Written
 * for the SpamAssassin corpus (mbox "From " envelope lines, LF or CRLF line ends, 2002-era MIME).
 */

/** An e-mail cut at the end of its top-level header block. `text === header + '\n\n' + body` when the header is non-empty. */
export interface EmailParts {
  /** The top-level header block, line ends normalised to LF, without the blank line that ends it. */
  readonly header: string;
  /** Everything after the blank line that ends the header block (raw, not decoded). */
  readonly body: string;
}

/**
 * Splits a raw e-mail at the first empty line, which ends the header block (RFC 5322 §2.1). Line
 * ends are normalised to LF first. A message with no empty line is all header.
 */
export function splitEmail(raw: string): EmailParts {
  const text = raw.replace(/\r\n?/g, '\n');
  if (text.startsWith('\n')) return { header: '', body: text.slice(1) };
  const end = text.indexOf('\n\n');
  if (end < 0) return { header: text, body: '' };
  return { header: text.slice(0, end), body: text.slice(end + 2) };
}

/**
 * Parses a header block into lower-cased field names and unfolded values (continuation lines that
 * start with a space or tab join the field above). The mbox envelope line ("From addr date") is not a
 * header field and is ignored; repeated fields keep their first value.
 */
export function parseHeaderFields(header: string): Map<string, string> {
  const fields = new Map<string, string>();
  let name: string | null = null;
  let value = '';
  const flush = () => {
    if (name !== null && !fields.has(name)) fields.set(name, value.trim());
    name = null;
  };
  for (const line of header.split('\n')) {
    if (/^[ \t]/.test(line)) {
      if (name !== null) value += ` ${line.trim()}`;
      continue;
    }
    flush();
    const m = /^([\x21-\x39\x3b-\x7e]+):(.*)$/.exec(line);
    if (m) {
      name = m[1].toLowerCase();
      value = m[2];
    }
  }
  flush();
  return fields;
}

interface ContentType {
  type: string;
  params: Record<string, string>;
}

function parseContentType(value: string | undefined): ContentType {
  // RFC 2045 §5.2: a missing Content-Type means text/plain; charset=us-ascii.
  if (!value) return { type: 'text/plain', params: {} };
  const params: Record<string, string> = {};
  // Parameters after the type; also accepted without the ';' some 2002 mailers left out.
  const paramRe = /(?:^|[;\s])([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|([^\s;"]*))/g;
  for (let m = paramRe.exec(value); m !== null; m = paramRe.exec(value)) {
    const key = m[1].toLowerCase();
    if (!(key in params)) params[key] = m[2] ?? m[3] ?? '';
  }
  const type = /^\s*([\w.+-]+\/[\w.+-]+)/.exec(value)?.[1].toLowerCase() ?? 'text/plain';
  return { type, params };
}

/**
 * A boundary for a body that is MIME-structured although its header does not say so (a missing or
 * broken Content-Type): within the first lines, a "--token" line directly followed by a Content-*
 * field. Without this, the part headers would be left in the text as if they were content.
 */
function undeclaredBoundary(body: string): string | undefined {
  const lines = body.split('\n', 12);
  for (let i = 0; i + 1 < lines.length; i++) {
    const l = lines[i].trimEnd();
    if (l.length > 2 && l.startsWith('--') && /^content-[\w-]+:/i.test(lines[i + 1])) return l.slice(2);
  }
  return undefined;
}

function decoderFor(charset: string | undefined): TextDecoder {
  const label = (charset ?? 'us-ascii').trim().toLowerCase();
  try {
    // WHATWG maps us-ascii and iso-8859-1 to windows-1252, a superset: right for 2002-era mail.
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

/**
 * Quoted-printable (RFC 2045 §6.7). Soft line breaks go; runs of =XX escapes are decoded as bytes in
 * the part's charset, while literal characters stay as they are (the corpus stores messages as
 * already-decoded strings, so a literal non-ASCII character must not be decoded twice).
 */
export function decodeQuotedPrintable(text: string, charset?: string): string {
  const unwrapped = text.replace(/=[ \t]*\n/g, '');
  const decoder = decoderFor(charset);
  return unwrapped.replace(/(?:=[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(3 * i + 1, 3 * i + 3), 16);
    return decoder.decode(bytes);
  });
}

function decodeBase64(text: string, charset?: string): string {
  return decoderFor(charset).decode(Buffer.from(text.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'));
}

/** The text content of a MIME entity and what was left out of it. */
export interface TextContent {
  /** Decoded text parts, joined by blank lines; MIME part headers and boundaries excluded. */
  readonly text: string;
  /** Content types of the parts that are not text (attachments, images) and were left out. */
  readonly droppedParts: readonly string[];
  /** Content types of the text parts kept. */
  readonly keptParts: readonly string[];
}

/**
 * The readable text of a message body given its header fields: text/* parts decoded (transfer
 * encoding and charset), multipart containers walked (for multipart/alternative only the plain-text
 * variant is kept when there is one, since the variants repeat the same content), embedded
 * message/rfc822 reduced to their own text content, every other part left out and named.
 */
export function textContent(fields: Map<string, string>, body: string, depth = 0): TextContent {
  const ct = parseContentType(fields.get('content-type'));
  if (!ct.type.startsWith('multipart/') && ct.type.startsWith('text/')) {
    const guessed = undeclaredBoundary(body);
    if (guessed !== undefined) {
      ct.type = 'multipart/mixed';
      ct.params.boundary = guessed;
    }
  }
  const cte = (fields.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  const dropped: string[] = [];
  const kept: string[] = [];
  const texts: string[] = [];

  const boundary = ct.params.boundary;
  if (ct.type.startsWith('multipart/') && boundary && depth < 8) {
    // A mailer that declares one boundary and writes another (it happens in the spam folders) is
    // read with the boundary its body actually uses.
    const written = undeclaredBoundary(body);
    const parts = splitMultipart(body, boundary) ?? (written !== undefined ? splitMultipart(body, written) : null);
    if (parts === null) {
      // No boundary line found: the declared structure is wrong, so read the body as plain text.
      return { text: body, droppedParts: [], keptParts: ['text/plain'] };
    }
    let children = parts.map((p) => {
      const { header, body: partBody } = splitEmail(p);
      const partFields = parseHeaderFields(header);
      // RFC 2046 §5.1.5: in multipart/digest a part without Content-Type is message/rfc822.
      if (!partFields.has('content-type') && ct.type === 'multipart/digest')
        partFields.set('content-type', 'message/rfc822');
      return { fields: partFields, body: partBody, type: parseContentType(partFields.get('content-type')).type };
    });
    if (ct.type === 'multipart/alternative') {
      const plain = children.find((c) => c.type === 'text/plain');
      if (plain) {
        for (const c of children) if (c !== plain) dropped.push(`${c.type} (alternative)`);
        children = [plain];
      }
    }
    for (const c of children) {
      const sub = textContent(c.fields, c.body, depth + 1);
      if (sub.text.trim() !== '') texts.push(sub.text);
      kept.push(...sub.keptParts);
      dropped.push(...sub.droppedParts);
    }
    return { text: texts.join('\n\n'), droppedParts: dropped, keptParts: kept };
  }
  if (ct.type === 'message/rfc822' && depth < 8) {
    const inner = splitEmail(body);
    return textContent(parseHeaderFields(inner.header), inner.body, depth + 1);
  }
  if (ct.type.startsWith('text/') || ct.type.startsWith('multipart/')) {
    // A multipart without a boundary parameter cannot be split: its body is read as text.
    let text = body;
    if (cte === 'quoted-printable') text = decodeQuotedPrintable(body, ct.params.charset);
    else if (cte === 'base64') text = decodeBase64(body, ct.params.charset);
    return { text, droppedParts: [], keptParts: [ct.type] };
  }
  return { text: '', droppedParts: [ct.type], keptParts: [] };
}

/** The parts between `--boundary` lines (preamble and epilogue excluded), or null when no boundary line occurs. */
function splitMultipart(body: string, boundary: string): string[] | null {
  const lines = body.split('\n');
  const open = `--${boundary}`;
  const close = `--${boundary}--`;
  const parts: string[] = [];
  let current: string[] | null = null;
  let seen = false;
  for (const line of lines) {
    const l = line.trimEnd();
    if (l === close) {
      if (current) parts.push(current.join('\n'));
      current = null;
      seen = true;
      break;
    }
    if (l === open) {
      if (current) parts.push(current.join('\n'));
      current = [];
      seen = true;
      continue;
    }
    current?.push(line);
  }
  // A message cut before its closing boundary still keeps its last part.
  if (current) parts.push(current.join('\n'));
  return seen ? parts : null;
}
