import { existsSync } from 'node:fs';
import { JsonlWriter, XtrustError, isXtrustError, readJsonl, rng, writeJsonl, type Classifier } from '@xtrust/core';
import type { CandidateConstraint, Constraint, PreTransformationConstraint } from './constraints/types.js';
import type { GoalFunction } from './goal-functions.js';
import { countQueries } from './model.js';
import { modifiablePositions, type SearchContext, type SearchMethod } from './search.js';
import { AttackedText } from './text.js';
import type { Transformation } from './transformations/types.js';

/** The four parts of an attack (TextAttack's decomposition, Morris et al. 2020) and its name. */
export interface AttackSpec {
  /** Recipe name written into every record (`a2t`, `toki-guided`, `cea`, `cea-context`, `tef`, `xaifooler`, …). */
  readonly name: string;
  readonly goal: GoalFunction;
  readonly transformation: Transformation;
  readonly constraints: readonly Constraint[];
  readonly search: SearchMethod;
  /** Texts with fewer words are skipped (`too-short`). Default 1. */
  readonly minWords?: number;
  /** Extra parameters to record (e.g. which ranking fell back, the candidate source). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export type AttackStatus = 'succeeded' | 'failed' | 'skipped';

/** One attacked instance: the JSONL line a run writes as soon as the instance is done. */
export interface AttackRecord {
  readonly recipe: string;
  /** Position of the instance in the run's input list (the resume key). */
  readonly index: number;
  readonly id: string | null;
  readonly seed: number;
  readonly status: AttackStatus;
  /** Why skipped (`too-short`, `no-modifiable-words`, `already-misclassified`, `no-known-words`) or failed (`no-candidates`, `goal-not-reached`, `no-improvement`). */
  readonly reason: string | null;
  readonly original: string;
  /** The perturbed text the search ended with (null when skipped). */
  readonly adversarial: string | null;
  /** The ground truth given, if any. */
  readonly label: string | null;
  readonly originalPrediction: string | null;
  readonly adversarialPrediction: string | null;
  readonly originalProbabilities: readonly number[] | null;
  readonly adversarialProbabilities: readonly number[] | null;
  readonly words: number;
  readonly perturbedWords: number;
  readonly substitutions: readonly { index: number; from: string; to: string }[];
  /** The goal score of the final text (1 − p(label); attribution distance; 1 − similarity). */
  readonly score: number | null;
  /** Goal-specific figures: attributionDistance and pcc; similarity, originalList, perturbedList, mapping. */
  readonly details: Readonly<Record<string, unknown>>;
  /** Texts (or token-mask rows) the model scored for this instance, and calls made. */
  readonly queries: { texts: number; calls: number };
  readonly candidates: { generated: number; evaluated: number };
  /** Candidates rejected per constraint. */
  readonly rejections: Readonly<Record<string, number>>;
  readonly seconds: number;
}

export interface AttackInput {
  readonly text: string;
  /** Ground-truth label; without it the model's prediction is taken as correct. */
  readonly label?: string;
  readonly id?: string;
}

export interface RunOptions {
  /** JSONL file: one record per instance, appended as each finishes; an existing file is resumed. */
  output?: string;
  /** Base seed; instance i is attacked with a seed derived from (seed, i). Default 0. */
  seed?: number;
  /** Called after each instance (resumed ones excluded). */
  onRecord?: (record: AttackRecord, done: number, total: number) => void;
}

export interface RunResult {
  /** All records in input order, resumed ones included. */
  readonly records: AttackRecord[];
  /** Instances found in the output file and not attacked again. */
  readonly resumed: number;
  readonly attacked: number;
}

/** The seed of instance `index` under base seed `seed` (independent of order and of resuming). */
export function instanceSeed(seed: number, index: number): number {
  return (Math.imul(index + 1, 0x9e3779b1) ^ seed) | 0;
}

/**
 * One composable attack: goal function, constraints, transformation and search (the decomposition of
 * TextAttack, Morris et al. 2020). Every recipe of this package is an `Attack`. Seeded, batched (all
 * candidates of a position scored in one model call), and resumable: `run` writes one JSONL line per
 * attacked instance as it finishes and skips instances already in the file.
 */
export class Attack {
  readonly name: string;
  private readonly pre: PreTransformationConstraint[];
  private readonly post: CandidateConstraint[];

