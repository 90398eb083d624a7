#!/usr/bin/env node
/**
 * One whole `xtrust audit` at the TOKI paper's scale (2,000 keyword texts + 1,000 test predictions,
 * LIME 5,000 samples) in the fast mode with a cheaper keyword pass, run by the built CLI as a user runs
 * it and timed: issue 30's "≤ 1 h wall on 2 cores", measured whole instead of extrapolated. The run is
 * recorded in sittings (a heartbeat every 10 s): an interrupted sitting counts up to its last beat and
 * the next invocation continues the run with the CLI's --resume. `keyword-pass/run.js --whole FILE`
 * then compares its labels with the exact audit's on the predictions both made.
 *
 *   node apps/bench/dist/keyword-pass/whole-audit.js [--keyword-method gradient] [--threads N]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { procCpuSeconds } from '../harness/timing.js';
import { readJson, writeJsonAtomic } from '../harness/store.js';
import { sittingMachine } from '../harness/machine.js';
import { writeKitSpamSplit } from '../transformer-audit/kit-split.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
const rel = (p: string) => (p.startsWith(`${ROOT}/`) ? relative(ROOT, p) : p);

/** One stretch of the run between a start (or --resume) and its end or interruption. */
export interface WholeSitting {
  readonly started: string;
  readonly wall: number;
  readonly cpu: number;
  readonly load: number[];
  readonly finished: boolean;
  readonly machine: string;
}

/** What `--record` holds: the command and its sittings. */
export interface WholeRecord {
  readonly command: string;
  readonly args: string[];
  readonly dir: string;
  readonly keywordMethod: string;
  readonly threads: number | null;
  sittings: WholeSitting[];
}

const spec = defineScript({
  usage: 'node apps/bench/dist/keyword-pass/whole-audit.js [options]',
  summary:
    "A whole `xtrust audit --audit-mode fast` at the paper's scale (2,000 + 1,000, LIME 5,000) on the kit's spam BERT, timed in resumable sittings.",
  options: {
    model: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'the classifier folder (default models/transformers/out/bert-spam)',
    },
    'keyword-method': {
      kind: 'string',
      choices: ['lime', 'omission', 'gradient', 'integrated-gradients', 'attention'],
      default: 'gradient',
      help: "the audit's --keyword-method",
    },
    threads: { kind: 'integer', min: 1, help: "the audit's --threads (default: the CLI's, every core)" },
    'lime-mode': {
      kind: 'string',
      choices: ['exact', 'int8'],
      default: 'exact',
      help: "the audit's --lime-mode: exact (float32 model) or int8 (its matrix products quantised at load); give such a run its own --dir and --record",
    },
    train: { kind: 'integer', min: 1, default: 2000, help: 'training texts sampled for keyword identification' },
    test: { kind: 'integer', min: 1, default: 1000, help: 'test predictions labelled' },
    samples: { kind: 'integer', min: 2, default: 5000, help: 'LIME samples (the cap of the verdict-aware labelling)' },
    dir: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'the run directory (default apps/bench/results/transformer-audit/work/whole-fast-<method>; not committed)',
    },
    record: {
      kind: 'string',
      placeholder: 'FILE',
      help: 'the timing record (default apps/bench/results/keyword-pass-whole-<method>.json)',
    },
    cli: { kind: 'string', placeholder: 'FILE', help: 'the built CLI (default apps/cli/dist/bin.js)' },
  },
});

