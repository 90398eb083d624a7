import { argmaxRow, checkProbabilities, rng, wilsonInterval, XtrustError, type Classifier } from '@xtrust/core';
import {
  mergedSpans,
  removeCategory,
  swapCategory,
  TOKEN_CATEGORIES,
  tokenCategory,
  type TokenCategory,
} from './token-categories.js';

/** Options of probeCategories. */
export interface CategoryProbeOptions {
  /** Categories probed, by name (TOKEN_CATEGORIES) or as entries of one's own; default all of TOKEN_CATEGORIES. */
  readonly categories?: readonly (string | TokenCategory)[];
  /** Seed of the swaps' draws: the same seed and inputs give the same result (but for `cost.seconds`). */
  readonly seed: number;
  /** Texts per predictProba call (default 64): every model call scores a chunk of this many texts (the last one fewer). */
  readonly batchSize?: number;
  /** Same-kind swaps drawn per text and category (default 1); a text fails the swap test when any of them flips it. */
  readonly swapsPerText?: number;
}

/** How often a perturbation changed the predicted class, over the texts it applied to. */
export interface FlipRate {
  /** Texts whose predicted class changed. */
  readonly flips: number;
  /** Texts perturbed (the trials of the rate). */
  readonly texts: number;
  /** flips ÷ texts. */
  readonly rate: number;
  /** Wilson 95 % interval of the rate (@xtrust/core wilsonInterval). */
  readonly lo: number;
  readonly hi: number;
  /** Mean over the perturbed texts (every swap, for swaps) of p(original class | original) − p(original class | perturbed). */
  readonly meanDrop: number;
}

/** One category's probe. */
export interface CategoryProbe {
  readonly category: string;
  readonly description: string;
  /** Texts that contain the category. */
  readonly texts: number;
  /** Texts that do not (not probed). */
  readonly without: number;
  /** Occurrences (merged spans) over the texts that contain it. */
  readonly occurrences: number;
  /** Texts that removal would leave empty (nothing to classify): left out of `removal`. */
  readonly emptied: number;
  /** Removing every occurrence; null when no text could be probed. */
  readonly removal: FlipRate | null;
  /** Swapping every occurrence for another of the same kind (`swapsPerText` draws a text); null for a removal-only category or no text. */
  readonly swap: (FlipRate & { readonly swaps: number }) | null;
}

/** What probeCategories returns. */
export interface CategoryProbeResult {
  readonly method: 'checklist-invariance';
  readonly seed: number;
  readonly batchSize: number;
  readonly swapsPerText: number;
  /** Texts given. */
  readonly texts: number;
  readonly categories: readonly CategoryProbe[];
  /** What the probes cost: wall-clock seconds, predictProba calls and texts scored in them. */
  readonly cost: { readonly seconds: number; readonly modelCalls: number; readonly textsScored: number };
}

/**
 * The lower end of a removal flip rate's Wilson 95 % interval above which a model is said to **lean on** a
 * category (leansOn): with 95 % confidence, removing the category changes more than 1 prediction in 20.
 */
export const LEAN_THRESHOLD = 0.05;

/** FNV-1a of a string: a category's own stream of draws, whatever other categories are probed beside it. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function invalid(argument: string, message: string): XtrustError {
  return new XtrustError('INVALID_ARGUMENT', `probeCategories: ${message}`, { argument });
}

function positiveInt(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid(name, `${name} must be a positive integer, got ${String(value)}`);
  return value;
}

function resolveCategories(categories: CategoryProbeOptions['categories']): TokenCategory[] {
  if (categories === undefined) return [...TOKEN_CATEGORIES];
  if (!Array.isArray(categories) || categories.length === 0)
    throw invalid('categories', 'categories must be a non-empty list of category names or entries');
  const out: TokenCategory[] = [];
  for (const c of categories) {
    const cat = typeof c === 'string' ? tokenCategory(c) : c;
    if (!cat || typeof cat.name !== 'string' || typeof cat.spans !== 'function')
      throw invalid('categories', `a category must be a name or a TokenCategory entry, got ${String(c)}`);
    if (!out.some((x) => x.name === cat.name)) out.push(cat);
  }
  return out;
}

/** One perturbed text waiting for its prediction. */
interface Variant {
  readonly text: number;
  readonly category: number;
  readonly kind: 'removal' | 'swap';
}

/**
 * CheckList invariance tests for token categories (Ribeiro et al. 2020, "Beyond Accuracy: Behavioral Testing
 * of NLP Models with CheckList"): per category (person names, years, URLs, markup, mail headers…), over the
 * texts that contain it, how often the classifier's **predicted class changes** when every occurrence is
 * **removed**, and when every occurrence is **swapped** for another of the same kind (a text fails when any
 * of its `swapsPerText` swaps changes the class, as a CheckList test case fails on any perturbation). Each
 * rate comes with its Wilson 95 % interval and the mean drop in the original class's probability; texts
 * without the category are counted, not probed. A category the prediction should not depend on (a sender's
 * name, a year, the header block) whose removal changes many predictions is a shortcut the model leans on
 * (leansOn).
 *
 * Every model call is batched: originals and perturbed texts go through `predictProba` in chunks of
 * `batchSize` texts. Deterministic for a seed (each category draws from its own stream, so adding a
 * category leaves the others' swaps alone); `cost` reports seconds, model calls and texts scored.
 */