  constructor(
    readonly classifier: Classifier,
    readonly spec: AttackSpec,
  ) {
    if (!classifier || typeof classifier.predictProba !== 'function' || !Array.isArray(classifier.labels)) {
      throw new XtrustError('INVALID_ARGUMENT', 'attack: classifier must be a Classifier (labels and predictProba)', {
        argument: 'classifier',
      });
    }
    this.name = spec.name;
    this.pre = spec.constraints.filter((c): c is PreTransformationConstraint => c.kind === 'pre');
    this.post = spec.constraints.filter((c): c is CandidateConstraint => c.kind === 'candidate');
  }

  /** The attack's parts and parameters, as recorded with results. */
  describe(): Record<string, unknown> {
    return {
      recipe: this.name,
      goal: { name: this.spec.goal.name, ...this.spec.goal.params },
      transformation: { name: this.spec.transformation.name, ...this.spec.transformation.params },
      constraints: this.spec.constraints.map((c) => ({ name: c.name, ...c.params })),
      search: { name: this.spec.search.name, ...this.spec.search.params },
      minWords: this.spec.minWords ?? 1,
      ...this.spec.params,
    };
  }

  /** Attacks one text. A text the model already gets wrong, or too short to modify, comes back `skipped` with the reason. */
  async attack(
    text: string,
    options: { label?: string; seed?: number; index?: number; id?: string } = {},
  ): Promise<AttackRecord> {
    const started = performance.now();
    const original = AttackedText.of(text);
    const index = options.index ?? 0;
    const seed = options.seed ?? instanceSeed(0, index);
    const classifier = countQueries(this.classifier);
    const base = {
      recipe: this.name,
      index,
      id: options.id ?? null,
      seed,
      original: text,
      label: options.label ?? null,
      words: original.length,
    };
    const skipped = (reason: string, extra: Partial<AttackRecord> = {}): AttackRecord => ({
      ...base,
      status: 'skipped',
      reason,
      adversarial: null,
      originalPrediction: null,
      adversarialPrediction: null,
      originalProbabilities: null,
      adversarialProbabilities: null,
      perturbedWords: 0,
      substitutions: [],
      score: null,
      details: {},
      queries: { ...classifier.count },
      candidates: { generated: 0, evaluated: 0 },
      rejections: {},
      seconds: (performance.now() - started) / 1000,
      ...extra,
    });
    if (original.length < Math.max(1, this.spec.minWords ?? 1)) return skipped('too-short');
    let goal: Awaited<ReturnType<typeof this.spec.goal.forInstance>>;
    try {
      goal = await this.spec.goal.forInstance(classifier, original, options.label);
    } catch (e) {
      if (isXtrustError(e, 'EMPTY_TEXT') || isXtrustError(e, 'NO_KNOWN_WORDS'))
        return skipped(e.code === 'EMPTY_TEXT' ? 'too-short' : 'no-known-words');
      throw e;
    }
    const labels = classifier.labels;
    const predicted = {
      originalPrediction: labels[goal.initial.predicted],
      originalProbabilities: goal.initial.probabilities,
    };
    if (goal.skip) return skipped(goal.skip, predicted);
    const ctx: SearchContext = {
      classifier,
      goal,
      mode: this.spec.goal.mode,
      original,
      transformation: this.spec.transformation,
      pre: this.pre,
      constraints: this.post,
      rng: rng(seed),
      rejections: {},
      counts: { generated: 0, evaluated: 0 },
    };
    if (modifiablePositions(ctx, original).length === 0) return skipped('no-modifiable-words', predicted);
    const out = await this.spec.search.run(ctx);
    const substitutions = out.final.substitutions();
    return {
      ...base,
      status: out.status,
      reason: out.reason ?? null,
      adversarial: out.final.text,
      ...predicted,
      adversarialPrediction: labels[out.result.predicted],
      adversarialProbabilities: out.result.probabilities,
      perturbedWords: substitutions.length,
      substitutions,
      score: out.result.score,
      details: out.result.details ?? {},
      queries: { ...classifier.count },
      candidates: { ...ctx.counts },
      rejections: ctx.rejections,
      seconds: (performance.now() - started) / 1000,
    };
  }

