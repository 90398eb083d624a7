import { XtrustError, tokenize, type Classifier, type Explanation, type WordEmbedding } from '@xtrust/core';
import { NeighbourIndex } from '@xtrust/embeddings';
import { isFunctionWord } from './function-words.js';
import { decisionWords, normalizeWord } from './word-pool.js';

/**
 * Settings of the surface-token check (OracleConfig.tokenCheck): does the model respond to a keyword's
 * *meaning* or to its one surface token?
 */
export interface TokenCheckSettings {
  /** Meaning-neighbours each word is replaced with (nearest words of the embedding among the training sample's words). */
  readonly neighbours: number;
  /** Texts per word: the explained training texts of the class in which the word weighed most. */
  readonly texts: number;
  /** Words tested per class: at most this many of its concentrated keywords, largest Σ s first (a cost cap). */
  readonly maxWords: number;
  /**
   * Only a *concentrated* keyword is tested: its Σ s in the class pool (Eq. 2's sum over explanations) is
   * at least this many times the median Σ s of the class's `referenceWords` heaviest content words. A
   * shortcut carries a share of a class's decisions no genuine word does (a planted word sits in the
   * decision of every text it is in); ordinary keywords are never tested, so they cannot be demoted.
   */
  readonly minConcentration: number;
  /** How many of a class's heaviest content words the concentration's median is taken over. */
  readonly referenceWords: number;
  /** A keyword whose retention is below this is a surface token: it stops being a keyword. */
  readonly minRetention: number;
  /** A neighbour must occur in at least this many sampled training texts (a word the model can have learned). */
  readonly minTextCount: number;
  /** A word whose deletion moves the class log-odds by less than this is not tested (no response to measure). */
  readonly minEffect: number;
}

/** One word's response: what deleting it and replacing it by its meaning-neighbours does to the class log-odds. */
export interface TokenResponse {
  readonly word: string;
  /** Mean drop of log-odds(c) when the word is deleted from its texts. */
  readonly deletion: number;
  /** Mean drop when it is replaced by one of its neighbours (over texts × neighbours). */
  readonly substitution: number;
  /** 1 − substitution / deletion: the share of the word's effect that its meaning-neighbours keep. */
  readonly retention: number;
  readonly neighbours: readonly string[];
  readonly texts: number;
  /** Σ s of the word over the median Σ s of the class's heaviest content words (set by checkSurfaceTokens). */
  readonly concentration?: number;
}

const EPS = 1e-6;

/** log p_c − log(1 − p_c): effects of words add up on this scale for a logistic model, and it does not saturate near p = 1. */
function logOdds(p: number): number {
  const q = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(q) - Math.log(1 - q);
}

/** `text` with every token equal (case-folded) to `word` replaced by `by` ('' deletes it). */
export function replaceWord(text: string, word: string, by: string): string {
  const w = normalizeWord(word);
  let out = '';
  let at = 0;
  for (const t of tokenize(text)) {
    if (normalizeWord(t.text) !== w) continue;
    out += text.slice(at, t.start) + by;
    at = t.end;
  }
  return out + text.slice(at);
}

/**
 * For each (class, word): the word's retention under substitution by its meaning-neighbours, measured
 * with the model on the texts where the word carried the decision most. A model that is right for the
 * right reasons responds to what a word means, so a genuine keyword's near-synonyms move the prediction
 * the same way (retention well above 0: "god" → "lord" keeps a religion text religious); a shortcut is
 * one surface token — replacing a planted "tuesday" by "monday" removes its effect as fully as deleting
 * it (retention ≈ 0). This is Burger et al.'s synonym-substitution robustness turned on single words,
 * and the model-side signal of issue 29: the embedding's cosine to a class name cannot tell an everyday
 * word from a keyword, the model's response to its neighbours can.
 *
 * Neighbours are the `neighbours` nearest words of `embedding` among `vocabulary` (words of the training
 * sample the model can have learned), never function words or the word itself. All variants of all
 * words go to the model in one batched call. A word with no known vector, no texts, or too small an
 * effect on deletion is not reported (it keeps its status).
 */
