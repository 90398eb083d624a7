import { Command, CommanderError } from 'commander';
import { applyConfig, readConfig } from './config.js';
import { demoCommand } from './commands/demo.js';
import { EXIT, errorLine, exitCodeOf } from './exit.js';

/** The whole `xtrust` command tree. */
export function buildProgram(): Command {
  const program = new Command('xtrust')
    .description('is your text classifier right for the right reasons? explain, audit, attack')
    .showSuggestionAfterError(true)
    .exitOverride();
  program.addCommand(demoCommand());
  // Config values fill in options the command line left out: flag > xtrust.config.json > default.
  program.hook('preAction', (_root, action) => {
    const { path, values } = readConfig(action.opts().config as string | undefined);
    if (path) applyConfig(action, values, path, program.commands);
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
    outputError: (s, write) => write(`xtrust: ${s.replace(/^error: /, '').replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)').trim()}\n`),
  });
  for (const sub of command.commands) configureErrors(sub);
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code instead of exiting. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  configureErrors(program);
  try {
    await program.parseAsync([...argv]);
    return EXIT.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; commander already printed the message.
      if (error.exitCode === 0) return EXIT.OK;
      return EXIT.USAGE;
    }
    process.stderr.write(errorLine(error) + '\n');
    return exitCodeOf(error);
  }
}
