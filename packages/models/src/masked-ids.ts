import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { tokenize, type Token } from '@xtrust/core';

/**
 * What the token-mask scorer needs from a Hugging Face tokenizer: the word pieces of a string (no
 * special tokens, no truncation), the special ids around a sequence, the length limit, and — when the
 * pipeline is one whose splitting is context-free at known characters — which characters always end a
 * pre-token.
 */
export interface PieceTokenizer {
  /** Ids of `text` without special tokens, untruncated. */
  pieces(text: string): Int32Array;
  /** Ids the post-processor puts before and after a single sequence (BERT: [CLS] … [SEP]). */
  readonly prefix: Int32Array;
  readonly suffix: Int32Array;
  /** Longest sequence including the special ids (Infinity: no limit). */
  readonly maxLength: number;
  /**
   * True for a character that, wherever it stands, splits pre-tokens and is tokenised on its own
   * (whitespace: dropped; BERT punctuation: a piece of its own). Null when the tokenizer's pipeline is not
   * one this was checked for: every text then takes the string path.
   */
  readonly isBoundary: ((ch: string) => boolean) | null;
  /**
   * True for a text whose pieces may depend on context beyond boundaries: one holding a word of an added
   * token (`[SEP]` is one special id only while the word "SEP" stays; a rebuilt string can contain an
   * added token only when the original holds its words, since removal never joins words), and one holding
   * Σ, which JavaScript lower-cases to ς or σ depending on the letters after it. Such texts take the
   * string path.
   */
  unsafe(text: string, words: readonly string[]): boolean;
}

// transformers.js' PUNCTUATION_REGEX (BertPreTokenizer): Unicode punctuation and every ASCII symbol.
const BERT_PUNCTUATION = /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u;
const WHITESPACE = /^\s$/u;
const WORD_RUN = /[\p{L}\p{N}_]+/gu;

interface TokenizerJson {
  normalizer?: { type?: string; normalizers?: { type?: string }[] } | null;
  pre_tokenizer?: {
    type?: string;
    pattern?: { Regex?: string; String?: string };
    behavior?: string;
    invert?: boolean;
  } | null;
  model?: { type?: string };
  added_tokens?: { content: string; normalized?: boolean }[];
}

interface TokenizerInternals {
  _tokenizerJSON?: TokenizerJson;
  _tokenizerConfig?: Record<string, unknown>;
  _tokenizer?: { normalizer?: ((text: string) => string) | null };
}

/**
 * The PieceTokenizer of a transformers.js tokenizer. The boundary test exists for the two pipelines
 * xtrust meets: BERT (BertNormalizer or none/Lowercase, BertPreTokenizer, WordPiece) and the built-in
 * models' word level (Lowercase, Split on non-word characters with the separators removed). A boundary
 * character must normalise, alone, to one whitespace or punctuation character (so control characters,
 * which the normaliser deletes and thereby joins their neighbours, are not boundaries).
 */
