/**
 * The audit at the TOKI paper's scale on a transformer (issue 16, deliverable 4): `xtrust audit` on a
 * model-kit classifier folder, run as a user runs it (the built CLI, one child process per run), on a
 * sample of the paper's 2,000 training texts (keyword identification) + 1,000 test predictions at LIME
 * 5,000 samples — by default 10 % of it — in the exact LIME mode and in a fast mode, then the same audit
 * through `--queue` with `xtrust worker` processes on a throw-away redis-server. Prints the section of
 * BENCHMARKS.md: wall and CPU time per run, extrapolated × 1/fraction, beside the paper's reported times
 * (000, Table 3) and a same-model peer extrapolation (Python lime + PyTorch seconds per explanation from
 * the transformer-lime bench's peer files, when there); the fast mode's trustworthiness-label agreement
 * with the exact mode's; the queued run's label mismatches against the local run and its overhead.
 *
 *   pnpm turbo run build --filter=xtrust --filter=@xtrust/bench
 *   node apps/bench/dist/transformer-audit/run.js [--model models/transformers/fixtures/tiny-bert-spam]
 *        [--fraction 0.1] [--train 2000] [--test 1000] [--samples 5000] [--fast-mode int8+adaptive]
 *        [--queue-mode fast[,audit-fast][,exact]] [--audit-fast on|off] [--audit-fast-lime-mode exact|int8]
 *        [--workers 2] [--embeddings glove] [--peer apps/bench/results/transformer-lime]
 *        [--out apps/bench/results/transformer-audit] [--work DIR] [--fresh] [--remeasure fixed,exact,fast,queued,…]
 *   (--help lists every option)
 *
 * Each run (the fixed costs, exact, fast, audit-fast, and one queued run per --queue-mode: queued for the fast
 * LIME mode, queued-audit-fast, queued-exact) is stored in `<out>/runs/<name>.json.gz` as it finishes,
 * with what it was measured with (the model's fingerprint — its outputs on probe texts, as the CLI keys its runs —, sample sizes, LIME samples, mode, workers,
 * embeddings), the load average around it and a digest of its predictions (predictions.ts); a later
 * invocation with the same settings reuses it instead of measuring it again, so an audit that takes hours
 * on the 4 × 256 model can be measured in parts (the section dates each run). `--fresh` measures every run
 * again. The stored runs are committed; the run directories under `<out>/work/` (report HTML, explanation
 * JSONL, predictions.jsonl) are not: the command regenerates them.
 *
 * The data is the kit's split of the SpamAssassin bodies (models/transformers/export-corpora.mjs: test 0.3,
 * validation 0.15, seed 1) rebuilt through @xtrust/datasets and written as JSONL, so the audited test
 * texts are texts the model never trained on. CPU time is the children's user + system time (the audit
 * process and, for the queued run, the workers), read from /proc/self/stat's cutime/cstime as each
 * child is reaped.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OnnxClassifier } from '@xtrust/models';
import { resolveAdaptive } from '@xtrust/explainers';
import { fingerprintOf } from '../transformer-lime/block-key.js';
import { ruleNeedsKey } from '../transformer-lime/adaptive-rule.js';
import { blockTexts } from '../transformer-lime/texts.js';
import { mean, topKJaccard, type WordWeights } from '../lime-parity/metrics.js';
import { defineScript, exitUsage, parseOrExit } from '../harness/options.js';
import { runChild, startWorkers, stopWorkers, workersReady } from '../harness/processes.js';
import { procCpuSeconds } from '../harness/timing.js';
import { sittingMachine } from '../harness/machine.js';
import { readJson, writeJsonAtomic } from '../harness/store.js';
import { startRedis } from '../scale/redis.js';
import { digestPredictions, type Prediction, type PredictionDigest } from './predictions.js';
import { KIT_SPLIT, writeKitSpamSplit } from './kit-split.js';
import {
  keywordJaccards,
  labelAgreement,
  oracleDifference,
  renderAuditTable,
  wholeAuditRows,
  type AuditRow,
  type KeywordPassResults,
} from './audit-table.js';
import {
  chooseReference,
  pairedVerdicts,
  referenceFileName,
  REFERENCE_FILE,
  slimReference,
  type ExactReference,
} from './exact-reference.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(here, '../../../..');

const MODES = ['exact', 'adaptive', 'int8', 'int8+adaptive'];
/** A share in (0, 1]. */
const shareOf = (raw: string): number => {
  const x = Number(raw);
  if (!(x > 0 && x <= 1)) throw new Error(`must be in (0, 1], got ${JSON.stringify(raw)}`);
  return x;
};
const argv = process.argv.slice(2);
const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/transformer-audit/run.js [options]',
    summary:
      "`xtrust audit` at the TOKI paper's scale on a kit classifier, exact vs fast LIME and local vs --queue, extrapolated from a sample; each run stored in <out>/runs/ and reused, a run longer than one sitting resumed. Markdown on stdout.",
    options: {
      model: {
        kind: 'string',
        placeholder: 'DIR',
        help: 'the classifier folder (default models/transformers/fixtures/tiny-bert-spam)',
      },
      fraction: {
        kind: 'custom',
        placeholder: 'F',
        parse: shareOf,
        default: 0.1,
        help: "the share of the paper's setting measured, in (0, 1]",
      },
      train: { kind: 'integer', min: 1, default: 2000, help: "the paper's training texts for keyword identification" },
      test: { kind: 'integer', min: 1, default: 1000, help: "the paper's test predictions" },
      samples: { kind: 'integer', min: 2, default: 5000, help: 'LIME samples' },
      'fast-mode': { kind: 'string', choices: MODES.slice(1), default: 'int8+adaptive', help: 'the fast LIME mode' },
      'queue-mode': {
        kind: 'list',
        choices: ['fast', 'exact', 'audit-fast'],
        default: ['fast'],
        help: 'which audits go through the queue, each compared with its local run: fast (the --fast-mode LIME mode; stored as runs/queued.json.gz), exact, audit-fast (--audit-mode fast; runs/queued-<mode>.json.gz)',
      },
      'audit-fast': {
        kind: 'string',
        choices: ['on', 'off'],
        default: 'on',
        help: "also run `xtrust audit --audit-mode fast` (issue 30: adaptive keyword pass + verdict-aware labels, at --audit-fast-lime-mode), stored as runs/audit-fast.json.gz: labels equal to exact, LIME samples per prediction, keyword-set Jaccard per class against the exact run's keywords.json",
      },
      'audit-fast-lime-mode': {
        kind: 'string',
        choices: ['exact', 'int8'],
        default: 'exact',
        help: "--audit-fast's model graph: exact (float32) or int8; the CLI is given --lime-mode adaptive or int8+adaptive (fast's keyword pass is adaptive), the stored runs keep this name in their keys",
      },
      workers: { kind: 'integer', min: 1, default: 2, help: '`xtrust worker` processes of the queued run' },
      embeddings: { kind: 'string', default: 'glove', help: "the audit's --embeddings" },
      peer: {
        kind: 'string',
        placeholder: 'DIR',
        help: "transformer-lime's peer files (default apps/bench/results/transformer-lime)",
      },
      'keyword-pass': {
        kind: 'string',
        placeholder: 'FILE',
        help: "keyword-pass's results, whose whole fast audits of this model join the audit table (default apps/bench/results/keyword-pass.json.gz; left out when absent)",
      },
      out: {
        kind: 'string',
        placeholder: 'DIR',
        help: 'runs/ and summary.json.gz (default apps/bench/results/transformer-audit)',
      },
      work: { kind: 'string', placeholder: 'DIR', help: 'the run directories (default <out>/work; not committed)' },
      cli: { kind: 'string', placeholder: 'FILE', help: 'the built CLI (default apps/cli/dist/bin.js)' },
      fresh: { kind: 'flag', help: 'measure every run again' },
      remeasure: {
        kind: 'list',
        choices: ['fixed', 'exact', 'fast', 'audit-fast', 'queued', 'queued-exact', 'queued-audit-fast'],
        default: [],
        help: 'measure these runs again even when stored',
      },
    },
  }),
);

