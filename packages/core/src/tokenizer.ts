/** A word of a text with its character offsets: `text.slice(start, end) === word` before any case folding. */
export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface TokenizeOptions {
  /** Fold each token to lower case (offsets still point into the original text). Default false. */
  lowercase?: boolean;
  /**
   * The separator pattern. Default: runs of non-word characters, as the reference LIME's
   * `split_expression=r'\W+'` (Python's `\W` is Unicode-aware, hence `\p{L}\p{N}_` here).
   */
  separator?: RegExp;
}

/** Non-word characters in the sense of Python 3's Unicode `\W`: anything but letters, numbers and underscore (Python str.isalnum or "_"). */
export const DEFAULT_SEPARATOR = /[^\p{L}\p{N}_]+/gu;

/**
 * Splits a text into words with their offsets, the way LIME's `IndexedString` does with its default
 * split expression: every maximal run of word characters is a token. This is the canonical word list
 * of xtrust: token masks (`TokenScorer`) and explanations index into it.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): Token[] {
  const sep = options.separator ?? DEFAULT_SEPARATOR;
  const re = new RegExp(sep.source, sep.flags.includes('g') ? sep.flags : `${sep.flags}g`);
  const tokens: Token[] = [];
  let last = 0;
  const push = (start: number, end: number) => {
    if (end > start) {
      const raw = text.slice(start, end);
      tokens.push({ text: options.lowercase ? raw.toLowerCase() : raw, start, end });
    }
  };
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++; // a separator pattern that can match empty must not loop forever
      continue;
    }
    push(last, m.index);
    last = m.index + m[0].length;
  }
  push(last, text.length);
  return tokens;
}

/** The words of `tokenize(text, options)`, without offsets. */
export function words(text: string, options: TokenizeOptions = {}): string[] {
  return tokenize(text, options).map((t) => t.text);
}

/**
 * The distinct words of a token list in order of first appearance, and for each token the index of its
 * distinct word — LIME's bag-of-words view (`bow=True`), where removing a word removes every occurrence.
 */
export function distinctWords(tokens: readonly Token[]): { vocab: string[]; tokenToWord: Int32Array } {
  const index = new Map<string, number>();
  const vocab: string[] = [];
  const tokenToWord = new Int32Array(tokens.length);
  tokens.forEach((t, i) => {
    let id = index.get(t.text);
    if (id === undefined) {
      id = vocab.length;
      index.set(t.text, id);
      vocab.push(t.text);
    }
    tokenToWord[i] = id;
  });
  return { vocab, tokenToWord };
}

export interface FirstWordsOptions {
  /**
   * What counts as a word:
   * - 'tokens' (default): the words of `tokenize(text)` (LIME's word list, the one explanations index
   *   into). The text is cut right after the n-th word's last character, so the result is a prefix of
   *   the text: its spacing, line breaks and the punctuation between the kept words are untouched.
   * - 'whitespace': runs of non-white-space characters; the first n are re-joined by single spaces, so
   *   white space is normalised (line breaks become spaces) and punctuation counts as part of a word.
   *   Kept for the attack benchmark, whose stored texts were cut this way.
   */
  by?: 'tokens' | 'whitespace';
}

/**
 * The text window of a text's first `n` words (see `FirstWordsOptions.by` for what a word is). n ≤ 0
 * returns the text unchanged; so does 'tokens' for a text of at most n words ('whitespace' still
 * normalises its white space). E.g. `firstWords('Hi, you there!', 2)` is
 * `'Hi, you'`; with `by: 'whitespace'`, `firstWords('Hi,\n you  there!', 2)` is `'Hi, you'`.
 */
export function firstWords(text: string, n: number, options: FirstWordsOptions = {}): string {
  if (n <= 0) return text;
  if (options.by === 'whitespace') return text.split(/\s+/).filter(Boolean).slice(0, n).join(' ');
  const t = tokenize(text);
  return t.length <= n ? text : text.slice(0, t[n - 1].end);
}