export function pieceTokenizer(tokenizer: PreTrainedTokenizer): PieceTokenizer {
  const internals = tokenizer as unknown as TokenizerInternals;
  const json = internals._tokenizerJSON ?? {};
  const config = internals._tokenizerConfig ?? {};
  const normalize = internals._tokenizer?.normalizer ?? null;
  const pieces = (text: string): Int32Array =>
    Int32Array.from(tokenizer.encode(text, { add_special_tokens: false }) as number[]);
  // The special ids around a probe word: the post-processor's template for one sequence.
  const probe = 'a';
  const inner = pieces(probe);
  const full = Int32Array.from(tokenizer.encode(probe, { add_special_tokens: true }) as number[]);
  let at = -1;
  for (let s = 0; s + inner.length <= full.length && at < 0; s++) {
    let same = true;
    for (let j = 0; j < inner.length && same; j++) same = full[s + j] === inner[j];
    if (same) at = s;
  }
  const prefix = at < 0 ? new Int32Array(0) : full.slice(0, at);
  const suffix = at < 0 ? new Int32Array(0) : full.slice(at + inner.length);
  const maxRaw = Number(tokenizer.model_max_length ?? Infinity);
  const maxLength = Number.isFinite(maxRaw) && maxRaw > 0 && maxRaw < 1e8 ? maxRaw : Infinity;

  const normType = json.normalizer?.type ?? null;
  const normOk =
    normType === null ||
    normType === 'BertNormalizer' ||
    normType === 'Lowercase' ||
    (normType === 'Sequence' &&
      (json.normalizer?.normalizers ?? []).every(
        (n) => n.type === 'Lowercase' || n.type === 'NFD' || n.type === 'StripAccents',
      ));
  const pre = json.pre_tokenizer ?? null;
  const modelType = json.model?.type;
  const configOk =
    at >= 0 &&
    config.remove_space !== true &&
    config.do_lowercase_and_remove_accent !== true &&
    (normType === null || normalize !== null);
  let isBoundary: ((ch: string) => boolean) | null = null;
  const norm = (ch: string) => (normalize ? normalize(ch) : ch);
  if (
    configOk &&
    normOk &&
    pre?.type === 'BertPreTokenizer' &&
    (modelType === 'WordPiece' || modelType === 'WordLevel')
  ) {
    isBoundary = (ch) => {
      const n = norm(ch);
      return (n.length === 1 || [...n].length === 1) && (WHITESPACE.test(n) || BERT_PUNCTUATION.test(n));
    };
  } else if (
    configOk &&
    normOk &&
    pre?.type === 'Split' &&
    pre.behavior === 'Removed' &&
    pre.invert !== true &&
    typeof pre.pattern?.Regex === 'string' &&
    modelType === 'WordLevel'
  ) {
    const split = new RegExp(`^(?:${pre.pattern.Regex})$`, 'u');
    isBoundary = (ch) => {
      const n = norm(ch);
      return n.length > 0 && split.test(n);
    };
  }
  // Added tokens match the raw text (normalized: false, case-sensitive) or the normalised text.
  const rawWords = new Set<string>();
  const normWords = new Set<string>();
  let wordlessChars = '';
  for (const t of json.added_tokens ?? []) {
    const runs = [...t.content.matchAll(WORD_RUN)].map((m) => m[0]);
    if (runs.length === 0) wordlessChars += t.content;
    for (const w of runs) t.normalized ? normWords.add(norm(w)) : rawWords.add(w);
  }
  const unsafe = (text: string, words: readonly string[]): boolean => {
    if (text.includes('\u03a3')) return true;
    for (const ch of wordlessChars) if (text.includes(ch)) return true;
    if (rawWords.size === 0 && normWords.size === 0) return false;
    // A substring test: an added token's word at its content's edge may sit inside a longer text word.
    const raw = [...rawWords];
    const normed = [...normWords];
    return words.some(
      (w) => raw.some((a) => w.includes(a)) || (normed.length > 0 && normed.some((a) => norm(w).includes(a))),
    );
  };
  return { pieces, prefix, suffix, maxLength, isBoundary, unsafe };
}

/**
 * A text cut where its tokenisation is context-free: segments that never change (runs of boundary
 * characters, and stretches without a word) and chunks (maximal stretches between boundaries, each
 * holding one or more core tokens). A chunk with one token and nothing else contributes that token's
 * pieces when kept and nothing when removed; any other chunk is re-tokenised from its rebuilt string
 * once per distinct sub-mask.
 */
interface Segment {
  /** Constant pieces (fixed segment) or null (chunk). */
  readonly fixed: Int32Array | null;
  /** The chunk's core tokens (consecutive indices). */
  readonly tokens: Int32Array;
  /** Rebuild template: strings kept as they are, numbers = token indices. */
  readonly template: readonly (string | number)[];
  /** One token, nothing else: its pieces. */
  readonly simple: Int32Array | null;
  readonly cache: Map<string, Int32Array>;
}

/** rows id sequences, flat: row r is ids[offsets[r] .. offsets[r + 1]). */
export interface IdRows {
  readonly ids: Int32Array;
  readonly offsets: Int32Array;
  readonly rows: number;
}