const model = resolve(o.model ?? join(ROOT, 'models/transformers/fixtures/tiny-bert-spam'));
const fraction = o.fraction;
const fullTrain = o.train;
const fullTest = o.test;
const samples = o.samples;
const workersN = o.workers;
// the workers share this machine's cores (the local runs use them all): each gets its share, so the
// queued run uses as many threads as the local one instead of oversubscribing the cores
const workerThreads = Math.max(1, Math.floor(cpus().length / workersN));
const fastMode = o['fast-mode'];
type QueueWhich = 'fast' | 'exact' | 'audit-fast';
const queueWhichList = o['queue-mode'] as QueueWhich[];
const auditFastOn = o['audit-fast'] === 'on' || queueWhichList.includes('audit-fast');
const auditFastLimeMode = o['audit-fast-lime-mode'];
/** A queued run's LIME mode and --audit-mode. */
const queueModeOf = (which: QueueWhich) =>
  which === 'fast' ? fastMode : which === 'audit-fast' ? auditFastLimeMode : 'exact';
const queueAuditModeOf = (which: QueueWhich) => (which === 'audit-fast' ? 'fast' : 'exact');
/** Where a queued run is stored: the fast LIME mode's keeps the name it had before several could be queued. */
const queuedName = (which: QueueWhich) => (which === 'fast' ? 'queued' : `queued-${which}`);
const embeddings = o.embeddings;
const peerDir = resolve(o.peer ?? join(ROOT, 'apps/bench/results/transformer-lime'));
const out = resolve(o.out ?? join(ROOT, 'apps/bench/results/transformer-audit'));
const keywordPassFile = resolve(o['keyword-pass'] ?? join(ROOT, 'apps/bench/results/keyword-pass.json.gz'));
// run directories persist under <out>/work (gitignored) unless --work names another: a run stopped
// mid-way (the session ended, Ctrl-C) continues there with the CLI's --resume in a later sitting
const work = resolve(o.work ?? join(out, 'work'));
const cli = resolve(o.cli ?? join(ROOT, 'apps/cli/dist/bin.js'));
const fresh = o.fresh;
/** Runs measured again even when stored (`--remeasure fast,queued`; `--fresh` measures them all). */
const remeasure = new Set(o.remeasure);
const trainSample = Math.max(1, Math.round(fullTrain * fraction));
const testSample = Math.max(1, Math.round(fullTest * fraction));
const scale = 1 / fraction;

/** A path as shown: relative to the repository root when under it, else as it is. */
const rel = (p: string) => (p.startsWith(`${ROOT}/`) ? relative(ROOT, p) : p);
const log = (s: string) => process.stderr.write(`[transformer-audit ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
if (!existsSync(cli)) exitUsage(`${rel(cli)} is missing: build the CLI first (pnpm turbo run build --filter=xtrust)`);
if (!existsSync(join(model, 'onnx/model.onnx')))
  exitUsage(`--model ${model}: not a Hugging Face folder with onnx/model.onnx`);
mkdirSync(join(out, 'runs'), { recursive: true });
mkdirSync(work, { recursive: true });
const loadStart = loadavg();

// ---------------------------------------------------------------- data: the kit's split, as JSONL
const training = (() => {
  try {
    return JSON.parse(readFileSync(join(model, 'training.json'), 'utf8')) as {
      corpus?: string;
      test_size?: number;
      test_accuracy?: number;
      model?: string;
    };
  } catch {
    return {};
  }
})();
const config = JSON.parse(readFileSync(join(model, 'config.json'), 'utf8')) as {
  num_hidden_layers?: number;
  hidden_size?: number;
  max_position_embeddings?: number;
};
const { trainFile, testFile, ...split } = writeKitSpamSplit(work, training);
log(
  `SpamAssassin bodies, the kit's split: ${split.train} training, ${split.validation} validation, ${split.test} test texts → ${work}`,
);

// ---------------------------------------------------------------- child processes, timed
/** User + system seconds of this process's reaped children (cutime + cstime of /proc/self/stat). */
const childrenCpu = () => procCpuSeconds('self', 'children');

function auditArgs(
  mode: string,
  dir: string,
  size = { train: trainSample, test: testSample, samples },
  auditMode = 'exact',
): string[] {
  return [
    'audit',
    '--model',
    model,
    '--train',
    trainFile,
    '--test',
    testFile,
    '--train-sample',
    String(size.train),
    '--test-sample',
    String(size.test),
    '--samples',
    String(size.samples),
    '--class-names',
    'ham=legitimate',
    '--embeddings',
    embeddings,
    '--lime-mode',
    cliLimeMode(mode, auditMode),
    // exact is the CLI's default: left out, so the commands of runs stored before --audit-mode stay as they were
    ...(auditMode === 'exact' ? [] : ['--audit-mode', auditMode]),
    '--out',
    dir,
    '--quiet',
  ];
}
/**
 * The `--lime-mode` the CLI is given. `--audit-mode fast` runs an adaptive keyword pass and the CLI refuses a
 * non-adaptive LIME mode beside it, so the stored settings' `exact` / `int8` (the keys of runs measured when the CLI
 * still rewrote them) are spelt as what they always ran: `adaptive` / `int8+adaptive`.
 */
function cliLimeMode(mode: string, auditMode: string): string {
  if (auditMode !== 'fast' || mode.includes('adaptive')) return mode;
  return mode === 'exact' ? 'adaptive' : `${mode}+adaptive`;
}
/** The command line shown in the section (paths relative to the repository root where they are under it). */
const shown = (args: readonly string[]) => ['xtrust', ...args.map(rel)].join(' ');

interface Timed {
  readonly wall: number;
  readonly cpu: number;
}
/** Runs the CLI with `args` (harness runChild); its pid is in `live` while it runs (the sitting's heartbeat reads its CPU). */
async function runCli(args: readonly string[], live = new Set<number>()): Promise<Timed> {
  const r = await runChild([cli, ...args], { live, tailChars: 3000 });
  if (r.code !== 0) throw new Error(`${shown(args)} exited with ${r.code}: ${r.stderrTail.trim()}`);
  return { wall: r.wall, cpu: r.cpu };
}

/** The audit's `xtrust worker` processes, once each listens. */
const startCliWorkers = (url: string, queueName: string): Promise<ChildProcess[]> =>
  workersReady(
    startWorkers(workersN, [
      cli,
      'worker',
      '--redis',
      url,
      '--queue-name',
      queueName,
      '--threads',
      String(workerThreads),
    ]),
  );

