/**
 * The oracle benchmarks: TOKI against Naive on the shortcut families (hand-written, drawn, with a transformer),
 * its keyword step against person-written word lists, and the choice of its configuration.
 */
import { join } from 'node:path';
import { argv, KIT_MLM, kitModel, needFixtures, needKitModels, RESULTS, ROOT } from '../harness/setup.js';
import type { Benchmark } from './types.js';

const SHORTCUT = 'apps/bench/dist/oracle/shortcut.js';
const RELATED_CONTROLS = 'apps/bench/dist/oracle/related-controls.js';
const ANNOTATED_POOLS = 'apps/bench/dist/oracle/annotated-pools.js';

/** The configurations the validation family compares (the default, the paper's, the previous default and each step ablated). */
export const VALIDATION_ORACLES = argv('toki+cat+ud toki+cat+ud+nouter toki+norc+cat+ud toki+cat toki toki-cluster');

/** Cases of the default family run with the transformer (40-word windows: the fixture reads at most 64 word pieces), scored with bag-of-words in table3, on two corpora. */
export const TABLE3_TRANSFORMER_CASES = '1,3,11';

/**
 * table3-transformer's arguments: the kit-bert model on TABLE3_TRANSFORMER_CASES at reduced sizes (the machine's 2
 * cores: LIME 1,000 samples, 300 training texts for keyword identification, at most 120 predictions per side; the
 * minimum of 100 per side to score a case is unchanged); quick: case 1 only, 2 epochs, 500 samples, 200 texts, 100 per side.
 */
export function table3TransformerArgs(quick: boolean): string[] {
  const model = ['--model', 'kit-bert', '--encoder', join(ROOT, KIT_MLM)];
  if (quick) return [...model, ...argv('--only 1 --epochs 2 --train 200 --samples 500 --per-side 100')];
  return [
    ...model,
    ...argv(`--only ${TABLE3_TRANSFORMER_CASES} --epochs 3 --train 300 --samples 1000 --per-side 120`),
    ...[
      '--out',
      join(RESULTS, 'oracle-family-kit-bert.json.gz'),
      '--cache',
      join(RESULTS, 'oracle-family-kit-bert-cache'),
    ],
  ];
}

/** A drawn family's cache folder and results (apps/bench/results/oracle-drawn-cache/<name>[.json]). */
const drawnCache = (name: string): string[] => {
  const dir = join(RESULTS, 'oracle-drawn-cache');
  return ['--out', join(dir, `${name}.json`), '--cache', join(dir, name)];
};

/** A drawn family at the quick sizes (4 draws, 300 keyword texts, LIME 1,000, 100 per side, toki and the paper's). */
const QUICK_DRAWN = '--draws 4 --train 300 --samples 1000 --per-side 100 --oracle toki,toki-paper';

/**
 * The configurations the natural-shortcut families compare (issues 47, 48): the demo's default first
 * (`toki+cat+ud`: token categories as no reason for any class and the bundled corpus's class descriptions),
 * then `toki+cat` (what `xtrust audit` runs on a corpus it has no description of), `toki` without the
 * categories, the previous default and the phrase configuration, both with the categories. (Issue 47's
 * default, `toki+nopg`, left the pages when the descriptions came: its figures are in git history.)
 */
export const NATURAL_ORACLES = argv('toki+cat+ud toki+cat+ud+nouter toki+cat toki toki-cluster+cat toki+nofw+cat');

