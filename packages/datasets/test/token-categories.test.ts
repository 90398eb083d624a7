import { describe, expect, it } from 'vitest';
import { rng, tokenize, XtrustError } from '@xtrust/core';
import {
  mergedSpans,
  removeCategory,
  setTokenIndices,
  swapCategory,
  TOKEN_CATEGORIES,
  TOKEN_CATEGORY_NAMES,
  tokenCategory,
  type TokenSet,
} from '../src/index.js';

/** The matched strings of a category in a text, in order. */
const found = (name: string, text: string) =>
  mergedSpans(tokenCategory(name), text).map((s) => text.slice(s.start, s.end));

const HEADER =
  'From alice@example.com  Thu Aug 22 12:36:23 2002\nReturn-Path: <alice@example.com>\nReceived: from mx (localhost)\n\tby relay; Thu, 22 Aug 2002\nSubject: Hi Mary\n\n';
const MAIL = `${HEADER}Dear John, see you in 1999.`;

describe('token categories', () => {
  it('is a list of declarative entries looked up by name', () => {
    expect(TOKEN_CATEGORY_NAMES).toEqual([
      'person-names',
      'numbers',
      'years',
      'urls',
      'emails',
      'markup',
      'mail-headers',
    ]);
    for (const c of TOKEN_CATEGORIES) expect(c.description.length).toBeGreaterThan(20);
    expect(() => tokenCategory('dates')).toThrow(XtrustError);
    expect(() => tokenCategory('dates')).toThrow(
      /unknown token category "dates" \(known: person-names, numbers, years/,
    );
  });

  it('finds person names in the gazetteer, capitalised, less everyday words', () => {
    expect(
      found('person-names', 'Dear John and Mary, Will you come in May? Ask john or ALICE. Grant it, Hope.'),
    ).toEqual(['John', 'Mary']);
    const swapped = swapCategory('Dear John,', tokenCategory('person-names'), rng(3));
    const name = /^Dear (\p{Lu}\p{Ll}+),$/u.exec(swapped)?.[1];
    expect(name).toBeDefined();
    expect(name).not.toBe('John');
    expect(found('person-names', `Hi ${name}`)).toEqual([name]);
  });

  it('finds years 1600–2099 standing alone, and numbers with their separators', () => {
    const text = 'in 1999, 2001.5 and 1,999; 1599 or 2100; from 1600 to 2099 (mp3, 3rd)';
    expect(found('years', text)).toEqual(['1999', '1600', '2099']);
    expect(found('numbers', text)).toEqual(['1999', '2001.5', '1,999', '1599', '2100', '1600', '2099']);
    const y = swapCategory('in 1999.', tokenCategory('years'), rng(1));
    const year = Number(/^in (\d{4})\.$/.exec(y)?.[1]);
    expect(year).toBeGreaterThanOrEqual(1600);
    expect(year).toBeLessThanOrEqual(2099);
    expect(year).not.toBe(1999);
    // a number keeps its shape: digits redrawn, separators kept, no leading zero
    const n = swapCategory('$1,000.50', tokenCategory('numbers'), rng(2));
    expect(n).toMatch(/^\$[1-9],\d{3}\.\d{2}$/);
    expect(n).not.toBe('$1,000.50');
  });

  it('finds URLs without trailing punctuation, and e-mail addresses', () => {
    const text = 'See http://www.example.com/x.html. Or www.foo.com, or https://a.b/c?d=1 (mail bob.smith@corp.org).';
    expect(found('urls', text)).toEqual(['http://www.example.com/x.html', 'www.foo.com', 'https://a.b/c?d=1']);
    expect(found('emails', text)).toEqual(['bob.smith@corp.org']);
    const swapped = swapCategory('go to https://x.org/a now', tokenCategory('urls'), rng(5));
    expect(swapped).toMatch(/^go to https:\/\/www\.[a-z.-]+\/\S* now$/);
    expect(found('emails', swapCategory('ask a@b.com', tokenCategory('emails'), rng(5)))).toHaveLength(1);
  });

  it('finds markup tags, comments and entities, not comparisons', () => {
    const text = '<p class="x">a&nbsp;b</p><!-- note --> &#160; and 3 < 4 > 2 &amp;';
    expect(found('markup', text)).toEqual(['<p class="x">', '&nbsp;', '</p>', '<!-- note -->', '&#160;', '&amp;']);
    // removal never glues words together
    expect(removeCategory('this</b>&nbsp;see <br> it', tokenCategory('markup'))).toBe('this see it');
    // a closing tag is swapped for a closing tag, an entity for an entity
    const s = swapCategory('</td>&nbsp;', tokenCategory('markup'), rng(9));
    expect(s).toMatch(/^<\/[a-z]+>&[#a-z0-9]+;$/);
    expect(s.startsWith('</td>')).toBe(false);
  });

  it('finds the header block up to and including the blank line; removal leaves the body', () => {
    expect(found('mail-headers', MAIL)).toEqual([HEADER]);
    expect(removeCategory(MAIL, tokenCategory('mail-headers'))).toBe('Dear John, see you in 1999.');
    // one well-known field is a header block; one unknown field or a prose line is not
    expect(found('mail-headers', 'Subject: hi\n\nbody')).toEqual(['Subject: hi\n\n']);
    expect(found('mail-headers', 'Note: this is prose\n\nbody')).toEqual([]);
    expect(found('mail-headers', 'Dear friend: hello\nTo: you\n\nbody')).toEqual([]);
    expect(found('mail-headers', 'To: a\nbroken line\n\nbody')).toEqual([]);
    expect(found('mail-headers', 'body\n\nTo: a\nFrom: b\n')).toEqual([]);
    // a header block with no body: the whole text
    expect(found('mail-headers', 'To: a\nX-Spam: yes')).toEqual(['To: a\nX-Spam: yes']);
    // header fields are removal only
    expect(tokenCategory('mail-headers').replacement).toBeUndefined();
    expect(() => swapCategory(MAIL, tokenCategory('mail-headers'), rng(0))).toThrow(/removal only/);
  });

  it('merges overlapping spans into one occurrence, and categories overlap each other freely', () => {
    const set: TokenSet = {
      name: 'overlapping',
      spans: () => [
        { start: 10, end: 14 },
        { start: 2, end: 9 },
        { start: 0, end: 4 },
      ],
    };
    const text = 'aaaa bbbb cccc dddd';
    expect(mergedSpans(set, text)).toEqual([
      { start: 0, end: 9 },
      { start: 10, end: 14 },
    ]);
    expect(removeCategory(text, set)).toBe('dddd');
    // a year is a number too; a name inside the header block is both a name and a header token
    expect(found('numbers', 'in 1999')).toEqual(found('years', 'in 1999'));
    const tokens = tokenize(MAIL);
    const header = setTokenIndices(tokens, tokenCategory('mail-headers').spans(MAIL));
    const names = setTokenIndices(tokens, tokenCategory('person-names').spans(MAIL));
    expect(names.map((i) => tokens[i].text)).toEqual(['Mary', 'John']);
    expect(header).toContain(names[0]);
    expect(header).not.toContain(names[1]);
  });
});
