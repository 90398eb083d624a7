import { NON_CONTENT_WORDS, XtrustError } from '@xtrust/core';
import type { Synset, WordNet, WordNetPos } from './wordnet.js';

/** Which WordNet material describes a word (wordNetDescription). */
export interface WordNetDescriptionOptions {
  /** Parts of speech whose senses are read (default noun and adjective: a class name is one or the other). */
  readonly pos?: readonly WordNetPos[];
  /** The first senses read per part of speech, most frequent first (default 1; Infinity: all). */
  readonly senses?: number;
  /** The content words of each sense's definition (the gloss before its quoted examples). Default true. */
  readonly gloss?: boolean;
  /** The lemmas of each sense's direct hypernyms (`@`, `@i`). Default false. */
  readonly hypernyms?: boolean;
  /** The lemmas of each sense's direct hyponyms (`~`, `~i`). Default false. */
  readonly hyponyms?: boolean;
  /** Words never taken from a gloss (default @xtrust/core NON_CONTENT_WORDS, NLTK's English stop words). */
  readonly stopWords?: ReadonlySet<string>;
}

/** A word's description, by where each word came from (lower case, `_` as a space, no duplicates across parts). */
export interface WordNetDescription {
  /** The word as looked up. */
  readonly word: string;
  /** The senses read: synset id, part of speech and definition. */
  readonly senses: readonly { readonly id: string; readonly pos: WordNetPos; readonly definition: string }[];
  /** The other lemmas of those senses (synonyms), multi-word lemmas with spaces ("junk e-mail"). */
  readonly lemmas: readonly string[];
  /** Content words of the senses' definitions. */
  readonly glossWords: readonly string[];
  readonly hypernyms: readonly string[];
  readonly hyponyms: readonly string[];
}

/** A synset's definition: its gloss without the quoted examples that follow it ("…; \"example\""). */
export function glossDefinition(gloss: string): string {
  const quote = gloss.search(/;\s*"/u);
  return (quote >= 0 ? gloss.slice(0, quote) : gloss).trim();
}

/** The content words of a definition: lower-case alphabetic tokens (hyphens inside kept: "e-mail"), stop words and one-letter tokens dropped, in order, once each. */
export function definitionWords(definition: string, stopWords: ReadonlySet<string> = NON_CONTENT_WORDS): string[] {
  const out: string[] = [];
  for (const m of definition.toLowerCase().matchAll(/[a-z]+(?:[-'][a-z]+)*/gu)) {
    const w = m[0];
    if (w.length < 2 || stopWords.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

/** True when `s` starts with an upper-case letter ("Spam", "Democratic"). */
function capitalised(s: string): boolean {
  return s.length > 0 && s[0] !== s[0].toLowerCase();
}

/**
 * The senses of `word` whose case agrees with it: WordNet writes proper-noun senses capitalised
 * ("Spam", the canned meat; "Democratic", of the party) and common ones in lower case ("spam", junk
 * e-mail; "democratic", of democracy). A lower-case word keeps the senses where it is written in lower
 * case, a capitalised one those where it is capitalised; when no sense (of any part of speech read) agrees, all are kept.
 */
function senseCaseAgrees(synsets: readonly Synset[], word: string, baseForms: ReadonlySet<string>): Synset[] {
  const cap = capitalised(word);
  const agree = synsets.filter((s) => s.words.some((w) => baseForms.has(w.toLowerCase()) && capitalised(w) === cap));
  return agree.length > 0 ? agree : [...synsets];
}

/**
 * A description of `word` from WordNet (Miller 1995) — the material a class name's meaning can be
 * widened with when one word is too narrow a target for relatedness (issue 29; TOKI §3.1, Eq. 4
 * compares a cluster with the class name alone): the first `senses` senses per part of speech (noun and
 * adjective by default; senses whose case disagrees with the word's are skipped, over all the parts of
 * speech read, see senseCaseAgrees),
 * their other lemmas, the content words of their definitions, and optionally their direct hypernyms'
 * and hyponyms' lemmas. A multi-word name ("science fiction") is looked up whole, then word by word
 * when WordNet has no entry for it. The word itself and its base forms are left out of every list.
 */
export function wordNetDescription(
  wn: WordNet,
  word: string,
  options: WordNetDescriptionOptions = {},
): WordNetDescription {
  const pos = options.pos ?? (['n', 'a'] as const);
  const senses = options.senses ?? 1;
  if (!(senses >= 1))
    throw new XtrustError('INVALID_ARGUMENT', `wordNetDescription: senses must be ≥ 1, got ${senses}`, {
      argument: 'senses',
    });
  const stop = options.stopWords ?? NON_CONTENT_WORDS;
  const trimmed = word.trim();
  if (trimmed === '') throw new XtrustError('INVALID_ARGUMENT', 'wordNetDescription: empty word', { argument: 'word' });
  const lookups = wn.lookup(trimmed).length > 0 ? [trimmed] : trimmed.split(/[\s_\-/]+/u).filter((w) => w.length > 0);
  const self = new Set<string>();
  const picked: Synset[] = [];
  for (const w of lookups) {
    const bases = new Set(wn.lookup(w).map((e) => e.lemma));
    self.add(w.toLowerCase().replace(/_/g, ' '));
    for (const b of bases) self.add(b.replace(/_/g, ' '));
    // the case rule across parts of speech: "romance" keeps its lower-case noun senses, not the adjective "Romance" (of the Latin languages)
    const agreeing = new Set(
      senseCaseAgrees(
        pos.flatMap((p) => wn.synsets(w, { pos: p })),
        w,
        bases,
      ).map((s) => s.id),
    );
    for (const p of pos) {
      const own = wn.synsets(w, { pos: p }).filter((s) => agreeing.has(s.id));
      for (const s of own.slice(0, senses)) if (!picked.some((x) => x.id === s.id)) picked.push(s);
    }
  }
  const seen = new Set<string>(self);
  const take = (words: Iterable<string>): string[] => {
    const out: string[] = [];
    for (const raw of words) {
      const w = raw.toLowerCase().replace(/_/g, ' ').trim();
      if (w === '' || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
    return out;
  };
  const related = (s: Synset, symbols: readonly string[]) =>
    s.pointers
      .filter((p) => p.source === 0 && symbols.includes(p.symbol))
      .flatMap((p) => wn.synset(p.offset, p.pos).words);
  const lemmas = take(picked.flatMap((s) => s.words));
  const glossWords =
    options.gloss === false ? [] : take(picked.flatMap((s) => definitionWords(glossDefinition(s.gloss), stop)));
  const hypernyms = options.hypernyms ? take(picked.flatMap((s) => related(s, ['@', '@i']))) : [];
  const hyponyms = options.hyponyms ? take(picked.flatMap((s) => related(s, ['~', '~i']))) : [];
  return {
    word: trimmed,
    senses: picked.map((s) => ({ id: s.id, pos: s.pos, definition: glossDefinition(s.gloss) })),
    lemmas,
    glossWords,
    hypernyms,
    hyponyms,
  };
}
