import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

/**
 * Prints one closing line "Tests: N passed, N failed, N skipped" after vitest's own summary, the
 * plain form that CI logs and scripts read regardless of the runner.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const walk = (t: Task) => {
      if (t.type === 'test') {
        if (t.mode === 'skip' || t.mode === 'todo') skipped++;
        else if (t.result?.state === 'pass') passed++;
        else if (t.result?.state === 'fail') failed++;
        else skipped++;
      }
      t.tasks?.forEach(walk);
    };
    files.forEach(walk);
    // A file that failed to load has no tests but a failed result: count it as a failure.
    for (const f of files) if (f.result?.state === 'fail' && !f.tasks?.length) failed++;
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
