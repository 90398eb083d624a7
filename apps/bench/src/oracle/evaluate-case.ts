/**
 * Scores oracle configurations on one built case (case-data.ts): Table 3's rows (TOKI per explainer
 * and configuration, TOKI –K.I, Naive at θ_conf 0.9 and at its best θ on these predictions), each
 * G-mean with a seeded percentile-bootstrap 95 % interval over the scored predictions, and where the
 * keywords and the trigger ended up. A case with fewer than the minimum per side is not scored.
 */
import { join } from 'node:path';
import { rng, tokenize, type Explainer } from '@xtrust/core';
import { GradientExplainer, LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import {
  bootstrapInterval,
  classificationMetrics,
  gmeanInterval,
  rocAuc,
  type ClassificationMetrics,
} from '@xtrust/metrics';
import {
  chooseThetaConf,
  explainTolerant,
  naiveOracle,
  normalizeWord,
  verdictVector,
  type KeywordStore,
} from '@xtrust/oracle';
import type { BenchmarkCase, ShortcutBenchmark } from '@xtrust/datasets';
import type { WordEmbedding } from '@xtrust/core';
import type { BuiltCase } from './case-data.js';
import type { KitBertInfo } from './kit-bert.js';
import { CLASS_DESCRIPTIONS, caseName, type CaseSpec } from './family.js';
import { CachedExplainer } from './cached-explainer.js';
import { verdictErrors, type VerdictErrors } from './verdict-errors.js';
import type { OracleSetup } from './oracle-setups.js';

/** A Table 3 row with its G-mean interval. */
export interface ScoredRow {
  readonly method: string;
  /** The oracle configuration (TOKI rows). */
  readonly oracle?: string;
  readonly metrics: ClassificationMetrics;
  readonly gmeanCI: { readonly lo: number; readonly hi: number };
  /** Predictions the oracle could not label (counted as not trustworthy). */
  readonly unknown: number;
  /** A token-set case's TOKI row: what its false alarms and misses rest on (verdict-errors.ts). */
  readonly errors?: VerdictErrors;
}

/** A share of predictions labelled trustworthy, with its percentile-bootstrap 95 % interval over the predictions. */
export interface ShareInterval {
  readonly n: number;
  readonly trustworthy: number;
  readonly share: number;
  readonly lo: number;
  readonly hi: number;
}

/**
 * A related-trigger control's figures for one configuration (issue 47): every scored prediction is
 * trustworthy by ground truth; the score that matters is the share of those that *rest on* the planted
 * related word which the oracle labels trustworthy (`rests`); `other` is the same share on the rest.
 */
export interface ControlRow {
  readonly method: string;
  readonly oracle: string;
  readonly rests: ShareInterval;
  readonly other: ShareInterval;
  /** Predictions the oracle could not label (counted as not trustworthy). */
  readonly unknown: number;
}

/** The share of ones in `verdicts` at the positions of `which`, with a seeded percentile-bootstrap interval. */
export function shareInterval(verdicts: Uint8Array, which: readonly number[], seed: number, resamples: number) {
  const n = which.length;
  const ones = which.reduce((a, i) => a + verdicts[i], 0);
  if (n === 0) return { n, trustworthy: 0, share: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const ci = bootstrapInterval(
    n,
    (idx) => {
      let t = 0;
      for (const j of idx) t += verdicts[which[j]];
      return t / idx.length;
    },
    { seed, resamples },
  );
  return { n, trustworthy: ones, share: ones / n, lo: ci.lo, hi: ci.hi };
}

/** Where a trigger word ended up in one class's keyword identification. */
export type TriggerPlacement = 'keyword' | 'non-keyword' | 'not in pool' | 'abstained';

export interface ClassKeywords {
  readonly label: string;
  readonly pool: number;
  readonly keywords: number;
  /** keywords / pool */
  readonly share: number;
  /** Per trigger word: keyword, non-keyword, not in the pool, or in the pool but unknown to every embedding (abstained). */
  readonly trigger: Readonly<Record<string, TriggerPlacement>>;
  /** The first keywords, for the log. */
  readonly top: readonly string[];
  /** The surface-token check (when the configuration has one): the trigger words' measurements, and how many words were tested and demoted. */
  readonly tokenCheck?: {
    readonly trigger: Readonly<
      Record<string, { readonly retention: number; readonly deletion: number; readonly concentration?: number } | null>
    >;
    readonly tested: number;
    readonly demoted: number;
    /** Retention of the tested words: 10th, 50th and 90th percentiles. */
    readonly retention: readonly [number, number, number];
  };
}

export interface KeywordReport {
  readonly oracle: string;
  readonly explainer: string;
  readonly keywordSeconds: number;
  /** The surface-token check's cost inside keyword identification (words tested, texts scored by the model, seconds). */
  readonly tokenCheckCost?: { readonly words: number; readonly modelTexts: number; readonly seconds: number };
  readonly classes: readonly ClassKeywords[];
}

/** Everything reported about one case (written to the JSON results). */
export interface CaseResult {
  readonly name: string;
  readonly spec: CaseSpec;
  readonly corpus: string;
  readonly mode: 'trigger' | 'headers' | 'tokens';
  readonly note: string;
  readonly model: string;
  /** kit-bert: the fine-tuned folder and its training figures. */
  readonly transformer?: KitBertInfo;
  readonly poolAccuracy: number;
  readonly attempts: BuiltCase['attempts'];
  readonly testFraction: number;
  readonly counts: ShortcutBenchmark['counts'];
  readonly validationCounts?: ShortcutBenchmark['counts'];
  readonly spuriousAlone?: ShortcutBenchmark['spuriousAlone'];
  readonly plantedTrain: number;
  readonly preexisting: Readonly<Record<string, number>>;
  readonly status: 'scored' | 'too small';
  /** Predictions explained and scored per side (a seeded sample of at most perSide each); a related-trigger control's sides are not resting (`trustworthy`) and resting (`untrustworthy`) on the trigger, all trustworthy by ground truth. */
  readonly scored?: { readonly trustworthy: number; readonly untrustworthy: number };
  readonly rows: readonly ScoredRow[];
  /** A related-trigger control (spec.side 'related'): the share labelled trustworthy per configuration, in place of G-means. */
  readonly control?: readonly ControlRow[];
  readonly keywords: readonly KeywordReport[];
  readonly naive?: { readonly auc: number; readonly bestThetaConf: number };
  readonly explanations?: { readonly made: number; readonly reused: number };
  /** A compact results file's surface-token check figures of the configurations whose keyword reports it left out. */
  readonly checks?: Readonly<
    Record<string, { readonly demoted: number; readonly modelTexts: number; readonly seconds: number }>
  >;
  readonly seconds: number;
}

export interface EvaluateOptions {
  readonly explainers: readonly string[];
  readonly samples: number;
  readonly train: number;
  readonly perSide: number;
  readonly resamples: number;
  readonly thetaConf?: number;
  readonly cacheDir?: string;
  readonly log?: (line: string) => void;
}

/** An explainer by its Table 3 suffix. */
export function makeExplainer(suffix: string, samples: number, seed: number): { explainer: Explainer; params: string } {
  if (suffix === 'lime')
    return {
      explainer: new LimeExplainer({ numSamples: samples, numFeatures: 10, seed }) as unknown as Explainer,
      params: `lime:${samples}:10:${seed}`,
    };
  if (suffix === 'omis') return { explainer: new OmissionExplainer() as unknown as Explainer, params: 'omis' };
  if (suffix === 'grad') return { explainer: new GradientExplainer() as unknown as Explainer, params: 'grad' };
  throw new Error(`unknown explainer ${suffix} (lime, omis, grad)`);
}

/**
 * A seeded sample of at most n items of each side, in input order. The sides are the ground truth's, or
 * (`byReliance`, a related-trigger control whose predictions are all trustworthy) resting on the trigger or not.
 */
export function sampleSides(
  cases: readonly BenchmarkCase[],
  n: number,
  seed: number,
  byReliance = false,
): BenchmarkCase[] {
  const r = rng(seed);
  const keep = new Set<BenchmarkCase>();
  for (const side of ['trustworthy', 'untrustworthy'] as const) {
    const all = cases.filter((c) =>
      byReliance ? (c.restsOnTrigger === true) === (side === 'untrustworthy') : c.truth === side,
    );
    for (const j of r.sampleIndices(all.length, Math.min(n, all.length))) keep.add(all[j]);
  }
  return cases.filter((c) => keep.has(c));
}

/** A Table 3 row: the six measures of §6.3 and a percentile-bootstrap interval of the G-mean over the scored predictions. */
export function scoreRow(
  method: string,
  verdicts: Uint8Array,
  truth: Uint8Array,
  seed: number,
  resamples: number,
  extra: { oracle?: string; unknown?: number; errors?: VerdictErrors } = {},
): ScoredRow {
  const metrics = classificationMetrics(verdicts, truth);
  const ci = gmeanInterval(verdicts, truth, { seed, resamples });
  return {
    method,
    ...(extra.oracle ? { oracle: extra.oracle } : {}),
    metrics,
    gmeanCI: { lo: ci.lo, hi: ci.hi },
    unknown: extra.unknown ?? 0,
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
}

/** Per class: pool size, keyword share and where each trigger word went. */
export function keywordReport(
  store: KeywordStore,
  embeddings: readonly WordEmbedding[],
  triggerWords: readonly string[],
): ClassKeywords[] {
  return store.labels.map((label) => {
    const pool = store.pool(label).map((w) => w.word);
    const inPool = new Set(pool);
    const keywords = store.keywords(label);
    const trigger: Record<string, TriggerPlacement> = {};
    for (const w0 of triggerWords) {
      const w = normalizeWord(w0);
      trigger[w] = !inPool.has(w)
        ? 'not in pool'
        : store.isKeyword(label, w)
          ? 'keyword'
          : embeddings.every((e) => !e.has(w))
            ? 'abstained'
            : 'non-keyword';
    }
    const responses = store.tokenResponses(label);
    const tokenCheck = store.oracle.tokenCheck
      ? (() => {
          const r = responses.map((x) => x.retention).sort((a, b) => a - b);
          const q = (p: number) => (r.length ? r[Math.min(r.length - 1, Math.floor(p * r.length))] : NaN);
          const tr: Record<string, { retention: number; deletion: number; concentration?: number } | null> = {};
          for (const w0 of triggerWords) {
            const x = store.tokenResponse(label, normalizeWord(w0));
            tr[normalizeWord(w0)] = x
              ? { retention: x.retention, deletion: x.deletion, concentration: x.concentration }
              : null;
          }
          return {
            trigger: tr,
            tested: responses.length,
            demoted: responses.filter((x) => store.isSurfaceToken(label, x.word)).length,
            retention: [q(0.1), q(0.5), q(0.9)] as [number, number, number],
          };
        })()
      : undefined;
    return {
      label,
      pool: pool.length,
      keywords: keywords.length,
      share: pool.length ? keywords.length / pool.length : 0,
      trigger,
      top: keywords.slice(0, 10),
      ...(tokenCheck ? { tokenCheck } : {}),
    };
  });
}

/** Scores every configuration of `setups` with every explainer on the case; explanations are made once and cached. */
export async function evaluateCase(
  built: BuiltCase,
  setups: readonly OracleSetup[],
  options: EvaluateOptions,
): Promise<CaseResult> {
  const t0 = performance.now();
  const { data, bench } = built;
  const spec = data.spec;
  const name = caseName(spec);
  const base = {
    name,
    spec,
    corpus: data.corpus,
    mode: data.mode,
    note: data.note,
    model: built.kind,
    ...(built.transformer ? { transformer: built.transformer } : {}),
    poolAccuracy: built.testAccuracy,
    attempts: built.attempts,
    testFraction: data.testFraction,
    counts: bench.counts,
    ...(built.validationBench ? { validationCounts: built.validationBench.counts } : {}),
    ...(bench.spuriousAlone ? { spuriousAlone: bench.spuriousAlone } : {}),
    plantedTrain: data.plantedTrain,
    preexisting: data.preexisting,
  };
  if (!built.scored)
    return { ...base, status: 'too small', rows: [], keywords: [], seconds: (performance.now() - t0) / 1000 };

  const isControl = spec.side === 'related';
  const items = sampleSides(bench.cases, options.perSide, spec.seed, isControl);
  const restsAt: number[] = [];
  const otherAt: number[] = [];
  items.forEach((c, i) => (c.restsOnTrigger ? restsAt : otherAt).push(i));
  const control: ControlRow[] = [];
  const texts = items.map((c) => c.text);
  const labels = items.map((c) => c.label);
  const truth = Uint8Array.from(items, (c) => (c.truth === 'trustworthy' ? 1 : 0));
  const trustworthy = truth.reduce((a, b) => a + b, 0);
  const scored = { trustworthy, untrustworthy: truth.length - trustworthy };
  const setCategory = spec.set === 'category' && spec.category ? { category: spec.category } : {};
  const triggerWords = data.mode === 'trigger' ? tokenize(spec.trigger!).map((t) => t.text) : [];
  const rows: ScoredRow[] = [];
  const ablatedRows: ScoredRow[] = [];
  const keywords: KeywordReport[] = [];
  let made = 0;
  let reused = 0;
  for (const suffix of options.explainers) {
    const { explainer, params } = makeExplainer(suffix, options.samples, spec.seed);
    // a fine-tuned transformer is named by its cache key (rows + settings): explanations of another fine-tuning are never reused
    const model = built.transformer ? `${built.kind}:${built.transformer.key}` : built.kind;
    const cached = new CachedExplainer(explainer, `${name}|${model}|tf${data.testFraction}|${params}`);
    const file = options.cacheDir
      ? join(
          options.cacheDir,
          `${name.replace(/[^\w.-]+/g, '_')}.${suffix}${built.transformer ? `.${built.kind}` : ''}.json`,
        )
      : undefined;
    if (file) {
      const n = cached.load(file);
      if (n) options.log?.(`  ${suffix}: ${n} cached explanations from ${file}`);
    }
    const tolerant = await explainTolerant(
      cached,
      built.model,
      texts,
      items.map((c) => c.id),
    );
    for (const setup of setups) {
      const outcome = await setup.run({
        classifier: built.model,
        train: { texts: data.train.map((r) => r.text), labels: data.train.map((r) => r.label) },
        explainer: cached,
        sampleSize: options.train,
        seed: spec.seed,
        classNames: data.classNames,
        classDescriptions: CLASS_DESCRIPTIONS[spec.corpus],
        test: { texts, labels, explanations: tolerant },
      });
      const unknown = (l: readonly { verdict: string }[]) => l.filter((x) => x.verdict === 'unknown').length;
      if (isControl) {
        const v = verdictVector([...outcome.toki]);
        control.push({
          method: `TOKI-${suffix}`,
          oracle: setup.name,
          rests: shareInterval(v, restsAt, spec.seed, options.resamples),
          other: shareInterval(v, otherAt, spec.seed + 1, options.resamples),
          unknown: unknown(outcome.toki),
        });
      } else
        rows.push(
          scoreRow(`TOKI-${suffix}`, verdictVector([...outcome.toki]), truth, spec.seed, options.resamples, {
            oracle: setup.name,
            unknown: unknown(outcome.toki),
            ...(built.tokenSet ? { errors: verdictErrors(outcome.toki, truth, built.tokenSet, setCategory) } : {}),
          }),
        );
      if (outcome.ablated && !isControl)
        ablatedRows.push(
          scoreRow(`TOKI-${suffix} (–K.I)`, verdictVector([...outcome.ablated]), truth, spec.seed, options.resamples, {
            oracle: setup.name,
            unknown: unknown(outcome.ablated),
          }),
        );
      const cost = outcome.store.provenance.tokenCheck;
      keywords.push({
        oracle: setup.name,
        explainer: suffix,
        keywordSeconds: outcome.keywordSeconds,
        ...(cost ? { tokenCheckCost: cost } : {}),
        classes: keywordReport(outcome.store, outcome.embeddings, triggerWords),
      });
    }
    made += cached.misses;
    reused += cached.hits;
    if (file) cached.save(file);
  }
  const confidence = Float64Array.from(items, (c) => c.confidence);
  const thetaConf = options.thetaConf ?? 0.9;
  if (isControl) {
    const naive = naiveOracle(confidence, thetaConf);
    control.push({
      method: `Naive (θ=${thetaConf})`,
      oracle: 'naive',
      rests: shareInterval(naive, restsAt, spec.seed, options.resamples),
      other: shareInterval(naive, otherAt, spec.seed + 1, options.resamples),
      unknown: 0,
    });
    return {
      ...base,
      status: 'scored',
      scored: { trustworthy: otherAt.length, untrustworthy: restsAt.length },
      rows: [],
      control,
      keywords,
      explanations: { made, reused },
      seconds: (performance.now() - t0) / 1000,
    };
  }
  rows.push(
    scoreRow(`Naive (θ=${thetaConf})`, naiveOracle(confidence, thetaConf), truth, spec.seed, options.resamples),
  );
  const best = chooseThetaConf(confidence, truth);
  rows.push(
    scoreRow(
      `Naive (best θ=${best.thetaConf.toFixed(3)}, chosen on these predictions)`,
      naiveOracle(confidence, Math.min(1, best.thetaConf)),
      truth,
      spec.seed,
      options.resamples,
    ),
  );
  rows.push(...ablatedRows);
  return {
    ...base,
    status: 'scored',
    scored,
    rows,
    keywords,
    naive: { auc: rocAuc(confidence, truth), bestThetaConf: best.thetaConf },
    explanations: { made, reused },
    seconds: (performance.now() - t0) / 1000,
  };
}
