import { softmaxLogits } from './labels.js';
import type { IdRows } from './masked-ids.js';

/**
 * The scoring batches' default bound on activations per run, in positions (rows × padded length) ×
 * hidden size: a batch's activations should stay in cache, and their size is what the hidden size
 * scales. 1,024 × 768 is 1,024 positions a batch on a 768-wide model and 3,072 on a 256-wide one.
 * Chosen on validation texts, not the benchmark's (apps/bench transformer-lime/profile.js --validation):
 * on the 6 × 768 model 1,024 or 512 positions a batch cut the graph time by 20 % at 120 words against
 * row batches of 32, and 2,048 or more lost it all; on the 4 × 256 model no positions bound beat rows of 32
 * in interleaved repeats (a bound of 512 cost 5–13 %), and 3,072 positions leave rows of 32 almost
 * unchanged there. packages/models README ("Where the time goes") has the tables.
 */
export const DEFAULT_BATCH_ACTIVATIONS = 1024 * 768;

/** Positions per run under DEFAULT_BATCH_ACTIVATIONS for a model `hidden` wide (Infinity when its width is unknown: row batches only). */
export function defaultBatchTokens(hidden: number | undefined): number {
  return hidden !== undefined && Number.isInteger(hidden) && hidden > 0
    ? Math.max(1, Math.floor(DEFAULT_BATCH_ACTIVATIONS / hidden))
    : Infinity;
}

/** One padded batch for the graph: B×S ids and attention mask (1 = real token), row-major. */
export interface PaddedBatch {
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  readonly batch: number;
  readonly sequence: number;
}

/** Runs one padded batch and returns its B×k logits. */
export type BatchRunner = (batch: PaddedBatch) => Promise<Float32Array>;

export interface LengthBatchOptions {
  /** Rows per run, at most. */
  readonly batchSize: number;
  /**
   * Positions (rows × padded length) per run, at most; a row longer than this runs alone. Bounds a
   * batch's activations rather than its row count, so long rows go in small batches and short rows in
   * large ones. Default: no bound beyond `batchSize`.
   */
  readonly batchTokens?: number;
  /** Id of the padding token. */
  readonly padId: number;
  /** Sort by length and drop duplicates (default true); false runs rows in their order, for measuring what sorting saves. */
  readonly sortByLength?: boolean;
  /**
   * Batches in flight at once (default 1): `run` may score several at a time (a SessionPool). Each
   * batch's rows and results are the same whatever the order the batches finish in.
   */
  readonly concurrency?: number;
}

/** Figures of one scoring call, for profiles. */
export interface ScoringStats {
  rows: number;
  distinct: number;
  runs: number;
  /** Σ over runs of B×S (positions the graph computed, padding included). */
  positions: number;
  /** Σ of the rows' real lengths (distinct rows only). */
  tokens: number;
  /** Milliseconds inside the graph runs (summed over the batches in flight when they run concurrently). */
  runMs: number;
}

/** A key for an id row: ids below 2^16 as one UTF-16 unit each, larger ones spelt out. */
function rowKey(ids: Int32Array, start: number, end: number): string {
  let small = true;
  for (let i = start; i < end && small; i++) small = ids[i] >= 0 && ids[i] < 0xffff;
  if (small) {
    let s = '';
    // String.fromCharCode over chunks: far cheaper than a join of numbers.
    for (let i = start; i < end; i += 4096)
      s += String.fromCharCode.apply(null, Array.from(ids.subarray(i, Math.min(end, i + 4096))));
    return s;
  }
  return `\uffff${Array.from(ids.subarray(start, end)).join(',')}`;
}

/**
 * Class probabilities (softmax of the logits) of many id rows: identical rows are run once; the
 * distinct rows are sorted by length and cut into batches of similar lengths, so a row shortened by
 * removed words is padded only to its neighbours' length, never to the longest row; results come back
 * in the rows' own order. Padding positions get attention mask 0.
 */
export async function scoreIdRows(
  rows: IdRows,
  k: number,
  run: BatchRunner,
  options: LengthBatchOptions,
  stats?: ScoringStats,
): Promise<Float32Array> {
  const { ids, offsets } = rows;
  const n = rows.rows;
  const index = new Map<string, number>();
  const uniqueOf = new Int32Array(n);
  const firstRow: number[] = [];
  for (let r = 0; r < n; r++) {
    const key = options.sortByLength === false ? String(r) : rowKey(ids, offsets[r], offsets[r + 1]);
    let u = index.get(key);
    if (u === undefined) {
      u = firstRow.length;
      index.set(key, u);
      firstRow.push(r);
    }
    uniqueOf[r] = u;
  }
  const m = firstRow.length;
  const len = (u: number) => offsets[firstRow[u] + 1] - offsets[firstRow[u]];
  const order = Int32Array.from({ length: m }, (_, u) => u);
  if (options.sortByLength !== false) order.sort((a, b) => len(a) - len(b) || a - b);
  const probs = new Float32Array(m * k);
  const pad = BigInt(options.padId);
  let positions = 0;
  let tokens = 0;
  let runs = 0;
  let runMs = 0;
  const budget = options.batchTokens ?? Infinity;
  // Batch boundaries first (rows come sorted by length, so the next row sets the padded length of the batch it would join).
  const starts: number[] = [];
  const widths: number[] = [];
  for (let s = 0, B = 0; s < m; s += B) {
    let S = Math.max(1, len(order[s]));
    B = 1;
    while (B < options.batchSize && s + B < m) {
      const next = Math.max(S, len(order[s + B]));
      if ((B + 1) * next > budget) break;
      S = next;
      B++;
    }
    starts.push(s);
    widths.push(S);
  }
  starts.push(m);
  const runBatch = async (i: number) => {
    const s = starts[i];
    const B = starts[i + 1] - s;
    const S = widths[i];
    const inputIds = new BigInt64Array(B * S).fill(pad);
    const attentionMask = new BigInt64Array(B * S);
    for (let b = 0; b < B; b++) {
      const r = firstRow[order[s + b]];
      const o = offsets[r];
      const l = offsets[r + 1] - o;
      for (let j = 0; j < l; j++) {
        inputIds[b * S + j] = BigInt(ids[o + j]);
        attentionMask[b * S + j] = 1n;
      }
      tokens += l;
    }
    const t0 = performance.now();
    const logits = await run({ inputIds, attentionMask, batch: B, sequence: S });
    runMs += performance.now() - t0;
    positions += B * S;
    runs++;
    const p = softmaxLogits(logits, B, k);
    for (let b = 0; b < B; b++) probs.set(p.subarray(b * k, b * k + k), order[s + b] * k);
  };
  // Lanes take the next batch as they free up; with one lane this is the plain sequential loop.
  const batches = widths.length;
  let next = 0;
  const lane = async () => {
    while (next < batches) await runBatch(next++);
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 1, batches));
  await Promise.all(Array.from({ length: lanes }, lane));
  const out = new Float32Array(n * k);
  for (let r = 0; r < n; r++) out.set(probs.subarray(uniqueOf[r] * k, uniqueOf[r] * k + k), r * k);
  if (stats) {
    stats.rows += n;
    stats.distinct += m;
    stats.runs += runs;
    stats.positions += positions;
    stats.tokens += tokens;
    stats.runMs += runMs;
  }
  return out;
}
