import { XtrustError, distinctWords, tokenize, type Token } from '@xtrust/core';

/**
 * The interpretable features of one text, as the reference LIME's `IndexedString` defines them:
 * words are the runs of word characters of core's `tokenize` (split expression `\W+`, case kept).
 * In bag-of-words mode (`bow`) a feature is a distinct word and removing it removes every occurrence;
 * in position mode every token is its own feature.
 */
export interface TextFeatures {
  readonly text: string;
  readonly bow: boolean;
  readonly tokens: readonly Token[];
  /** Number of features d. */
  readonly count: number;
  /** The word of each feature. */
  readonly words: readonly string[];
  /** For each token, the index of its feature. */
  readonly tokenToFeature: Int32Array;
}

/** Features of `text`; throws EMPTY_TEXT (naming `name`) when it has no word at all. */
export function textFeatures(text: string, bow: boolean, name = 'text'): TextFeatures {
  if (typeof text !== 'string') {
    throw new XtrustError('INVALID_ARGUMENT', `${name} must be a string, got ${text === null ? 'null' : typeof text}`, {
      argument: name,
    });
  }
  const tokens = tokenize(text);
  if (tokens.length === 0) {
    throw new XtrustError(
      'EMPTY_TEXT',
      `${name} has no words to explain (it is empty or only separators: ${JSON.stringify(text.slice(0, 40))})`,
      { argument: name },
    );
  }
  if (bow) {
    const { vocab, tokenToWord } = distinctWords(tokens);
    return { text, bow, tokens, count: vocab.length, words: vocab, tokenToFeature: tokenToWord };
  }
  const tokenToFeature = new Int32Array(tokens.length);
  for (let t = 0; t < tokens.length; t++) tokenToFeature[t] = t;
  return { text, bow, tokens, count: tokens.length, words: tokens.map((t) => t.text), tokenToFeature };
}

/**
 * Expands rows×d feature masks (1 = kept) to rows×T token masks, the layout `TokenScorer` takes.
 */
export function tokenMasks(tf: TextFeatures, featureMasks: Uint8Array, rows: number): Uint8Array {
  const d = tf.count;
  const T = tf.tokens.length;
  const out = new Uint8Array(rows * T);
  const map = tf.tokenToFeature;
  for (let r = 0; r < rows; r++) {
    const fo = r * d;
    const to = r * T;
    let t = 0;
    // unrolled by four: this gather is a hot path of LIME (rows × tokens bytes per text)
    for (; t + 3 < T; t += 4) {
      out[to + t] = featureMasks[fo + map[t]];
      out[to + t + 1] = featureMasks[fo + map[t + 1]];
      out[to + t + 2] = featureMasks[fo + map[t + 2]];
      out[to + t + 3] = featureMasks[fo + map[t + 3]];
    }
    for (; t < T; t++) out[to + t] = featureMasks[fo + map[t]];
  }
  return out;
}

/**
 * Builds perturbed texts the way the reference `IndexedString.inverse_removing` does: the separators
 * between words stay, a removed word disappears (bag-of-words) or is replaced by `maskString`
 * (position mode).
 */
export class PerturbedTexts {
  private readonly gaps: string[];
  private readonly pieces: string[];

  constructor(
    private readonly tf: TextFeatures,
    private readonly maskString: string | null,
  ) {
    const { text, tokens } = tf;
    this.gaps = [];
    this.pieces = [];
    let last = 0;
    for (const tok of tokens) {
      this.gaps.push(text.slice(last, tok.start));
      this.pieces.push(text.slice(tok.start, tok.end));
      last = tok.end;
    }
    this.gaps.push(text.slice(last));
  }

  /** The text with the features of `row` (a d-long 0/1 view) kept. */
  build(featureMasks: Uint8Array, row: number): string {
    const d = this.tf.count;
    const map = this.tf.tokenToFeature;
    const base = row * d;
    let s = this.gaps[0];
    for (let t = 0; t < this.pieces.length; t++) {
      if (featureMasks[base + map[t]] !== 0) s += this.pieces[t];
      else if (this.maskString !== null) s += this.maskString;
      s += this.gaps[t + 1];
    }
    return s;
  }
}
