import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { required } from '../config.js';
import { Command, InvalidArgumentError } from 'commander';
import type { Classifier, Explainer, SentenceEncoder, WordEmbedding } from '@xtrust/core';
import {
  a2t,
  cea,
  explainWith,
  explanationSimilarity,
  HfMaskedWordModel,
  MeanVectorEncoder,
  robustnessPoint,
  summarizeRun,
  tef,
  tokiGuided,
  type Attack,
  type AttackRecord,
  type MaskedWordModel,
  type RunSummary,
} from '@xtrust/attack';
import { CausalLanguageModel } from '@xtrust/models';
import { CounterFittedEmbedding, UseEmbedding } from '@xtrust/embeddings';
import { LimeExplainer, OmissionExplainer } from '@xtrust/explainers';
import { KeywordStore, modelFingerprint } from '@xtrust/oracle';
import { fileDigest, readLabelledFile } from '../data-files.js';
import { UsageError } from '../exit.js';
import { loadModel } from '../model-loader.js';
import { emit } from '../output.js';
import { examples, intArg, positiveIntArg, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { RunDir } from '../run-dir.js';
import type { AttackExample } from '../report/render.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';

/** The attack recipes of @xtrust/attack the CLI offers. */
export const RECIPES = ['a2t', 'toki', 'cea', 'tef', 'xaifooler'] as const;
export type Recipe = (typeof RECIPES)[number];

const TOKI_NEEDS_STORE =
  '--recipe toki needs --store (a keyword store of this model: `xtrust keywords`, or a demo/audit run directory)';

/** Options of `xtrust attack`. */
export interface AttackOptions extends ModelFlags, RunFlags {
  recipe: Recipe;
  test: string;
  store?: string;
  maxTexts: number;
  explainer: 'omission' | 'lime';
  samples: number;
  encoder: 'mean' | 'use';
  mlm?: string;
  causalLm?: string;
  seed: number;
}

/** Δ_PP of an explanation attack's run under a causal LM (002 Eq. 6): `summary.json`'s `perplexity`. */
export interface PerplexitySummary {
  readonly languageModel: string;
  /** Successful attacks the figures are taken on. */
  readonly samples: number;
  /** Mean relative perplexity increase (PP(s̃) − PP(s)) / PP(s). */
  readonly deltaPP: number | null;
  /** Mean of attribution distance / perplexity distance over samples whose perplexity rose. */
  readonly rPP: number | null;
}

/** The file of `--store`: a keywords.json file, or a run directory holding one. */
export function storeFile(path: string): string {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'keywords.json') : path;
  if (!existsSync(file))
    throw new UsageError(
      `--store ${path}: no keyword store there (build one with \`xtrust keywords\` or \`xtrust demo\`)`,
    );
  return file;
}

/** The keyword store of `--store`: a keywords.json file, or a run directory holding one. */
export async function loadStore(path: string, classifier: Classifier): Promise<KeywordStore> {
  return KeywordStore.load(storeFile(path), { classifier });
}

/** Builds the attack of a recipe with the CLI's offline parts: counter-fitted GloVe, a sentence encoder, an explainer for the explanation attacks. */
export async function buildAttack(
  recipe: Recipe,
  classifier: Classifier,
  parts: {
    embedding: WordEmbedding;
    encoder: SentenceEncoder;
    explainer: Explainer;
    store?: KeywordStore;
    mlm?: MaskedWordModel;
  },
): Promise<Attack> {
  const { embedding, encoder } = parts;
  const explain = explainWith(parts.explainer);
  switch (recipe) {
    case 'a2t':
      return a2t(classifier, { embedding, encoder });
    case 'toki':
      if (!parts.store) throw new UsageError(TOKI_NEEDS_STORE);
      return tokiGuided(classifier, { embedding, encoder, store: parts.store });
    case 'cea':
      // CEA proper proposes words with a masked language model (--mlm); without one, its context-aware
      // substitute (embedding neighbours filtered by the sentence encoder) stands in.
      return parts.mlm
        ? cea(classifier, { explain, mlm: parts.mlm })
        : cea(classifier, { explain, context: { embedding, encoder } });
    case 'tef':
      return tef(classifier, { explain, embedding });
    case 'xaifooler':
      return explanationSimilarity(classifier, { explain, embedding, encoder });
  }
}