  /**
   * Attacks a list of instances in order. With `output`, each record is appended to the JSONL file as soon
   * as its instance is done; a file left by an earlier (possibly killed) run of the same recipe on the same
   * inputs is resumed: its instances are neither lost nor attacked again (a half-written last line is
   * dropped and that instance redone). A file made by another recipe or for other texts is refused
   * (INCOMPATIBLE).
   */
  async run(inputs: readonly AttackInput[], options: RunOptions = {}): Promise<RunResult> {
    if (!Array.isArray(inputs))
      throw new XtrustError('INVALID_ARGUMENT', 'attack run: inputs must be an array of {text, label?, id?}', {
        argument: 'inputs',
      });
    inputs.forEach((r, i) => {
      if (typeof r?.text !== 'string')
        throw new XtrustError('DATASET_ROW', `attack run: inputs[${i}] has no text string`, { row: i });
    });
    const seed = options.seed ?? 0;
    const done = new Map<number, AttackRecord>();
    let torn = false;
    if (options.output && existsSync(options.output)) {
      for await (const { line, value } of readJsonl<AttackRecord>(options.output, {
        tolerateTruncatedTail: true,
        onTruncated: () => (torn = true),
      })) {
        const r = value;
        if (r.recipe !== this.name) {
          throw new XtrustError(
            'INCOMPATIBLE',
            `${options.output}:${line}: written by recipe "${r.recipe}", not "${this.name}"; use another output file`,
            { file: options.output, line },
          );
        }
        const input = inputs[r.index];
        if (!input || input.text !== r.original) {
          throw new XtrustError(
            'INCOMPATIBLE',
            `${options.output}:${line}: instance ${r.index} was a different text; this file belongs to another input list`,
            { file: options.output, line },
          );
        }
        if (r.seed !== instanceSeed(seed, r.index)) {
          throw new XtrustError(
            'INCOMPATIBLE',
            `${options.output}:${line}: instance ${r.index} was attacked with another seed; resume with the same seed or another file`,
            { file: options.output, line },
          );
        }
        done.set(r.index, r);
      }
    }
    const resumed = done.size;
    // a killed run left half a line: rewrite the file without it, so later appends keep it parseable
    if (torn && options.output) await writeJsonl(options.output, [...done.values()]);
    const writer = options.output ? new JsonlWriter(options.output) : null;
    let attacked = 0;
    try {
      for (let i = 0; i < inputs.length; i++) {
        if (done.has(i)) continue;
        const r = await this.attack(inputs[i].text, {
          label: inputs[i].label,
          id: inputs[i].id,
          index: i,
          seed: instanceSeed(seed, i),
        });
        writer?.write(r);
        done.set(i, r);
        attacked++;
        options.onRecord?.(r, done.size, inputs.length);
      }
    } finally {
      writer?.close();
    }
    const records = [...done.values()].sort((a, b) => a.index - b.index);
    return { records, resumed, attacked };
  }
}

/** Counts of a run: attacked = succeeded + failed; the success rate is over attacked instances (skips are counted apart). */
export interface RunSummary {
  readonly recipe: string;
  readonly total: number;
  readonly attacked: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly skippedBy: Readonly<Record<string, number>>;
  readonly failedBy: Readonly<Record<string, number>>;
  /** succeeded / attacked (null when nothing was attacked). */
  readonly successRate: number | null;
  /** Mean perturbed words over successful attacks (null when none). */
  readonly averagePerturbedWords: number | null;
  readonly averageQueries: number | null;
  readonly seconds: number;
}

/** Summarises records of one recipe (000 §6.3: ASR over attacked instances, Avg. NP over successful ones). */
export function summarizeRun(records: readonly AttackRecord[]): RunSummary {
  const by = (s: AttackStatus) => records.filter((r) => r.status === s);
  const count = (rs: AttackRecord[]) => {
    const o: Record<string, number> = {};
    for (const r of rs) o[r.reason ?? 'unknown'] = (o[r.reason ?? 'unknown'] ?? 0) + 1;
    return o;
  };
  const ok = by('succeeded');
  const failed = by('failed');
  const attacked = ok.length + failed.length;
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    recipe: records[0]?.recipe ?? '',
    total: records.length,
    attacked,
    succeeded: ok.length,
    failed: failed.length,
    skipped: records.length - attacked,
    skippedBy: count(by('skipped')),
    failedBy: count(failed),
    successRate: attacked === 0 ? null : ok.length / attacked,
    averagePerturbedWords: mean(ok.map((r) => r.perturbedWords)),
    averageQueries: mean([...ok, ...failed].map((r) => r.queries.texts)),
    seconds: records.reduce((s, r) => s + r.seconds, 0),
  };
}
