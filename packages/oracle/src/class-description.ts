import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { cosineMatrix } from '@xtrust/native';
import { wordnet, wordNetDescription, type WordNet } from '@xtrust/embeddings';
import { FUNCTION_WORDS } from './function-words.js';
import { classNameVector } from './word-vectors.js';

/**
 * How a vector's relatedness to a class described by several words (the name d_0 and the description's
 * items d_1…d_m) is computed — what replaces Eq. 4's sim(mean vector of C_i, c) and TOKI(–K.I)'s
 * sim(w, c) (§3.1, §6.1), compared with the same θ_relate:
 * - `centroid`: cos(v, mean of the item vectors) — the description's mean vector stands for the class;
 * - `max`: max_j cos(v, d_j) — v relates when it is close to any one item (the name included);
 * - `member-max`: for a cluster, the mean over its members w of max_j cos(w, d_j) (for one word: its max) —
 *   each member is compared with its nearest item before averaging, so one close member cannot carry a
 *   cluster the way one close word carries a mean vector.
 */
export type DescriptionRelate = 'centroid' | 'max' | 'member-max';

/** The automatic description of a class name from WordNet (wordNetDescription in @xtrust/embeddings). */
export interface WordNetDescriptionSettings {
  /** Senses read per part of speech (noun, adjective), most frequent first. */
  readonly senses: number;
  /** Content words of the senses' definitions (function words dropped: FUNCTION_WORDS). */
  readonly gloss: boolean;
  readonly hypernyms: boolean;
  readonly hyponyms: boolean;
}

/**
 * Describing a class by several words instead of its one name (OracleConfig.classDescription): the
 * automatic WordNet description (or null: only the descriptions a user gives, OracleConfig.classDescriptions)
 * and the relatedness rule.
 */
export interface ClassDescriptionConfig {
  readonly wordnet: WordNetDescriptionSettings | null;
  readonly relate: DescriptionRelate;
}

/**
 * The WordNet description chosen for the `toki+desc` configuration (issue 29) on the CHOICE half of the
 * person-written word lists (apps/bench oracle/word-list-agreement.ts; alternate words in file order) and
 * then on the validation family of drawn shortcut cases: the class name with every noun and adjective
 * sense whose case agrees with it — their lemmas and definition words — and no hypernyms or hyponyms
 * (they changed no choice-half figure); a cluster relates when the mean over its members of each
 * member's largest cosine with a description item is ≥ θ_relate (`member-max`). With one sense or the
 * description's mean vector, fewer classes reached precision and recall ≥ 0.8 on the choice half;
 * `max` tied `member-max` there and scored a lower validation median (0.978 vs 0.980).
 */
export const WORDNET_CLASS_DESCRIPTION: ClassDescriptionConfig = Object.freeze({
  // every sense: a finite number, since configurations are saved as JSON
  wordnet: Object.freeze({ senses: Number.MAX_SAFE_INTEGER, gloss: true, hypernyms: false, hyponyms: false }),
  relate: 'member-max',
});

/** A user-given description of a class: words, or a sentence whose content words are taken. */
export type UserDescription = string | readonly string[];

/** The relatedness rule a user-given description is used with when the configuration names none: the one chosen for `toki+desc` (WORDNET_CLASS_DESCRIPTION). */
export const DEFAULT_DESCRIPTION_RELATE: DescriptionRelate = 'member-max';

/**
 * The items (words or multi-word lemmas) that describe one class: its name first, then — in this order,
 * once each, function words (FUNCTION_WORDS) left out — the user's description (a sentence is split into
 * its content words; a list is taken item by item) and the automatic WordNet description of the name.
 */
export function classDescriptionItems(
  name: string,
  config: ClassDescriptionConfig | null,
  user: UserDescription | undefined,
  wn: WordNet = wordnet(),
): string[] {
  const items: string[] = [];
  const add = (raw: string) => {
    const w = raw.toLowerCase().replace(/_/g, ' ').trim();
    if (w === '' || FUNCTION_WORDS.has(w) || items.includes(w)) return;
    items.push(w);
  };
  add(name);
  if (user !== undefined) {
    if (typeof user === 'string')
      for (const m of user.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu)) add(m[0]);
    else for (const w of user) add(w);
  }
  const auto = config?.wordnet;
  if (auto) {
    const d = wordNetDescription(wn, name, {
      senses: auto.senses,
      gloss: auto.gloss,
      hypernyms: auto.hypernyms,
      hyponyms: auto.hyponyms,
      stopWords: FUNCTION_WORDS,
    });
    for (const w of [...d.lemmas, ...d.glossWords, ...d.hypernyms, ...d.hyponyms]) add(w);
  }
  return items;
}

