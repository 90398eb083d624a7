import type { PreparedLists } from './ranked-list.js';
import { checkFinite, invalid, invalidDetail } from './validate.js';

/**
 * Syn(a, b) ∈ [0, 1]: how synonymous the substitute b is with the original word a; Syn(x, x) = 1.
 * Source: 001_3eb24fee3e674c02.txt §4 (= 004_87dc91cae9faa268.txt §4). Metrics never computes it
 * itself: it arrives from @xtrust/embeddings (or anything else) through this type.
 */
export type Syn = (a: string, b: string) => number;

/**
 * The perturbation mapping a → b between the original explanation A and the perturbed one B
 * (001 §3): each original word the attack replaced, and its substitute. One-to-one: a word may appear
 * at most once as an original and at most once as a substitute. Given as a Map or as [a, b] pairs.
 */
export type SynonymMapping = ReadonlyMap<string, string> | ReadonlyArray<readonly [string, string]>;

/**
 * The interval form of Syn (001 §4): the cosine of two word vectors clipped to [0, 1] (an antonym or an
 * unrelated word scores 0), and exactly 1 for identical words.
 * @param cosine any cosine similarity, e.g. from a WordEmbedding; it must return a finite number.
 */
export function intervalSyn(cosine: (a: string, b: string) => number): Syn {
  if (typeof cosine !== 'function') throw invalid('cosine', 'a function (a, b) => cosine similarity', cosine);
  return (a, b) => {
    if (a === b) return 1;
    const c = checkFinite(`cosine("${a}", "${b}")`, cosine(a, b));
    return c <= 0 ? 0 : Math.min(c, 1);
  };
}

/**
 * The thesaurus form of Syn (001 §4, used with WordNet in 004 §6.1): the characteristic function of the
 * synonym set S_a — 1 when b ∈ S_a (or b = a), otherwise 0. S_a is directional, as in the paper.
 * @param synonyms a predicate "is b a synonym of a", or a map from a word to its synonyms.
 */
export function thesaurusSyn(
  synonyms: ((a: string, b: string) => boolean) | ReadonlyMap<string, ReadonlySet<string> | readonly string[]>,
): Syn {
  if (typeof synonyms === 'function') return (a, b) => (a === b || synonyms(a, b) === true ? 1 : 0);
  if (!(synonyms instanceof Map))
    throw invalid('synonyms', 'a predicate or a Map from a word to its synonyms', synonyms);
  return (a, b) => {
    if (a === b) return 1;
    const s = synonyms.get(a);
    if (s === undefined) return 0;
    return (s instanceof Set ? s.has(b) : (s as readonly string[]).includes(b)) ? 1 : 0;
  };
}

/** A mapped pair a → b that the weighted measures use: a at rank i of A, b at rank j of B (0-based). */
export interface MappedPair {
  readonly a: string;
  readonly b: string;
  readonly i: number;
  readonly j: number;
  readonly syn: number;
}

function entriesOf(mapping: SynonymMapping): Array<readonly [string, string]> {
  if (mapping instanceof Map) return [...mapping.entries()];
  if (Array.isArray(mapping)) return mapping as Array<readonly [string, string]>;
  throw invalid('mapping', 'a Map<original, substitute> or an array of [original, substitute] pairs', mapping);
}

/**
 * The pairs of the mapping that carry synonymity between the two prepared lists. A pair a → b is used
 * when a is in A but no longer in B and b is in B but not in A. Otherwise it is ignored: a word still in
 * both lists counts as unchanged, a substitute that is itself an original word would be counted twice,
 * and an a whose substitute left the (top-k) list B is simply missing from B (the measure's penalty).
 * Syn is called only for the used pairs and must return a number in [0, 1].
 */
export function resolveMapping(lists: PreparedLists, mapping: SynonymMapping, syn: Syn): MappedPair[] {
  if (typeof syn !== 'function') throw invalid('syn', 'a function (a, b) => number in [0, 1]', syn);
  const entries = entriesOf(mapping);
  const fromSeen = new Set<string>();
  const toSeen = new Set<string>();
  const pairs: MappedPair[] = [];
  entries.forEach((entry, n) => {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
      throw invalid(`mapping[${n}]`, 'an [original, substitute] pair of strings', entry);
    }
    const [a, b] = entry;
    if (fromSeen.has(a)) throw invalidDetail('mapping', 'a one-to-one mapping', `"${a}" mapped twice`);
    if (toSeen.has(b))
      throw invalidDetail('mapping', 'a one-to-one mapping', `"${b}" used as the substitute of two words`);
    fromSeen.add(a);
    toSeen.add(b);
    const i = lists.rankA.get(a);
    const j = lists.rankB.get(b);
    if (i === undefined || j === undefined || lists.rankB.has(a) || lists.rankA.has(b)) return;
    const s = syn(a, b);
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 1) {
      throw invalid(`syn("${a}", "${b}")`, 'a number in [0, 1]', s);
    }
    pairs.push({ a, b, i, j, syn: s });
  });
  return pairs;
}

/**
 * Anything that scores synonymity, possibly asynchronously — structurally what @xtrust/embeddings'
 * `EmbeddingSynonymity` and `SynonymThesaurus` offer (metrics does not import them). `synPairs`, when
 * present, is preferred: one batched call for all pairs.
 */
export interface SynonymitySource {
  syn?(a: string, b: string): number | Promise<number>;
  synPairs?(a: readonly string[], b: readonly string[]): Promise<ArrayLike<number>>;
}

/**
 * Scores every pair of the given perturbation mappings once (batched through `synPairs` when the source
 * has it) and returns a synchronous `Syn` that looks them up — the bridge from an async synonymity
 * source to the pure weighted measures. The returned Syn gives 1 for identical words and throws
 * INVALID_ARGUMENT for a pair that was not precomputed; values are checked when a measure uses them.
 */
export async function precomputeSyn(source: SynonymitySource, mappings: Iterable<SynonymMapping>): Promise<Syn> {
  if (!source || (typeof source.synPairs !== 'function' && typeof source.syn !== 'function')) {
    throw invalid('source', 'an object with syn(a, b) or synPairs(a[], b[])', source);
  }
  const key = (a: string, b: string) => `${a}\u0000${b}`;
  const table = new Map<string, number>();
  const as: string[] = [];
  const bs: string[] = [];
  for (const m of mappings) {
    entriesOf(m).forEach((entry, n) => {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
        throw invalid(`mapping[${n}]`, 'an [original, substitute] pair of strings', entry);
      }
      const k = key(entry[0], entry[1]);
      if (entry[0] === entry[1] || table.has(k)) return;
      table.set(k, Number.NaN);
      as.push(entry[0]);
      bs.push(entry[1]);
    });
  }
  if (as.length > 0) {
    let values: ArrayLike<number>;
    if (typeof source.synPairs === 'function') values = await source.synPairs(as, bs);
    else values = await Promise.all(as.map((a, i) => source.syn!(a, bs[i])));
    if (!values || values.length !== as.length) throw invalid('source.synPairs', `${as.length} values`, values);
    for (let i = 0; i < as.length; i++) table.set(key(as[i], bs[i]), values[i]);
  }
  return (a, b) => {
    if (a === b) return 1;
    const v = table.get(key(a, b));
    if (v === undefined) throw invalidDetail('syn', 'a pair given to precomputeSyn', `("${a}", "${b}")`);
    return v;
  };
}