/** Appends to a growable Int32Array. */
class IdBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(src: Int32Array, count = src.length): void {
    if (this.length + count > this.data.length) {
      const next = new Int32Array(Math.max(this.data.length * 2, this.length + count));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(count === src.length ? src : src.subarray(0, count), this.length);
    this.length += count;
  }
}

/**
 * The input ids of one text under many word masks, built from its pieces without rebuilding or
 * re-tokenising the text: for masks over core's `tokenize(text)`, row r's ids equal the tokenizer's
 * ids (special tokens added, truncated as transformers.js truncates) of the text with the
 * masked-out tokens removed and every separator kept — `TokenScorer`'s semantics and the explainers'
 * `PerturbedTexts` with no mask string. Truncation is applied after masking, so a perturbed text with
 * fewer words can keep words the original's truncation dropped.
 */
export class MaskedIds {
  private readonly segments: Segment[];
  readonly tokenCount: number;

  private constructor(
    private readonly tok: PieceTokenizer,
    segments: Segment[],
    private readonly words: readonly string[],
  ) {
    this.segments = segments;
    this.tokenCount = words.length;
  }

  /** Null when the text cannot be built from pieces exactly (see PieceTokenizer.isBoundary/unsafe). */
  static prepare(tok: PieceTokenizer, text: string, cache?: Map<string, Int32Array>): MaskedIds | null {
    const isBoundary = tok.isBoundary;
    if (isBoundary === null) return null;
    const tokens = tokenize(text);
    if (
      tok.unsafe(
        text,
        tokens.map((t) => text.slice(t.start, t.end)),
      )
    )
      return null;
    const piecesOf = (s: string): Int32Array => {
      if (!cache) return tok.pieces(s);
      let p = cache.get(s);
      if (!p) {
        p = tok.pieces(s);
        cache.set(s, p);
      }
      return p;
    };
    const segments: Segment[] = [];
    let fixed = '';
    let chunk: (string | number)[] | null = null;
    const flushFixed = () => {
      if (fixed.length > 0) {
        segments.push({
          fixed: piecesOf(fixed),
          tokens: new Int32Array(0),
          template: [],
          simple: null,
          cache: new Map(),
        });
        fixed = '';
      }
    };
    const closeChunk = () => {
      if (chunk === null) return;
      const toks = chunk.filter((x): x is number => typeof x === 'number');
      if (toks.length === 0) {
        // No word in it: constant, like a boundary run (tokenised as its own string).
        segments.push({
          fixed: piecesOf(chunk.join('')),
          tokens: new Int32Array(0),
          template: [],
          simple: null,
          cache: new Map(),
        });
      } else {
        const simple = chunk.length === 1 ? piecesOf(text.slice(tokens[toks[0]].start, tokens[toks[0]].end)) : null;
        segments.push({ fixed: null, tokens: Int32Array.from(toks), template: chunk, simple, cache: new Map() });
      }
      chunk = null;
    };
    const addGap = (gap: string) => {
      for (const ch of gap) {
        if (isBoundary(ch)) {
          closeChunk();
          fixed += ch;
        } else {
          flushFixed();
          chunk ??= [];
          const last = chunk.length - 1;
          if (last >= 0 && typeof chunk[last] === 'string') chunk[last] += ch;
          else chunk.push(ch);
        }
      }
    };
    let cursor = 0;
    tokens.forEach((t, i) => {
      addGap(text.slice(cursor, t.start));
      flushFixed();
      chunk ??= [];
      chunk.push(i);
      cursor = t.end;
    });
    addGap(text.slice(cursor));
    closeChunk();
    flushFixed();
    return new MaskedIds(
      tok,
      segments,
      tokens.map((t) => text.slice(t.start, t.end)),
    );
  }