export async function tokenResponses(
  classifier: Classifier,
  requests: readonly { readonly label: string; readonly word: string; readonly texts: readonly string[] }[],
  embedding: WordEmbedding,
  vocabulary: readonly string[],
  settings: Pick<TokenCheckSettings, 'neighbours' | 'minEffect'>,
  /** Counts the texts sent to the model (the check's cost). */
  stats: { modelTexts: number } = { modelTexts: 0 },
): Promise<Map<string, Map<string, TokenResponse>>> {
  const out = new Map<string, Map<string, TokenResponse>>();
  const known = requests.filter((r) => r.texts.length > 0 && embedding.has(r.word));
  if (known.length === 0) return out;
  const index = await NeighbourIndex.build(
    embedding,
    vocabulary.filter((w) => embedding.has(w)),
  );
  if (index.size === 0) return out;
  // a few extra candidates: a function word among the nearest is dropped after the search (the vocabulary has none, but a case variant may fold to the word itself)
  const found = await index.query(
    known.map((r) => r.word),
    settings.neighbours + 4,
  );
  const texts: string[] = [];
  const plan: {
    label: string;
    word: string;
    neighbours: string[];
    base: number[];
    deleted: number[];
    substituted: number[][];
  }[] = [];
  for (const [i, r] of known.entries()) {
    const w = normalizeWord(r.word);
    const neighbours = found[i]
      .map((n) => normalizeWord(n.word))
      .filter((n) => n !== w && !isFunctionWord(n))
      .slice(0, settings.neighbours);
    if (neighbours.length === 0) continue;
    const entry = {
      label: r.label,
      word: w,
      neighbours,
      base: [] as number[],
      deleted: [] as number[],
      substituted: [] as number[][],
    };
    for (const t of r.texts) {
      entry.base.push(texts.push(t) - 1);
      entry.deleted.push(texts.push(replaceWord(t, w, '')) - 1);
      entry.substituted.push(neighbours.map((n) => texts.push(replaceWord(t, w, n)) - 1));
    }
    plan.push(entry);
  }
  if (texts.length === 0) return out;
  stats.modelTexts += texts.length;
  const probs = await classifier.predictProba(texts);
  const k = classifier.labels.length;
  if (probs.length !== texts.length * k)
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `token check: the model returned ${probs.length} values for ${texts.length} texts × ${k} classes`,
    );
  for (const e of plan) {
    const c = classifier.labels.indexOf(e.label);
    if (c < 0)
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `token check: class "${e.label}" is not one of the model's labels (${classifier.labels.join(', ')})`,
        { label: e.label },
      );
    const L = (row: number) => logOdds(probs[row * k + c]);
    let del = 0;
    let sub = 0;
    let subN = 0;
    e.base.forEach((b, j) => {
      const base = L(b);
      del += base - L(e.deleted[j]);
      for (const s of e.substituted[j]) {
        sub += base - L(s);
        subN++;
      }
    });
    del /= e.base.length;
    sub /= subN;
    if (!(del >= settings.minEffect)) continue;
    let perClass = out.get(e.label);
    if (!perClass) out.set(e.label, (perClass = new Map()));
    perClass.set(e.word, {
      word: e.word,
      deletion: del,
      substitution: sub,
      retention: 1 - sub / del,
      neighbours: e.neighbours,
      texts: e.base.length,
    });
  }
  return out;
}

/**
 * The texts each (class, word) is tested on: for every explanation of a correctly predicted training
 * text of class c, its decision-contributing words (Eq. 2's); per word, the `perWord` texts in which it
 * weighed most (ties by input order).
 */
export function evidenceTexts(
  explanations: readonly Explanation[],
  topK: number,
  perWord: number,
): Map<string, Map<string, string[]>> {
  const best = new Map<string, Map<string, { weight: number; text: string }[]>>();
  for (const e of explanations) {
    let perClass = best.get(e.predictedLabel);
    if (!perClass) best.set(e.predictedLabel, (perClass = new Map()));
    for (const { word, weight } of decisionWords(e, topK)) {
      let list = perClass.get(word);
      if (!list) perClass.set(word, (list = []));
      list.push({ weight, text: e.text });
    }
  }
  const out = new Map<string, Map<string, string[]>>();
  for (const [label, perClass] of best) {
    const m = new Map<string, string[]>();
    for (const [word, list] of perClass) {
      // stable sort: equal weights keep input order
      m.set(
        word,
        list
          .sort((a, b) => b.weight - a.weight)
          .slice(0, perWord)
          .map((x) => x.text),
      );
    }
    out.set(label, m);
  }
  return out;
}

/** Words of the texts occurring in at least `minTexts` of them (document frequency), lower-cased, no function words: the neighbour vocabulary. */
export function sampleVocabulary(texts: readonly string[], minTexts: number): string[] {
  const df = new Map<string, number>();
  for (const t of texts) {
    for (const w of new Set(tokenize(t).map((x) => normalizeWord(x.text)))) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return [...df]
    .filter(([w, n]) => n >= minTexts && /^\p{L}+$/u.test(w) && !isFunctionWord(w))
    .map(([w]) => w)
    .sort();
}
