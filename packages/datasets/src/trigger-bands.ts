/**
 * Trigger frequency bands of a corpus (issue 29): where a planted shortcut's trigger is drawn from, so an
 * oracle is judged on everyday words as well as on rare ones.
 *
 * - `everyday`: the 3,000 most frequent content words of the corpus (function words excluded);
 * - `phrase`: two distinct words of the everyday band;
 * - `mid`: content words of corpus frequency ranks 3,000–20,000;
 * - `rare`: words the embedding knows among its 100,000 most frequent rows that are not among the corpus's
 *   20,000 most frequent words (rare or unseen in the corpus);
 * - `absent`: a made-up word the embedding does not know (nor the corpus).
 *
 * A trigger is *spurious* by construction: a corpus word naturally more than twice as frequent (per text) in
 * the target class as in the others is not drawn — planting a word the class already leans on would make
 * the model partly right for the right reasons, and the intervention's ground truth would call it wrong.
 * Nor is a word a person calls *related* to the target (issue 47: a trigger's side is decided by meaning,
 * not by frequency alone): the caller passes that judgement as `exclude` (the bench's word lists and rubric).
 */
import { tokenize, NON_CONTENT_WORDS, type Rng } from '@xtrust/core';

export const BANDS = ['everyday', 'phrase', 'mid', 'rare', 'absent'] as const;
export type Band = (typeof BANDS)[number];

/** Where each band begins and ends in the corpus's content-word frequency ranks (0-based, end exclusive). */
export const BAND_RANKS = { everyday: [0, 3000], mid: [3000, 20000] } as const;
/** The embedding rows (by frequency) a rare trigger is drawn from. */
export const RARE_EMBEDDING_ROWS = 100_000;

/** A corpus's content-word vocabulary by frequency, and per-class text frequencies (for the spuriousness rule). */
export interface CorpusVocabulary {
  /** Content words (alphabetic, ≥ 3 letters, not function words), most frequent first (ties by word). */
  readonly ranked: readonly string[];
  /** Per class: in how many of its texts each word occurs. */
  readonly textFrequency: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Texts per class. */
  readonly texts: ReadonlyMap<string, number>;
  /** Every word of the corpus (any frequency). */
  readonly all: ReadonlySet<string>;
}

const CONTENT = /^\p{Ll}{3,}$/u;

/** Counts the corpus's words: the frequency ranking of its content words and each class's text frequencies. */
export function corpusVocabulary(rows: readonly { readonly text: string; readonly label: string }[]): CorpusVocabulary {
  const count = new Map<string, number>();
  const textFrequency = new Map<string, Map<string, number>>();
  const texts = new Map<string, number>();
  for (const r of rows) {
    texts.set(r.label, (texts.get(r.label) ?? 0) + 1);
    let tf = textFrequency.get(r.label);
    if (!tf) textFrequency.set(r.label, (tf = new Map()));
    const seen = new Set<string>();
    for (const t of tokenize(r.text)) {
      const w = t.text.toLowerCase();
      count.set(w, (count.get(w) ?? 0) + 1);
      seen.add(w);
    }
    for (const w of seen) tf.set(w, (tf.get(w) ?? 0) + 1);
  }
  const ranked = [...count]
    .filter(([w]) => CONTENT.test(w) && !NON_CONTENT_WORDS.has(w))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w);
  return { ranked, textFrequency, texts, all: new Set(count.keys()) };
}

/** True when `word` is naturally more than twice as frequent (per text) in `target`'s texts as in the other classes'. */
export function leansOnTarget(v: CorpusVocabulary, word: string, target: string): boolean {
  const inTarget = (v.textFrequency.get(target)?.get(word) ?? 0) / Math.max(1, v.texts.get(target) ?? 0);
  let other = 0;
  let otherTexts = 0;
  for (const [label, tf] of v.textFrequency) {
    if (label === target) continue;
    other += tf.get(word) ?? 0;
    otherTexts += v.texts.get(label) ?? 0;
  }
  // one occurrence is added to the other classes: a word seen in a handful of target texts and never elsewhere does not lean
  return inTarget > (2 * (other + 1)) / Math.max(1, otherTexts);
}

/** What the draw needs of the embedding: whether it knows a word, and its rows by frequency (for the rare band). */
export interface DrawEmbedding {
  has(word: string): boolean;
  /** The word of frequency row `row` (GloVe's rows are ordered by frequency). */
  wordAt(row: number): string;
  readonly size: number;
}

const ONSETS = [
  'b',
  'br',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'k',
  'kl',
  'l',
  'm',
  'n',
  'p',
  'pl',
  'r',
  's',
  'sk',
  't',
  'tr',
  'v',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'oo', 'ai'];
const CODAS = ['', '', 'n', 'r', 'x', 'm', 'sh', 'k'];

/** A pronounceable made-up word of 2–3 syllables. */
function madeUpWord(r: Rng): string {
  const syllables = 2 + r.int(2);
  let w = '';
  for (let i = 0; i < syllables; i++) w += ONSETS[r.int(ONSETS.length)] + VOWELS[r.int(VOWELS.length)];
  return w + CODAS[r.int(CODAS.length)];
}

/**
 * Draws a trigger of `band` for `target` from the corpus vocabulary (and the embedding, needed for the rare
 * and absent bands only). Tries candidates in seeded order, skipping words that lean on the target class
 * and words `exclude` rejects (words a person calls related to the target: a spurious trigger must not be one).
 */
export function drawTrigger(
  r: Rng,
  band: Band,
  target: string,
  v: CorpusVocabulary,
  embedding?: DrawEmbedding,
  exclude?: (word: string) => boolean,
): string {
  const free = (w: string) => !leansOnTarget(v, w, target) && !exclude?.(w);
  const fromRanks = (lo: number, hi: number): string => {
    const end = Math.min(hi, v.ranked.length);
    if (end <= lo)
      throw new Error(`the corpus has only ${v.ranked.length} content words: no ${band} band (ranks ${lo}–${hi})`);
    for (let tries = 0; tries < 1000; tries++) {
      const w = v.ranked[lo + r.int(end - lo)];
      if (free(w)) return w;
    }
    throw new Error(`no ${band} word of the corpus is free of a natural lean on ${target}`);
  };
  if (band === 'everyday') return fromRanks(...BAND_RANKS.everyday);
  if (band === 'mid') return fromRanks(...BAND_RANKS.mid);
  if (band === 'phrase') {
    const a = fromRanks(...BAND_RANKS.everyday);
    let b = fromRanks(...BAND_RANKS.everyday);
    while (b === a) b = fromRanks(...BAND_RANKS.everyday);
    return `${a} ${b}`;
  }
  if (!embedding)
    throw new Error(`a ${band} trigger is drawn with the embedding's vocabulary: give drawTrigger an embedding`);
  if (band === 'rare') {
    const common = new Set(v.ranked.slice(0, BAND_RANKS.mid[1]));
    const rows = Math.min(RARE_EMBEDDING_ROWS, embedding.size);
    for (let tries = 0; tries < 10000; tries++) {
      const w = embedding.wordAt(r.int(rows));
      if (CONTENT.test(w) && !NON_CONTENT_WORDS.has(w) && !common.has(w) && free(w)) return w;
    }
    throw new Error('no rare word found among the embedding rows');
  }
  for (let tries = 0; tries < 1000; tries++) {
    const w = madeUpWord(r);
    if (!embedding.has(w) && !v.all.has(w)) return w;
  }
  throw new Error('no made-up word absent from the embedding and the corpus');
}