  /** Ids of every row of rows×T token masks (1 = kept). */
  build(masks: Uint8Array, rows: number): IdRows {
    const T = this.tokenCount;
    const { prefix, suffix, maxLength } = this.tok;
    // transformers.js truncation: the whole sequence, special tokens included, is cut to the limit.
    const limit = maxLength === Infinity ? Infinity : Math.max(0, maxLength - prefix.length);
    const out = new IdBuffer(rows * 64);
    const offsets = new Int32Array(rows + 1);
    for (let r = 0; r < rows; r++) {
      const base = r * T;
      const start = out.length;
      out.push(prefix.length <= maxLength ? prefix : prefix.subarray(0, maxLength));
      let used = 0;
      for (let s = 0; s < this.segments.length && used < limit; s++) {
        const seg = this.segments[s];
        let p: Int32Array | null = seg.fixed;
        if (p === null) {
          if (seg.simple !== null) {
            if (masks[base + seg.tokens[0]] === 0) continue;
            p = seg.simple;
          } else {
            p = this.chunkPieces(seg, masks, base);
          }
        }
        const take = Math.min(p.length, limit - used);
        if (take > 0) out.push(p, take);
        used += take;
      }
      const room = maxLength - (out.length - start);
      if (room > 0) out.push(suffix, Math.min(suffix.length, room));
      offsets[r + 1] = out.length;
    }
    return { ids: out.data.subarray(0, out.length), offsets, rows };
  }

  private chunkPieces(seg: Segment, masks: Uint8Array, base: number): Int32Array {
    let key = '';
    for (let j = 0; j < seg.tokens.length; j++) key += masks[base + seg.tokens[j]] === 0 ? '0' : '1';
    let p = seg.cache.get(key);
    if (p === undefined) {
      let s = '';
      for (const part of seg.template) {
        if (typeof part === 'string') s += part;
        else if (masks[base + part] !== 0) s += this.words[part];
      }
      p = this.tok.pieces(s);
      seg.cache.set(key, p);
    }
    return p;
  }
}

/**
 * The ids the tokenizer gives `text` with special tokens, truncated as transformers.js truncates
 * (`truncation: true`): the whole sequence is cut to `model_max_length`, so a truncated text loses its
 * final [SEP] — the encoding the model kit trains with and `encodeBatch` produces.
 */
export function encodeIds(tok: PieceTokenizer, text: string): Int32Array {
  const inner = tok.pieces(text);
  const full = new Int32Array(tok.prefix.length + inner.length + tok.suffix.length);
  full.set(tok.prefix, 0);
  full.set(inner, tok.prefix.length);
  full.set(tok.suffix, tok.prefix.length + inner.length);
  return full.length > tok.maxLength ? full.slice(0, tok.maxLength) : full;
}

/**
 * The string TokenScorer masks describe: `text` with the tokens of mask row `row` that are 0 removed,
 * every separator kept (the explainers' `PerturbedTexts` without a mask string). The path for texts
 * MaskedIds cannot build.
 */
export function removeTokens(text: string, tokens: readonly Token[], masks: Uint8Array, row: number): string {
  const T = tokens.length;
  let s = '';
  let cursor = 0;
  for (let t = 0; t < T; t++) {
    s += text.slice(cursor, tokens[t].start);
    if (masks[row * T + t] !== 0) s += text.slice(tokens[t].start, tokens[t].end);
    cursor = tokens[t].end;
  }
  return s + text.slice(cursor);
}

/**
 * How many leading tokens of core's `tokenize(text)` a model with this tokenizer sees: all of them when
 * the text's ids (special tokens included) fit in `maxLength`; otherwise the largest m such that the
 * pieces of the text up to the end of its m-th token fit in the room the truncated sequence leaves
 * (`maxLength` minus the prefix ids: a cut sequence loses its suffix, as `encodeIds`). A binary search
 * over prefixes of at most `maxLength` tokens (every word is at least one piece), so a 12,000-word text
 * costs one full tokenisation and ~log2(maxLength) short ones.
 */
export function seenWordCount(tok: PieceTokenizer, text: string): number {
  const tokens = tokenize(text);
  const T = tokens.length;
  if (tok.maxLength === Infinity || T === 0) return T;
  if (tok.prefix.length + tok.pieces(text).length + tok.suffix.length <= tok.maxLength) return T;
  const room = tok.maxLength - tok.prefix.length;
  const fits = (m: number) => m === 0 || tok.pieces(text.slice(0, tokens[m - 1].end)).length <= room;
  let lo = 0;
  let hi = Math.min(T, Math.max(0, room));
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
