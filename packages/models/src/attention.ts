import type { AttentionMap, ModelToken } from '@xtrust/core';
import { XtrustError } from '@xtrust/core';

/**
 * The output holding the last layer's self-attention, by the names ONNX exports use: `last_attention`,
 * `attentions` (all layers stacked or just one), or `attentions.N` / `attentions_N` (the largest N).
 * Null when the model outputs none: the classifier is then not an AttentionProvider.
 */
export function findAttentionOutput(outputNames: readonly string[]): string | null {
  if (outputNames.includes('last_attention')) return 'last_attention';
  if (outputNames.includes('attentions')) return 'attentions';
  let best: string | null = null;
  let bestN = -1;
  for (const name of outputNames) {
    const m = /^attentions?[._](\d+)$/.exec(name);
    if (m && Number(m[1]) > bestN) {
      bestN = Number(m[1]);
      best = name;
    }
  }
  return best;
}

/**
 * The outputs holding every layer's self-attention, first layer first: `attentions.N` / `attentions_N`
 * sorted by N (each [batch, heads, seq, seq]), or `attentions` alone (a [layers, batch, heads, seq, seq]
 * stack). Empty when the graph has neither (e.g. only `last_attention`).
 */
export function findLayerAttentionOutputs(outputNames: readonly string[]): string[] {
  const numbered: [number, string][] = [];
  for (const name of outputNames) {
    const m = /^attentions?[._](\d+)$/.exec(name);
    if (m) numbered.push([Number(m[1]), name]);
  }
  if (numbered.length > 0) return numbered.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
  return outputNames.includes('attentions') ? ['attentions'] : [];
}

/** A sub-word as the tokenizer produced it. */
export interface TokenPiece {
  readonly token: string;
  readonly id: number;
  /** [CLS]/[SEP]/[PAD]-like: not part of the text. */
  readonly special: boolean;
  /** The tokenizer's unknown token, standing for a word of the text. */
  readonly unknown: boolean;
}

const WORD_RUN = /[\p{L}\p{N}_]+/gu;

/**
 * The text folded as BERT's normaliser folds it (lower case, accents stripped: NFD without combining
 * marks), with each folded character's source span, so pieces found in the folded text map back to
 * offsets of the original.
 */
function foldText(text: string): { folded: string; from: Int32Array; to: Int32Array } {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (const c of f) {
      for (let u = 0; u < c.length; u++) {
        parts.push(c[u]);
        from.push(i);
        to.push(i + ch.length);
      }
    }
    i += ch.length;
  }
  return { folded: parts.join(''), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/**
 * Character offsets of tokenizer pieces in the original text (transformers.js returns no offsets):
 * each non-special piece, stripped of WordPiece/BPE/SentencePiece markers and folded like the text
 * (lower case, accents stripped), is searched from the end of the previous one; an unknown-token
 * piece takes the next word run. A piece that cannot be found gets an empty span at the cursor (its
 * text is the piece itself).
 */
export function alignTokens(text: string, pieces: readonly TokenPiece[]): ModelToken[] {
  const { folded, from, to } = foldText(text);
  let cursor = 0; // in the original text
  let fcursor = 0; // in the folded text
  return pieces.map((p) => {
    if (p.special) return { text: p.token, start: cursor, end: cursor, special: true };
    let start = -1;
    let end = -1;
    const clean = p.token
      .replace(/^##/, '')
      .replace(/^[\u0120\u2581]/, '')
      .replace(/<\/w>$/, '');
    const needle = foldText(clean).folded;
    if (!p.unknown && needle.length > 0) {
      const at = folded.indexOf(needle, fcursor);
      if (at >= 0) {
        start = from[at];
        end = to[at + needle.length - 1];
        fcursor = at + needle.length;
      }
    }
    if (start < 0) {
      WORD_RUN.lastIndex = cursor;
      const m = WORD_RUN.exec(text);
      if (p.unknown && m) {
        start = m.index;
        end = m.index + m[0].length;
        while (fcursor < folded.length && from[fcursor] < end) fcursor++;
      }
    }
    if (start < 0) return { text: p.token, start: cursor, end: cursor, special: false };
    cursor = end;
    return { text: text.slice(start, end), start, end, special: false };
  });
}

/**
 * Splits a batched attention tensor into per-text maps: dims [B,H,S,S], [L,B,H,S,S] (layer `layer`
 * taken, default the last) or [B,S,S] (one head). `lengths[b]` unpadded positions of text b are kept (right padding).
 */
export function splitAttention(
  data: Float32Array,
  dims: readonly number[],
  tokens: readonly ModelToken[][],
  source: string,
  layer?: number,
): AttentionMap[] {
  let B: number,
    H: number,
    S: number,
    base = 0;
  if (dims.length === 5) {
    [, B, H, S] = dims.slice(0, 4) as number[];
    const l = layer ?? dims[0] - 1;
    if (!Number.isInteger(l) || l < 0 || l >= dims[0])
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${source}: attention output has ${dims[0]} layers; layer ${l} asked for`,
        { source },
      );
    base = l * B * H * S * S;
  } else if (dims.length === 4) {
    [B, H, S] = dims as number[];
  } else if (dims.length === 3) {
    [B, S] = dims as number[];
    H = 1;
  } else {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${source}: attention output has shape [${dims.join(', ')}]; expected [batch, heads, seq, seq] (or with a leading layer axis)`,
      { source },
    );
  }
  if (dims[dims.length - 1] !== S || B !== tokens.length) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${source}: attention output has shape [${dims.join(', ')}]; expected batch ${tokens.length} and square seq×seq maps`,
      { source },
    );
  }
  return tokens.map((toks, b) => {
    const T = toks.length;
    if (T > S)
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${source}: attention covers ${S} positions but text ${b} has ${T} tokens`,
        { source },
      );
    const weights = new Float32Array(H * T * T);
    for (let h = 0; h < H; h++) {
      for (let i = 0; i < T; i++) {
        const src = base + ((b * H + h) * S + i) * S;
        weights.set(data.subarray(src, src + T), (h * T + i) * T);
      }
    }
    for (let j = 0; j < weights.length; j++) {
      if (!Number.isFinite(weights[j]))
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${source}: attention weight ${weights[j]} for text ${b}; expected finite numbers`,
          { source },
        );
    }
    return { tokens: toks, heads: H, weights };
  });
}
