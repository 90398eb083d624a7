import { describe, expect, it } from 'vitest';
import {
  decodeQuotedPrintable,
  labelCounts,
  loadSpamAssassin,
  parseHeaderFields,
  splitEmail,
  stripHeaders,
  textContent,
} from '../src/index.js';

describe('loadSpamAssassin', () => {
  const withHeaders = loadSpamAssassin();
  const body = loadSpamAssassin({ headers: false });

  it('labels the 6,046 messages ham/spam by folder and reports the 3 without a text part', () => {
    expect(withHeaders.labels).toEqual(['ham', 'spam']);
    expect(labelCounts(withHeaders)).toEqual({ ham: 4150, spam: 1893 });
    expect(withHeaders.skipped).toEqual({ count: 3, reasons: { 'body has no text part (attachments only)': 3 } });
    expect(withHeaders.rows.length + withHeaders.skipped.count).toBe(6046);
    expect(body.rows.map((r) => r.id)).toEqual(withHeaders.rows.map((r) => r.id));
  });

  it('keeps the header block in front with headers, and only the decoded body without', () => {
    const h = withHeaders.rows.find((r) => r.id === 'spam-1/00001')!;
    const b = body.rows.find((r) => r.id === 'spam-1/00001')!;
    expect(h.label).toBe('spam');
    expect(
      h.text.startsWith('From 12a1mailbot1@web.de  Thu Aug 22 13:17:22 2002\nReturn-Path: <12a1mailbot1@web.de>'),
    ).toBe(true);
    expect(h.text).toContain('Subject: Life Insurance - Why Pay More?');
    expect(b.text).not.toContain('Return-Path');
    expect(b.text).not.toContain('Subject:');
    // quoted-printable decoded: "=3D" is "=" and soft line breaks are joined
    expect(b.text).not.toContain('=3D');
    expect(b.text).toContain('<CENTER>Save up to 70% on Life Insurance.</CENTER>');
    expect(b.meta).toEqual({ group: 'spam-1', bodyStart: 0, keptParts: ['text/html'], droppedParts: [] });
  });

  it('makes removing the headers exact: text.slice(bodyStart) is the headerless text of the same message', () => {
    for (let i = 0; i < withHeaders.rows.length; i++) {
      const r = withHeaders.rows[i];
      expect(r.meta!.bodyStart).toBeGreaterThan(0);
      expect(r.text.slice(r.meta!.bodyStart)).toBe(body.rows[i].text);
      expect(stripHeaders(r.text)).toBe(body.rows[i].text);
    }
  });

  it('leaves MIME part headers and attachments out of the body', () => {
    const signed = body.rows.find((r) => r.id === 'easy-ham-1/00014')!;
    expect(signed.meta!.droppedParts).toEqual(['application/pgp-signature']);
    expect(signed.text).not.toMatch(/BEGIN PGP SIGNATURE/);
    const alt = body.rows.find((r) => r.id === 'easy-ham-1/00062')!;
    expect(alt.meta!.droppedParts).toEqual(['text/html (alternative)']);
    expect(alt.text.startsWith("I'm using Simple DNS from JHSoft.")).toBe(true);
    // Bodies whose first lines are "--boundary" + Content-Type although the header declares no multipart
    expect(body.rows.filter((r) => /^--\S+\ncontent-type:/i.test(r.text)).map((r) => r.id)).toEqual([]);
    // what is left (README): forwarded/quoted messages and a few broken header blocks
    expect(body.rows.filter((r) => /^content-type:/im.test(r.text)).length).toBe(18);
    const mislabelled = body.rows.find((r) => r.id === 'spam-1/00467')!; // declares "=Multipart…", writes "= Multipart…"
    expect(mislabelled.text).not.toMatch(/Content-Type:/i);
  });
});

describe('e-mail parts', () => {
  it('splits at the first blank line, with CRLF line ends and folded headers', () => {
    const raw =
      'From: a@b.c\r\nSubject: two\r\n  lines\r\nContent-Type: text/plain;\r\n\tcharset="utf-8"\r\n\r\nHello\r\n\r\nWorld';
    const { header, body } = splitEmail(raw);
    expect(body).toBe('Hello\n\nWorld');
    const fields = parseHeaderFields(header);
    expect(fields.get('subject')).toBe('two lines');
    expect(fields.get('content-type')).toBe('text/plain; charset="utf-8"');
    expect(splitEmail('no header break').body).toBe('');
  });

  it('decodes quoted-printable in the declared charset', () => {
    expect(decodeQuotedPrintable('caf=E9 =3D ok=\nay', 'iso-8859-1')).toBe('café = okay');
    expect(decodeQuotedPrintable('caf=C3=A9', 'utf-8')).toBe('café');
  });

  it('walks multipart/mixed with a base64 text part and drops an image', () => {
    const b64 = Buffer.from('second part, base64', 'utf8').toString('base64');
    const body = [
      'preamble',
      '--XYZ',
      'Content-Type: text/plain',
      '',
      'first part',
      '--XYZ',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      b64,
      '--XYZ',
      'Content-Type: image/gif',
      '',
      'R0lGOD',
      '--XYZ--',
      'epilogue',
    ].join('\n');
    const fields = new Map([['content-type', 'multipart/mixed; boundary="XYZ"']]);
    const c = textContent(fields, body);
    expect(c.text).toBe('first part\n\nsecond part, base64');
    expect(c.keptParts).toEqual(['text/plain', 'text/plain']);
    expect(c.droppedParts).toEqual(['image/gif']);
  });
});
