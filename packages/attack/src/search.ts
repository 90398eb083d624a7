import { XtrustError, isGradientProvider, isTokenScorer, type Classifier, type Rng } from '@xtrust/core';
import { alignTokens, textFeatures } from '@xtrust/explainers';
import { attributionDistance } from '@xtrust/metrics';
import type { CandidateConstraint, PreTransformationConstraint } from './constraints/types.js';
import { attributionMap, type GoalResult, type InstanceGoal } from './goal-functions.js';
import { predict, type ExplainFn } from './model.js';
import { isSingleToken, type AttackedText, type Candidate } from './text.js';
import type { Transformation } from './transformations/types.js';

/** Everything a search needs about one instance. */
export interface SearchContext {
  readonly classifier: Classifier;
  readonly goal: InstanceGoal;
  /** The goal function's mode: stop at success (`reach`) or spend the budget (`maximize`). */
  readonly mode: 'reach' | 'maximize';
  readonly original: AttackedText;
  readonly transformation: Transformation;
  readonly pre: readonly PreTransformationConstraint[];
  readonly constraints: readonly CandidateConstraint[];
  readonly rng: Rng;
  /** Candidates each constraint rejected (for the report of why an attack failed). */
  readonly rejections: Record<string, number>;
  /** Candidates generated before the constraints, and evaluated by the goal. */
  readonly counts: { generated: number; evaluated: number };
}

/** How the search ended. */
export interface SearchOutcome {
  readonly final: AttackedText;
  readonly result: GoalResult;
  readonly status: 'succeeded' | 'failed';
  /** Why it failed: `no-candidates` (no position had a candidate passing the constraints), `goal-not-reached`, `no-improvement`. */
  readonly reason?: string;
}

/** A search method (TextAttack's `SearchMethod`). */
export interface SearchMethod {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  run(ctx: SearchContext): Promise<SearchOutcome>;
}

/** Positions of `current` every pre-transformation constraint allows. */
export function modifiablePositions(ctx: SearchContext, current: AttackedText): number[] {
  const tests = ctx.pre.map((c) => c.modifiable(current, ctx.original));
  const out: number[] = [];
  for (let i = 0; i < current.length; i++) if (tests.every((t) => t(i))) out.push(i);
  return out;
}

/**
 * Candidate texts for a position from words the transformation proposed: single tokens only, no
 * repeats, not the current word; then every candidate constraint in turn, each on the survivors in one
 * batch.
 */
export async function filterCandidates(
  ctx: SearchContext,
  current: AttackedText,
  index: number,
  words: readonly string[],
): Promise<Candidate[]> {
  const from = current.word(index);
  const seen = new Set<string>([from.toLowerCase()]);
  let cands: Candidate[] = [];
  for (const w of words) {
    const l = w.toLowerCase();
    if (seen.has(l) || !isSingleToken(w)) continue;
    seen.add(l);
    const text = current.replaceWord(index, w);
    cands.push({ text, index, from, to: text.word(index) });
  }
  ctx.counts.generated += cands.length;
  for (const c of ctx.constraints) {
    if (cands.length === 0) break;
    const ok = await c.check(cands, current, ctx.original);
    const kept = cands.filter((_, i) => ok[i]);
    ctx.rejections[c.name] = (ctx.rejections[c.name] ?? 0) + cands.length - kept.length;
    cands = kept;
  }
  return cands;
}

/** Word importance ranking (WIR): a score per position, higher = attacked first. */
export interface WordRanking {
  readonly name: string;
  scores(
    classifier: Classifier,
    text: AttackedText,
    label: number,
    indices: readonly number[],
    rng: Rng,
  ): Promise<Float64Array>;
}

/**
 * Gradient word importance (A2T, Yoo & Qi 2021; TextAttack `wir_method="gradient"`): the L1 norm of the
 * mean gradient of the label's probability w.r.t. the input vectors of the word's model tokens. Needs a
 * GradientProvider (UNSUPPORTED otherwise — never faked).
 */
export function gradientRanking(): WordRanking {
  return {
    name: 'gradient',
    async scores(classifier, text, label, indices) {
      if (!isGradientProvider(classifier)) {
        throw new XtrustError(
          'UNSUPPORTED',
          'gradient word importance needs a GradientProvider classifier; use omissionRanking() for a black-box model',
          { method: 'gradient' },
        );
      }
      const g = await classifier.inputGradients(text.text, label, { output: 'probability' });
      const tf = textFeatures(text.text, false);
      const align = alignTokens(tf, g.tokens);
      const dim = g.dim;
      const sum = new Float64Array(text.length * dim);
      const cnt = new Float64Array(text.length);
      for (let t = 0; t < align.length; t++) {
        const w = align[t];
        if (w < 0) continue;
        cnt[w]++;
        for (let d = 0; d < dim; d++) sum[w * dim + d] += g.gradients[t * dim + d];
      }
      return Float64Array.from(indices, (i) => {
        if (cnt[i] === 0) return 0;
        let s = 0;
        for (let d = 0; d < dim; d++) s += Math.abs(sum[i * dim + d] / cnt[i]);
        return s;
      });
    },
  };
}

/**
 * Leave-one-out word importance (TextAttack `wir_method="delete"`; omission, Li et al. 2016): the drop of
 * the label's probability when the word is deleted. All deletions in one model call (token masks when the
 * classifier is a TokenScorer, strings otherwise).
 */