await runScript(spec, async (o) => {
  const method = o['keyword-method'];
  const model = resolve(ROOT, o.model ?? 'models/transformers/out/bert-spam');
  const cli = resolve(ROOT, o.cli ?? 'apps/cli/dist/bin.js');
  if (!existsSync(cli))
    throw new UsageError(`${rel(cli)} is missing: build the CLI first (pnpm turbo run build --filter=xtrust)`);
  if (!existsSync(join(model, 'onnx/model.onnx')))
    throw new UsageError(`--model ${model}: not a Hugging Face folder with onnx/model.onnx`);
  const work = join(ROOT, 'apps/bench/results/transformer-audit/work');
  mkdirSync(work, { recursive: true });
  const dir = resolve(ROOT, o.dir ?? join(work, `whole-fast-${method}`));
  const recordFile = resolve(ROOT, o.record ?? `apps/bench/results/keyword-pass-whole-${method}.json`);
  const training = existsSync(join(model, 'training.json'))
    ? (JSON.parse(readFileSync(join(model, 'training.json'), 'utf8')) as { corpus?: string; test_size?: number })
    : {};
  const { trainFile, testFile } = writeKitSpamSplit(work, training);
  const args = [
    'audit',
    '--model',
    model,
    '--train',
    trainFile,
    '--test',
    testFile,
    '--train-sample',
    String(o.train),
    '--test-sample',
    String(o.test),
    '--samples',
    String(o.samples),
    '--class-names',
    'ham=legitimate',
    '--embeddings',
    'glove',
    '--audit-mode',
    'fast',
    '--keyword-method',
    method,
    ...(o.threads ? ['--threads', String(o.threads)] : []),
    ...(o['lime-mode'] !== 'exact' ? ['--lime-mode', o['lime-mode']] : []),
    '--out',
    dir,
    '--quiet',
  ];
  const command = ['xtrust', ...args.map(rel)].join(' ');
  const prior = existsSync(recordFile) ? readJson<WholeRecord>(recordFile) : null;
  // a record times one command: another one's sittings must neither be lost nor added to this one's
  if (prior && prior.command !== command)
    throw new UsageError(
      `${rel(recordFile)} times another command (${prior.command}); give this run its own --record (and --dir), or delete the file`,
    );
  const record: WholeRecord = prior
    ? prior
    : { command, args: args.map(rel), dir: rel(dir), keywordMethod: method, threads: o.threads ?? null, sittings: [] };
  if (record.sittings.some((s) => s.finished)) {
    console.log(
      `${rel(recordFile)}: the run is complete (${record.sittings.length} sitting(s)); delete the file to measure it again`,
    );
    return;
  }
  const resume = record.sittings.length > 0 && existsSync(join(dir, 'run.json'));
  const machine = sittingMachine();
  const started = new Date().toISOString();
  const t0 = performance.now();
  let pid = 0;
  const sitting = (finished: boolean, cpu: number): WholeSitting => ({
    started,
    wall: (performance.now() - t0) / 1000,
    cpu,
    load: loadavg(),
    finished,
    machine,
  });
  // sittings of a run whose directory is gone are not part of this run
  const earlier = resume ? [...record.sittings] : [];
  const beat = () =>
    writeJsonAtomic(
      recordFile,
      { ...record, sittings: [...earlier, sitting(false, pid ? procCpuSeconds(pid, 'all') : 0)] },
      1,
    );
  console.error(`${resume ? 'resuming' : 'starting'}: ${command}`);
  const timer = setInterval(beat, 10_000);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      beat();
      process.exit(130);
    });
  const cpu0 = procCpuSeconds('self', 'children');
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [cli, ...args, ...(resume ? ['--resume'] : [])], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    pid = child.pid ?? 0;
    child.on('exit', done);
  });
  clearInterval(timer);
  if (code !== 0) {
    beat();
    throw new Error(`the audit exited with ${code}; the sitting is recorded in ${rel(recordFile)}, rerun to resume`);
  }
  record.sittings = [...earlier, sitting(true, procCpuSeconds('self', 'children') - cpu0)];
  writeJsonAtomic(recordFile, record, 1);
  const wall = record.sittings.reduce((a, s) => a + s.wall, 0);
  const cpu = record.sittings.reduce((a, s) => a + s.cpu, 0);
  console.log(
    `whole audit: ${(wall / 3600).toFixed(3)} h wall, ${(cpu / 3600).toFixed(3)} CPU-h over ${record.sittings.length} sitting(s); ${rel(recordFile)}`,
  );
});