// ---------------------------------------------------------------- reading a finished audit
interface RunFiles {
  /** Digests of predictions.jsonl (predictions.ts): what the section reads, kept in the stored run instead of the file. */
  predictions: PredictionDigest[];
  explanations: { keywords: number; test: number; samplesUsed: number[] };
  seconds: { keywords: number; labelling: number; total: number };
  /** Each class's keywords (keywords.json; absent in runs stored before 2026-11-26, read from the run directory when it is still there). */
  keywords?: Record<string, string[]>;
  /** The oracle configuration the run labelled with (keywords.json's `oracle`; read from the run directory like keywords). */
  oracle?: Record<string, unknown>;
}
/** What a run directory's keywords.json says of the run: each class's keywords and the oracle configuration ({} when it is not there). */
function readStoreFacts(dir: string): Pick<RunFiles, 'keywords' | 'oracle'> {
  const file = join(dir, 'keywords.json');
  if (!existsSync(file)) return {};
  const store = JSON.parse(readFileSync(file, 'utf8')) as {
    classes: { label: string; keywords: string[] }[];
    oracle?: Record<string, unknown>;
  };
  return {
    keywords: Object.fromEntries(store.classes.map((c) => [c.label, c.keywords])),
    ...(store.oracle ? { oracle: store.oracle } : {}),
  };
}
function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
function readRun(dir: string): RunFiles {
  const ex = (f: string) =>
    jsonl<{ explanation?: { diagnostics?: { samples?: number } } }>(join(dir, f)).filter((r) => r.explanation);
  const kw = ex('keywords.explanations.jsonl');
  const test = ex('predictions.explanations.jsonl');
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { seconds: RunFiles['seconds'] };
  return {
    predictions: digestPredictions(jsonl<Prediction>(join(dir, 'predictions.jsonl'))),
    explanations: {
      keywords: kw.length,
      test: test.length,
      samplesUsed: [...kw, ...test].map((r) => r.explanation!.diagnostics?.samples ?? samples),
    },
    seconds: summary.seconds,
    ...readStoreFacts(dir),
  };
}
const weights = (p: PredictionDigest): WordWeights => p.top;
/** A stored run's files with its predictions digested (a run stored before digests kept the whole predictions.jsonl). */
const digested = <R extends { name: string; files: RunFiles }>(r: R): R => {
  // a run stored before keywords and oracle were kept takes them from its run directory while that is here
  const facts = r.files.keywords && r.files.oracle ? {} : readStoreFacts(join(work, r.name));
  return { ...r, files: { ...facts, ...r.files, predictions: digestPredictions(r.files.predictions) } };
};
/** The test explanations' LIME samples (the tail of samplesUsed: keyword explanations come first). */
const testSamplesOf = (f: RunFiles) => f.explanations.samplesUsed.slice(f.explanations.keywords);

// ---------------------------------------------------------------- stored runs (resume across sittings)
// the graph with its external weights file: since the kit shares one weights file per model, model.onnx alone names only the architecture
/**
 * The model a stored run was measured on, by what it computes: the audit's own run key (oracle's modelFingerprint:
 * SHA-256 of the float32 model's probabilities, rounded to 1e-4, on fixed probe texts), not the graph's bytes — a
 * re-export of the same weights (e.g. one that shares them with the gradient graph) changes the bytes, not the
 * function, and must not send a 16-hour exact audit to be measured again. Runs stored when the key was the graph
 * digest are migrated by the CLI's fingerprint in their run directories' run.json (the exact run's).
 */
const modelId = await fingerprintOf(model);
interface Stored<T> {
  key: Record<string, unknown>;
  measured: string;
  load: { start: number[]; end: number[] };
  result: T;
}
/** When each run used was measured, and the load around it (reused runs keep theirs). */
const measuredRuns: { name: string; measured: string; reused: boolean; load: Stored<unknown>['load'] }[] = [];
/** What a stored run is keyed by: the model, the sample, LIME samples, embeddings, the split and the run's own settings. */
/**
 * A stored run's key. A run whose keyword pass is adaptive (an adaptive LIME mode, or `--audit-mode fast`, which
 * makes it so) carries LimeOptions.adaptive's default rule once that is not the rule the stored runs ran (ruleNeedsKey).
 */
const runKey = (settings: Record<string, unknown>) => {
  const adaptive =
    String(settings.mode).includes('adaptive') || (settings.auditMode !== undefined && settings.auditMode !== 'exact');
  const rule = resolveAdaptive(true, samples)!;
  return {
    model: modelId,
    trainSample,
    testSample,
    samples,
    embeddings,
    split: KIT_SPLIT,
    ...settings,
    ...(adaptive && ruleNeedsKey(rule, samples) ? { adaptiveRule: rule } : {}),
  };
};
/** The stored result of run `name` measured with `settings`, or `measure()`'s, stored as soon as it returns. */
async function storedRun<T>(
  name: string,
  settings: Record<string, unknown>,
  measure: (key: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  // gzipped (a run's digest of 100 predictions is ≈ 57 KB of JSON, ≈ 12 KB gzipped: the results folder has a git
  // budget); a run stored before that under <name>.json is still read, and replaced by the .gz when measured again
  const file = join(out, 'runs', `${name}.json.gz`);
  const plain = join(out, 'runs', `${name}.json`);
  const key = runKey(settings);
  const storedFile = existsSync(file) ? file : existsSync(plain) ? plain : undefined;
  if (!fresh && !remeasure.has(name) && storedFile) {
    const saved = readJson<Stored<T>>(storedFile);
    if (JSON.stringify(saved.key) === JSON.stringify(key)) {
      log(`${name}: reused from ${rel(storedFile)} (measured ${saved.measured}; --fresh measures it again)`);
      measuredRuns.push({ name, measured: saved.measured, reused: true, load: saved.load });
      return saved.result;
    }
    log(`${name}: ${rel(storedFile)} was measured with other settings or weights — measuring again`);
  }
  const start = loadavg();
  const measured = new Date().toISOString();
  const result = await measure(key);
  const stored: Stored<T> = { key, measured, load: { start, end: loadavg() }, result };
  writeJsonAtomic(file, stored);
  rmSync(plain, { force: true });
  measuredRuns.push({ name, measured, reused: false, load: stored.load });
  return result;
}

// ---------------------------------------------------------------- sittings: a run longer than one session
/** One stretch of a run between a start (or --resume) and its end or interruption. */
interface Sitting {
  readonly started: string;
  readonly wall: number;
  readonly cpu: number;
  readonly load: number[];
  /** False for a sitting that was interrupted (its figures are from the last heartbeat, ≤ 10 s old). */
  readonly finished: boolean;
  /** The CPU it ran on (sittings of one run may be on different machines; absent in sittings recorded before 2026-11-25). */
  readonly machine?: string;
}
/** This machine's CPU model, vector extensions and core count, as a sitting records it. */
const machine = sittingMachine();
/** CPU seconds of a live process (user + system, its reaped children included) from /proc/<pid>/stat; 0 once it is gone. */
const processCpu = (pid: number) => procCpuSeconds(pid, 'all');
/** Saves the sitting in progress; set while one runs, so an interrupt can record it before exiting. */
let saveSitting: (() => void) | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    saveSitting?.();
    log(`${signal}: the sitting in progress is recorded; the next invocation resumes it`);
    process.exit(130);
  });
}
/**
 * Runs `sit` as the next sitting of run `name` in `dir`: when `<out>/runs/<name>.partial.json` holds
 * earlier sittings of the same key and `dir` still has their run, `sit` is asked to resume (the CLI's
 * --resume: no finished explanation is lost or repeated). A heartbeat records this sitting's wall and
 * CPU time (of the processes in `live`) every 10 s, so a sitting killed with its session still counts.
 * The run's wall and CPU are the sums over its sittings; each interrupted sitting also counts its
 * start-up and the explanations it had not yet checkpointed (≤ 30 s of work, CHECKPOINT_SECONDS).
 */
