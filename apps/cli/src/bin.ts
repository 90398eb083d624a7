#!/usr/bin/env node
/** The `xtrust` executable: parses the command line and maps failures to exit codes (see README). */
import { runCli } from './program.js';

// Ctrl-C: every finished explanation is already in the run's JSONL, so stopping at once loses nothing.
process.once('SIGINT', () => {
  if (process.stderr.isTTY) process.stderr.write('\x1b[?25h'); // the progress bar hides the cursor
  process.stderr.write('\nxtrust: interrupted; finished work is kept in the run directory: continue with --resume\n');
  process.exit(130);
});

process.exitCode = await runCli(process.argv);
