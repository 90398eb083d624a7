import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { cosineMatrix } from '@xtrust/native';
import { checkWords } from './words.js';

/** One member's view of a similarity query. */
export interface MemberSimilarities {
  readonly name: string;
  /**
   * |a|×|b| cosine similarities, row-major; NaN where this member lacks the row's or column's word —
   * a missing word is reported as missing, never compared as a zero vector.
   */
  readonly matrix: Float32Array;
  /** 1 where the member knows a[i] / b[j]. */
  readonly knownA: Uint8Array;
  readonly knownB: Uint8Array;
}

/**
 * A named list of word embeddings that TOKI votes across (000_6d314fe57d39eb4c.txt §3 and §6.4:
 * "word embedding ensemble model" with plurality voting, used to offset each embedding's training
 * bias). Members keep their own vocabularies and OOV behaviour; the ensemble only batches the
 * queries and labels the results by member name.
 */
export class EmbeddingEnsemble {
  readonly members: readonly WordEmbedding[];

  constructor(members: readonly WordEmbedding[]) {
    if (members.length === 0)
      throw new XtrustError('INVALID_ARGUMENT', 'EmbeddingEnsemble: at least one embedding is needed');
    const names = new Set<string>();
    for (const m of members) {
      if (names.has(m.name))
        throw new XtrustError('INVALID_ARGUMENT', `EmbeddingEnsemble: two members are named "${m.name}"`, {
          name: m.name,
        });
      names.add(m.name);
    }
    this.members = members;
  }

  get names(): string[] {
    return this.members.map((m) => m.name);
  }

  /** The member with this name (NOT_FOUND otherwise). */
  get(name: string): WordEmbedding {
    const m = this.members.find((e) => e.name === name);
    if (!m)
      throw new XtrustError(
        'NOT_FOUND',
        `EmbeddingEnsemble has no member "${name}" (members: ${this.names.join(', ')})`,
        { name },
      );
    return m;
  }

  /** For each member, which of `words` it knows. */
  coverage(words: readonly string[]): { name: string; known: Uint8Array }[] {
    checkWords(words, 'EmbeddingEnsemble.coverage');
    return this.members.map((m) => ({ name: m.name, known: Uint8Array.from(words, (w) => (m.has(w) ? 1 : 0)) }));
  }

  /**
   * Cosine similarity matrices of `a` × `b` under every member (batched: one `vectors` call per list
   * per member, one native cosineMatrix per member). Pairs with a word a member lacks are NaN.
   */
  async similarities(a: readonly string[], b: readonly string[]): Promise<MemberSimilarities[]> {
    checkWords(a, 'EmbeddingEnsemble.similarities');
    checkWords(b, 'EmbeddingEnsemble.similarities');
    return Promise.all(
      this.members.map(async (m) => {
        const knownA = Uint8Array.from(a, (w) => (m.has(w) ? 1 : 0));
        const knownB = Uint8Array.from(b, (w) => (m.has(w) ? 1 : 0));
        const ka = a.filter((_, i) => knownA[i]);
        const kb = b.filter((_, j) => knownB[j]);
        const matrix = new Float32Array(a.length * b.length).fill(NaN);
        if (ka.length > 0 && kb.length > 0) {
          const [va, vb] = await Promise.all([m.vectors(ka), m.vectors(kb)]);
          const sub = cosineMatrix(va, vb, m.dim);
          for (let i = 0, ii = 0; i < a.length; i++) {
            if (!knownA[i]) continue;
            for (let j = 0, jj = 0; j < b.length; j++) {
              if (!knownB[j]) continue;
              matrix[i * b.length + j] = sub[ii * kb.length + jj];
              jj++;
            }
            ii++;
          }
        }
        return { name: m.name, matrix, knownA, knownB };
      }),
    );
  }
}

/**
 * Plurality vote (000 §3, Leon et al. 2017): the most frequent value among `votes`, ties broken in
 * favour of the value that appears first — deterministic, so the same votes give the same label.
 * Undefined votes (a member that abstained, e.g. for lack of vocabulary) are ignored; undefined when
 * every member abstained.
 */
export function pluralityVote<T>(votes: readonly (T | undefined)[]): T | undefined {
  const counts = new Map<T, number>();
  let best: T | undefined;
  let bestCount = 0;
  for (const v of votes) {
    if (v === undefined) continue;
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  // "first to reach the top count" is the value seen first among those tied at the top
  if (best === undefined) return undefined;
  for (const v of votes) if (v !== undefined && counts.get(v) === bestCount) return v;
  return best;
}

export interface DefaultEnsembleOptions {
  /** GloVe 6B 100-d (default true). */
  glove?: boolean;
  /** Counter-fitted GloVe (default true; built and cached on first use, ~10–20 s). */
  counterFitted?: boolean;
  /** Universal Sentence Encoder lite (default true). */
  use?: boolean;
  /** A local transformer model folder (HF layout) to add, when present. */
  transformer?: string;
}

/**
 * The ensemble TOKI votes across here: GloVe, counter-fitted GloVe, USE and, when a folder is
 * given, a transformer model (000 §6.4 used NNLM, GloVe, Swivel, fastText, USE and more; those
 * that ship offline on npm are the ones available here). Members load in parallel and are shared
 * with other callers in the process.
 */
export async function loadDefaultEnsemble(options: DefaultEnsembleOptions = {}): Promise<EmbeddingEnsemble> {
  const tasks: Promise<WordEmbedding>[] = [];
  if (options.glove !== false) tasks.push(import('./glove.js').then((m) => m.GloveEmbedding.load()));
  if (options.counterFitted !== false)
    tasks.push(import('./counter-fitting.js').then((m) => m.CounterFittedEmbedding.load()));
  if (options.use !== false) tasks.push(import('./use.js').then((m) => m.UseEmbedding.load()));
  if (options.transformer) {
    const folder = options.transformer;
    tasks.push(import('./transformer-embedding.js').then((m) => m.TransformerEmbedding.load(folder)));
  }
  return new EmbeddingEnsemble(await Promise.all(tasks));
}
