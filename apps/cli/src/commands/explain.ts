import { Command } from 'commander';
import { isTextLimit, tokenize, type Explanation, type TextLimit } from '@xtrust/core';
import { EXPLAINER_NAMES, explainerByName } from '@xtrust/explainers';
import { explainAll, modelFingerprint } from '@xtrust/oracle';
import { progressBridge } from '../audit.js';
import { fileDigest, readTexts } from '../data-files.js';
import { UsageError } from '../exit.js';
import { loadModel } from '../model-loader.js';
import { emit, toJsonl } from '../output.js';
import { examples, intArg, positiveIntArg, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { CHECKPOINT_SECONDS, RunDir } from '../run-dir.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';
import { DEFAULT_LIME_MODE, limeModeParts, limeOptionsOf, withLimeModeOption, type LimeMode } from '../lime-mode.js';

/** Options of `xtrust explain`. */
export interface ExplainOptions extends ModelFlags, RunFlags {
  text?: string[];
  input?: string;
  method: string;
  samples: number;
  topK: number;
  seed: number;
  limeMode: LimeMode;
  /** Explain each text in consecutive windows the model sees whole (models with a position limit). */
  windows?: boolean;
}

/** Where one explained window sits: text `text` (0-based), window `window` of `of`, its words [from, to) of the text's `words`. */
export interface WindowPlace {
  readonly text: number;
  readonly window: number;
  readonly of: number;
  readonly from: number;
  readonly to: number;
  readonly words: number;
}

/**
 * Splits `text` into consecutive windows that the model sees whole: each window starts at the first
 * word the previous one left out and holds as many words as `limit.seenWords` says fit (at least one,
 * so a single word longer than the limit still moves on). Each window is the original text's slice from
 * its first word to its last, separators inside kept. Tails are probed in growing slices (256 words,
 * doubled while the model sees them all), so a 12,000-word text is never tokenised whole per window.
 */
export function textWindows(limit: TextLimit, text: string): { text: string; from: number; to: number }[] {
  const tokens = tokenize(text);
  const T = tokens.length;
  const out: { text: string; from: number; to: number }[] = [];
  let start = 0;
  while (start < T) {
    let cap = 256;
    let m: number;
    for (;;) {
      const end = Math.min(T, start + cap);
      m = limit.seenWords(text.slice(tokens[start].start, tokens[end - 1].end));
      if (m < end - start || end === T) break;
      cap *= 2;
    }
    const to = start + Math.max(1, m);
    out.push({ text: text.slice(tokens[start].start, tokens[to - 1].end), from: start, to });
    start = to;
  }
  return out;
}

/**
 * The notice for each text the model saw only part of (an explanation's `seen`): which text, how many
 * of its words the model saw, and what to do about it. One line per text, however many labels it has.
 */
export function longTextNotices(explanations: readonly Explanation[]): string[] {
  const out: string[] = [];
  const said = new Set<string>();
  for (const e of explanations) {
    if (!e.seen || said.has(e.text)) continue;
    said.add(e.text);
    out.push(
      `notice: the model saw only the first ${e.seen.words} of ${e.seen.of} words of "${snippet(e.text, 60)}": ` +
        'its position limit cut the rest, so the prediction explained never read them; ' +
        '--windows explains the whole text in windows of that limit',
    );
  }
  return out;
}

const snippet = (text: string, n: number) => {
  const t = text.replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n - 3)}…` : t;
};

/** The explainer's options from the flags (LIME's neighbourhood, word count and mode; a seed for the stochastic ones). */
function explainerOptions(o: ExplainOptions): Record<string, unknown> {
  if (o.method === 'lime')
    return { numSamples: o.samples, numFeatures: o.topK, seed: o.seed, ...limeOptionsOf(o.limeMode) };
  if (o.method === 'kernel-shap') return { numSamples: o.samples, seed: o.seed };
  return {};
}

/**
 * Explains texts given with --text (printed) or a file given with --input (each explanation appended
 * to <out>/explanations.jsonl as it is made, so `--resume` continues a long file).
 */
export async function runExplain(
  options: ExplainOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
): Promise<{ explanations: Explanation[]; file?: string; notices: string[]; windows?: WindowPlace[] }> {
  if (!options.text?.length && !options.input)
    throw new UsageError('explain needs --text "<text>" (repeatable) or --input <file>');
  if (options.text?.length && options.input) throw new UsageError('give --text or --input, not both');
  if (!(EXPLAINER_NAMES as readonly string[]).includes(options.method))
    throw new UsageError(`--method ${options.method} is not one of ${EXPLAINER_NAMES.join(', ')}`);
  const limeMode = options.limeMode ?? DEFAULT_LIME_MODE;
  if (limeMode !== DEFAULT_LIME_MODE && options.method !== 'lime')
    throw new UsageError(`--lime-mode ${limeMode} is a mode of --method lime, not of --method ${options.method}`);
  const model = await loadModel(options.model, { ...loadFlags(options), quantize: limeModeParts(limeMode).quantize });
  const explainer = explainerByName(options.method, explainerOptions(options));
  const classifier = model.classifier;
  if (options.windows && !isTextLimit(classifier))
    throw new UsageError(
      `--windows needs a model that reports its position limit (a transformer folder); --model ${options.model} does not, so its texts are never cut`,
    );
  // With --windows every text becomes its windows; `places` says where each explained text sits.
  const windowed = (all: readonly string[]) => {
    if (!options.windows || !isTextLimit(classifier)) return { texts: all, places: undefined };
    const texts: string[] = [];
    const places: WindowPlace[] = [];
    all.forEach((t, i) => {
      const ws = textWindows(classifier, t);
      const words = ws.length ? ws[ws.length - 1].to : 0;
      if (ws.length === 0) {
        texts.push(t); // no word at all: the explainer names the problem
        places.push({ text: i, window: 0, of: 1, from: 0, to: 0, words });
      }
      ws.forEach((w, j) => {
        texts.push(w.text);
        places.push({ text: i, window: j, of: ws.length, from: w.from, to: w.to, words });
      });
    });
    return { texts, places };
  };
  if (options.text?.length) {
    const { texts, places } = windowed(options.text);
    const explanations = await explainer.explain(classifier, texts);
    const shown = explanations.map((e) => ({ ...e, features: e.features.slice(0, options.topK) }));
    return { explanations: shown, notices: longTextNotices(explanations), ...placed(explanations, texts, places) };
  }
  const { texts, places } = windowed(await readTexts(options.input!, options.textColumn));
  const run = RunDir.open(
    options.out,
    'explain',
    {
      model: await modelFingerprint(model.classifier),
      input: fileDigest(options.input!),
      method: options.method,
      ...explainerOptions(options),
      topK: options.topK,
      limeMode,
      ...(options.windows ? { windows: true } : {}),
    },
    options.resume,
  );
  const bridge = progressBridge(progress, options.method);
  const explanations = await explainAll(
    explainer,
    classifier,
    texts,
    places ? places.map((p) => `${p.text}:${p.window}`) : texts.map((_, i) => String(i)),
    {
      checkpoint: run.path('explanations.checkpoint.jsonl'),
      batchSeconds: CHECKPOINT_SECONDS,
      onProgress: bridge.onProgress,
    },
  );
  bridge.stop();
  const file = run.writeFile('explanations.jsonl', toJsonl(explanations));
  run.complete();
  return { explanations, file, notices: longTextNotices(explanations), ...placed(explanations, texts, places) };
}

/** The window of each explanation: explainers return the same number of explanations (labels) per text, in text order. */
function placed(
  explanations: readonly Explanation[],
  texts: readonly string[],
  places: readonly WindowPlace[] | undefined,
): { windows?: WindowPlace[] } {
  if (!places || texts.length === 0) return {};
  const per = Math.max(1, Math.round(explanations.length / texts.length));
  return { windows: explanations.map((_, i) => places[Math.min(places.length - 1, Math.floor(i / per))]) };
}

/** The human lines of an explanation: predicted label and its top words. */
export function formatExplanation(e: Explanation, topK: number): string {
  const words = e.features.slice(0, topK).map((f) => `${f.word} ${f.weight >= 0 ? '+' : ''}${f.weight.toFixed(4)}`);
  const text = e.text.length > 80 ? `${e.text.slice(0, 77)}…` : e.text;
  return `"${text.replace(/\s+/g, ' ')}"\n  predicted ${e.predictedLabel}, explaining ${e.explainedLabel} (${e.method}): ${words.join(', ')}`;
}

/** Registers `xtrust explain`. */
export function explainCommand(): Command {
  const c = new Command('explain').description(
    'explain predictions: the words each prediction rests on, with their weights',
  );
  withModelOptions(c, 'none');
  c.option('--text <text...>', 'texts to explain')
    .option('--input <file>', 'a file of texts: .txt (one a line), or .csv/.jsonl with --text-column')
    .option('--method <name>', EXPLAINER_NAMES.join(' | '), 'lime')
    .option('--samples <n>', 'LIME / Kernel SHAP samples', positiveIntArg, 1000)
    .option('--top-k <n>', 'words shown per explanation', positiveIntArg, 10)
    .option('--seed <n>', 'seed of the stochastic explainers', intArg, 0)
    .option(
      '--windows',
      "explain a text longer than the model's position limit in consecutive windows of that limit, one explanation per window",
    );
  withLimeModeOption(c);
  withRunOptions(c, 'xtrust-explain');
  withCommonOptions(c);
  examples(c, [
    'xtrust explain --model xtrust-report/model --text "win a free prize now"',
    'xtrust explain --model model.onnx --input texts.csv --text-column body --method omission --out runs/explain --resume',
    'xtrust explain --model ./bert-folder --input texts.jsonl --samples 5000 --lime-mode int8+adaptive',
    'xtrust explain --model ./bert-folder --input long-emails.txt --windows',
  ]);
  return c.action(async (opts: ExplainOptions) => {
    const r = await runExplain(opts);
    emit(opts.json, r, () =>
      [
        ...r.explanations.map((e, i) => {
          const w = r.windows?.[i];
          const head = w
            ? `text ${w.text + 1}, window ${w.window + 1} of ${w.of} (words ${w.from + 1}–${w.to} of ${w.words})\n`
            : '';
          return head + formatExplanation(e, opts.topK);
        }),
        ...r.notices,
        ...(r.file ? [`explanations ${r.file}`] : []),
      ].join('\n'),
    );
  });
}
