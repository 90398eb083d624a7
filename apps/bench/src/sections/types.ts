/** What a benchmark definition is (src/sections/<area>.ts) and what the runner (src/index.ts) hands it. */
import type { Area } from '../harness/areas.js';
import type { BenchResult } from '../harness/result.js';
import type { SetupContext, Skipped } from '../harness/setup.js';

export type RunContext = SetupContext;

/** What an in-process benchmark produced. */
export interface Produced {
  results?: BenchResult[];
  markdown?: string;
  /** Present when the benchmark could not run here (missing peer, missing data). */
  skipped?: string;
}

/** A child process: `node <file> args` for a script of apps/bench/dist, `bash <file> args` for a `.sh` file. */
export interface Step {
  /** Relative to the repository root. */
  readonly file: string;
  readonly args: string[];
  /** Extra environment of the child. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface Benchmark {
  readonly name: string;
  /** Its group on BENCHMARKS.md. */
  readonly area: Area;
  readonly title: string;
  readonly description: string;
  /** One child process whose stdout is the section's Markdown (or, with `writesSection`, that writes the section). */
  readonly script?: (ctx: RunContext) => Step | Skipped;
  /** Several child processes in turn (each must succeed); only with `writesSection`. */
  readonly steps?: (ctx: RunContext) => Step[] | Skipped;
  /** In-process benchmarks. */
  readonly run?: (ctx: RunContext) => Promise<Produced>;
  /**
   * The script stores the section itself (`--write-section`, from files it reads): the runner then keeps what it
   * wrote (with the `pnpm bench` command and the area), and a failed or skipped run leaves the stored section as it was.
   */
  readonly writesSection?: boolean;
  /** Wall-clock limit in seconds (full, quick). */
  readonly limit: readonly [number, number];
  /** What the run writes that git does not keep, and how to re-create it (shown on the section's page). */
  readonly regenerated?: string;
}

export type { Skipped };
