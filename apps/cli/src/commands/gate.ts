import { Command, InvalidArgumentError } from 'commander';
import { required } from '../config.js';
import { EXIT, requestExit } from '../exit.js';
import { emit } from '../output.js';
import { examples, withCommonOptions } from '../options.js';
import { readAuditRun } from './report.js';

/** The verdict of `xtrust gate`. */
export interface GateResult {
  readonly passed: boolean;
  readonly untrustworthyShare: number | null;
  readonly maxUntrustworthy: number;
  readonly untrustworthy: number;
  readonly judged: number;
  readonly run: string;
}

/** Checks a finished audit against the bound on the share of untrustworthy correct predictions. */
export function checkGate(run: string, maxUntrustworthy: number): GateResult {
  const { summary } = readAuditRun(run);
  const judged = summary.verdicts.trustworthy + summary.verdicts.untrustworthy;
  const share = summary.untrustworthyShare;
  // No judged prediction: nothing shows the model trustworthy, so the gate does not pass.
  return {
    passed: share !== null && share <= maxUntrustworthy,
    untrustworthyShare: share,
    maxUntrustworthy,
    untrustworthy: summary.verdicts.untrustworthy,
    judged,
    run,
  };
}

/** Registers `xtrust gate`. */
export function gateCommand(): Command {
  const c = new Command('gate').description(
    "for a model's CI: exit 1 when the share of untrustworthy correct predictions of an audit exceeds a bound",
  );
  required(c, '--max-untrustworthy <share>', 'the largest share allowed, between 0 and 1', (v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`expected a number between 0 and 1, got "${v}"`);
    return n;
  });
  c.option('--run <dir>', 'a finished demo or audit run directory', 'xtrust-report');
  withCommonOptions(c);
  examples(c, [
    'xtrust audit --model m --train train.csv --test test.csv --out runs/audit && xtrust gate --run runs/audit --max-untrustworthy 0.1',
  ]);
  return c.action(async (opts: { run: string; maxUntrustworthy: number; json: boolean }) => {
    const r = checkGate(opts.run, opts.maxUntrustworthy);
    emit(
      opts.json,
      r,
      () =>
        `${r.passed ? 'passed' : 'FAILED'}: ${r.untrustworthyShare === null ? 'no correct prediction was judged' : `${(100 * r.untrustworthyShare).toFixed(1)} % untrustworthy (${r.untrustworthy} of ${r.judged})`}, bound ${(100 * r.maxUntrustworthy).toFixed(1)} %`,
    );
    if (!r.passed) requestExit(EXIT.GATE_FAILED);
  });
}