/** One class's target under one embedding: the vectors of the description items it knows (a multi-word item is the mean of its known words, as a class name is). */
export interface DescriptionTarget {
  readonly dim: number;
  /** Row-major item vectors; row 0 is the name's when the embedding knows it. */
  readonly items: Float32Array;
  readonly count: number;
  /** The description item of each row (the items the embedding knows, in order): what a word's nearest row is called. */
  readonly names: readonly string[];
  /** The mean of the item vectors (the `centroid` rule's class vector). */
  readonly centroid: Float32Array;
}

/** The target of a description under `embedding`, or null when it knows none of the items (the method abstains, as with an unknown name). */
export async function descriptionTarget(
  embedding: WordEmbedding,
  items: readonly string[],
): Promise<DescriptionTarget | null> {
  const rows: Float32Array[] = [];
  const names: string[] = [];
  for (let i = 0; i < items.length; i++) {
    // the name (item 0) as Eq. 4 takes it; a described item whole when the embedding knows it ("e-mail"), else as a name
    const it = items[i];
    const whole =
      i > 0 && !/\s/u.test(it) && embedding.has(it) ? (await embedding.vectors([it])).slice(0, embedding.dim) : null;
    const v = whole ?? (await classNameVector(embedding, it));
    if (v) {
      rows.push(v);
      names.push(it);
    }
  }
  if (rows.length === 0) return null;
  const dim = embedding.dim;
  const out = new Float32Array(rows.length * dim);
  const centroid = new Float32Array(dim);
  rows.forEach((r, i) => {
    out.set(r, i * dim);
    for (let d = 0; d < dim; d++) centroid[d] += r[d] / rows.length;
  });
  return { dim, items: out, count: rows.length, names, centroid };
}

/**
 * Relatedness scores of n row vectors (cluster means or words) to a described class, under `relate`
 * (DescriptionRelate). `groups` (member-max only) gives, per row, the member vectors to average over
 * — without it each row is its own single member. The score is compared with θ_relate as Eq. 4 compares
 * sim(mean vector, c).
 */
export function descriptionScores(
  vectors: Float32Array,
  n: number,
  target: DescriptionTarget,
  relate: DescriptionRelate,
  groups?: { readonly members: Float32Array; readonly memberOf: Int32Array },
): Float32Array {
  const out = new Float32Array(n);
  if (n === 0) return out;
  const dim = target.dim;
  if (relate === 'centroid') return cosineMatrix(vectors, target.centroid, dim);
  if (relate === 'max' || !groups) {
    const sims = cosineMatrix(vectors, target.items, dim);
    for (let i = 0; i < n; i++) {
      let best = -Infinity;
      for (let j = 0; j < target.count; j++) best = Math.max(best, sims[i * target.count + j]);
      out[i] = best;
    }
    return out;
  }
  const m = groups.memberOf.length;
  const sims = cosineMatrix(groups.members, target.items, dim);
  const sizes = new Float64Array(n);
  const sums = new Float64Array(n);
  for (let r = 0; r < m; r++) {
    let best = -Infinity;
    for (let j = 0; j < target.count; j++) best = Math.max(best, sims[r * target.count + j]);
    const g = groups.memberOf[r];
    sums[g] += best;
    sizes[g]++;
  }
  for (let i = 0; i < n; i++) out[i] = sizes[i] > 0 ? sums[i] / sizes[i] : -Infinity;
  return out;
}

/**
 * Checks user-given class descriptions against the model's labels: every key must be a label and every
 * value a non-empty string or a non-empty list of non-empty strings. `source` names where they came from
 * (a file) in the error.
 */
export function checkClassDescriptions(
  descriptions: unknown,
  labels: readonly string[],
  source = 'classDescriptions',
): Readonly<Record<string, UserDescription>> {
  if (typeof descriptions !== 'object' || descriptions === null || Array.isArray(descriptions)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${source}: expected an object mapping labels to descriptions (a string or a list of words)`,
      { source },
    );
  }
  const out: Record<string, UserDescription> = {};
  for (const [label, value] of Object.entries(descriptions as Record<string, unknown>)) {
    if (!labels.includes(label)) {
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `${source}: "${label}" is not one of the model's labels (${labels.join(', ')})`,
        { source, label },
      );
    }
    const ok =
      (typeof value === 'string' && value.trim() !== '') ||
      (Array.isArray(value) && value.length > 0 && value.every((w) => typeof w === 'string' && w.trim() !== ''));
    if (!ok)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${source}: the description of "${label}" must be a non-empty string or a non-empty list of words, got ${JSON.stringify(value)}`,
        { source, label },
      );
    out[label] = typeof value === 'string' ? value : [...(value as string[])];
  }
  return out;
}