async function inSittings(
  name: string,
  key: Record<string, unknown>,
  dir: string,
  sit: (resume: boolean, live: Set<number>) => Promise<Timed>,
): Promise<Timed & { sittings: Sitting[] }> {
  const file = join(out, 'runs', `${name}.partial.json`);
  let earlier: Sitting[] = [];
  if (existsSync(file) && existsSync(join(dir, 'run.json'))) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { key: Record<string, unknown>; sittings: Sitting[] };
    if (JSON.stringify(saved.key) === JSON.stringify(key)) earlier = saved.sittings;
  }
  const resume = earlier.length > 0;
  const sum = (xs: readonly Sitting[], f: (s: Sitting) => number) => xs.reduce((a, s) => a + f(s), 0);
  if (resume)
    log(
      `${name}: resuming ${rel(dir)} after ${earlier.length} sitting(s), ${sum(earlier, (s) => s.wall).toFixed(0)} s wall so far`,
    );
  const started = new Date().toISOString();
  const t0 = performance.now();
  const live = new Set<number>();
  const write = (current: Sitting) => {
    writeJsonAtomic(file, { key, sittings: [...earlier, current] });
  };
  saveSitting = () =>
    write({
      started,
      wall: (performance.now() - t0) / 1000,
      cpu: [...live].reduce((a, pid) => a + processCpu(pid), 0),
      load: loadavg(),
      finished: false,
      machine,
    });
  const beat = setInterval(saveSitting, 10_000);
  let t: Timed;
  try {
    t = await sit(resume, live);
  } finally {
    clearInterval(beat);
    saveSitting = null;
  }
  const sittings = [...earlier, { started, wall: t.wall, cpu: t.cpu, load: loadavg(), finished: true, machine }];
  rmSync(file, { force: true });
  return { wall: sum(sittings, (s) => s.wall), cpu: sum(sittings, (s) => s.cpu), sittings };
}

// ---------------------------------------------------------------- the runs
interface Run extends Timed {
  readonly name: string;
  /** The sittings the run took (absent in runs stored before sittings were recorded: one). */
  readonly sittings?: Sitting[];
  readonly mode: string;
  readonly command: string;
  readonly files: RunFiles;
}
const runs: Run[] = [];
async function localRun(name: string, mode: string, auditMode = 'exact'): Promise<Run> {
  // exact audit mode is not in the key, so runs stored before --audit-mode are reused
  const r = digested(
    await storedRun(name, { mode, ...(auditMode === 'exact' ? {} : { auditMode }) }, async (key) => {
      if (name === 'exact') keepExactReference();
      const dir = join(work, name);
      const args = auditArgs(mode, dir, undefined, auditMode);
      log(`${name}: ${shown(args)}`);
      const t = await inSittings(name, key, dir, (resume, live) => runCli(resume ? [...args, '--resume'] : args, live));
      log(`${name}: ${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU over ${t.sittings.length} sitting(s)`);
      return { name, mode, command: shown(args), ...t, files: readRun(dir) };
    }),
  );
  runs.push(r);
  return r;
}

/**
 * Before the exact run is measured again, the stored one is kept as a slim reference (exact-reference.ts) unless
 * one of the same day is already kept: the runs measured against it under its oracle stay comparable like for like.
 */
function keepExactReference(): void {
  const file = join(out, 'runs', 'exact.json.gz');
  if (!existsSync(file)) return;
  const saved = readJson<Stored<Run>>(file);
  const files = { ...saved.result.files, predictions: digestPredictions(saved.result.files.predictions) };
  if (!files.oracle) {
    log(`exact: the stored run has no oracle configuration, so it is not kept as a reference`);
    return;
  }
  const target = join(out, 'runs', referenceFileName(saved.measured));
  if (existsSync(target)) return;
  writeJsonAtomic(target, slimReference(saved.measured, saved.key, files));
  log(
    `exact: the run measured ${saved.measured} is kept as ${rel(target)} (its labels, keywords and oracle) before it is measured again`,
  );
}

// What an audit costs besides its explanations (start-up, loading the model and GloVe, θ_relate,
// clustering, the report): the same command explaining 3 texts with LIME's smallest neighbourhood.
// The extrapolation multiplies only the rest.
const fixed = await storedRun('fixed', { mode: 'exact', fixed: { train: 2, test: 1, samples: 2 } }, async () => {
  const fixedArgs = auditArgs('exact', join(work, 'fixed'), { train: 2, test: 1, samples: 2 });
  log(`fixed costs: ${shown(fixedArgs)}`);
  const t = await runCli(fixedArgs);
  log(`fixed costs: ${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU`);
  return t;
});
/** fixed + (measured − fixed) × 1/fraction. */
const extrapolate = (measured: number, fixedPart: number) => fixedPart + Math.max(0, measured - fixedPart) * scale;

const exact = await localRun('exact', 'exact');
/**
 * `xtrust audit --audit-mode fast` (issue 30): adaptive keyword pass, verdict-aware labels. Measured before the
 * fast LIME mode's run: it is the mode the CLI recommends, so a sitting cut short by the session's end has it first.
 */
const auditFast = auditFastOn ? await localRun('audit-fast', auditFastLimeMode, 'fast') : null;
const fast = await localRun('fast', fastMode);

/** `cpu` counts the audit process and the workers it fanned out to. */
type QueuedRun = Run & { workers: number; workerThreads?: number };
/** The audit `which` through `--queue` with `xtrust worker` processes, stored as queuedName(which). */
async function queuedRun(which: QueueWhich): Promise<QueuedRun & { which: QueueWhich }> {
  const name = queuedName(which);
  const queueMode = queueModeOf(which);
  const queueAuditMode = queueAuditModeOf(which);
  const stored: QueuedRun = await storedRun(
    name,
    {
      mode: queueMode,
      ...(queueAuditMode === 'exact' ? {} : { auditMode: queueAuditMode }),
      workers: workersN,
      workerThreads,
    },
    async (key) => {
      const dir = join(work, name);
      let shownArgs = '';
      // each sitting: a throw-away redis-server and fresh workers; the run directory's checkpoints carry the work over
      const t = await inSittings(name, key, dir, async (resume, live) => {
        const redis = await startRedis();
        try {
          const queueName = `xtrust-bench-audit-${process.pid}`;
          const args = [
            ...auditArgs(queueMode, dir, undefined, queueAuditMode),
            '--queue',
            redis.url,
            '--queue-name',
            queueName,
            ...(resume ? ['--resume'] : []),
          ];
          shownArgs = shown(args.filter((a) => a !== '--resume')).replace(
            /redis:\/\/127\.0\.0\.1:\d+/,
            'redis://127.0.0.1:PORT',
          );
          log(`${name}: ${workersN} × xtrust worker, then ${shown(args)}`);
          const cpu0 = childrenCpu();
          const ws = await startCliWorkers(redis.url, queueName);
          for (const w of ws) if (w.pid) live.add(w.pid);
          let wall: number;
          try {
            wall = (await runCli(args, live)).wall;
          } finally {
            await stopWorkers(ws);
          }
          // the workers' CPU (start-up included) counts once they are reaped
          return { wall, cpu: childrenCpu() - cpu0 };
        } finally {
          redis.stop();
        }
      });
      log(
        `${name}: ${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU with the workers, over ${t.sittings.length} sitting(s)`,
      );
      return { name, mode: queueMode, command: shownArgs, ...t, workers: workersN, workerThreads, files: readRun(dir) };
    },
  );
  return { ...digested(stored), which };
}
const queuedRuns: (QueuedRun & { which: QueueWhich })[] = [];
for (const which of queueWhichList) queuedRuns.push(await queuedRun(which));
/**
 * A run stored before keywords were kept takes them from its run directory while that is still here (not
 * committed), so the keyword columns render on a machine that never had the directories.
 */