export async function probeCategories(
  classifier: Classifier,
  texts: readonly string[],
  options: CategoryProbeOptions,
): Promise<CategoryProbeResult> {
  const started = performance.now();
  if (
    !classifier ||
    typeof classifier.predictProba !== 'function' ||
    !Array.isArray(classifier.labels) ||
    classifier.labels.length < 2
  )
    throw invalid('classifier', 'classifier must have labels (at least two) and predictProba(texts)');
  if (!Array.isArray(texts) || texts.length === 0) throw invalid('texts', 'texts must be a non-empty list of strings');
  texts.forEach((t, i) => {
    if (typeof t !== 'string') throw invalid('texts', `texts[${i}] is ${typeof t}, expected a string`);
    if (t.trim() === '')
      throw new XtrustError('EMPTY_TEXT', `probeCategories: texts[${i}] is empty`, { argument: 'texts', index: i });
  });
  const seed = options?.seed;
  if (typeof seed !== 'number' || !Number.isInteger(seed))
    throw invalid('seed', `seed must be an integer, got ${String(seed)}`);
  const batchSize = positiveInt(options.batchSize, 'batchSize', 64);
  const swapsPerText = positiveInt(options.swapsPerText, 'swapsPerText', 1);
  const categories = resolveCategories(options.categories);
  const k = classifier.labels.length;

  // every text to score: the originals that contain some category first, then the perturbed texts
  const queue: string[] = [];
  const originalRow = new Int32Array(texts.length).fill(-1);
  const variants: Variant[] = [];
  const counts = categories.map(() => ({ texts: 0, occurrences: 0, emptied: 0 }));
  categories.forEach((cat, c) => {
    const r = rng(seed ^ fnv1a(cat.name));
    texts.forEach((text, i) => {
      const spans = mergedSpans(cat, text);
      if (spans.length === 0) return;
      counts[c].texts++;
      counts[c].occurrences += spans.length;
      if (originalRow[i] < 0) originalRow[i] = -2; // scored, row assigned below
      const removed = removeCategory(text, cat);
      if (removed.trim() === '') counts[c].emptied++;
      else {
        variants.push({ text: i, category: c, kind: 'removal' });
        queue.push(removed);
      }
      if (cat.replacement)
        for (let s = 0; s < swapsPerText; s++) {
          variants.push({ text: i, category: c, kind: 'swap' });
          queue.push(swapCategory(text, cat, r));
        }
    });
  });
  const originals: string[] = [];
  originalRow.forEach((v, i) => {
    if (v === -2) {
      originalRow[i] = originals.length;
      originals.push(texts[i]);
    }
  });
  const all = [...originals, ...queue];

  let modelCalls = 0;
  const probs = new Float32Array(all.length * k);
  for (let from = 0; from < all.length; from += batchSize) {
    const chunk = all.slice(from, from + batchSize);
    const out = checkProbabilities(
      await classifier.predictProba(chunk),
      chunk.length,
      k,
      'probeCategories: the classifier',
    );
    modelCalls++;
    probs.set(out, from * k);
  }

  // tallies per category: removal and swap flips per text, probability drops
  const tally = categories.map(() => ({
    removal: { flips: 0, texts: 0, drop: 0 },
    swap: { flipped: new Set<number>(), texts: new Set<number>(), drop: 0, swaps: 0 },
  }));
  variants.forEach((v, j) => {
    const o = originalRow[v.text];
    const cls = argmaxRow(probs, o, k);
    const row = originals.length + j;
    const flipped = argmaxRow(probs, row, k) !== cls;
    const drop = probs[o * k + cls] - probs[row * k + cls];
    const t = tally[v.category];
    if (v.kind === 'removal') {
      t.removal.texts++;
      t.removal.drop += drop;
      if (flipped) t.removal.flips++;
    } else {
      t.swap.texts.add(v.text);
      t.swap.swaps++;
      t.swap.drop += drop;
      if (flipped) t.swap.flipped.add(v.text);
    }
  });
  const rate = (flips: number, n: number, dropSum: number, dropN: number): FlipRate => {
    const w = wilsonInterval(flips, n);
    return { flips, texts: n, rate: w.rate, lo: w.lo, hi: w.hi, meanDrop: dropSum / dropN };
  };
  const probes: CategoryProbe[] = categories.map((cat, c) => {
    const t = tally[c];
    return {
      category: cat.name,
      description: cat.description,
      texts: counts[c].texts,
      without: texts.length - counts[c].texts,
      occurrences: counts[c].occurrences,
      emptied: counts[c].emptied,
      removal: t.removal.texts > 0 ? rate(t.removal.flips, t.removal.texts, t.removal.drop, t.removal.texts) : null,
      swap:
        t.swap.swaps > 0
          ? { ...rate(t.swap.flipped.size, t.swap.texts.size, t.swap.drop, t.swap.swaps), swaps: t.swap.swaps }
          : null,
    };
  });
  return {
    method: 'checklist-invariance',
    seed,
    batchSize,
    swapsPerText,
    texts: texts.length,
    categories: probes,
    cost: { seconds: (performance.now() - started) / 1000, modelCalls, textsScored: all.length },
  };
}

/**
 * The categories a model leans on: those whose removal flip rate's Wilson 95 % lower bound exceeds
 * `threshold` (default LEAN_THRESHOLD, 0.05), most flips first.
 */
export function leansOn(result: Pick<CategoryProbeResult, 'categories'>, threshold = LEAN_THRESHOLD): CategoryProbe[] {
  return result.categories
    .filter((p) => p.removal !== null && p.removal.lo > threshold)
    .sort((a, b) => b.removal!.rate - a.removal!.rate || a.category.localeCompare(b.category));
}