/** The six natural-shortcut sections (issue 48), one per family, drawn like the drawn families. */
function naturalSection(family: string, draws: number, untilScored: number): Benchmark {
  const [kind, side] = family.split('-');
  const what =
    kind === 'phrase'
      ? 'a boilerplate phrase of 3–5 words (sign-offs, footers, slogans, everyday formulas; apps/bench/src/oracle/boilerplate-phrases.ts, written before any run, even positions for validation, odd for test) planted in a share of one class, ground truth by removing its words wherever they occur'
      : kind === 'scattered'
        ? 'a scattered set of 2–10 words from one frequency band, each planted target text receiving one of them, ground truth by removing them all'
        : 'a token category (numbers, years, URLs, e-mail addresses, person names, mail header fields; @xtrust/datasets token categories) on an unplanted model, ground truth by removing the category’s tokens (the header case: the whole header block with the body cut to 5–20 words)';
  return {
    name: `natural-${family}`,
    area: 'oracle',
    title: `Natural shortcuts (issue 48): ${kind === 'phrase' ? 'boilerplate phrases' : kind === 'scattered' ? 'scattered word sets' : 'categories on unplanted models'}, the ${side} family`,
    description: `Issue 48: cases drawn by seed — corpus, target, share, window and ${what}. Ground truth by intervention on the token set (@xtrust/datasets buildTokenSetBenchmark: flips when the set is removed → untrustworthy; survives and the text's set tokens alone give another class, or no token of the set → trustworthy; else ambiguous). bow-logistic, LIME 5,000 samples over 2,000 keyword texts, ≤ 250 predictions per side, GloVe; \`toki+cat+ud\` (what \`xtrust demo\` runs on its corpora: \`toki+cat\` with each class described by the corpus's built-in description, @xtrust/datasets, issue 47's third round), \`toki+cat+ud+nouter\` (the same with a token inside two categories named by the first listed, and a category reason's removal taking every category covering its words — the default until issue 48's tenth round, when a header block became one reason), \`toki+cat\` (what \`xtrust audit\` runs by default: \`toki\` with every token category — names, numbers, years, URLs, e-mail addresses, markup, header fields — as no reason for any class, each weighed as one reason), \`toki\` without the categories (\`--unrelated-categories none\`; since issue 48's first round co-occurring unrelated words are one reason), \`toki-cluster+cat\` and \`toki+nofw+cat\` (= \`--oracle toki-phrase\`: function words counted) beside Naive (θ_conf 0.9). The bar per case: G-mean ≥ 0.85 and the interval above Naive's. ${side === 'validation' ? 'The validation family: every choice reads it.' : 'The test family: reported, never read while choosing.'} (apps/bench/src/oracle/shortcut.ts --family ${family})`,
    limit: [10800, 1800],
    regenerated: `the LIME explanation cache and full results under apps/bench/results/oracle-drawn-cache/ (re-made by the command above); the compact copy the section is rendered from, apps/bench/results/natural-${family}.json.gz, is committed and re-made by \`node apps/bench/dist/oracle/shortcut.js --from apps/bench/results/oracle-drawn-cache/${family}.json --write-section\`.`,
    script: (ctx) => ({
      file: SHORTCUT,
      args: ctx.quick
        ? argv(`--family ${family} --draws 2 --train 300 --samples 500 --per-side 100 --oracle toki`)
        : [
            ...argv(
              `--family ${family} --draws ${draws} ${untilScored ? `--until-scored ${untilScored} ` : ''}--oracle ${NATURAL_ORACLES.join(',')}`,
            ),
            ...drawnCache(family),
          ],
    }),
  };
}