function keepKeywords(r: Run): void {
  const file = join(out, 'runs', `${r.name}.json.gz`);
  if (!existsSync(file)) return;
  const saved = readJson<Stored<Run>>(file);
  const add = {
    ...(r.files.keywords && !saved.result.files.keywords ? { keywords: r.files.keywords } : {}),
    ...(r.files.oracle && !saved.result.files.oracle ? { oracle: r.files.oracle } : {}),
  };
  if (Object.keys(add).length === 0) return;
  writeJsonAtomic(file, { ...saved, result: { ...saved.result, files: { ...saved.result.files, ...add } } });
  log(
    `${r.name}: its ${Object.keys(add).join(' and ')} (from ${rel(join(work, r.name, 'keywords.json'))}) added to ${rel(file)}`,
  );
}
for (const r of [exact, fast, ...(auditFast ? [auditFast] : []), ...queuedRuns]) keepKeywords(r);
const loadEnd = loadavg();

// ---------------------------------------------------------------- agreement
function sameTexts(a: RunFiles, b: RunFiles, what: string): void {
  if (a.predictions.length !== b.predictions.length || a.predictions.some((p, i) => p.text !== b.predictions[i].text)) {
    throw new Error(
      `${what}: the runs audited different test texts (${a.predictions.length} vs ${b.predictions.length})`,
    );
  }
}
sameTexts(exact.files, fast.files, 'exact vs fast');
const n = exact.files.predictions.length;
// ---------------------------------------------------------------- which exact run each run is read against
/** Today's exact run, and the exact runs it replaced (kept when it was measured again under another oracle). */
const currentReference = slimReference(
  measuredRuns.find((m) => m.name === 'exact')!.measured,
  runKey({ mode: 'exact' }),
  exact.files,
);
const keptReferences = readdirSync(join(out, 'runs'))
  .filter((f) => REFERENCE_FILE.test(f))
  .sort()
  .reverse()
  .flatMap((f) => {
    const kept = readJson<ExactReference>(join(out, 'runs', f));
    // one that labels as today's exact run would never be chosen: dropped (the results folder has a git budget)
    if (kept.oracle && exact.files.oracle && oracleDifference(kept.oracle, exact.files.oracle).length === 0) {
      rmSync(join(out, 'runs', f));
      log(`${f}: dropped (today's exact run labels with the same oracle configuration)`);
      return [];
    }
    return [kept];
  });
const referenceFor = (r: Run) => chooseReference(r.files.oracle, currentReference, keptReferences);
for (const r of [fast, ...(auditFast ? [auditFast] : []), ...queuedRuns]) {
  const c = referenceFor(r);
  if (!c.current) log(`${r.name}: compared with the exact run of ${c.reference.measured} (its oracle configuration)`);
}
const fastChoice = referenceFor(fast);
const fastReference = fastChoice.reference.predictions;
const verdictPairs = pairedVerdicts(fastChoice.reference, fast.files.predictions, 'exact vs fast');
const agree = verdictPairs.filter(([a, b]) => a === b).length;
const judged = verdictPairs.filter(([a]) => a === 'trustworthy' || a === 'untrustworthy');
const judgedAgree = judged.filter(([a, b]) => a === b).length;
const samePrediction = fastReference.filter((p, i) => p.predicted === fast.files.predictions[i].predicted).length;
// today's exact run keeps each explanation's top words; a kept reference keeps labels only
const jaccard = fastChoice.current
  ? mean(exact.files.predictions.map((p, i) => topKJaccard(weights(p), weights(fast.files.predictions[i]), 10)))
  : null;
const confusion = new Map<string, number>();
for (const [a, b] of verdictPairs) confusion.set(`${a} → ${b}`, (confusion.get(`${a} → ${b}`) ?? 0) + 1);

/** The local run a queued run must reproduce. */
const referenceOf = (which: QueueWhich): Run =>
  which === 'audit-fast' ? auditFast! : which === 'exact' ? exact : fast;
const queueCompares = queuedRuns.map((queued) => {
  const reference = referenceOf(queued.which);
  sameTexts(reference.files, queued.files, `local vs ${queued.name}`);
  return {
    queued,
    reference,
    mismatches: queued.files.predictions.filter((p, i) => p.verdict !== reference.files.predictions[i].verdict).length,
    identicalLines: queued.files.predictions.filter((p, i) => p.line === reference.files.predictions[i].line).length,
  };
});

/** `--audit-mode fast` against exact (issue 30's criterion: final labels and each class's keyword set). */
const auditFastAgreement = (() => {
  if (!auditFast) return null;
  sameTexts(exact.files, auditFast.files, 'exact vs audit-fast');
  const choice = referenceFor(auditFast);
  const pairs = pairedVerdicts(choice.reference, auditFast.files.predictions, 'exact vs audit-fast');
  const judgedPairs = pairs.filter(([a]) => a === 'trustworthy' || a === 'untrustworthy');
  const used = testSamplesOf(auditFast.files);
  const sorted = [...used].sort((a, b) => a - b);
  const ex = choice.reference.keywords;
  const fk = auditFast.files.keywords;
  const keywordJaccard =
    ex && fk
      ? keywordJaccards(ex, fk).map(({ label, jaccard }) => ({
          label,
          exact: ex[label]?.length ?? 0,
          fast: fk[label]?.length ?? 0,
          jaccard,
        }))
      : null;
  return {
    predictions: pairs.length,
    agree: pairs.filter(([a, b]) => a === b).length,
    judged: judgedPairs.length,
    judgedAgree: judgedPairs.filter(([a, b]) => a === b).length,
    samplesMean: mean(used),
    samplesMedian: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
    atCap: used.filter((x) => x >= samples).length,
    keywordSamplesMean: mean(auditFast.files.explanations.samplesUsed.slice(0, auditFast.files.explanations.keywords)),
    keywordJaccard,
    /** Which exact run it is read against, and what qualifies that (exact-reference.ts). */
    choice,
  };
})();

// ---------------------------------------------------------------- the peer: Python lime + PyTorch on the same weights, from transformer-lime
interface PeerFile {
  file: string;
  words: number;
  seconds: number;
  cpuSeconds: number;
  threads: number;
  blas: string;
  texts: number;
  maxDiff: number;
}
const peerNotes: string[] = [];
const peers: PeerFile[] = [];
if (!existsSync(peerDir))
  peerNotes.push(
    `no peer figures: ${rel(peerDir)} does not exist (run \`pnpm bench --only transformer-lime\` with this model)`,
  );