export function omissionRanking(): WordRanking {
  return {
    name: 'omission',
    async scores(classifier, text, label, indices) {
      if (text.length < 2) return new Float64Array(indices.length); // removing the only word leaves no text
      const k = classifier.labels.length;
      let probs: Float32Array;
      if (isTokenScorer(classifier)) {
        const T = text.length;
        const rows = indices.length + 1;
        const masks = new Uint8Array(rows * T).fill(1);
        indices.forEach((i, r) => (masks[(r + 1) * T + i] = 0));
        probs = await classifier.scoreTokenMasks(text.text, masks, rows);
      } else {
        probs = await predict(
          classifier,
          [text.text, ...indices.map((i) => text.deleteWord(i))],
          'omission ranking: classifier',
        );
      }
      return Float64Array.from(indices, (_, r) => probs[label] - probs[(r + 1) * k + label]);
    },
  };
}

/**
 * CEA's word importance (002 Algorithm 1 line 3): I_w = d[A(s_{w→0}), A(s)], the attribution distance when
 * the word is removed, over the remaining positions. One explainer call for all removals.
 */
export function attributionDistanceRanking(explain: ExplainFn): WordRanking {
  return {
    name: 'attribution-distance',
    async scores(classifier, text, label, indices) {
      if (text.length < 2) return new Float64Array(indices.length); // nothing left to explain after a removal
      const texts = [text.text, ...indices.map((i) => text.deleteWord(i))];
      const ex = await explain(classifier, texts, label);
      const a0 = attributionMap(text.text, ex[0]);
      return Float64Array.from(indices, (i, r) => {
        const a = attributionMap(texts[r + 1], ex[r + 1]);
        const ref = Float64Array.from({ length: a0.length - 1 }, (_, j) => a0[j < i ? j : j + 1]);
        if (a.length !== ref.length || a.length < 2) return 0;
        return attributionDistance(ref, a);
      });
    },
  };
}

/** Positions in a seeded random order (TextAttack `wir_method="random"`). */
export function randomRanking(): WordRanking {
  return { name: 'random', scores: async (_c, _t, _l, indices, rng) => Float64Array.from(indices, () => rng.float()) };
}

export interface GreedyOptions {
  ranking: WordRanking;
  /**
   * Positions whose candidates are generated together: 1 (TextAttack's greedy WIR) or CEA's batch masking,
   * n_b = max(1, ⌊|s|·ρ_b⌋) given as a function of the word count.
   */
  blockSize?: number | ((words: number) => number);
}

/**
 * Greedy word swap by word importance (TextAttack's GreedyWordSwapWIR, Jin et al. 2020; CEA's Algorithm
 * 1 when blocks > 1): rank the modifiable positions once, then for each in turn score all its candidates
 * in one goal call and keep the best if it raises the goal score. A `reach` goal stops at the first
 * success and returns, among the successful candidates of that step, the one most similar to the
 * original (sentence-encoder score) as TextAttack does; a `maximize` goal runs until the modification
 * budget is spent and succeeds when at least one swap was kept.
 */
export function greedySearch(options: GreedyOptions): SearchMethod {
  const block = options.blockSize ?? 1;
  return {
    name: 'greedy-word-swap',
    params: { ranking: options.ranking.name, blockSize: typeof block === 'number' ? block : 'batch-masking' },
    async run(ctx) {
      const { goal, original } = ctx;
      const positions = modifiablePositions(ctx, original);
      const importance = await options.ranking.scores(ctx.classifier, original, goal.label, positions, ctx.rng);
      const order = positions
        .map((p, n) => ({ p, s: importance[n] }))
        .sort((a, b) => b.s - a.s || a.p - b.p)
        .map((x) => x.p);
      const b = Math.max(1, typeof block === 'number' ? block : block(original.length));
      await ctx.transformation.prepare?.(original, order, {
        label: goal.label,
        labels: ctx.classifier.labels,
        original,
      });
      let current = original;
      let cur = goal.initial;
      let anyCandidate = false;
      let accepted = 0;
      for (let start = 0; start < order.length; start += b) {
        const open = new Set(modifiablePositions(ctx, current));
        const blockPositions = order.slice(start, start + b).filter((p) => open.has(p));
        if (open.size === 0) break; // the modification budget is spent
        if (blockPositions.length === 0) continue;
        const proposals = await ctx.transformation.candidates(current, blockPositions, {
          label: goal.label,
          labels: ctx.classifier.labels,
          original,
        });
        for (let n = 0; n < blockPositions.length; n++) {
          const p = blockPositions[n];
          if (!modifiablePositions(ctx, current).includes(p)) continue;
          const cands = await filterCandidates(ctx, current, p, proposals[n] ?? []);
          if (cands.length === 0) continue;
          anyCandidate = true;
          const results = await goal.evaluate(cands.map((c) => c.text));
          ctx.counts.evaluated += cands.length;
          let best = -1;
          results.forEach((r, i) => {
            if (r.valid && (best < 0 || r.score > results[best].score)) best = i;
          });
          if (best < 0 || !(results[best].score > cur.score)) continue;
          if (results[best].succeeded) {
            // among the successful swaps, the one closest to the original in meaning
            let pick = best;
            results.forEach((r, i) => {
              if (r.valid && r.succeeded && (cands[i].similarity ?? -Infinity) > (cands[pick].similarity ?? -Infinity))
                pick = i;
            });
            return { final: cands[pick].text, result: results[pick], status: 'succeeded' };
          }
          current = cands[best].text;
          cur = results[best];
          accepted++;
        }
      }
      if (!anyCandidate) return { final: current, result: cur, status: 'failed', reason: 'no-candidates' };
      if (goal.initial === cur) return { final: current, result: cur, status: 'failed', reason: 'no-improvement' };
      return accepted > 0 && ctx.mode === 'maximize'
        ? { final: current, result: cur, status: 'succeeded' }
        : { final: current, result: cur, status: 'failed', reason: 'goal-not-reached' };
    },
  };
}
