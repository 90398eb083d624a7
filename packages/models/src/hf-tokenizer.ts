import { DEFAULT_SEPARATOR } from '@xtrust/core';

export const PAD_TOKEN = '[PAD]';
export const UNK_TOKEN = '[UNK]';
/** Ids 0 and 1 of an exported vocabulary; word i of the model's vocabulary has id i + 2. */
export const PAD_ID = 0;
export const UNK_ID = 1;
export const WORD_ID_OFFSET = 2;

/**
 * A Hugging Face `tokenizers` file (tokenizer.json) that reproduces xtrust's tokenisation: a
 * Lowercase normalizer, then a Split pre-tokenizer on core's separator pattern (runs of non-word
 * characters, removed), then a WordLevel model over the vocabulary with [UNK] for unknown words.
 *
 * Known differences from `tokenize(text, {lowercase: true})`: the tokenizers format lower-cases the
 * whole text before splitting, xtrust splits first — they differ only for characters whose lower case
 * is not a word character (e.g. "İ" → "i̇", whose combining dot is a separator in the HF split), and a
 * literal "[PAD]" or "[UNK]" in a text is read by tokenizers as the special token.
 */
export function tokenizerJson(words: readonly string[]): Record<string, unknown> {
  const vocab: Record<string, number> = { [PAD_TOKEN]: PAD_ID, [UNK_TOKEN]: UNK_ID };
  words.forEach((w, i) => (vocab[w] = i + WORD_ID_OFFSET));
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(PAD_ID, PAD_TOKEN), special(UNK_ID, UNK_TOKEN)],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Split', pattern: { Regex: DEFAULT_SEPARATOR.source }, behavior: 'Removed', invert: false },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: false },
    model: { type: 'WordLevel', vocab, unk_token: UNK_TOKEN },
  };
}

/** tokenizer_config.json for the tokenizer above: no truncation limit in practice, right padding with [PAD]. */
export function tokenizerConfigJson(): Record<string, unknown> {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    unk_token: UNK_TOKEN,
    pad_token: PAD_TOKEN,
    padding_side: 'right',
    // The built-in graphs have no position limit; a long e-mail must not be truncated or the
    // three implementations would disagree.
    model_max_length: 1_000_000_000,
    clean_up_tokenization_spaces: false,
    do_lower_case: true,
  };
}

export function specialTokensMapJson(): Record<string, unknown> {
  return { unk_token: UNK_TOKEN, pad_token: PAD_TOKEN };
}
