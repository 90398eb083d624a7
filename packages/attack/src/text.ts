import { XtrustError, tokenize, type Token } from '@xtrust/core';

/** A replacement word must be one xtrust token: a run of letters, digits or underscores. */
const SINGLE_TOKEN = /^[\p{L}\p{N}_]+$/u;

/** True when `word` tokenizes to exactly itself, so swapping it in keeps the token positions aligned. */
export function isSingleToken(word: string): boolean {
  return typeof word === 'string' && SINGLE_TOKEN.test(word);
}

/** `word` with the capitalisation pattern of `model` (ALL CAPS, Capitalised, or as given). */
export function matchCase(model: string, word: string): string {
  if (model.length > 1 && model === model.toUpperCase() && model !== model.toLowerCase()) return word.toUpperCase();
  const first = model[0];
  if (first !== undefined && first === first.toUpperCase() && first !== first.toLowerCase())
    return word[0].toUpperCase() + word.slice(1);
  return word;
}

/**
 * A text under attack: its words (core's `tokenize`, offsets into the string) and which positions
 * differ from the original, with the original word of each. Word substitutions only: a swap replaces
 * one token by one token, so position i always means the same slot in the original and every
 * perturbed text (TextAttack's `AttackedText` with `modified_indices`, Morris et al. 2020).
 * Immutable: `replaceWord` returns a new text.
 */
export class AttackedText {
  private constructor(
    readonly text: string,
    readonly tokens: readonly Token[],
    /** Position → the original word there, for every modified position. */
    readonly modified: ReadonlyMap<number, string>,
  ) {}

  static of(text: string): AttackedText {
    if (typeof text !== 'string')
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `attack: text must be a string, got ${text === null ? 'null' : typeof text}`,
        { argument: 'text' },
      );
    return new AttackedText(text, tokenize(text), new Map());
  }

  get length(): number {
    return this.tokens.length;
  }

  /** The words (case kept). */
  get words(): string[] {
    return this.tokens.map((t) => t.text);
  }

  word(i: number): string {
    const t = this.tokens[i];
    if (t === undefined)
      throw new XtrustError('INVALID_ARGUMENT', `word index ${i} is outside the text's ${this.tokens.length} words`, {
        index: i,
      });
    return t.text;
  }

  /** The text with the word at `i` replaced by `word` (its case adapted to the replaced word's). */
  replaceWord(i: number, word: string): AttackedText {
    const old = this.word(i);
    if (!isSingleToken(word))
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `replacement "${word}" is not a single word token (letters, digits, underscore)`,
        { word },
      );
    const w = matchCase(old, word);
    const tok = this.tokens[i];
    const text = this.text.slice(0, tok.start) + w + this.text.slice(tok.end);
    const shift = w.length - (tok.end - tok.start);
    const tokens = this.tokens.map((t, j) =>
      j < i
        ? t
        : j === i
          ? { text: w, start: t.start, end: t.start + w.length }
          : { text: t.text, start: t.start + shift, end: t.end + shift },
    );
    const modified = new Map(this.modified);
    const original = this.modified.get(i) ?? old;
    if (original === w) modified.delete(i);
    else modified.set(i, original);
    return new AttackedText(text, tokens, modified);
  }

  /** The text with the word at `i` removed (with the separator before it, or after it for the first word). */
  deleteWord(i: number): string {
    const tok = this.tokens[i];
    if (tok === undefined)
      throw new XtrustError('INVALID_ARGUMENT', `word index ${i} is outside the text's ${this.tokens.length} words`, {
        index: i,
      });
    const start = i > 0 ? this.tokens[i - 1].end : tok.start;
    const end = i > 0 ? tok.end : (this.tokens[i + 1]?.start ?? tok.end);
    return this.text.slice(0, start) + this.text.slice(end);
  }

  /** The substitutions made so far, by position: original word → current word. */
  substitutions(): { index: number; from: string; to: string }[] {
    return [...this.modified.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, from]) => ({ index, from, to: this.tokens[index].text }));
  }
}

/** One candidate substitution: the perturbed text, the position, and the word change. */
export interface Candidate {
  readonly text: AttackedText;
  readonly index: number;
  readonly from: string;
  readonly to: string;
  /** Sentence-encoder similarity to the reference, when a sentence-encoder constraint computed it. */
  similarity?: number;
}