else {
  const tag = basename(model);
  const files = readdirSync(peerDir).filter((f) => f.startsWith(`${tag}-`) && /-peer\.json(\.gz)?$/.test(f));
  if (files.length === 0)
    peerNotes.push(
      `no peer figures for ${tag} in ${rel(peerDir)} (transformer-lime names them ${tag}-<words>-peer.json; run it with --model ${rel(model)})`,
    );
  const clf = files.length ? await OnnxClassifier.load(model) : null;
  for (const f of files) {
    // <tag>-<words>[-sessionsN][-textsN]-peer.json
    const words = Number(/^(\d+)/.exec(f.slice(tag.length + 1))?.[1]);
    const textsFile = join(peerDir, f.replace(/-peer\.json(\.gz)?$/, '-texts.json$1'));
    const peer = readJson(join(peerDir, f)) as {
      torchThreads: number;
      blas: string;
      probabilities: number[][];
      runs: { results: { seconds: number; cpuSeconds: number }[] }[];
    };
    // its texts file, or the same texts drawn again (blockTexts); a peer file of a folder with the same name but
    // other weights — or texts that are not the block's — must not be used: compare probabilities on the texts
    const texts = blockTexts(textsFile, words, peer.probabilities.length);
    const probs = await clf!.predictProba(texts);
    const k = clf!.labels.length;
    let maxDiff = 0;
    texts.forEach((_, i) => {
      for (let c = 0; c < k; c++) maxDiff = Math.max(maxDiff, Math.abs(probs[i * k + c] - peer.probabilities[i][c]));
    });
    if (maxDiff > 1e-3) {
      peerNotes.push(
        `${rel(join(peerDir, f))}: another model's (max |Δp| ${maxDiff.toExponential(1)} on its texts) — not used`,
      );
      continue;
    }
    const results = peer.runs.flatMap((r) => r.results);
    peers.push({
      file: rel(join(peerDir, f)),
      words,
      seconds: mean(results.map((r) => r.seconds)),
      cpuSeconds: mean(results.map((r) => r.cpuSeconds)),
      threads: peer.torchThreads,
      blas: peer.blas,
      texts: texts.length,
      maxDiff,
    });
  }
  await clf?.release();
}
const auditedWords = exact.files.predictions.map((p) => p.words).sort((a, b) => a - b);
const medianWords = auditedWords[Math.floor(auditedWords.length / 2)] ?? 0;
// the nearest length; of files at one length, the one over most texts (transformer-lime's 30-text blocks over its 3-text ones)
const peer = [...peers].sort(
  (a, b) => Math.abs(a.words - medianWords) - Math.abs(b.words - medianWords) || b.texts - a.texts,
)[0];

// ---------------------------------------------------------------- the section
const f1 = (x: number) => x.toFixed(1);
const hours = (s: number) => (s / 3600).toFixed(s < 360 ? 2 : 1);
const explained = (r: RunFiles) => r.explanations.keywords + r.explanations.test;
const cfg = `${config.num_hidden_layers ?? '?'} layers × ${config.hidden_size ?? '?'} hidden, max length ${config.max_position_embeddings ?? '?'}`;
console.log(
  `\`xtrust audit\` of ${rel(model)} (${cfg}; ${training.model ?? 'classifier'}${training.test_accuracy !== undefined ? `, kit test accuracy ${training.test_accuracy}` : ''}) on SpamAssassin bodies, the kit's split (test 0.3, validation 0.15, seed 1: ${split.train} training, ${split.test} held-out test texts), run by the built CLI as child processes. ` +
    `A ${fraction * 100} % sample of the paper's setting: ${trainSample} of ${fullTrain} training texts for keyword identification (the correctly predicted ones are explained), ${testSample} of ${fullTest} test predictions, LIME ${samples} samples, embeddings ${embeddings}, TOKI's default configuration. ` +
    `CPU = user + system time of the audit process (and of the workers, queued), from /proc/self/stat's cutime + cstime. ` +
    `Extrapolated = fixed + (measured − fixed) × ${scale.toFixed(scale % 1 === 0 ? 0 : 2)}, the fixed part measured by the same command explaining 3 texts at LIME 2 samples (start-up, loading the model and GloVe, θ_relate, clustering, the report): ${f1(fixed.wall)} s wall, ${f1(fixed.cpu)} s CPU. ` +
    `(Clustering grows with the keyword pool, so the fixed part is a floor; the explanations are nearly all of the rest.)\n`,
);
// issue 30's audit table: every mode in one place (the paragraphs below say how each figure was made)
{
  const row = (r: Run, audit: string, how: string): AuditRow => ({
    audit,
    how,
    wallHours: extrapolate(r.wall, fixed.wall) / 3600,
    cpuHours: extrapolate(r.cpu, fixed.cpu) / 3600,
    whole: scale === 1,
    ...(() => {
      if (r === exact) return { labels: null, keywords: null };
      const { reference, caveat } = referenceFor(r);
      return {
        labels: labelAgreement(reference.predictions, r.files.predictions),
        keywords:
          !reference.keywords || !r.files.keywords ? null : keywordJaccards(reference.keywords, r.files.keywords),
        ...(reference.keywords && !r.files.keywords ? { keywordsNote: 'its keywords.json is gone' } : {}),
        ...(caveat ? { caveat } : {}),
      };
    })(),
  });
  const rows: AuditRow[] = [
    row(exact, 'exact (the reference)', "`--audit-mode exact`: LIME 5,000 for every explanation (the paper's)"),
    row(fast, `exact, ${fastMode} LIME`, `\`--lime-mode ${fastMode}\``),
    ...(auditFast
      ? [
          row(
            auditFast,
            'fast',
            `\`--audit-mode fast --lime-mode ${cliLimeMode(auditFastLimeMode, 'fast')}\`: adaptive keyword pass, verdict-aware labels`,
          ),
        ]
      : []),
    ...queuedRuns.map((q) =>
      row(
        q,
        `queued, ${q.workers} workers`,
        `as ${queueAuditModeOf(q.which) === 'fast' ? '`--audit-mode fast`' : `\`--lime-mode ${q.mode}\``}, through \`--queue\``,
      ),
    ),
  ];
  if (existsSync(keywordPassFile))
    rows.push(
      ...wholeAuditRows(readJson<KeywordPassResults>(keywordPassFile), model, ROOT, {
        train: fullTrain,
        test: fullTest,
      }),
    );
  const fullN = explained(exact.files) * scale;
  if (peer) {
    rows.push({
      audit: 'peer: Python lime + PyTorch',
      how: `its s per explanation at LIME 5,000 (${peer.words} words, ${peer.texts} texts) × ${fullN.toFixed(0)} explanations: the explanations alone`,
      wallHours: (peer.seconds * fullN) / 3600,
      cpuHours: (peer.cpuSeconds * fullN) / 3600,
      whole: false,
      labels: null,
      keywords: null,
    });
  }
  console.log(
    `**The audit table** (issue 30): ${fullTrain.toLocaleString('en')} + ${fullTest.toLocaleString('en')} at LIME ${samples} on this model, hours extrapolated from the ${fraction * 100} % runs below unless marked whole; ` +
      `labels against the exact run on the ${n} test predictions it made (matched by text; "judged": the ones it labelled trustworthy or untrustworthy); keyword Jaccard per class against the exact run's keywords.json. ` +
      `Each audit identifies its own keywords. Rows "fast, <method> keyword pass" are keyword-pass's whole runs (${rel(keywordPassFile)}).\n`,
  );
  console.log(`${renderAuditTable(rows, peer ? (peer.seconds * fullN) / 3600 : undefined)}\n`);
}
/** The audit's own phase timings, which cover its last sitting only: shown for a run made in one. */
const inProcess = (r: Run) =>
  (r.sittings?.length ?? 1) > 1
    ? `— (${r.sittings!.length} sittings)`
    : `${f1(r.files.seconds.keywords)} / ${f1(r.files.seconds.labelling)}`;
