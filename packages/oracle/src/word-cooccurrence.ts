import { tokenize, XtrustError } from '@xtrust/core';

/**
 * How the verdict groups words that travel together (issue 48). A shortcut is often one reason spread
 * over several tokens — a sign-off, a footer, a slogan — and a verdict that weighs each unrelated word on
 * its own misses it: every word is light, the phrase is not. Two words of a pool are one *group* when the
 * training texts that hold either mostly hold both (Jaccard of their text sets ≥ `minJaccard`, each word in
 * ≥ `minTexts` texts); groups are the connected components of that relation among a prediction's
 * unrelated words, and the verdict weighs a group's summed weight where it weighed one word.
 */
export interface CooccurrenceSettings {
  /** Jaccard of two words' training-text sets at or above which they are one group. */
  readonly minJaccard: number;
  /** A word must occur in at least this many training texts to be grouped (rarer words stay alone). */
  readonly minTexts: number;
}

/** The JSON form of a WordCooccurrence (saved in keywords.json). */
export interface WordCooccurrenceJson {
  readonly settings: CooccurrenceSettings;
  readonly words: readonly string[];
  /** Flattened index pairs (i, j), i < j, of words that co-occur at or above minJaccard. */
  readonly pairs: readonly number[];
}

export function checkCooccurrenceSettings(s: CooccurrenceSettings, where: string): void {
  if (!s || !(s.minJaccard > 0 && s.minJaccard <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `${where}: minJaccard must be in (0, 1], got ${String(s?.minJaccard)}`, {
      argument: 'minJaccard',
    });
  if (!(Number.isInteger(s.minTexts) && s.minTexts >= 1))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${where}: minTexts must be a positive integer, got ${String(s.minTexts)}`,
      {
        argument: 'minTexts',
      },
    );
}

/** Which words of a vocabulary travel together in a corpus: the pairs whose text sets overlap by at least minJaccard. */
export class WordCooccurrence {
  private readonly index: Map<string, number>;
  private readonly neighbours: Map<number, number[]>;

  private constructor(
    readonly settings: CooccurrenceSettings,
    readonly words: readonly string[],
    private readonly pairs: Uint32Array,
  ) {
    this.index = new Map(words.map((w, i) => [w, i]));
    this.neighbours = new Map();
    for (let p = 0; p < pairs.length; p += 2) {
      const [a, b] = [pairs[p], pairs[p + 1]];
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        let list = this.neighbours.get(x);
        if (!list) this.neighbours.set(x, (list = []));
        list.push(y);
      }
    }
  }

  /**
   * Counts, over `texts`, in how many texts each word of `vocabulary` (lower case) occurs and in how many
   * each pair occurs together, and keeps the pairs at Jaccard ≥ settings.minJaccard. Pair counting visits
   * each text's distinct vocabulary words once: O(Σ_texts m_t²) for m_t such words in text t.
   */
  static fromTexts(
    texts: readonly string[],
    vocabulary: Iterable<string>,
    settings: CooccurrenceSettings,
  ): WordCooccurrence {
    checkCooccurrenceSettings(settings, 'WordCooccurrence');
    const wanted = new Set([...vocabulary].map((w) => w.toLowerCase()));
    const df = new Map<string, number>();
    const perText: string[][] = [];
    for (const t of texts) {
      const seen = new Set<string>();
      for (const tok of tokenize(t, { lowercase: true })) if (wanted.has(tok.text)) seen.add(tok.text);
      const list = [...seen];
      perText.push(list);
      for (const w of list) df.set(w, (df.get(w) ?? 0) + 1);
    }
    const words = [...df]
      .filter(([, n]) => n >= settings.minTexts)
      .map(([w]) => w)
      .sort();
    const id = new Map(words.map((w, i) => [w, i]));
    const W = words.length;
    const together = new Map<number, number>();
    for (const list of perText) {
      const ids = list
        .map((w) => id.get(w))
        .filter((x): x is number => x !== undefined)
        .sort((a, b) => a - b);
      for (let a = 0; a < ids.length; a++)
        for (let b = a + 1; b < ids.length; b++) {
          const key = ids[a] * W + ids[b];
          together.set(key, (together.get(key) ?? 0) + 1);
        }
    }
    const kept: number[] = [];
    for (const [key, both] of together) {
      const i = Math.floor(key / W);
      const j = key - i * W;
      const jaccard = both / (df.get(words[i])! + df.get(words[j])! - both);
      if (jaccard >= settings.minJaccard) kept.push(i, j);
    }
    return new WordCooccurrence({ ...settings }, words, Uint32Array.from(kept));
  }

  static fromJSON(json: WordCooccurrenceJson): WordCooccurrence {
    checkCooccurrenceSettings(json.settings, 'word co-occurrence');
    if (
      json.pairs.length % 2 !== 0 ||
      json.pairs.some((p) => !(Number.isInteger(p) && p >= 0 && p < json.words.length))
    )
      throw new XtrustError('INVALID_ARGUMENT', 'word co-occurrence: pairs must index its words, two at a time', {});
    return new WordCooccurrence({ ...json.settings }, [...json.words], Uint32Array.from(json.pairs));
  }

  toJSON(): WordCooccurrenceJson {
    return { settings: { ...this.settings }, words: [...this.words], pairs: Array.from(this.pairs) };
  }

  /** Number of co-occurring pairs kept. */
  get size(): number {
    return this.pairs.length / 2;
  }

  /**
   * `words` split into groups that travel together: the connected components of the co-occurrence
   * relation restricted to `words` (lower-cased for lookup); a word unknown here is a group of its own.
   * Groups come in the order of their first word in `words`; each lists indices into `words`.
   */
  groups(words: readonly string[]): number[][] {
    const at = new Map<number, number[]>();
    words.forEach((w, i) => {
      const id = this.index.get(w.toLowerCase());
      if (id === undefined) return;
      let list = at.get(id);
      if (!list) at.set(id, (list = []));
      list.push(i);
    });
    const group = new Int32Array(words.length).fill(-1);
    const out: number[][] = [];
    for (let i = 0; i < words.length; i++) {
      if (group[i] >= 0) continue;
      const g = out.length;
      const members: number[] = [];
      const stack = [i];
      group[i] = g;
      while (stack.length) {
        const x = stack.pop()!;
        members.push(x);
        const id = this.index.get(words[x].toLowerCase());
        if (id === undefined) continue;
        for (const y of [...(at.get(id) ?? []), ...(this.neighbours.get(id) ?? []).flatMap((n) => at.get(n) ?? [])])
          if (group[y] < 0) {
            group[y] = g;
            stack.push(y);
          }
      }
      out.push(members.sort((a, b) => a - b));
    }
    return out;
  }
}
