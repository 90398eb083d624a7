import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from './exit.js';

/** The manifest every run directory holds: which command made it, with what inputs, and whether it finished. */
export interface RunManifest {
  readonly format: 'xtrust-run';
  readonly version: 1;
  readonly command: string;
  /** What identifies the run's work: inputs, model fingerprint and every parameter that changes results. */
  readonly key: Record<string, unknown>;
  status: 'running' | 'complete';
  readonly createdAt: string;
  completedAt?: string;
}

const MANIFEST = 'run.json';

/** JSON with object keys sorted, so two equal keys compare equal whatever their insertion order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * The longest one explainer call of a checkpointed command should take (ExplainAllOptions.batchSeconds):
 * what a killed run can lose. A transformer explained with LIME 5,000 takes half a minute a text, so
 * fixed batches of 32 texts would lose up to a quarter of an hour; a bag-of-words model still gets full batches.
 */
export const CHECKPOINT_SECONDS = 30;

/**
 * A run directory: long commands append their results to JSONL files here as they work, so
 * `--resume` continues an interrupted run (Ctrl-C, kill -9) without losing or repeating work.
 * Final files are written atomically (temporary file, then rename) and the manifest turns
 * 'complete' last, so a half-written run never looks finished.
 */
export class RunDir {
  private constructor(
    readonly dir: string,
    readonly manifest: RunManifest,
    /** True when this run continues earlier work found in the directory. */
    readonly resumed: boolean,
  ) {}

  /**
   * Opens `dir` for `command`. Without `resume`, an earlier xtrust run there is replaced (a folder
   * that is not a run directory and not empty is refused, so xtrust never deletes user files). With
   * `resume`, a run of another command or with another key is refused (exit 2), naming the difference.
   */
  static open(dir: string, command: string, key: Record<string, unknown>, resume: boolean): RunDir {
    const path = resolve(dir);
    const manifestPath = join(path, MANIFEST);
    const existing = existsSync(manifestPath) ? RunDir.readManifest(manifestPath) : null;
    if (!existing && existsSync(path) && readdirSync(path).length > 0) {
      throw new UsageError(`${dir} is not empty and is not an xtrust run directory; choose another --out`);
    }
    if (existing && resume) {
      if (existing.command !== command)
        throw new UsageError(
          `cannot resume: ${dir} holds a run of \`xtrust ${existing.command}\`, not \`xtrust ${command}\``,
        );
      const diff = firstDifference(existing.key, key);
      if (diff)
        throw new UsageError(
          `cannot resume: ${dir} was made with ${diff.name} = ${show(diff.was)}, this run has ${show(diff.now)}; use the same inputs or another --out`,
        );
      existing.status = 'running';
      delete existing.completedAt;
      const run = new RunDir(path, existing, true);
      run.writeManifest();
      return run;
    }
    if (existing) {
      // A fresh run replaces an earlier one: its files would otherwise be resumed by mistake later.
      for (const f of readdirSync(path)) rmSync(join(path, f), { recursive: true, force: true });
    }
    mkdirSync(path, { recursive: true });
    const run = new RunDir(
      path,
      { format: 'xtrust-run', version: 1, command, key, status: 'running', createdAt: new Date().toISOString() },
      false,
    );
    run.writeManifest();
    return run;
  }

  /** Reads a finished run (for `xtrust report`, `xtrust gate`): refuses a missing or unfinished one. */
  static readComplete(dir: string, commands: readonly string[]): RunManifest {
    const manifestPath = join(resolve(dir), MANIFEST);
    if (!existsSync(manifestPath)) throw new UsageError(`${dir} is not an xtrust run directory (no ${MANIFEST})`);
    const m = RunDir.readManifest(manifestPath);
    if (!commands.includes(m.command))
      throw new UsageError(
        `${dir} holds a run of \`xtrust ${m.command}\`; expected one of ${commands.map((c) => `\`xtrust ${c}\``).join(', ')}`,
      );
    if (m.status !== 'complete') throw new UsageError(`the run in ${dir} did not finish; continue it with --resume`);
    return m;
  }

  private static readManifest(path: string): RunManifest {
    let m: RunManifest;
    try {
      m = JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
    } catch (error) {
      throw new UsageError(`${path} is not a readable run manifest (${(error as Error).message})`);
    }
    if (m?.format !== 'xtrust-run') throw new UsageError(`${path} is not an xtrust run manifest`);
    return m;
  }

  /** A file of this run. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** Writes a final file atomically: readers see the old file or the whole new one, never a part. */
  writeFile(name: string, content: string): string {
    const target = this.path(name);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, target);
    return target;
  }

  /** Marks the run finished; done last, after every final file is in place. */
  complete(): void {
    this.manifest.status = 'complete';
    this.manifest.completedAt = new Date().toISOString();
    this.writeManifest();
  }

  private writeManifest(): void {
    this.writeFile(MANIFEST, `${JSON.stringify(this.manifest, null, 2)}\n`);
  }
}

function show(v: unknown): string {
  return v === undefined ? '(nothing)' : typeof v === 'string' ? v : JSON.stringify(v);
}

/** The first key (dotted path) whose value differs between two run keys. */
function firstDifference(
  was: unknown,
  now: unknown,
  name = 'key',
): { name: string; was: unknown; now: unknown } | null {
  if (stableJson(was) === stableJson(now)) return null;
  if (was && now && typeof was === 'object' && typeof now === 'object' && !Array.isArray(was) && !Array.isArray(now)) {
    const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
    for (const k of keys) {
      const d = firstDifference(
        (was as Record<string, unknown>)[k],
        (now as Record<string, unknown>)[k],
        name === 'key' ? k : `${name}.${k}`,
      );
      if (d) return d;
    }
  }
  return { name, was, now };
}
