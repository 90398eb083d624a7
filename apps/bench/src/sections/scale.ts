/**
 * The benchmarks at the paper's scale and beyond: the TOKI paper's whole audit on a BERT (exact, fast, queued),
 * a cheaper keyword pass for it, and scale-out over a BullMQ queue.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kitSpamClassifier, NO_KIT_MODELS, RESULTS } from '../harness/setup.js';
import type { Benchmark } from './types.js';

export const SCALE: readonly Benchmark[] = [
  {
    name: 'transformer-audit',
    area: 'scale',
    title: "Transformer audit at the paper's scale: exact vs fast LIME, local vs queued, beside the paper's hours",
    description:
      "`xtrust audit` run as a user runs it (the built CLI as child processes) on the kit's spam classifier (out/bert-spam, 4 × 256; the committed tiny-bert-spam fixture when that is not built) over the kit's SpamAssassin-bodies split: a 10 % sample of the TOKI paper's setting (200 of 2,000 training texts for keyword identification, 100 of 1,000 test predictions, LIME 5,000 samples), in the exact LIME mode and in `--lime-mode int8+adaptive`, then the fast audit through `--queue` with two `xtrust worker` processes on a throw-away redis-server; wall and CPU time, extrapolated × 10, beside the paper's reported times (000_6d314fe57d39eb4c.txt, Table 3) and the transformer-lime peer's seconds per explanation on the same model when its files are there; the fast mode's label agreement with exact, the queued run's label mismatches and overhead. Each run is stored as it finishes and reused by a later invocation with the same settings, so the hours-long audit on the 4 × 256 model can be measured in parts (apps/bench/src/transformer-audit/run.ts). Since issue 30 the bench also runs `xtrust audit --audit-mode fast` (adaptive keyword pass, verdict-aware labels; stored as runs/audit-fast.json.gz, resumable in sittings like the others) and reports its labels equal to exact, the LIME samples each test prediction used and each class's keyword-set Jaccard against the exact run's keywords.json (`--audit-fast off` leaves it out, `--queue-mode audit-fast` queues it). The section opens with issue 30's audit table: every mode on one model (exact, fast, queued, keyword-pass's whole fast audits from apps/bench/results/keyword-pass.json.gz, the peer) with its hours at 2,000 + 1,000, labels equal to exact and keyword Jaccard per class; each run records the oracle configuration it labelled with and is read against the exact run of the same configuration: when the exact audit is measured again under a newer default `toki`, the run it replaces is kept as a slim reference (runs/exact-reference-<date>.json.gz: labels, keywords, oracle) for the runs labelled under its configuration, and a comparison that can only be made across configurations says so. A run whose keyword pass is adaptive is keyed by the stopping rule it ran, so a changed default measures it again; each sitting records its CPU's x86 family and model (since 2026-11-27), because hours compare across runs only on the same CPU.",
    limit: [21600, 3600],
    regenerated:
      "the run directories apps/bench/results/transformer-audit/work/ (each run's report.html, keyword and test explanation JSONL, predictions.jsonl, keywords.json, summary.json; the data JSONL) and runs/*.partial.json (a run's sittings while unfinished). The committed runs/<name>.json.gz hold each finished run's times and a compact record of its predictions (verdicts, top-10 words, line digests): enough to render this section and to be reused by a re-run on the same model (its fingerprint: outputs on probe texts). Re-create the directories with the command above and `--fresh` (hours on 2 cores with out/bert-spam; a stopped run resumes from its work/ directory).",
    script: (ctx) => {
      const model = kitSpamClassifier(ctx);
      if (!model) return { skipped: NO_KIT_MODELS };
      return {
        file: 'apps/bench/dist/transformer-audit/run.js',
        // --quick: a 3 % sample (60 + 30) at the paper's LIME 5,000
        args: [
          '--model',
          model,
          ...(ctx.quick ? ['--fraction', '0.03', '--samples', '5000'] : ['--fraction', '0.1', '--samples', '5000']),
          // issue 30: the fast audit mode (int8: its keyword pass int8+adaptive) locally and through the queue, beside the fast LIME mode's queued run
          // (the fast audit mode first: a sitting cut short by the session's end has measured the recommended mode)
          '--queue-mode',
          'audit-fast,fast',
          '--audit-fast-lime-mode',
          'int8',
          '--out',
          join(RESULTS, ctx.quick ? 'transformer-audit-quick' : 'transformer-audit'),
        ],
      };
    },
  },
  {
    name: 'keyword-pass',
    area: 'scale',
    title: 'A cheaper keyword pass for the audit (issue 30)',
    description:
      "Which explainer the audit's keyword identification needs: each candidate explains the exact audit run's training texts, its keyword store (same oracle) is compared with the exact LIME pass's by the audit's outcome — keyword sets (Jaccard per class) and the labels of the run's predictions — with its time per text extrapolated to the paper's 2,000 + 1,000; beside them the whole fast audits timed end to end (apps/bench/src/keyword-pass/run.ts). Passes already in apps/bench/results/keyword-pass.json.gz are not measured again.",
    limit: [6 * 3600, 1800],
    writesSection: true,
    regenerated:
      "the exact audit's run directory apps/bench/results/transformer-audit/work/exact (made by `pnpm bench --only transformer-audit`); apps/bench/results/keyword-pass.json.gz holds every pass's figures and is committed.",
    script: (ctx) => {
      if (ctx.quick)
        return { skipped: "no quick setting: its passes are judged on the exact audit's full run", keep: true };
      if (!existsSync(join(RESULTS, 'transformer-audit/work/exact')))
        return {
          skipped:
            "the exact audit's run directory apps/bench/results/transformer-audit/work/exact is not here (pnpm bench --only transformer-audit makes it)",
          keep: true,
        };
      const whole = (f: string) => join(RESULTS, `keyword-pass-${f}.json`);
      return {
        file: 'apps/bench/dist/keyword-pass/run.js',
        args: [
          '--whole',
          `${whole('whole-gradient')},${whole('distil-gradient-int8')}`,
          '--passes',
          'gradient,omission,attention,integrated-gradients:20,lime:1000,adaptive:5000,lime:5000@1',
          '--verdict-passes',
          'reference,gradient,omission,lime:1000',
          '--compare-whole',
          `${whole('distil-gradient')}+${whole('distil-gradient-int8')}`,
          '--write-section',
        ],
      };
    },
  },
  {
    name: 'scale',
    area: 'scale',
    title: 'Scale-out over BullMQ on Redis: 1 vs 2 workers, queue overhead vs a local run',
    description:
      'Jobs of 100 LIME explanations run through @xtrust/scale (BullMQ on a local redis-server) by 1 and 2 worker processes, against the same work in one local process; overhead = (queued − local) / local with one worker. Target: under 5 %. Also a kill -9 of a worker during a 1,000-instance audit (apps/bench/src/scale/run.ts).',
    limit: [3600, 900],
    script: (ctx) => ({
      file: 'apps/bench/dist/scale/run.js',
      args: ctx.quick ? ['--instances', '200', '--samples', '2000', '--kill-instances', '200', '--repeats', '2'] : [],
    }),
  },
];