/** Attack records as report examples (succeeded and failed attacks with a perturbed text). */
export function attackExamples(records: readonly AttackRecord[], limit = 50): AttackExample[] {
  return records
    .filter((r) => r.adversarial !== null && r.status !== 'skipped')
    .slice(0, limit)
    .map((r) => ({
      recipe: r.recipe,
      original: r.original,
      perturbed: r.adversarial!,
      originalLabel: r.originalPrediction ?? '',
      perturbedLabel: r.adversarialPrediction ?? '',
      success: r.status === 'succeeded',
    }));
}

/** Attacks the model's test predictions with a recipe; records go to attacks.jsonl as each finishes (resumable). */
export async function runAttack(
  options: AttackOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
): Promise<{ summary: RunSummary & { attack: Record<string, unknown> }; records: AttackRecord[]; file: string }> {
  if (options.recipe === 'toki' && !options.store) throw new UsageError(TOKI_NEEDS_STORE);
  if (options.mlm && options.recipe !== 'cea') throw new UsageError('--mlm is used by --recipe cea only');
  if (options.causalLm && options.recipe !== 'cea' && options.recipe !== 'tef')
    throw new UsageError(
      '--causal-lm is used by --recipe cea and tef only (the perplexity input distance of an explanation attack)',
    );
  const model = await loadModel(options.model, loadFlags(options));
  const classifier = model.classifier;
  const test = await readLabelledFile(
    options.test,
    { textColumn: options.textColumn, labelColumn: options.labelColumn },
    classifier.labels,
    '--test',
  );
  const store = options.store ? await loadStore(options.store, classifier) : undefined;
  const run = RunDir.open(
    options.out,
    'attack',
    {
      recipe: options.recipe,
      model: await modelFingerprint(classifier),
      test: fileDigest(options.test),
      maxTexts: options.maxTexts,
      explainer: options.explainer,
      samples: options.samples,
      encoder: options.encoder,
      mlm: options.mlm ? resolve(options.mlm) : null,
      ...(options.causalLm ? { causalLm: resolve(options.causalLm) } : {}),
      seed: options.seed,
      store: store?.fingerprint ?? null,
    },
    options.resume,
  );
  progress.note(
    `loading counter-fitted GloVe${options.encoder === 'use' ? ' and the Universal Sentence Encoder' : ''}…`,
  );
  const embedding = await CounterFittedEmbedding.load();
  const encoder: SentenceEncoder =
    options.encoder === 'use' ? await UseEmbedding.load() : new MeanVectorEncoder(embedding);
  const explainer = (options.explainer === 'lime'
    ? new LimeExplainer({ numSamples: options.samples, seed: options.seed })
    : new OmissionExplainer()) as unknown as Explainer;
  const mlm = options.mlm ? await HfMaskedWordModel.load(options.mlm, { allowRemote: options.allowRemote }) : undefined;
  const attack = await buildAttack(options.recipe, classifier, { embedding, encoder, explainer, store, mlm });
  const inputs = test.slice(0, options.maxTexts).map((r, i) => ({ text: r.text, label: r.label, id: String(i) }));
  const task = progress.start(`attack ${options.recipe}`, inputs.length);
  const file = run.path('attacks.jsonl');
  const result = await attack.run(inputs, {
    output: file,
    seed: options.seed,
    onRecord: (_r, done) => task.update(done),
  });
  task.stop();
  let perplexity: PerplexitySummary | undefined;
  if (options.causalLm) {
    progress.note('perplexity of the originals and the adversarial texts under the causal LM…');
    const lm = await CausalLanguageModel.load(options.causalLm);
    try {
      const point = await robustnessPoint(options.recipe, Number(attack.describe().rhoMax ?? 0), result.records, {
        perplexity: (texts) => lm.perplexity(texts),
      });
      perplexity = {
        languageModel: resolve(options.causalLm),
        samples: point.samples,
        deltaPP: point.deltaPP,
        rPP: point.rPP,
      };
    } finally {
      await lm.release();
    }
  }
  const summary = { attack: attack.describe(), ...summarizeRun(result.records), ...(perplexity ? { perplexity } : {}) };
  run.writeFile('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  run.complete();
  return { summary, records: result.records, file };
}

export function recipeArg(value: string): Recipe {
  if (!(RECIPES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${RECIPES.join(', ')}`);
  return value as Recipe;
}

/** `--attack` and `--attack-texts` (demo, audit): attack some untrustworthy predictions and show them in the report. */
export function withAttackOptions(c: Command): Command {
  return c
    .option(
      '--attack <recipe>',
      `also attack untrustworthy predictions and show examples in the report: ${RECIPES.join(' | ')}`,
      recipeArg,
    )
    .option('--attack-texts <n>', 'predictions attacked with --attack', positiveIntArg, 10);
}

/** Registers `xtrust attack`. */
export function attackCommand(): Command {
  const c = new Command('attack').description(
    'attack the model: A2T, TOKI-guided (needs a keyword store), CEA, TEF, or an explanation-similarity attack (xaifooler)',
  );
  required(c, '--recipe <name>', RECIPES.join(' | '), recipeArg);
  withModelOptions(c, 'test');
  c.option('--store <path>', 'keyword store (keywords.json or a demo/audit run directory) for --recipe toki')
    .option('--max-texts <n>', 'attack the first n test texts', positiveIntArg, 20)
    .option(
      '--explainer <name>',
      'explainer of the explanation attacks (cea, tef, xaifooler): omission | lime',
      (v) => {
        if (v !== 'omission' && v !== 'lime') throw new InvalidArgumentError('expected omission or lime');
        return v;
      },
      'omission',
    )
    .option('--samples <n>', 'LIME samples when --explainer lime', positiveIntArg, 500)
    .option(
      '--encoder <name>',
      'sentence encoder of the semantic constraint: mean (averaged counter-fitted vectors, fast) | use (Universal Sentence Encoder lite)',
      (v) => {
        if (v !== 'mean' && v !== 'use') throw new InvalidArgumentError('expected mean or use');
        return v;
      },
      'mean',
    )
    .option(
      '--mlm <folder>',
      "a fill-mask model folder (Hugging Face layout) proposing CEA's words; without it CEA uses its context-aware substitute",
    )
    .option(
      '--causal-lm <folder>',
      'a causal LM folder (GPT-2 layout, onnx/model.onnx) for --recipe cea/tef: summary.json gets the perplexity input distance Δ_PP and r_PP (002 Eq. 6)',
    )
    .option('--seed <n>', 'base seed (instance i gets its own seed from it)', intArg, 0);
  withRunOptions(c, 'xtrust-attack');
  withCommonOptions(c);
  examples(c, [
    'xtrust attack --recipe a2t --model xtrust-report/model --test test.csv',
    'xtrust attack --recipe toki --model xtrust-report/model --store xtrust-report --test test.csv --max-texts 50',
    'xtrust attack --recipe cea --model bert-folder --mlm mlm-folder --causal-lm gpt2-folder --test test.csv',
  ]);
  return c.action(async (opts: AttackOptions) => {
    const r = await runAttack(opts);
    emit(opts.json, { summary: r.summary, file: r.file }, () => {
      const s = r.summary as unknown as Record<string, unknown>;
      return [
        `recipe ${r.summary.recipe}`,
        ...Object.entries(s)
          .filter(([k, v]) => k !== 'attack' && k !== 'recipe' && typeof v !== 'object')
          .map(([k, v]) => `  ${k}: ${typeof v === 'number' ? Number(v.toFixed(4)) : String(v)}`),
        `records ${r.file}`,
      ].join('\n');
    });
  });
}

/**
 * The demo's and audit's optional attack step: attacks the first `limit` correct predictions judged
 * untrustworthy (where the model leans on spurious words), appending records to attack-records.jsonl
 * in the run directory (resumable), and returns the report's examples and the run summary.
 */
export async function attackPredictions(
  recipe: Recipe,
  classifier: Classifier,
  store: KeywordStore,
  predictions: readonly { text: string; truth: string | null; verdict: string }[],
  run: RunDir,
  progress: Progress,
  options: { limit: number; seed: number },
): Promise<{ examples: AttackExample[]; summary: RunSummary }> {
  progress.note(`attack ${recipe}: loading counter-fitted GloVe…`);
  const embedding = await CounterFittedEmbedding.load();
  const attack = await buildAttack(recipe, classifier, {
    embedding,
    encoder: new MeanVectorEncoder(embedding),
    explainer: new OmissionExplainer() as unknown as Explainer,
    store,
  });
  const targets = predictions.filter((p) => p.verdict === 'untrustworthy').slice(0, options.limit);
  const task = progress.start(`attack ${recipe}`, targets.length);
  const result = await attack.run(
    targets.map((p, i) => ({ text: p.text, label: p.truth ?? undefined, id: String(i) })),
    { output: run.path('attack-records.jsonl'), seed: options.seed, onRecord: (_r, done) => task.update(done) },
  );
  task.stop();
  return { examples: attackExamples(result.records), summary: summarizeRun(result.records) };
}
