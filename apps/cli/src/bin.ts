#!/usr/bin/env node
/** The `xtrust` executable: parses the command line and maps failures to exit codes (see README). */
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv);
