import { XtrustError, type Explanation, type FeatureWeight } from '@xtrust/core';

/** One word of a class's pool: Σ importance and the number of explanations it came from (s̄_w = sum / count, Eq. 2). */
export interface PoolEntry {
  readonly word: string;
  sum: number;
  count: number;
}

/** A word and its averaged importance s̄_w. */
export interface PooledWord {
  readonly word: string;
  readonly importance: number;
  readonly count: number;
}

/** Pools are keyed by lower-cased word: explanations of "The" and "the" feed one entry, as embeddings see one word. */
export function normalizeWord(word: string): string {
  return word.toLowerCase();
}

/**
 * The decision-contributing words of one explanation: the `topK` words of largest positive weight
 * towards the explained (= predicted) class, lower-cased; two features folding to the same word add up.
 * Words pushing away from the class do not support the decision and are left out, in both pipelines.
 */
export function decisionWords(explanation: Explanation, topK: number): FeatureWeight[] {
  const merged = new Map<string, number>();
  for (const f of explanation.features) {
    if (!(f.weight > 0)) continue;
    const w = normalizeWord(f.word);
    if (w.length === 0) continue;
    merged.set(w, (merged.get(w) ?? 0) + f.weight);
  }
  const out = [...merged].map(([word, weight]) => ({ word, weight }));
  // ties broken by the word, so the same explanation always gives the same list
  out.sort((x, y) => y.weight - x.weight || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
  return out.slice(0, topK);
}

/** Checks that an explanation explains its own predicted label (TOKI's pipelines read weights towards the predicted class). */
export function requireExplainsPrediction(e: Explanation, where: string): void {
  if (e.explainedLabel !== e.predictedLabel) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${where}: the explanation of "${e.text.slice(0, 40)}" explains label "${e.explainedLabel}" but the prediction is "${e.predictedLabel}"; TOKI needs explanations of the predicted class`,
      { explainedLabel: e.explainedLabel, predictedLabel: e.predictedLabel },
    );
  }
}

/**
 * The word pools W_c of all classes (Eq. 2): for each class, every decision-contributing word of the
 * explanations of correctly predicted training texts of that class, with Σ s and a count so that new
 * explanations update s̄_w incrementally without revisiting old ones.
 */
export class WordPools {
  private readonly pools = new Map<string, Map<string, PoolEntry>>();
  /** Explanations added per class. */
  private readonly explained = new Map<string, number>();

  constructor(readonly labels: readonly string[]) {
    for (const l of labels) {
      this.pools.set(l, new Map());
      this.explained.set(l, 0);
    }
  }

  /** Adds one explanation of a correct prediction of class `label` (Eq. 1: only correct predictions feed pools). */
  add(label: string, explanation: Explanation, topK: number): void {
    const pool = this.pools.get(label);
    if (!pool)
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `word pool: unknown class "${label}" (classes: ${this.labels.join(', ')})`,
        { label },
      );
    requireExplainsPrediction(explanation, 'word pool');
    for (const { word, weight } of decisionWords(explanation, topK)) {
      const e = pool.get(word);
      if (e) {
        e.sum += weight;
        e.count += 1;
      } else pool.set(word, { word, sum: weight, count: 1 });
    }
    this.explained.set(label, (this.explained.get(label) ?? 0) + 1);
  }

  /** Restores an entry (from a saved store). */
  restore(label: string, word: string, sum: number, count: number, explained?: number): void {
    const pool = this.pools.get(label);
    if (!pool) throw new XtrustError('UNKNOWN_LABEL', `word pool: unknown class "${label}"`, { label });
    pool.set(word, { word, sum, count });
    if (explained !== undefined) this.explained.set(label, explained);
  }

  setExplained(label: string, n: number): void {
    this.explained.set(label, n);
  }

  /** Number of explanations that fed class `label`'s pool. */
  explanations(label: string): number {
    return this.explained.get(label) ?? 0;
  }

  /** W_c: the pool's words with s̄_w, by decreasing importance (ties by word). */
  pool(label: string): PooledWord[] {
    const pool = this.pools.get(label);
    if (!pool) throw new XtrustError('UNKNOWN_LABEL', `word pool: unknown class "${label}"`, { label });
    const out = [...pool.values()].map((e) => ({ word: e.word, importance: e.sum / e.count, count: e.count }));
    out.sort((x, y) => y.importance - x.importance || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
    return out;
  }

  /** Raw entries (Σ s, count) for saving. */
  entries(label: string): PoolEntry[] {
    return [...(this.pools.get(label)?.values() ?? [])].map((e) => ({ ...e }));
  }
}
