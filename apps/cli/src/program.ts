import { Command, CommanderError } from 'commander';
import { applyConfig, checkRequired, readConfig } from './config.js';
import { attackCommand } from './commands/attack.js';
import { auditCommand } from './commands/audit.js';
import { benchCommand } from './commands/bench.js';
import { compareCommand } from './commands/compare.js';
import { demoCommand } from './commands/demo.js';
import { explainCommand } from './commands/explain.js';
import { gateCommand } from './commands/gate.js';
import { keywordsCommand } from './commands/keywords.js';
import { labelCommand } from './commands/label.js';
import { reportCommand } from './commands/report.js';
import { workerCommand } from './commands/worker.js';
import { EXIT, errorLine, exitCodeOf, takeRequestedExit } from './exit.js';

/** The whole `xtrust` command tree. */
export function buildProgram(): Command {
  const program = new Command('xtrust')
    .description('is your text classifier right for the right reasons? explain, audit, attack')
    .version('0.1.0')
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  $ xtrust demo                                   audit a model trained on SpamAssassin, write xtrust-report/report.html
  $ xtrust audit --model ./model --train train.csv --test test.csv
  $ xtrust gate --run xtrust-report --max-untrustworthy 0.1

Every option can also come from ./xtrust.config.json (or --config <file>): flag > config > default.
Exit codes: 0 ok, 1 gate failed, 2 bad input or usage, 3 unexpected failure.`,
    );
  for (const c of [
    demoCommand(),
    auditCommand(),
    explainCommand(),
    keywordsCommand(),
    labelCommand(),
    attackCommand(),
    compareCommand(),
    gateCommand(),
    reportCommand(),
    benchCommand(),
    workerCommand(),
  ]) {
    program.addCommand(c);
  }
  // Config values fill in options the command line left out: flag > xtrust.config.json > default.
  program.hook('preAction', (_root, action) => {
    const { path, values } = readConfig(action.opts().config as string | undefined);
    if (path) applyConfig(action, values, path, program.commands);
    checkRequired(action);
  });
  return program;
}

/**
 * Commander prints "error: unknown option '--sed'\n(Did you mean --seed?)"; xtrust prints one line
 * `xtrust: <message>` for every usage problem, on every subcommand.
 */
function configureErrors(command: Command): void {
  command.exitOverride();
  command.configureOutput({
    writeErr: (s) => process.stderr.write(s),
    outputError: (s, write) =>
      write(
        `xtrust: ${s
          .replace(/^error: /, '')
          .replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)')
          .trim()}\n`,
      ),
  });
  for (const sub of command.commands) configureErrors(sub);
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code instead of exiting. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  configureErrors(program);
  // With --json a program reads stdout: it gets the failure as JSON there too (stderr keeps the line).
  const json = argv.includes('--json');
  const fail = (code: number, message: string) => {
    if (json) process.stdout.write(`${JSON.stringify({ error: { message, exitCode: code } })}\n`);
    return code;
  };
  try {
    await program.parseAsync([...argv]);
    return takeRequestedExit() ?? EXIT.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; commander already printed the message.
      if (error.exitCode === 0) return EXIT.OK;
      return fail(EXIT.USAGE, error.message.replace(/^error: /, '').split('\n')[0]);
    }
    process.stderr.write(`${errorLine(error)}\n`);
    return fail(exitCodeOf(error), errorLine(error).replace(/^xtrust: /, ''));
  }
}
