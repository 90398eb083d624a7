#!/usr/bin/env node
/**
 * The kit-bert fine-tunings queued for a lent GPU machine (`shortcut.js --model kit-bert --finetune-device
 * cuda --finetune-queue FILE`), taken there and brought back in three steps:
 *
 *   node apps/bench/dist/oracle/kit-bert-queue.js pack --queue FILE --to DIR
 *       DIR (inside the repository, git-ignored, named in the device call's `carry`): the rows files
 *       (xz), a copy of the encoder folder and `run.sh`, which fine-tunes every entry on the device with
 *       finetune.py --device cuda --shards-out and splits the int8 shards into files of ≤ 15 MiB in $OUT
 *   (device)  bash DIR/run.sh
 *   node apps/bench/dist/oracle/kit-bert-queue.js unpack --queue FILE --from DIR_OF_FILES
 *       joins the files, exports each entry's folder here with finetune.py --from-shards into the cache
 *       folder its key names, and leaves in the queue only what did not come back
 *
 * A GPU machine hands back at most 8 files of 16 MiB (64 MiB in all): the weights travel as int8 rows
 * (models/transformers/kit/shards.py), about 5 MB for the kit's 4 × 256 classifier, so one trip brings
 * back about 11 fine-tunings; `pack --max N` takes the first N.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { defineScript, runScript, UsageError } from '../harness/options.js';
import { FINETUNE_SCRIPT, PYTHON, ROOT, type QueuedFineTune } from './kit-bert.js';

const spec = defineScript({
  usage: 'node apps/bench/dist/oracle/kit-bert-queue.js pack|unpack [options]',
  summary:
    'Take the queued kit-bert fine-tunings to a GPU machine (pack, then bash DIR/run.sh there) and export what came back into the cache (unpack).',
  options: {
    queue: {
      kind: 'string',
      placeholder: 'FILE',
      required: true,
      help: 'the queue file shortcut.js --finetune-queue wrote',
    },
    to: {
      kind: 'string',
      placeholder: 'DIR',
      help: 'pack: the folder to fill (inside the repository and git-ignored, so the device call can carry it)',
    },
    from: {
      kind: 'string',
      placeholder: 'DIR',
      help: "unpack: the folder holding the device run's files (shards-*.part)",
    },
    max: {
      kind: 'integer',
      min: 1,
      default: 11,
      help: 'pack: at most this many entries (the device hands back 64 MiB; ≈ 5 MB each at 4 × 256)',
    },
  },
});

function readQueue(file: string): QueuedFineTune[] {
  if (!existsSync(file)) throw new UsageError(`--queue ${file}: no such file (shortcut.js --finetune-queue writes it)`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QueuedFineTune);
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function pack(queue: QueuedFineTune[], dir: string, max: number): void {
  const rel = relative(ROOT, dir);
  if (rel.startsWith('..') || rel === '')
    throw new UsageError(
      `--to ${dir}: must be a folder inside the repository (the device call carries repository paths)`,
    );
  mkdirSync(dir, { recursive: true }); // a pattern with a trailing slash matches only a folder that exists
  const ignored = spawnSync('git', ['check-ignore', '-q', dir], { cwd: ROOT });
  if (ignored.status !== 0)
    throw new UsageError(
      `--to ${rel}: not git-ignored (add it to .git/info/exclude): a carried folder must be ignored`,
    );
  const take = queue.slice(0, max);
  const encoders = [...new Set(take.map((e) => e.encoder))];
  if (encoders.length !== 1)
    throw new UsageError(`--queue: the entries name ${encoders.length} encoders; pack takes one encoder at a time`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'rows'), { recursive: true });
  cpSync(encoders[0], join(dir, 'encoder'), { recursive: true });
  const lines = [
    '#!/bin/bash',
    `# written by kit-bert-queue.js pack: ${take.length} fine-tuning(s) on the device, shards split into ≤ 15 MiB files in $OUT`,
    'set -euo pipefail',
    `HERE=${sh(rel)}`,
    'SHARDS=$(mktemp -d)',
    'mkdir -p "$SHARDS/out"',
    // whatever finished travels back, also when a later entry fails or the call runs out of time
    `trap 'tar -C "$SHARDS/out" -cf - . | split -b 15M -d -a 1 - "$OUT/shards-" --additional-suffix=.part; ls -la "$OUT"' EXIT`,
    "trap 'exit 143' TERM",
  ];
  for (const e of take) {
    const xz = join(dir, 'rows', `${e.key}.rows.jsonl.xz`);
    const r = spawnSync('xz', ['-9', '-c', e.rows], { maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`xz ${e.rows}: ${r.stderr.toString()}`);
    writeFileSync(xz, r.stdout);
    lines.push(
      `python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$HERE/rows/${e.key}.rows.jsonl.xz" "$SHARDS/${e.key}.rows.jsonl"`,
      `PYTHONUNBUFFERED=1 python3 ${sh(relative(ROOT, FINETUNE_SCRIPT))} --rows "$SHARDS/${e.key}.rows.jsonl" --labels ${sh(e.labels.join(','))} --out "$SHARDS/${e.key}" --encoder "$HERE/encoder" --epochs ${e.epochs} --seed ${e.seed} --threads ${e.threads} --device ${sh(e.device)} --shards-out "$SHARDS/out"`,
    );
  }
  lines.push('');
  writeFileSync(join(dir, 'run.sh'), lines.join('\n'));
  writeFileSync(join(dir, 'queue.jsonl'), `${take.map((e) => JSON.stringify(e)).join('\n')}\n`);
  const bytes = (p: string): number =>
    statSync(p).isDirectory() ? readdirSync(p).reduce((a, f) => a + bytes(join(p, f)), 0) : statSync(p).size;
  console.log(
    `${rel}: ${take.length} of ${queue.length} queued fine-tuning(s), ${(bytes(dir) / 2 ** 20).toFixed(1)} MiB to carry; on the device: bash ${rel}/run.sh`,
  );
}

function unpack(queue: QueuedFineTune[], queueFile: string, from: string): void {
  const parts = existsSync(from)
    ? readdirSync(from)
        .filter((f) => /^shards-\d+\.part$/.test(f))
        .sort()
    : [];
  if (parts.length === 0)
    throw new UsageError(`--from ${from}: no shards-N.part files (the device run of run.sh writes them to $OUT)`);
  const shards = join(from, 'shards');
  rmSync(shards, { recursive: true, force: true });
  mkdirSync(shards);
  const tar = spawnSync('tar', ['-C', shards, '-xf', '-'], {
    input: Buffer.concat(parts.map((p) => readFileSync(join(from, p)))),
  });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr.toString()}`);
  const left: QueuedFineTune[] = [];
  for (const e of queue) {
    const meta = join(shards, `${basename(e.out)}.meta.json`);
    if (!existsSync(meta)) {
      left.push(e);
      continue;
    }
    const args = [
      FINETUNE_SCRIPT,
      '--rows',
      e.rows,
      '--labels',
      e.labels.join(','),
      '--out',
      e.out,
      '--encoder',
      e.encoder,
      '--epochs',
      String(e.epochs),
      '--seed',
      String(e.seed),
      '--threads',
      String(e.threads),
      '--from-shards',
      shards,
    ];
    const r = spawnSync(PYTHON, args, { stdio: ['ignore', 2, 2] });
    if (r.status !== 0)
      throw new Error(`finetune.py --from-shards failed for ${e.key} (exit ${r.status}): ${PYTHON} ${args.join(' ')}`);
    const trained = JSON.parse(readFileSync(meta, 'utf8')) as { seconds: number; device: string };
    // the fine-tuning's time is the device's: kept with where it ran, as shortcut.js keeps a CPU run's
    writeFileSync(
      join(e.out, 'bench-finetune.json'),
      `${JSON.stringify({ seconds: trained.seconds, device: trained.device, python: 'finetune.py --shards-out on the device, --from-shards here', args })}\n`,
    );
    copyFileSync(meta, join(e.out, 'shards.meta.json'));
    console.log(
      `${e.key}: exported to ${relative(ROOT, e.out)} (trained on ${trained.device} in ${trained.seconds} s)`,
    );
  }
  writeFileSync(queueFile, left.map((e) => JSON.stringify(e)).join('\n') + (left.length ? '\n' : ''));
  console.log(`${queue.length - left.length} exported; ${left.length} still queued in ${relative(ROOT, queueFile)}`);
}

// the verb comes first; the options after it (`--help` alone works without one)
const given = process.argv.slice(2);
const verb = given[0]?.startsWith('--') ? undefined : given[0];
await runScript(
  spec,
  async (o) => {
    const queueFile = resolve(o.queue);
    const queue = readQueue(queueFile);
    if (verb === 'pack') {
      if (!o.to) throw new UsageError('pack needs --to DIR');
      pack(queue, resolve(o.to), o.max);
    } else if (verb === 'unpack') {
      if (!o.from) throw new UsageError('unpack needs --from DIR');
      unpack(queue, queueFile, resolve(o.from));
    } else
      throw new UsageError(
        `expected pack or unpack first, got ${verb === undefined ? 'nothing' : JSON.stringify(verb)}`,
      );
  },
  verb === undefined ? given : given.slice(1),
);
