import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XtrustError } from '@xtrust/core';

/** WordNet's four syntactic categories: noun, verb, adjective (satellites included), adverb. */
export type WordNetPos = 'n' | 'v' | 'a' | 'r';
export const WORDNET_POS: readonly WordNetPos[] = ['n', 'v', 'a', 'r'];

const EXC_FILE: Record<WordNetPos, string> = { n: 'noun.exc', v: 'verb.exc', a: 'adj.exc', r: 'adv.exc' };

/**
 * Detachment rules of WordNet's morphy (morph.c, `sufx`/`addr` tables; also wndb(5WN) "morphy"):
 * a suffix to strip and the ending to put in its place, tried in this order.
 */
export const DETACHMENT_RULES: Readonly<Record<WordNetPos, readonly (readonly [string, string])[]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** Inflected form → base forms, one map per part of speech, from WordNet's `*.exc` lists. */
export type ExceptionLists = Readonly<Record<WordNetPos, ReadonlyMap<string, readonly string[]>>>;

/**
 * Reads the exception lists (`noun.exc` …): each line is an inflected form followed by one or more
 * base forms, e.g. `geese goose`, `went go`, `better good well`.
 */
export function readExceptionLists(dir: string): ExceptionLists {
  const out = {} as Record<WordNetPos, Map<string, string[]>>;
  for (const pos of ['n', 'v', 'a', 'r'] as WordNetPos[]) {
    const file = join(dir, EXC_FILE[pos]);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (cause) {
      throw new XtrustError('FILE_NOT_FOUND', `WordNet exception list ${file} cannot be read`, { file }, { cause });
    }
    const map = new Map<string, string[]>();
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line === '') continue;
      const parts = line.split(' ');
      if (parts.length < 2) {
        throw new XtrustError('PARSE_ERROR', `${file} line ${i + 1}: expected "inflected base…", got "${line}"`, {
          file,
          line: i + 1,
        });
      }
      const prev = map.get(parts[0]);
      if (prev) prev.push(...parts.slice(1));
      else map.set(parts[0], parts.slice(1));
    }
    out[pos] = map;
  }
  return out;
}

/**
 * Base forms of `word` (lower case, multiword parts joined by `_`) in one part of speech, following
 * WordNet's morphy (wndb(5WN) / morph.c): the exception list first; otherwise the word itself when
 * it is a lemma, then each detachment rule whose result is a lemma (`isLemma` checks the index).
 * Distinct, in that order; empty when nothing is a lemma.
 */
export function morphy(
  word: string,
  pos: WordNetPos,
  exceptions: ExceptionLists,
  isLemma: (lemma: string, pos: WordNetPos) => boolean,
): string[] {
  const out: string[] = [];
  const add = (w: string) => {
    if (!out.includes(w)) out.push(w);
  };
  const exc = exceptions[pos].get(word);
  if (exc) for (const base of exc) if (isLemma(base, pos)) add(base);
  if (isLemma(word, pos)) add(word);
  // morph.c applies the suffix rules even when the word is an exception or a lemma itself ("axes" →
  // "axe" and, via exception, "axis"); keep that so "leaves" yields both "leave" (v) and "leaf" (n).
  for (const [suffix, ending] of DETACHMENT_RULES[pos]) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      const base = word.slice(0, word.length - suffix.length) + ending;
      if (base !== word && isLemma(base, pos)) add(base);
    }
  }
  // Nouns ending in "ful" (morph.c): "boxesful" → "boxful".
  if (pos === 'n' && word.endsWith('ful') && word.length > 3 && out.length === 0) {
    for (const b of morphy(word.slice(0, -3), 'n', exceptions, isLemma)) {
      if (isLemma(`${b}ful`, 'n')) add(`${b}ful`);
    }
  }
  return out;
}
