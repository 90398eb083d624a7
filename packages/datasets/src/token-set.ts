import { tokenize, XtrustError, type Token } from '@xtrust/core';

/** A stretch of a text, by character offsets (`text.slice(start, end)`). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * A set of tokens a model may lean on (issue 48): the words of a phrase, a scattered list of words, or
 * a category (person names, years, URLs, markup, mail header fields). It says where its occurrences are
 * in a text, as character spans; the set's tokens in that text are core's tokens that overlap a span.
 * Spans rather than words because a category is found in the text, not in its tokens: a URL is one span
 * over several tokens ("http", "www", "example", "com"), a header field starts a line.
 */
export interface TokenSet {
  /** A short name for tables and messages ("best regards", "years", …). */
  readonly name: string;
  /** The set's occurrences in `text`, any order, possibly overlapping. */
  spans(text: string): Span[];
}

/** The words of a list in lower case; refuses anything that is not one token of core's tokenizer. */
function setWords(words: readonly string[], where: string): Set<string> {
  if (!Array.isArray(words) || words.length === 0)
    throw new XtrustError('INVALID_ARGUMENT', `${where}: words must be a non-empty list of words`, {
      argument: 'words',
    });
  const out = new Set<string>();
  for (const w of words) {
    const t = typeof w === 'string' ? tokenize(w) : [];
    if (t.length !== 1 || t[0].text !== w)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${where}: "${String(w)}" is not one word (letters, digits or _, as core's tokenize() sees them)`,
        { argument: 'words' },
      );
    out.add(w.toLowerCase());
  }
  return out;
}

/**
 * The token set of a list of words, matched case-insensitively wherever they occur: a phrase's words one
 * by one (not only the whole phrase), or a scattered list. `wordSet(['best', 'regards'])`.
 */
export function wordSet(words: readonly string[], name?: string): TokenSet {
  const set = setWords(words, 'wordSet');
  return {
    name: name ?? [...set].join(' '),
    spans: (text) =>
      tokenize(text, { lowercase: true })
        .filter((t) => set.has(t.text))
        .map(({ start, end }) => ({ start, end })),
  };
}

/** The token set of one phrase's words (a phrase of one or more words separated by spaces), named by the phrase. */
export function phraseWords(phrase: string): TokenSet {
  if (typeof phrase !== 'string' || phrase.trim() === '')
    throw new XtrustError('INVALID_ARGUMENT', `phraseWords: phrase must be a non-empty string`, { argument: 'phrase' });
  return wordSet(
    tokenize(phrase).map((t) => t.text),
    phrase,
  );
}

/** A token set of the spans a regular expression matches (global flag added when missing). */
export function patternSet(name: string, pattern: RegExp): TokenSet {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return {
    name,
    spans(text) {
      const re = new RegExp(pattern.source, flags);
      const out: Span[] = [];
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        out.push({ start: m.index, end: m.index + m[0].length });
      }
      return out;
    },
  };
}

/**
 * The indices of `tokens` (core's tokenize of `text`) that overlap one of the set's spans, ascending.
 * Both lists are scanned once after sorting the spans: O(T + S log S).
 */
export function setTokenIndices(tokens: readonly Token[], spans: readonly Span[]): number[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: number[] = [];
  let s = 0;
  let reach = -1; // furthest end among spans starting before the current token's end
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    while (s < sorted.length && sorted[s].start < t.end) reach = Math.max(reach, sorted[s++].end);
    if (reach > t.start) out.push(i);
  }
  return out;
}
