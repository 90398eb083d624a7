/**
 * An explainer that remembers: each text is explained once per case, however many oracle
 * configurations ask for it (keyword identification explains the same training sample for each;
 * labelling explains the same test predictions). Saved to and reloaded from a JSON file keyed by the
 * case, so a later run (e.g. configuration selection) reuses the explanations of an earlier one.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Classifier, Explainer, Explanation } from '@xtrust/core';

export class CachedExplainer implements Explainer {
  readonly name: string;
  /** Texts answered from the cache, and texts the wrapped explainer was asked for. */
  hits = 0;
  misses = 0;
  private readonly cache = new Map<string, Explanation>();

  /**
   * @param inner the explainer (its options fixed: the cache assumes one set of options per instance)
   * @param key what the explanations depend on besides the text (case, model, explainer settings); a
   *   file saved under another key is not reused
   */
  constructor(
    private readonly inner: Explainer,
    readonly key: string,
  ) {
    this.name = inner.name;
  }

  /** Explanations of `texts` in order; only the texts not seen before go to the wrapped explainer, in one call. */
  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options?: Record<string, unknown>,
  ): Promise<Explanation[]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    this.hits += texts.length - texts.filter((t) => !this.cache.has(t)).length;
    if (missing.length > 0) {
      const made = await this.inner.explain(classifier, missing, options);
      this.misses += missing.length;
      missing.forEach((t, i) => this.cache.set(t, made[i]));
    }
    return texts.map((t) => this.cache.get(t)!);
  }

  get size(): number {
    return this.cache.size;
  }

  /** Writes the cache atomically (temporary file, then rename). */
  save(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      `${path}.${process.pid}.tmp`,
      JSON.stringify({ key: this.key, explanations: [...this.cache.values()] }),
    );
    renameSync(`${path}.${process.pid}.tmp`, path);
  }

  /** Adds the explanations of a file saved under the same key; returns how many (0 when absent or saved under another key). */
  load(path: string): number {
    if (!existsSync(path)) return 0;
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { key: string; explanations: Explanation[] };
    if (saved.key !== this.key) return 0;
    for (const e of saved.explanations) this.cache.set(e.text, e);
    return saved.explanations.length;
  }
}
