import { XtrustError, tokenize } from '@xtrust/core';
import { isFunctionWord } from './function-words.js';

/** How much of the training corpus a ClassCorpus keeps. */
export interface ClassCorpusOptions {
  /** A word must occur in at least this many training texts to be kept (default 5). */
  readonly minTexts?: number;
  /** At most this many words are kept, the most widespread first (default 8,000). */
  readonly maxWords?: number;
}

/** The JSON form of a ClassCorpus (saved in keywords.json). */
export interface ClassCorpusJson {
  readonly labels: readonly string[];
  readonly texts: readonly number[];
  readonly words: readonly string[];
  /** Row-major words × labels: in how many of the class's texts the word occurs. */
  readonly counts: readonly number[];
  /** Per word: the share of its occurrences written with a capital first letter (absent in older stores). */
  readonly capitalized?: readonly number[];
}

const CONTENT = /^\p{Ll}[\p{Ll}'-]{2,}$/u;

/** A word written capitalised at least this share of the time is taken for a name (ClassCorpus.isName); fixed before any run. */
export const NAME_SHARE = 0.7;

/**
 * Per-class text frequencies of the training corpus's content words: the corpus side of the
 * neighbour-lean signal (word-meaning.ts). A word's *own* frequency is exactly what a shortcut fakes, so
 * the oracle never reads it for the word judged — only for the word's meaning-neighbours, whose
 * frequencies a planted word does not change.
 */
export class ClassCorpus {
  private readonly index: Map<string, number>;

  private constructor(
    readonly labels: readonly string[],
    /** Texts per class, in `labels` order. */
    readonly texts: Float64Array,
    /** The kept content words, most widespread first. */
    readonly words: readonly string[],
    /** Row-major words × labels text counts. */
    readonly counts: Uint32Array,
    /** Per word: the share of its occurrences with a capital first letter (a name's is near 1). */
    readonly capitalized: Float32Array,
  ) {
    this.index = new Map(words.map((w, i) => [w, i]));
  }

  /**
   * Counts, per class, the training texts each lower-case content word (not a function word) occurs in.
   * `labels` fixes the classes; a text whose label is not one of them is refused, naming its row.
   */
  static fromTexts(
    texts: readonly string[],
    textLabels: readonly string[],
    labels: readonly string[],
    options: ClassCorpusOptions = {},
  ): ClassCorpus {
    if (texts.length !== textLabels.length)
      throw new XtrustError('DIMENSION_MISMATCH', `ClassCorpus: ${texts.length} texts but ${textLabels.length} labels`);
    const minTexts = options.minTexts ?? 5;
    const maxWords = options.maxWords ?? 8000;
    const k = labels.length;
    const col = new Map(labels.map((l, i) => [l, i]));
    const perText = new Float64Array(k);
    const tally = new Map<string, Uint32Array>();
    const caps = new Map<string, [number, number]>();
    texts.forEach((t, row) => {
      const c = col.get(textLabels[row]);
      if (c === undefined)
        throw new XtrustError(
          'UNKNOWN_LABEL',
          `ClassCorpus: label "${textLabels[row]}" of row ${row} is not one of ${labels.join(', ')}`,
          { row, label: textLabels[row] },
        );
      perText[c]++;
      const seen = new Set<string>();
      for (const tok of tokenize(t)) {
        const w = tok.text.toLowerCase();
        if (!CONTENT.test(w) || isFunctionWord(w)) continue;
        seen.add(w);
        let cw = caps.get(w);
        if (!cw) caps.set(w, (cw = [0, 0]));
        cw[1]++;
        if (tok.text[0] !== w[0]) cw[0]++;
      }
      for (const w of seen) {
        let v = tally.get(w);
        if (!v) tally.set(w, (v = new Uint32Array(k)));
        v[c]++;
      }
    });
    const total = (v: Uint32Array) => v.reduce((a, b) => a + b, 0);
    const kept = [...tally]
      .map(([w, v]) => ({ w, v, n: total(v) }))
      .filter((x) => x.n >= minTexts)
      .sort((a, b) => b.n - a.n || (a.w < b.w ? -1 : 1))
      .slice(0, maxWords);
    const counts = new Uint32Array(kept.length * k);
    kept.forEach((x, i) => counts.set(x.v, i * k));
    const capitalized = Float32Array.from(kept, (x) => {
      const [up, all] = caps.get(x.w)!;
      return up / all;
    });
    return new ClassCorpus(
      [...labels],
      perText,
      kept.map((x) => x.w),
      counts,
      capitalized,
    );
  }

  static fromJSON(json: ClassCorpusJson): ClassCorpus {
    const k = json.labels.length;
    if (json.texts.length !== k || json.counts.length !== json.words.length * k)
      throw new XtrustError('INVALID_ARGUMENT', 'class corpus: texts / counts do not match labels × words', {});
    const capitalized = json.capitalized ? Float32Array.from(json.capitalized) : new Float32Array(json.words.length);
    return new ClassCorpus(
      json.labels,
      Float64Array.from(json.texts),
      json.words,
      Uint32Array.from(json.counts),
      capitalized,
    );
  }

  toJSON(): ClassCorpusJson {
    return {
      labels: this.labels,
      texts: [...this.texts],
      words: this.words,
      counts: [...this.counts],
      capitalized: Array.from(this.capitalized, (x) => Math.round(x * 1000) / 1000),
    };
  }

  /**
   * True when the corpus writes the kept word at `row` with a capital first letter at least `share` of the
   * time: a name (of a person, a place, a sender), which the rubric calls unrelated unless the class is
   * about it — so its neighbours' lean (other names) says nothing about the class's subject.
   */
  isName(row: number, share = NAME_SHARE): boolean {
    return this.capitalized[row] >= share;
  }

  /** The row of `word`, or undefined when it is not kept. */
  rowOf(word: string): number | undefined {
    return this.index.get(word);
  }

  /**
   * How much more often the kept word at `row` occurs in class `label`'s texts than in the other classes'
   * texts: the natural log of the ratio of its per-text rates, each count smoothed by ½ (so a word seen in
   * a few texts of one class and none of the others leans, but not without bound).
   */
  lean(row: number, label: string): number {
    const c = this.labels.indexOf(label);
    if (c < 0) throw new XtrustError('UNKNOWN_LABEL', `class corpus: unknown class "${label}"`, { label });
    const k = this.labels.length;
    let other = 0;
    let otherTexts = 0;
    for (let j = 0; j < k; j++) {
      if (j === c) continue;
      other += this.counts[row * k + j];
      otherTexts += this.texts[j];
    }
    const own = (this.counts[row * k + c] + 0.5) / (this.texts[c] + 1);
    return Math.log(own / ((other + 0.5) / (otherTexts + 1)));
  }
}
