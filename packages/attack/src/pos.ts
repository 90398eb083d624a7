import { createRequire } from 'node:module';
import { XtrustError } from '@xtrust/core';
import { wordnet, type WordNet } from '@xtrust/embeddings';

/** A word in its context: `words[index]` is the word to tag. */
export interface PosQuery {
  readonly words: readonly string[];
  readonly index: number;
}

/**
 * Part-of-speech tags of words in context, batched. `tags` returns one set of possible tags per
 * query: a contextual tagger returns exactly one, a context-free lexicon all the word's parts of speech.
 */
export interface PosTagger {
  readonly name: string;
  tags(queries: readonly PosQuery[]): Promise<ReadonlySet<string>[]>;
}

interface WinkDoc {
  tokens(): { out(f?: unknown): string[] };
}
interface WinkNlp {
  readDoc(text: string): WinkDoc;
  its: { pos: unknown; value: unknown };
}

/**
 * Universal POS tags in context from wink-nlp with wink-eng-lite-web-model (an offline statistical
 * tagger from the npm registry; UD tag set: NOUN, VERB, ADJ, ADV, …). The context window is joined
 * with spaces; wink's tokens are aligned back to the query word by character position, so a word
 * wink splits (e.g. "isn") is tagged by its first piece. Results are cached per window.
 */
export class WinkPosTagger implements PosTagger {
  readonly name = 'wink-eng-lite-web-model';
  private readonly cache = new Map<string, string>();
  private constructor(private readonly nlp: WinkNlp) {}

  static load(): WinkPosTagger {
    const require = createRequire(import.meta.url);
    let winkNLP: (model: unknown, pipe?: string[]) => WinkNlp;
    let model: unknown;
    try {
      winkNLP = require('wink-nlp');
      model = require('wink-eng-lite-web-model');
    } catch (e) {
      throw new XtrustError(
        'NOT_FOUND',
        'wink-nlp or wink-eng-lite-web-model is not installed (npm packages); use WordNetPosTagger as the fallback',
        {},
        { cause: e },
      );
    }
    return new WinkPosTagger(winkNLP(model, ['pos']));
  }

  async tags(queries: readonly PosQuery[]): Promise<ReadonlySet<string>[]> {
    return queries.map((q) => new Set([this.tagOne(q)]));
  }

  private tagOne(q: PosQuery): string {
    const key = `${q.index}\u0000${q.words.join(' ')}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let target = 0; // character position of the word in the space-less concatenation
    for (let i = 0; i < q.index; i++) target += q.words[i].length;
    const doc = this.nlp.readDoc(q.words.join(' '));
    const toks = doc.tokens().out();
    const pos = doc.tokens().out(this.nlp.its.pos);
    let at = 0;
    let tag = 'X';
    for (let t = 0; t < toks.length; t++) {
      const len = toks[t].replace(/\s+/g, '').length;
      if (at <= target && target < at + Math.max(len, 1)) {
        tag = pos[t];
        break;
      }
      at += len;
    }
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(key, tag);
    return tag;
  }
}

const WN_TO_UD: Record<string, string> = { n: 'NOUN', v: 'VERB', a: 'ADJ', s: 'ADJ', r: 'ADV' };

/**
 * The fallback: every part of speech WordNet lists for the word (n/v/a/r as NOUN/VERB/ADJ/ADV),
 * ignoring context. A word WordNet does not know (function words) gets the empty set, which the
 * part-of-speech constraint reads as "no evidence" (only the replacement's own tags are compared).
 */
export class WordNetPosTagger implements PosTagger {
  readonly name = 'wordnet-parts-of-speech';
  constructor(private readonly wn: WordNet = wordnet()) {}

  async tags(queries: readonly PosQuery[]): Promise<ReadonlySet<string>[]> {
    return queries.map(
      (q) => new Set(this.wn.partsOfSpeech(q.words[q.index].toLowerCase()).map((p) => WN_TO_UD[p] ?? p)),
    );
  }
}

/** The wink tagger when its packages load, otherwise WordNet's parts of speech. */
export function defaultPosTagger(): PosTagger {
  try {
    return WinkPosTagger.load();
  } catch {
    return new WordNetPosTagger();
  }
}