console.log(
  `| run | LIME mode | explanations (keywords + test) | LIME samples used (mean) | wall s | CPU s | in-process: keywords s / labelling s | extrapolated to ${fullTrain.toLocaleString('en')} + ${fullTest.toLocaleString('en')}: wall h | CPU h |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of runs) {
  const e = r.files.explanations;
  console.log(
    `| local, 1 process | ${r.name === 'audit-fast' ? `${r.mode}, \`--audit-mode fast\`` : r.mode} | ${explained(r.files)} (${e.keywords} + ${e.test}) | ${mean(e.samplesUsed).toFixed(0)} of ${samples} | ${f1(r.wall)} | ${f1(r.cpu)} | ${inProcess(r)} | **${hours(extrapolate(r.wall, fixed.wall))}** | ${hours(extrapolate(r.cpu, fixed.cpu))} |`,
  );
}
for (const queued of queuedRuns) {
  const queuedExplained = queued.files.explanations;
  console.log(
    `| \`--queue\`, ${queued.workers} × \`xtrust worker\` (local redis-server) | ${queueAuditModeOf(queued.which) === 'fast' ? `${queued.mode}, \`--audit-mode fast\`` : queued.mode} | ${explained(queued.files)} (${queuedExplained.keywords} + ${queuedExplained.test}) | ${mean(queuedExplained.samplesUsed).toFixed(0)} of ${samples} | ${f1(queued.wall)} | ${f1(queued.cpu)} (audit + workers) | ${inProcess(queued)} | **${hours(extrapolate(queued.wall, fixed.wall))}** | ${hours(extrapolate(queued.cpu, fixed.cpu))} |`,
  );
}

console.log(
  `\n**Fast mode (${fastMode}) vs exact, the same ${n} test predictions:** trustworthiness labels agree on **${agree} of ${n} (${((100 * agree) / n).toFixed(1)} %)** (target ≥ 95 %); ` +
    `on the ${judged.length} the exact run judged trustworthy or untrustworthy, ${judgedAgree} (${judged.length ? ((100 * judgedAgree) / judged.length).toFixed(1) : '—'} %); ` +
    `same predicted label ${samePrediction} of ${n}; ` +
    (jaccard === null ? '' : `top-10 Jaccard of the explanations ${jaccard.toFixed(3)}. `) +
    `Each run identifies its own keywords (the fast mode's keyword store comes from fast explanations too). Exact → fast: ${[
      ...confusion,
    ]
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.` +
    (fastChoice.caveat
      ? ` Read ${fastChoice.caveat}${jaccard === null ? ' (a kept exact run keeps labels only, so no top-10 Jaccard of the explanations)' : ''}.`
      : ''),
);
if (auditFast && auditFastAgreement) {
  const a = auditFastAgreement;
  const pct = (x: number, of: number) => (of ? `${((100 * x) / of).toFixed(1)} %` : '—');
  console.log(
    `\n**\`--audit-mode fast\` (--lime-mode ${cliLimeMode(auditFastLimeMode, 'fast')}: adaptive keyword pass, labels verdict-aware) vs exact, the same ${a.predictions} test predictions:** labels equal on **${a.agree} of ${a.predictions} (${pct(a.agree, a.predictions)})** (target ≥ 95 %); ` +
      `on the ${a.judged} the exact run judged trustworthy or untrustworthy, ${a.judgedAgree} (${pct(a.judgedAgree, a.judged)}). ` +
      `LIME samples per test prediction: mean ${a.samplesMean.toFixed(0)}, median ${a.samplesMedian}, ${a.atCap} at the cap of ${samples}; keyword explanations ${a.keywordSamplesMean.toFixed(0)} on average. ` +
      (a.keywordJaccard
        ? `Keyword sets against the exact run's keywords.json (Jaccard per class): ${a.keywordJaccard.map((k) => `${k.label} ${k.jaccard.toFixed(3)} (${k.fast} vs ${k.exact} words)`).join(', ')}.`
        : `Keyword-set Jaccard: not available (a run stored before keywords were kept, whose run directory is gone: --remeasure it).`) +
      (a.choice.current && a.choice.caveat
        ? ` **Not a like-for-like comparison:** ${a.choice.caveat}, so these labels and keyword sets differ by the oracle's change as well as by the mode — the same-oracle comparison of the fast mode's parts is the keyword-pass section's (exact explanations relabelled with today's oracle); this run's own figures (time, samples) and the queued-vs-local comparison below are unaffected.`
        : a.choice.caveat
          ? ` Read ${a.choice.caveat}.`
          : ''),
  );
}
// a run reused from an earlier sitting brings the load it was measured under
// The audit keeps every core busy itself (a load average of about the core count), so only load beyond that is other work.
const loaded =
  Math.max(...loadStart, ...loadEnd, ...measuredRuns.flatMap((r) => [...r.load.start, ...r.load.end])) >
  cpus().length + 0.5;
for (const { queued, reference, mismatches, identicalLines } of queueCompares) {
  const over = queued.wall - reference.wall;
  // The local audit runs one onnxruntime session on all the cores; each worker gets its share (--threads): when the
  // same explanations cost less CPU in the workers, data parallelism beat operator parallelism and hides the queue's cost.
  const dataParallelGain =
    queued.workerThreads !== undefined && queued.workerThreads < cpus().length && queued.cpu < reference.cpu;
  console.log(
    `\n**Queued vs local (${queued.mode}${queueAuditModeOf(queued.which) === 'fast' ? ', `--audit-mode fast`' : ''}):** ${mismatches} label mismatches of ${n}; ${identicalLines} of ${n} predictions.jsonl lines byte-identical. ` +
      `Queue overhead = queued wall − local wall = ${f1(over)} s (${over >= 0 ? '+' : ''}${((100 * over) / reference.wall).toFixed(1)} %, ratio ${(queued.wall / reference.wall).toFixed(2)}) with ${queued.workers} workers on this machine's ${cpus().length} cores — ` +
      `the same cores as the local run, so fan-out cannot pay here (across machines each worker adds its cores)` +
      (dataParallelGain
        ? '. '
        : `: this measures the queue's cost (job round trips, a batch of 32 texts waiting for its slowest job of 8, workers' model start-up and onnxruntime thread pools contending). `) +
      (loaded
        ? `On this loaded machine ${queued.workers + 1} processes win a larger share of the shared cores than one, so the wall difference mixes the queue's cost with the scheduler's. `
        : '') +
      (dataParallelGain
        ? `The local run drives one onnxruntime session on ${cpus().length} intra-op threads, each worker one session on ${queued.workerThreads}: the same explanations (byte-identical outputs) cost ${f1(reference.cpu / explained(reference.files))} s CPU each locally and ${f1(queued.cpu / explained(queued.files))} s through the workers — an intra-op thread pool synchronises at every operator and spins while it waits, which on a graph this small is a large share — so on one machine the queue's own cost is hidden under that gain and cannot be read off these figures; what they do show is that independent explanations on single-thread sessions use the cores better than one explanation on all of them. `
        : '') +
      `CPU with the workers ${f1(queued.cpu)} s vs ${f1(reference.cpu)} s local (${queued.cpu >= reference.cpu ? '+' : ''}${((100 * (queued.cpu - reference.cpu)) / reference.cpu).toFixed(1)} %).`,
  );
}

// the paper's figures: 000_6d314fe57d39eb4c.txt, Table 3 (TOKI-lime rows), reported, not measured here
const PAPER = [
  { dataset: 'HateXplain (bert-base-uncased)', train: 2364, trainS: 352721, test: 3306, testS: 464720 },
  { dataset: 'CAMS (mentalbert-base-uncased)', train: 2158, trainS: 198359, test: 1945, testS: 224540 },
  { dataset: "Dong's movie (MLP)", train: 2509, trainS: 4866, test: 358, testS: 1053 },
];
console.log(
  `\n**The TOKI paper's reported times** (000_6d314fe57d39eb4c.txt, Table 3, TOKI-lime; "All experiments are run 10 times on a Macbook M3 Pro with 12-core CPU, 18-core GPU, 18GB RAM" — reported, not measured here; their models are 12-layer × 768 BERTs, far larger than this one, so the columns compare tools only loosely):\n`,
);
console.log(
  `| dataset (model) | keyword identification: instances, s | label computation: instances, s | per instance, scaled to ${fullTrain.toLocaleString('en')} + ${fullTest.toLocaleString('en')}: h |`,
);
console.log('| --- | --- | --- | --- |');
for (const p of PAPER) {
  const scaled = (p.trainS / p.train) * fullTrain + (p.testS / p.test) * fullTest;
  console.log(
    `| ${p.dataset} | ${p.train.toLocaleString('en')}, ${p.trainS.toLocaleString('en')} s (${hours(p.trainS)} h) | ${p.test.toLocaleString('en')}, ${p.testS.toLocaleString('en')} s (${hours(p.testS)} h) | ${hours(scaled)} |`,
  );
}

