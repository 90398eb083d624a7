import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from './exit.js';
import { closest } from './suggest.js';

/** The config file looked for in the working directory when `--config` is not given. */
export const CONFIG_FILE = 'xtrust.config.json';

/**
 * An `xtrust.config.json`: option values by command. Top-level keys that are option names apply to
 * every command that has that option; a key naming a command (`"demo": {...}`) applies to that
 * command only and wins over the top level. Keys are option names in camelCase or as flags
 * (`testSample` or `test-sample`).
 */
export type ConfigFile = Record<string, unknown>;

/** Reads the config file: the `--config` path (must exist), else ./xtrust.config.json when present. */
export function readConfig(
  explicitPath: string | undefined,
  cwd = process.cwd(),
): { path: string | null; values: ConfigFile } {
  const path = explicitPath ? resolve(cwd, explicitPath) : resolve(cwd, CONFIG_FILE);
  if (!existsSync(path)) {
    if (explicitPath) throw new UsageError(`config file ${explicitPath} does not exist`);
    return { path: null, values: {} };
  }
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`config file ${path} is not valid JSON (${(error as Error).message})`);
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values))
    throw new UsageError(`config file ${path} must hold a JSON object`);
  return { path, values: values as ConfigFile };
}

/** camelCase of a flag name: `test-sample` → `testSample`. */
function camel(key: string): string {
  return key.replace(/^-+/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The values that apply to `command`: top-level option keys, then the command's own section over them. */
function valuesFor(config: ConfigFile, command: Command, commandNames: ReadonlySet<string>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(config)) if (!commandNames.has(k) && k !== '$schema') out.set(camel(k), v);
  const section = config[command.name()];
  if (section !== undefined) {
    if (section === null || typeof section !== 'object' || Array.isArray(section))
      throw new UsageError(`config key "${command.name()}" must hold an object of option values`);
    for (const [k, v] of Object.entries(section)) out.set(camel(k), v);
  }
  return out;
}

/**
 * Applies config values to `command`'s options where the flag was not given on the command line:
 * precedence flag > config > default. Top-level keys that no command knows, and keys of the
 * command's own section it does not know, are refused with the closest option name.
 */
export function applyConfig(
  command: Command,
  config: ConfigFile,
  source: string,
  allCommands: readonly Command[],
): void {
  const commandNames = new Set(allCommands.map((c) => c.name()));
  const known = new Map(command.options.map((o) => [o.attributeName(), o]));
  const anyKnown = new Set(allCommands.flatMap((c) => c.options.map((o) => o.attributeName())));
  for (const k of Object.keys(config)) {
    if (commandNames.has(k) || k === '$schema') continue;
    if (!anyKnown.has(camel(k)))
      throw new UsageError(`${source}: unknown option "${k}"${suggestion(camel(k), [...anyKnown])}`);
  }
  const section = config[command.name()];
  if (section && typeof section === 'object' && !Array.isArray(section)) {
    for (const k of Object.keys(section)) {
      if (!known.has(camel(k)))
        throw new UsageError(
          `${source}: "${command.name()}" has no option "${k}"${suggestion(camel(k), [...known.keys()])}`,
        );
    }
  }
  for (const [key, value] of valuesFor(config, command, commandNames)) {
    const option = known.get(key);
    if (!option || key === 'config') continue;
    const from = command.getOptionValueSource(key);
    if (from === 'cli' || from === 'env') continue; // a flag always wins
    command.setOptionValueWithSource(key, coerce(option.flags, option.parseArg, value, key, source), 'config');
  }
}

function suggestion(word: string, candidates: readonly string[]): string {
  const c = closest(word, candidates);
  return c ? ` (did you mean ${c}?)` : '';
}

/**
 * A config value as the command would have parsed it from the command line: booleans stay booleans,
 * everything else goes through the option's own parser as a string, so validation is shared.
 */
function coerce(
  flags: string,
  parse: ((value: string, previous: unknown) => unknown) | undefined,
  value: unknown,
  key: string,
  source: string,
): unknown {
  const takesValue = /[<[]/.test(flags);
  if (!takesValue) {
    if (typeof value !== 'boolean') throw new UsageError(`${source}: "${key}" must be true or false`);
    return value;
  }
  if (typeof value === 'boolean' || value === null || typeof value === 'object') {
    throw new UsageError(`${source}: "${key}" must be a string or a number`);
  }
  return parse ? parse(String(value), undefined) : String(value);
}

const requiredOptions = new WeakMap<Command, string[]>();

/**
 * An option the command needs, from the command line or the config file. (Commander's own
 * requiredOption is checked before the config is read, so a config value could never satisfy it.)
 */
export function required(
  command: Command,
  flags: string,
  description: string,
  parse?: (value: string) => unknown,
): Command {
  if (parse) command.option(flags, `${description} (required)`, parse);
  else command.option(flags, `${description} (required)`);
  const option = command.options[command.options.length - 1];
  requiredOptions.set(command, [...(requiredOptions.get(command) ?? []), option.attributeName()]);
  return command;
}

/** Refuses a run whose required options came neither from flags nor from the config. */
export function checkRequired(command: Command): void {
  for (const name of requiredOptions.get(command) ?? []) {
    if (command.getOptionValue(name) === undefined) {
      const option = command.options.find((o) => o.attributeName() === name)!;
      throw new UsageError(`required option '${option.flags}' not specified`);
    }
  }
}
