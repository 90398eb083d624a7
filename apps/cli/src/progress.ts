import cliProgress from 'cli-progress';

/** Where progress goes: stderr, so stdout stays clean for `--json` and pipes. */
export interface ProgressSink {
  readonly isTTY: boolean;
  write(line: string): void;
}

const stderrSink: ProgressSink = {
  get isTTY() {
    return Boolean(process.stderr.isTTY);
  },
  write: (line) => process.stderr.write(line),
};

/** One long step (explaining, clustering, labelling, attacking): update with the count done so far. */
export interface ProgressTask {
  update(done: number, total?: number): void;
  /** Ends the step (prints its final line). */
  stop(): void;
}

/**
 * Progress for long steps: on a terminal a bar with count, rate and ETA (cli-progress); elsewhere
 * (CI logs, pipes) one plain line every `intervalMs` and one at the end, so logs stay readable.
 */
export class Progress {
  constructor(
    private readonly sink: ProgressSink = stderrSink,
    private readonly options: { quiet?: boolean; intervalMs?: number } = {},
  ) {}

  /** A line of its own (a phase starting, a setting), unless quiet. */
  note(line: string): void {
    if (!this.options.quiet) this.sink.write(`${line}\n`);
  }

  /** Starts a step named `name` with `total` units. */
  start(name: string, total: number): ProgressTask {
    if (this.options.quiet) return { update() {}, stop() {} };
    return this.sink.isTTY ? this.bar(name, total) : this.lines(name, total, this.options.intervalMs ?? 10_000);
  }

  private bar(name: string, total: number): ProgressTask {
    const bar = new cliProgress.SingleBar(
      {
        format: `${name.padEnd(10)} {bar} {value}/{total} | {rate}/s | ETA {eta_formatted}`,
        stream: process.stderr,
        hideCursor: true,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    const started = performance.now();
    let first = -1;
    bar.start(total, 0, { rate: '0.0' });
    return {
      update(done, newTotal) {
        if (first < 0) first = done; // work resumed from a checkpoint does not count towards the rate
        if (newTotal !== undefined && newTotal !== total) bar.setTotal((total = newTotal));
        const seconds = (performance.now() - started) / 1000;
        bar.update(done, { rate: seconds > 0 ? ((done - first) / seconds).toFixed(1) : '0.0' });
      },
      stop() {
        bar.stop();
      },
    };
  }

  private lines(name: string, total: number, intervalMs: number): ProgressTask {
    const sink = this.sink;
    const started = performance.now();
    let last = -Infinity;
    let first = -1;
    let current = 0;
    let stopped = false;
    const line = (done: number) => {
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? (done - first) / seconds : 0;
      const eta = rate > 0 && done < total ? `, ETA ${formatSeconds((total - done) / rate)}` : '';
      // Work found done in a checkpoint is not part of this run's rate.
      const resumed = first > 0 ? `, ${first} resumed` : '';
      // A rate over a blink (a phase that reports only when done) says nothing: show the time instead.
      const speed = rate > 0 && seconds >= 0.5 ? `${rate.toFixed(1)}/s` : `${seconds.toFixed(1)} s`;
      sink.write(`${name} ${done}/${total} (${speed}${eta}${resumed})\n`);
    };
    return {
      update(done, newTotal) {
        if (newTotal !== undefined) total = newTotal;
        if (first < 0) first = done;
        current = done;
        const now = performance.now();
        if (now - last >= intervalMs && done < total) {
          last = now;
          line(done);
        }
      },
      stop() {
        if (stopped) return;
        stopped = true;
        line(Math.max(current, first < 0 ? 0 : current));
      },
    };
  }
}

/** 75 → "1m15s", 8 → "8s". */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const m = Math.floor(s / 60);
  const r = Math.round(s - 60 * m);
  return m > 0 ? `${m}m${String(r).padStart(2, '0')}s` : `${r}s`;
}