const fullExplanations = explained(exact.files) * scale;
if (peer) {
  const peerS = peer.seconds * fullExplanations;
  console.log(
    `\n**Peer extrapolation, same model:** Python lime + PyTorch (${peer.threads} threads; BLAS ${peer.blas}) took ${peer.seconds.toFixed(2)} s wall (${peer.cpuSeconds.toFixed(2)} s CPU) per explanation at LIME 5,000 on ${peer.texts} texts of ${peer.words} words ` +
      `(${peer.file}, the peer file nearest the audited texts' median ${medianWords} words; probabilities equal to this model's within ${peer.maxDiff.toExponential(1)}). ` +
      `× ${fullExplanations.toFixed(0)} explanations (this audit's ${explained(exact.files)} × ${scale.toFixed(scale % 1 === 0 ? 0 : 2)}) = **${hours(peerS)} h wall** (${hours(peer.cpuSeconds * fullExplanations)} h CPU) for the explanations alone, ` +
      `against xtrust's ${hours(extrapolate(exact.wall, fixed.wall))} h exact and ${hours(extrapolate(fast.wall, fixed.wall))} h ${fastMode} for the whole audit.` +
      (peers.length > 1
        ? ` Other peer files: ${peers
            .filter((p) => p !== peer)
            .map((p) => `${p.words} words ${p.seconds.toFixed(2)} s (${p.file})`)
            .join('; ')}.`
        : ''),
  );
} else {
  console.log(
    `\n**Peer extrapolation:** missing — ${peerNotes.join('; ') || 'no usable peer file'}. None is invented here.`,
  );
}
if (peer && peerNotes.length) console.log(`Peer files not used: ${peerNotes.join('; ')}.`);

const la = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
/** The CPU of a run's last sitting, as recorded (runs measured before sittings were recorded have none). */
const machineOf = (name: string) => [...runs, ...queuedRuns].find((r) => r.name === name)?.sittings?.at(-1)?.machine;
console.log(
  `\nRuns measured: ${measuredRuns.map((r) => `${r.name} ${r.measured.slice(0, 16).replace('T', ' ')} UTC (load average ${la(r.load.start)} → ${la(r.load.end)}${machineOf(r.name) ? `; ${machineOf(r.name)}` : ''}${r.reused ? '; stored run, reused' : ''})`).join('; ')}. ` +
    `Hours compare across runs only when their CPUs match: one name (AMD EPYC with AVX-512 + VNNI) covered a Zen 4 (family 25 model 17) and a Zen 5 with different per-sample costs (transformer-lime-30-successor measures both); a sitting records the family since 2026-11-27.`,
);
const splitRuns = [...runs, ...queuedRuns].filter((r) => (r.sittings?.length ?? 1) > 1);
if (splitRuns.length) {
  console.log(
    `\nRuns made in several sittings (the CLI's --resume; wall and CPU are the sums, each interrupted sitting also counting its start-up and the explanations it had not checkpointed): ` +
      splitRuns
        .map(
          (r) =>
            `${r.name}: ${r.sittings!.map((t) => `${t.started.slice(0, 16).replace('T', ' ')} UTC ${f1(t.wall)} s wall / ${f1(t.cpu)} s CPU${t.finished ? '' : ' (interrupted)'}, load ${la(t.load)}, ${t.machine ?? 'machine not recorded'}`).join('; ')}`,
        )
        .join('. ') +
      '.',
  );
}
console.log(
  `\nMachine load: load average ${la(loadStart)} at the start of this invocation, ${la(loadEnd)} at its end, on this machine (${machine}). ` +
    (loaded
      ? `The machine was **loaded** (a load average above the ${cpus().length} the audit's own threads make: other work shared the cores): wall times are inflated; CPU times are the better guide, and the exact-vs-fast and local-vs-queued ratios compare runs that shared it at different moments.`
      : `No other work shared the cores (no load average above the ${cpus().length} the audit's own threads make).`),
);
console.log(
  `\nRuns: \`${exact.command}\`; \`${fast.command}\`; ${auditFast ? `\`${auditFast.command}\`; ` : ''}${queuedRuns.map((queued) => `\`${queued.command}\` with ${queued.workers} × \`xtrust worker --redis redis://127.0.0.1:PORT --queue-name …${queued.workerThreads ? ` --threads ${queued.workerThreads}` : ''}\``).join('; ')}. Run directories of the runs measured in this invocation: ${work}.`,
);
console.log(`\nCommand: \`${['node', 'apps/bench/dist/transformer-audit/run.js', ...argv.map(rel)].join(' ')}\``);

// gzipped: the results folder has a git budget (a plain summary.json of an older run is replaced)
const summaryFile = join(out, 'summary.json.gz');
writeJsonAtomic(
  summaryFile,
  {
    model: rel(model),
    fraction,
    trainSample,
    testSample,
    samples,
    fastMode,
    queueModes: queuedRuns.map((q) => ({ queued: q.name, mode: q.mode, auditMode: queueAuditModeOf(q.which) })),
    embeddings,
    fixed,
    runs: [...runs, ...queuedRuns].map(({ files, ...r }: Run) => ({
      ...(files.keywords
        ? { keywordCounts: Object.fromEntries(Object.entries(files.keywords).map(([c, k]) => [c, k.length])) }
        : {}),
      ...r,
      explanations: files.explanations.keywords + files.explanations.test,
      samplesUsedMean: mean(files.explanations.samplesUsed),
      seconds: files.seconds,
      extrapolated: { wall: extrapolate(r.wall, fixed.wall), cpu: extrapolate(r.cpu, fixed.cpu) },
    })),
    agreement: {
      predictions: n,
      agree,
      judged: judged.length,
      judgedAgree,
      samePrediction,
      jaccard,
      confusion: Object.fromEntries(confusion),
    },
    // the reference itself (100 predictions) stays in its own file: summary.json names it
    auditFast: auditFastAgreement && {
      ...auditFastAgreement,
      choice: {
        current: auditFastAgreement.choice.current,
        measured: auditFastAgreement.choice.reference.measured,
        ...(auditFastAgreement.choice.caveat ? { caveat: auditFastAgreement.choice.caveat } : {}),
      },
    },
    queue: queueCompares.map(({ queued, reference, mismatches, identicalLines }) => ({
      queued: queued.name,
      local: reference.name,
      mismatches,
      identicalLines,
      overheadSeconds: queued.wall - reference.wall,
      ratio: queued.wall / reference.wall,
    })),
    peer: peer ?? null,
    peerNotes,
    load: { start: loadStart, end: loadEnd, cores: cpus().length },
    measuredRuns,
    work,
    date: new Date().toISOString(),
  },
  2,
);
rmSync(join(out, 'summary.json'), { force: true });
log(`wrote ${rel(summaryFile)}`);
