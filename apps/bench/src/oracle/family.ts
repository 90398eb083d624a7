/**
 * The shortcut benchmark family (issue 14): cases that cross trigger kinds, trigger shares, text
 * lengths and corpora, so an oracle is judged on a family, not on the one case it was tuned on.
 * A case is plain data; nothing downstream looks at a trigger's or a corpus's name to decide anything
 * (the trigger kind is a label for the tables only).
 */
import { BROWN_GENRE_DESCRIPTIONS, SOTU_PARTY_DESCRIPTIONS, SPAM_ASSASSIN_CLASS_DESCRIPTIONS } from '@xtrust/datasets';

/** The corpora a case can be built from: three with a planted trigger, and SpamAssassin's headers (a natural shortcut). */
export const CORPORA = ['brown', 'sotu', 'spam', 'headers'] as const;
export type CorpusName = (typeof CORPORA)[number];

/** One benchmark case. */
export interface CaseSpec {
  readonly corpus: CorpusName;
  /** A word or a phrase of several words (trigger corpora); none for 'headers'. */
  readonly trigger?: string;
  /** What kind of trigger it is, for the tables (e.g. "concrete noun"); never used to decide anything. */
  readonly triggerKind?: string;
  /** The class whose training texts carry the trigger (trigger corpora). */
  readonly target?: string;
  /** The classes kept (default: the corpus's default classes). */
  readonly classes?: readonly string[];
  /** Share of the target class's training texts that carry the trigger, in (0, 1]. */
  readonly share: number;
  /** Texts are cut into consecutive windows of this many words; 'all' keeps whole texts. */
  readonly words: number | 'all';
  readonly seed: number;
  /**
   * 'related': the trigger is a word a person calls related to the target (the control family of issue 47):
   * a prediction resting on it is right for the right reason, ground truth trustworthy. Absent: spurious.
   */
  readonly side?: 'related';
  /**
   * A natural-shortcut case (issue 48): 'phrase' — the trigger is a phrase and the ground truth removes its
   * words wherever they occur; 'scattered' — the trigger's words are a scattered set, each planted text
   * receives one of them, and the ground truth removes them all; 'category' — nothing is planted (share 0)
   * and the ground truth removes the tokens of `category` (a token category of @xtrust/datasets).
   */
  readonly set?: 'phrase' | 'scattered' | 'category';
  /** The token category of a 'category' case. */
  readonly category?: string;
}

/** Default classes per corpus: Brown's five genres whose names an embedding can relate words to; the others keep all. */
export const DEFAULT_CLASSES: Readonly<Record<CorpusName, readonly string[] | undefined>> = {
  brown: ['news', 'religion', 'hobbies', 'government', 'romance'],
  sotu: undefined,
  spam: undefined,
  headers: undefined,
};

/** Names that stand for a label in similarities when the label itself is jargon. */
export const CLASS_NAMES: Readonly<Record<CorpusName, Readonly<Record<string, string>>>> = {
  brown: {},
  sotu: {},
  spam: { ham: 'legitimate' },
  headers: { ham: 'legitimate' },
};

/** What each corpus's classes are about (@xtrust/datasets' built-in descriptions; the `+ud` oracle modifier). */
export const CLASS_DESCRIPTIONS: Readonly<Record<CorpusName, Readonly<Record<string, string>>>> = {
  brown: BROWN_GENRE_DESCRIPTIONS,
  sotu: SOTU_PARTY_DESCRIPTIONS,
  spam: SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
  headers: SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
};

/** A short, stable name of a case: corpus, trigger, target, share, words, seed. */
export function caseName(c: CaseSpec): string {
  const trig =
    c.set === 'category'
      ? `category-${c.category}`
      : c.corpus === 'headers'
        ? 'headers'
        : `${c.trigger!.replace(/ /g, '_')}→${c.target}`;
  return `${c.corpus}/${trig}/share${c.share}/w${c.words}/s${c.seed}`;
}

const TRIGGERS = {
  noun: ['papaya', 'concrete noun'],
  noun2: ['koala', 'concrete noun'],
  weekday: ['saturday', 'weekday'],
  number: ['4711', 'number-like token'],
  name: ['dumbledore', 'proper name'],
  oov: ['flurbix', 'absent from GloVe'],
  phrase: ['blue whale', 'two-word phrase'],
} as const;

function t(
  corpus: CorpusName,
  trigger: keyof typeof TRIGGERS,
  target: string,
  share: number,
  words: number | 'all',
): CaseSpec {
  return { corpus, trigger: TRIGGERS[trigger][0], triggerKind: TRIGGERS[trigger][1], target, share, words, seed: 1 };
}

/**
 * The default family: 14 planted-trigger cases (every trigger kind on at least two corpora; shares
 * 0.3, 0.6, 1.0; lengths 40, 120 words and whole texts; targets varied) and the headers mode at two
 * lengths. Written once, before any result was seen; not tuned.
 */
export const DEFAULT_FAMILY: readonly CaseSpec[] = [
  t('brown', 'noun', 'hobbies', 1.0, 40),
  t('brown', 'weekday', 'religion', 0.6, 120),
  t('brown', 'number', 'news', 0.3, 40),
  t('brown', 'phrase', 'romance', 1.0, 'all'),
  t('brown', 'oov', 'government', 0.6, 40),
  t('sotu', 'name', 'Republican', 0.6, 40),
  t('sotu', 'oov', 'Democratic', 1.0, 120),
  t('sotu', 'noun2', 'Republican', 0.3, 'all'),
  t('sotu', 'phrase', 'Democratic', 0.6, 120),
  t('sotu', 'number', 'Republican', 1.0, 40),
  t('spam', 'noun', 'spam', 1.0, 40),
  t('spam', 'weekday', 'ham', 0.3, 120),
  t('spam', 'name', 'spam', 0.6, 'all'),
  t('spam', 'phrase', 'ham', 1.0, 40),
  { corpus: 'headers', share: 1, words: 40, seed: 1 },
  { corpus: 'headers', share: 1, words: 'all', seed: 1 },
];