export const ORACLE: readonly Benchmark[] = [
  {
    name: 'table3',
    area: 'oracle',
    title:
      'Reproduction — TOKI paper Table 3 on the shortcut benchmark family (TOKI, –K.I, Naive; G-mean with bootstrap intervals)',
    description:
      "Layout of 000_6d314fe57d39eb4c.txt Table 3 on a family of offline shortcut benchmarks with known ground truth (issue 14): a trigger (concrete noun, weekday, number-like token, proper name, word absent from GloVe, two-word phrase) planted in a share (0.3, 0.6, 1.0) of one class's training texts of Brown genres, State of the Union parties and SpamAssassin bodies, in windows of 40 or 120 words or whole texts, and SpamAssassin's headers as a natural shortcut. Ground truth by intervention on both sides (@xtrust/datasets buildShortcutBenchmark); a case with fewer than 100 trustworthy or untrustworthy correct predictions is reported too small, not scored. Harness: apps/bench/src/oracle/shortcut.ts (family.ts lists the cases).",
    limit: [7200, 1200],
    regenerated:
      'the LIME explanation cache apps/bench/results/oracle-family-cache/ (one folder per case), re-made by the command above (about 12 min more on 2 cores); apps/bench/results/oracle-family.json.gz, the results the section is written from, is committed.',
    script: (ctx) => ({
      file: SHORTCUT,
      args: ctx.quick
        ? argv('--only 1,6,11 --train 300 --samples 1000 --per-side 100')
        : ['--out', join(RESULTS, 'oracle-family.json.gz'), '--cache', join(RESULTS, 'oracle-family-cache')],
    }),
  },
  {
    name: 'table3-transformer',
    area: 'oracle',
    title:
      'Reproduction — TOKI paper Table 3 on the shortcut benchmark family with a transformer classifier (the model kit’s BERT)',
    description:
      "The previous section's benchmark with the classifier swapped for a transformer: per case, the model kit's BERT encoder (the committed masked-LM fixture models/transformers/fixtures/tiny-bert-mlm, 2 layers × 128, 64 word pieces) fine-tuned on the case's training texts by models/transformers/finetune.py (PyTorch, epoch chosen on validation accuracy; cached by rows + settings), run by onnxruntime-node through @xtrust/models OnnxClassifier. Same ground truth by intervention, LIME through the classifier's token scorer, TOKI configurations, Naive and bootstrap intervals; cases of the default family, at reduced sizes (apps/bench/src/oracle/shortcut.ts --model kit-bert).",
    limit: [7200, 1800],
    regenerated:
      "the fine-tuned transformer folders and explanation cache apps/bench/results/oracle-family-kit-bert-cache/ (keyed by rows + settings), re-made by the command above (needs Debian's torch: bash models/transformers/setup.sh); apps/bench/results/oracle-family-kit-bert.json.gz, the results the section is written from, is committed.",
    script: (ctx) => needFixtures(KIT_MLM) ?? { file: SHORTCUT, args: table3TransformerArgs(ctx.quick) },
  },
  {
    name: 'oracle-drawn',
    area: 'oracle',
    title: 'TOKI on drawn shortcut cases: the test family, per trigger band (everyday, phrase, mid, rare, absent)',
    description:
      'Issue 29: cases drawn by seed instead of written by hand — corpus (Brown genres, State of the Union parties, SpamAssassin bodies), target class, share in [0.3, 1.0], window of 40/60/80/120 words and a trigger drawn from a frequency band of the corpus vocabulary (@xtrust/datasets trigger bands; never a word the target class already leans on). The TEST family (seeds 2,000 + i) is reported and was never read while choosing the oracle; the validation family (seeds 1,000 + i) is the next section. Draws continue until 40 cases decide ≥ 100 predictions per side; too-small draws are counted. bow-logistic, LIME 5,000 samples, GloVe; `toki+cat+ud` (what `xtrust demo` runs on its corpora: `toki+cat` with each class described by the corpus’s built-in description, issue 47’s third round), `toki+cat+ud+nouter` (the same with a token inside two categories named by the first listed, the default until issue 48’s tenth round), `toki+norc+cat+ud` (the same without issue 47’s fifth-round related counterweight, issue 48’s eighth-round default), `toki+cat` (what `xtrust audit` runs by default: `toki` with the token categories as no reason for any class, issue 48), `toki` (without them; since issue 48 it weighs co-occurring unrelated words as one reason), `toki-cluster` (the default before issue 47) and Naive on the same explanations; per-band medians with bootstrap intervals over cases, per-case G-mean with bootstrap intervals (apps/bench/src/oracle/shortcut.ts --family test).',
    limit: [10800, 1800],
    regenerated:
      'the LIME explanation cache (one file per case) under the --cache folder, re-made by the command above (about an hour on 2 cores); the full results of the run (apps/bench/results/oracle-drawn-cache/test.json); the compact copy the section is rendered from, apps/bench/results/oracle-drawn-test.json.gz, is committed and re-made by `node apps/bench/dist/oracle/shortcut.js --from apps/bench/results/oracle-drawn-cache/test.json --write-section`.',
    script: (ctx) => ({
      file: SHORTCUT,
      args: ctx.quick
        ? argv(`--family test ${QUICK_DRAWN}`)
        : [
            ...argv(
              '--family test --draws 40 --until-scored 40 --oracle toki+cat+ud,toki+cat+ud+nouter,toki+norc+cat+ud,toki+cat,toki,toki-cluster',
            ),
            ...drawnCache('test'),
          ],
    }),
  },
  {
    name: 'oracle-drawn-validation',
    area: 'oracle',
    title: 'TOKI on drawn shortcut cases: the validation family, where every choice of the oracle was read',
    description:
      "The validation family of drawn shortcut cases (seeds 1,000 + i; the test family's design, disjoint seeds): the configurations of the test family's section on the same cached explanations — `toki+cat+ud` (the demo's default), `toki+cat+ud+nouter` (the same with a token inside two categories named by the first listed, the default until issue 48's tenth round), `toki+norc+cat+ud` (without issue 47's fifth-round related counterweight), `toki+cat` (what `xtrust audit` runs), `toki` (without the token categories) and `toki-cluster` (the default before issue 47) beside Naive. Every round of issues 47 and 48 read this family (with the related-validation controls and the natural validation families) to choose the default, by the rule fixed in issue 48's first round; the ablations each round compared (meaning thresholds, verdict rules, the surface-token check, leans, shares, the removal check, phrase leans) are tabled with their commands in packages/oracle/choosing-the-default.md, and this section's runs with them are in git history (until 2026-11-29 it held issue 47's ablations). (apps/bench/src/oracle/shortcut.ts --family validation)",
    limit: [10800, 1800],
    regenerated:
      'the LIME explanation cache under the --cache folder, re-made by the command above; the full results of the run apps/bench/results/oracle-drawn-cache/validation.json; the compact copy the section is rendered from, apps/bench/results/oracle-drawn-validation.json.gz, is committed and re-made by `node apps/bench/dist/oracle/shortcut.js --from apps/bench/results/oracle-drawn-cache/validation.json --write-section`.',
    script: (ctx) => ({
      file: SHORTCUT,
      args: ctx.quick
        ? argv(`--family validation ${QUICK_DRAWN}`)
        : [
            ...argv(`--family validation --draws 40 --oracle ${VALIDATION_ORACLES.join(',')}`),
            ...drawnCache('validation'),
          ],
    }),
  },
  {
    name: 'oracle-drawn-transformer',
    area: 'oracle',
    title:
      'TOKI on drawn shortcut cases with a transformer: the kit BERT encoder fine-tuned per test draw (quick variant)',
    description:
      "The test family's first draws (seeds 2,000 + i) with the classifier swapped for a transformer: per case the model kit's masked-LM encoder fine-tuned on the case's training texts (models/transformers/finetune.py), run by onnxruntime-node; reduced sizes (300 keyword texts, LIME 1,000 samples, ≤ 120 predictions per side). Issue 29 asks for the full-size 4 × 256 encoder; this is the committed 2 × 128 fixture encoder (apps/bench/src/oracle/shortcut.ts --family test --model kit-bert).",
    limit: [10800, 3600],
    regenerated:
      'the fine-tuned folders and explanation cache under the --cache folder and the full results of the run; the compact copy the section is rendered from, apps/bench/results/oracle-drawn-transformer.json.gz, is committed.',
    script: (ctx) => {
      const missing = needFixtures(KIT_MLM);
      if (missing) return missing;
      return {
        file: SHORTCUT,
        args: [
          ...argv(`--family test --model kit-bert --draws ${ctx.quick ? 2 : 8} --epochs 2 --model-threads 2`),
          ...argv('--train 300 --samples 1000 --per-side 120 --oracle toki,toki-paper'),
          ...['--out', join(RESULTS, 'oracle-drawn-cache/kit-bert-test.json')],
          ...['--cache', join(RESULTS, 'oracle-drawn-cache/kit-bert')],
        ],
      };
    },
  },
  {
    name: 'oracle-drawn-transformer-full',
    area: 'oracle',
    title: 'TOKI on drawn shortcut cases with the full-size kit BERT (4 × 256) fine-tuned per test draw',
    description:
      "The previous section's test draws (seeds 2,000 + i) with the full-size encoder issue 29 asks for: per case models/transformers/out/bert-mlm (4 layers × 256, 128 positions; built by `pnpm models:build`, not committed) fine-tuned on the case's training texts, run by onnxruntime-node on 1 thread; 200 keyword texts, LIME 1,000 samples, ≤ 100 predictions per side; until 8 cases are scored. A fine-tuning takes about 25 min on one CPU thread: with `--finetune-device cuda` the missing ones are queued, fine-tuned on a lent GPU (apps/bench/src/oracle/kit-bert-queue.ts) and brought back as int8 rows; the transformer table says where each case's model was trained (apps/bench/src/oracle/shortcut.ts --family test --model kit-bert --encoder models/transformers/out/bert-mlm).",
    limit: [6 * 3600, 3600],
    regenerated:
      'the fine-tuned folders and explanation cache under apps/bench/results/oracle-drawn-cache/kit-bert-full and the full results of the run; the compact copy the section is rendered from, apps/bench/results/oracle-drawn-transformer-full.json.gz, is committed.',
    script: (ctx) => {
      const missing = needKitModels(ctx, 'bert-mlm');
      if (missing) return missing;
      const n = ctx.quick ? 1 : 8;
      return {
        file: SHORTCUT,
        args: [
          ...['--family', 'test', '--model', 'kit-bert', '--encoder', kitModel(ctx, 'bert-mlm')],
          ...argv(
            `--draws ${n} --until-scored ${n} --epochs 2 --model-threads 1 --train 200 --samples 1000 --per-side 100`,
          ),
          ...argv('--oracle toki,toki-name,toki-paper --finetune-device cuda'),
          ...['--out', join(RESULTS, 'oracle-drawn-cache/kit-bert-full-test.json')],
          ...['--cache', join(RESULTS, 'oracle-drawn-cache/kit-bert-full')],
          ...['--finetune-queue', join(RESULTS, 'oracle-drawn-cache/kit-bert-full-queue.jsonl')],
        ],
      };
    },
  },
  {
    name: 'oracle-word-lists',
    area: 'oracle',
    title: "TOKI's keyword step against person-written word lists (precision and recall of 'related')",
    description:
      "Issue 29 (3): per corpus (SpamAssassin bodies, State of the Union parties, five Brown genres) a model trained on the corpus with no trigger, TOKI's keyword identification on it, and its verdicts on ≥ 60 related and ≥ 60 unrelated words per class written by a person before any oracle run (apps/bench/src/oracle/word-lists/). Two readings: the keyword status of listed words in the class's pool, and Eq. 5's r(w, c) for every listed word (apps/bench/src/oracle/word-list-agreement.ts).",
    limit: [7200, 1200],
    regenerated:
      'nothing but the results JSON apps/bench/results/oracle-word-lists.json.gz (committed, gzipped); the explanations are re-made by the command above.',
    script: (ctx) => ({
      file: 'apps/bench/dist/oracle/word-list-agreement.js',
      args: ctx.quick
        ? ['--corpus', 'spam', '--train', '300', '--samples', '1000']
        : ['--oracle', 'toki,toki-paper,toki+nofw+notc', '--out', join(RESULTS, 'oracle-word-lists.json.gz')],
    }),
  },
  {
    name: 'oracle-selection',
    area: 'oracle',
    title: 'Oracle selection: one TOKI configuration for the whole shortcut family, chosen on validation splits only',
    description:
      "Issue 14 (3): per case of the shortcut family the sampled training texts and the scored validation and test predictions are explained once with LIME (bow-logistic, 5,000 samples), and every candidate configuration is evaluated on those explanations; the rule with the most validation cases at G-mean ≥ 0.85 (then the larger minimum, fewer departures from the paper, the larger mean) is chosen with GloVe, and the best three and the paper's are re-run with counter-fitted vectors, USE and their ensemble; the test splits are read only for the final report (apps/bench/src/oracle/select.ts).",
    limit: [7200, 1800],
    regenerated:
      'the LIME explanation checkpoints apps/bench/results/oracle-family-cache/select/ (one per case, reused by a later run) and the full results results.json there, re-made by the command above.',
    script: (ctx) => {
      const cache = join(RESULTS, ctx.quick ? 'oracle-family-cache/select-quick' : 'oracle-family-cache/select');
      const sizes = ctx.quick
        ? ['--embeddings', 'glove', '--train', '300', '--samples', '1000', '--per-side', '100', '--bootstrap', '200']
        : ['--embeddings', 'glove,cf,use', '--per-side', '250', '--bootstrap', '1000'];
      return {
        file: 'apps/bench/dist/oracle/select.js',
        args: [...sizes, '--cache', cache, '--out', join(cache, 'results.json')],
      };
    },
  },
  {
    name: 'related-controls',
    area: 'oracle',
    title:
      'Related-trigger controls: is a prediction resting on a planted word a person calls related labelled trustworthy?',
    description:
      "Issue 47 (1): the drawn shortcut family's controls. Each case plants a word a person calls related to the target class — drawn by seed from the held-out `report` half of the committed word lists (apps/bench/src/oracle/word-lists/, never read while choosing the oracle), less inflections of the `choice` half (apps/bench/src/oracle/related-triggers.ts) — so reliance on it is right for the right reason: ground truth trustworthy. Cases are drawn like the unrelated family (corpus, target, share, window; related-validation seeds 3,000 + i, related-test 4,000 + i), bow-logistic, LIME 5,000 samples, GloVe, at most 250 predictions per side explained, scored with ≥ 30 predictions resting on the trigger (the issue asks ≥ 100: a planted related word often sits beside the class's own words, so fewer predictions hinge on it). The score: the share of trigger-reliant predictions labelled trustworthy, pooled per corpus and per case, percentile bootstrap 95 % intervals, the demo's default `toki+cat+ud` (each class described by the bundled corpus's built-in description beside its name and WordNet, issue 47's third round; @xtrust/datasets class-descriptions.ts, written before any run with them) beside `toki+cat+ud+nouter` (the same with a token inside two categories named by the first listed, the default until issue 48's tenth round), `toki+norc+cat+ud` (the same without issue 47's fifth-round related counterweight, issue 48's eighth-round default), `toki+cat` (what `xtrust audit` runs on a corpus it has no description of), `toki` (issue 47's second round, no token categories), `toki-cluster` (the default before issue 47) and Naive (θ_conf 0.9) on the same explanations. The unrelated families' triggers now skip words the rubric calls related to the target (`related-controls.js --skipped`). Full run: the test range; the validation range (the one the choices read; issue 48's tenth-round run is committed, the earlier rounds' sweeps `--oracle toki+cat+ud,toki+mlL+cat+ud,…`, `…,toki+flD+cat+ud`, `…,toki+shS+cat+ud`, `…,toki+rmL+cat+ud` and `…,toki+pflD+cat+ud` are in packages/oracle/choosing-the-default.md) is `--family related-validation --draws 12 --oracle toki+cat+ud,toki+cat+ud+nouter,toki+norc+cat+ud,toki+cat,toki+cat+ud+rc0.5,toki+cat+ud+rc2 --cache DIR` (apps/bench/src/oracle/related-controls.ts).",
    limit: [7200, 1800],
    regenerated:
      'the per-case explanation caches apps/bench/results/oracle-drawn-cache/related-test/ (reused by a later run); the committed results are related-controls-{test,validation}.json.gz.',
    script: (ctx) => {
      const test = join(RESULTS, 'related-controls-test.json.gz');
      if (ctx.stored)
        return {
          file: RELATED_CONTROLS,
          args: ['--from', `${test},${join(RESULTS, 'related-controls-validation.json.gz')}`],
        };
      const sizes = ctx.quick
        ? argv('--draws 3 --train 300 --samples 1000 --per-side 60 --min-per-side 30')
        : argv('--draws 16 --min-per-side 30');
      return {
        file: RELATED_CONTROLS,
        args: [
          '--family',
          'related-test',
          ...['--oracle', 'toki+cat+ud,toki+cat+ud+nouter,toki+norc+cat+ud,toki+cat,toki,toki-cluster'],
          ...sizes,
          ...(ctx.quick ? [] : ['--out', test]),
          ...['--cache', join(RESULTS, 'oracle-drawn-cache', ctx.quick ? 'related-test-quick' : 'related-test')],
        ],
      };
    },
  },
  {
    name: 'annotated-pools',
    area: 'oracle',
    title: "TOKI's keyword step on the pools of unplanted models, against labels written by a rubric before any run",
    description:
      "Issue 47 (2): bow-logistic trained with no trigger on SpamAssassin (bodies; header block + body), State of the Union and Brown (70 % of each corpus in 60-word windows, seed 1); 2,000 training texts, the correct ones explained by LIME 5,000, top 10 positive words each (TOKI paper Eq. 1–2); per class the 100 pool words of highest averaged importance, function words dropped, labelled related / unrelated / unsure by the rubric apps/bench/src/oracle/relatedness-rubric.md before any relatedness step ran on them (labels: apps/bench/src/oracle/annotated-pools/). The run rebuilds the same pools and scores the keyword identification of `toki+ud` (what `xtrust demo` runs on these corpora: each class described by the corpus's built-in description as well, issue 47's third round; its keywords are `toki+cat+ud`'s, the categories acting at labelling only), `toki` (no description beyond the name and WordNet: what `xtrust audit` runs) `toki+ml0.8+ud` (the same with the corpus-neighbour lean at 0.8, the default until 2026-11-28) and `toki-cluster` (the default before issue 47) against the labels: precision and recall of 'related' per class (unsure words not scored), the share of the whole pool called related, and which signal related each word called related. The lean's 1.6 was chosen on a validation pool labelled the same way (bow-logistic on Brown's editorial, reviews, learned, mystery and adventure: `annotated-pools.js --split validation`, labels in annotated-pools/validation/; its run, `--split validation --model bow-logistic --oracle toki+ml0.8+ud,toki+ml1.2+ud,toki+ud,toki+ml2+ud,toki+ml3+ud,toki+ml99+ud,toki+mt0.95+ml2+ud,toki+mt0.95+ml99+ud,toki+mt0.9+ml99+ud`, is the second table, annotated-pools-validation.json.gz), never on these. The full-size kit BERTs (4 × 256, 128 positions: bert-spam on the SpamAssassin bodies, bert-brown on Brown; built by `pnpm models:build --only base --stages mlm,classifiers --tasks spam,brown`, not in git) are scored the same way on their own training split: 200 texts (as many as the transformer audits take) cut at the model's position limit, LIME 5,000 on the int8 graph with adaptive stopping (the fast audit's keyword pass), labelled by the same rubric before any relatedness step; a class none of whose sampled texts the model gets right has no pool (kit-bert-pools.ts). Rerunning the section needs the kit built (apps/bench/src/oracle/annotated-pools.ts).",
    limit: [7200, 1200],
    regenerated:
      "nothing: the committed results are apps/bench/results/annotated-pools-toki.json.gz and annotated-pools-validation.json.gz (the kit BERTs' explanations are cached in the git-ignored apps/bench/results/annotated-pools-cache/).",
    script: (ctx) => {
      const out = join(RESULTS, 'annotated-pools-toki.json.gz');
      if (ctx.stored)
        return {
          file: ANNOTATED_POOLS,
          args: ['--from', `${out},${join(RESULTS, 'annotated-pools-validation.json.gz')}`],
        };
      return {
        file: ANNOTATED_POOLS,
        args: ['--oracle', 'toki+ud,toki+ml0.8+ud,toki,toki-cluster', ...(ctx.quick ? [] : ['--out', out])],
      };
    },
  },
  naturalSection('phrase-validation', 30, 0),
  naturalSection('scattered-validation', 21, 0),
  naturalSection('category-validation', 16, 0),
  naturalSection('phrase-test', 16, 15),
  naturalSection('scattered-test', 40, 15),
  naturalSection('category-test', 24, 12),
];
