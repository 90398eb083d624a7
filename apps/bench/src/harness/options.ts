/**
 * Command-line options of the bench scripts: each script declares its options once (name, kind, default,
 * one line of help) and gets typed values back, `--help` that lists them, and — for a mistyped option or a
 * bad value — one line on stderr and exit code 2 instead of a stack trace.
 *
 *   const SPEC = defineScript({
 *     usage: 'node apps/bench/dist/explainers-speed/run.js [options]',
 *     summary: 'Time per explanation of every explainer on a built-in model.',
 *     options: {
 *       texts: { kind: 'integer', default: 1000, min: 1, help: 'SpamAssassin e-mails explained' },
 *       model: { kind: 'string', placeholder: 'DIR', help: 'a built-in model folder (default: train one)' },
 *     },
 *   });
 *   const o = parseOrExit(SPEC);          // o.texts: number, o.model: string | undefined
 *
 * `runScript(spec, main)` does the same for a script written as an async `main(options)`, and reports a
 * `UsageError` thrown later (an option combination found wrong only after parsing) the same way.
 * `parseOrExit(parse, argv, usage)` wraps a script's own parser function (one that throws on a bad
 * argument) with the same `--help` and one-line error behaviour.
 */
import { basename } from 'node:path';

interface OptionBase {
  /** One line: what the option does (its default is appended by the help text). */
  readonly help: string;
  /** The value's name in the help text (`DIR`, `N`, `A,B`); a default per kind otherwise. */
  readonly placeholder?: string;
}
/** `--name`, no value. */
export interface FlagOption extends OptionBase {
  readonly kind: 'flag';
}
/** `--name VALUE`. */
export interface StringOption extends OptionBase {
  readonly kind: 'string';
  readonly default?: string;
  readonly choices?: readonly string[];
  readonly required?: boolean;
  /** An environment variable read when the option is not given (before the default). */
  readonly env?: string;
}
/** `--name N`: a finite number (`integer`: a whole one), checked against min / max. */
export interface NumberOption extends OptionBase {
  readonly kind: 'number' | 'integer';
  readonly default?: number;
  readonly min?: number;
  readonly max?: number;
  readonly required?: boolean;
}
/** `--name A,B,C`: a comma-separated list (empty items dropped), each checked against `choices`. */
export interface ListOption extends OptionBase {
  readonly kind: 'list';
  readonly default?: readonly string[];
  readonly choices?: readonly string[];
  readonly required?: boolean;
}
/** `--name VALUE` turned into any type by `parse`, which throws (a message is enough) on a bad value. */
export interface CustomOption<T> extends OptionBase {
  readonly kind: 'custom';
  readonly parse: (raw: string) => T;
  readonly default?: T;
  readonly required?: boolean;
  /** How the default reads in the help text (`String(default)` otherwise). */
  readonly shownDefault?: string;
}
export type OptionSpec = FlagOption | StringOption | NumberOption | ListOption | CustomOption<unknown>;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** What a script is: how it is called, a line or two about it, and every option it takes. */
export interface ScriptSpec<O extends OptionSpecs = OptionSpecs> {
  /** `node apps/bench/dist/<area>/<name>.js [options]`. */
  readonly usage: string;
  readonly summary?: string;
  readonly options: O;
  /** Lines printed after the options (examples, notes). */
  readonly notes?: readonly string[];
}

type Given<S> = S extends { default: unknown }
  ? true
  : S extends { required: true }
    ? true
    : S extends { env: string }
      ? false
      : false;
type Value<S> = S extends FlagOption
  ? boolean
  : S extends { kind: 'custom'; parse: (raw: string) => infer T }
    ? Given<S> extends true
      ? T
      : T | undefined
    : S extends NumberOption
      ? Given<S> extends true
        ? number
        : number | undefined
      : S extends ListOption
        ? Given<S> extends true
          ? string[]
          : string[] | undefined
        : Given<S> extends true
          ? string
          : string | undefined;

/** The parsed options: one typed value per option, and which were given on the command line. */
export type Options<O extends OptionSpecs> = { readonly [K in keyof O]: Value<O[K]> } & {
  /** Names (without `--`) of the options given explicitly, in order. */
  readonly given: ReadonlySet<string>;
};

/** Declares a script's options; the values of `parseOptions` / `parseOrExit` are typed from it. */
export function defineScript<const O extends OptionSpecs>(spec: ScriptSpec<O>): ScriptSpec<O> {
  for (const name of Object.keys(spec.options)) {
    if (!/^[a-z][a-z0-9-]*$/.test(name))
      throw new Error(`option name ${JSON.stringify(name)}: lower-case letters, digits and dashes only`);
    if (name === 'help') throw new Error('--help is built in');
  }
  return spec;
}

/** A `parse` for custom options: comma-separated integers ≥ `min` (`40,120,250`). */
export function integerList(min = 1): (raw: string) => number[] {
  return (raw) => {
    const xs = raw
      .split(',')
      .filter((x) => x.trim() !== '')
      .map(Number);
    if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x < min))
      throw new Error(`expected integers ≥ ${min} separated by commas, got ${JSON.stringify(raw)}`);
    return xs;
  };
}

/** A text-lengths option (`--words 40,120,250`): integers ≥ 1, its default shown as it is typed. */
export function textLengthsOption(
  lengths: readonly number[],
  help = 'text lengths',
): CustomOption<number[]> & { readonly default: number[] } {
  return {
    kind: 'custom',
    placeholder: 'N,N',
    parse: integerList(1),
    default: [...lengths],
    shownDefault: lengths.join(','),
    help,
  };
}

/** A wrong command line: reported as one line and exit code 2, never with a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The closest known option to a mistyped one, when it is close enough to be the likely meaning. */
function closest(word: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const here = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = here;
      }
    }
    return row[b.length];
  };
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(word, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

function convert(name: string, spec: OptionSpec, raw: string): unknown {
  const bad = (what: string) => new UsageError(`--${name} must be ${what}, got ${JSON.stringify(raw)}`);
  switch (spec.kind) {
    case 'flag':
      return true;
    case 'string':
      if (spec.choices && !spec.choices.includes(raw)) throw bad(`one of ${spec.choices.join(', ')}`);
      return raw;
    case 'number':
    case 'integer': {
      const x = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(x)) throw bad(spec.kind === 'integer' ? 'an integer' : 'a number');
      if (spec.kind === 'integer' && !Number.isInteger(x)) throw bad('an integer');
      if (spec.min !== undefined && x < spec.min) throw bad(`≥ ${spec.min}`);
      if (spec.max !== undefined && x > spec.max) throw bad(`≤ ${spec.max}`);
      return x;
    }
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const wrong = spec.choices ? items.filter((s) => !spec.choices!.includes(s)) : [];
      if (wrong.length)
        throw new UsageError(
          `--${name}: unknown ${wrong.map((w) => JSON.stringify(w)).join(', ')} (known: ${spec.choices!.join(', ')})`,
        );
      return items;
    }
    case 'custom':
      try {
        return spec.parse(raw);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        throw new UsageError(message.startsWith(`--${name}`) ? message : `--${name}: ${message}`);
      }
  }
}

/**
 * Parses `argv` (without the node and script paths) against `spec`: `--name value`, `--name=value`,
 * flags, defaults, the environment fallback, required options. Throws UsageError on an unknown option,
 * a missing or bad value, an option given twice or a stray argument. `--help` is not handled here
 * (see `helpRequested`).
 */
export function parseOptions<O extends OptionSpecs>(spec: ScriptSpec<O>, argv: readonly string[]): Options<O> {
  const names = Object.keys(spec.options);
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--')
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)} (options start with --; try --help)`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const option = spec.options[name];
    if (!option) {
      const near = closest(name, names);
      throw new UsageError(`unknown option --${name}${near ? ` (did you mean --${near}?)` : ''} (try --help)`);
    }
    if (given.has(name)) throw new UsageError(`--${name} is given twice`);
    given.add(name);
    if (option.kind === 'flag') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || raw.startsWith('--'))
        throw new UsageError(`--${name} needs a value (${placeholder(option)})`);
      i++;
    }
    values[name] = convert(name, option, raw);
  }
  for (const [name, option] of Object.entries(spec.options)) {
    if (given.has(name)) continue;
    if (option.kind === 'flag') {
      values[name] = false;
      continue;
    }
    const fromEnv = option.kind === 'string' && option.env ? process.env[option.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') values[name] = convert(name, option, fromEnv);
    else if (option.default !== undefined)
      values[name] = Array.isArray(option.default) ? [...option.default] : option.default;
    else if ('required' in option && option.required)
      throw new UsageError(`--${name} ${placeholder(option)} is required (try --help)`);
    else values[name] = undefined;
  }
  return Object.assign(values, { given }) as Options<O>;
}

function placeholder(o: OptionSpec): string {
  if (o.placeholder) return o.placeholder;
  switch (o.kind) {
    case 'flag':
      return '';
    case 'integer':
    case 'number':
      return 'N';
    case 'list':
      return o.choices ? o.choices.join(',') : 'A,B,…';
    case 'string':
      return o.choices ? o.choices.join('|') : 'VALUE';
    case 'custom':
      return 'VALUE';
  }
}

function shownDefault(o: OptionSpec): string | undefined {
  if (o.kind === 'flag') return undefined;
  if (o.kind === 'custom') return o.shownDefault ?? (o.default === undefined ? undefined : String(o.default));
  if (o.default === undefined) return undefined;
  return Array.isArray(o.default) ? o.default.join(',') : String(o.default);
}

/** The `--help` text: usage, summary, one line per option (with its default), notes. */
export function helpText(spec: ScriptSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const p = placeholder(o);
    const left = `--${name}${p ? ` ${p}` : ''}`;
    const env = o.kind === 'string' && o.env ? `$${o.env}` : undefined;
    const required = 'required' in o && o.required === true;
    const extra = [
      shownDefault(o) !== undefined ? `default: ${shownDefault(o)}` : undefined,
      required ? (env ? `required, or set ${env}` : 'required') : env ? `or ${env}` : undefined,
    ].filter((x) => x !== undefined);
    return [left, `${o.help}${extra.length ? ` (${extra.join('; ')})` : ''}`] as const;
  });
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.min(34, Math.max(...rows.map(([l]) => l.length)));
  const lines = [`usage: ${spec.usage}`, ''];
  if (spec.summary) lines.push(spec.summary, '');
  lines.push('options:');
  for (const [left, right] of rows)
    lines.push(
      left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`,
    );
  if (spec.notes?.length) lines.push('', ...spec.notes);
  return `${lines.join('\n')}\n`;
}

/** True when the command line asks for help (`--help` or `-h` anywhere). */
export function helpRequested(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** The script's name as its error lines start (`transformer-audit/run.js`). */
function scriptName(): string {
  const file = process.argv[1] ?? 'bench';
  const inDist = /apps[\\/]bench[\\/]dist[\\/](.+)$/.exec(file);
  if (inDist) return inDist[1].replace(/\\/g, '/');
  const parts = file.split(/[\\/]/);
  return parts.length >= 2 ? parts.slice(-2).join('/') : basename(file);
}

/** Prints `<script>: <message>` on stderr and exits with code 2 (a wrong command line). */
export function exitUsage(message: string): never {
  process.stderr.write(`${scriptName()}: ${message.split('\n')[0]}\n`);
  process.exit(2);
}

/**
 * Parses the command line or exits: `--help` prints the help on stdout and exits 0; a wrong option or
 * value prints one line on stderr and exits 2.
 *
 * Two forms:
 * - `parseOrExit(spec, argv?)`: a spec from `defineScript`; returns the typed options;
 * - `parseOrExit(parse, argv, usage)`: the script's own parser (any function that throws on a bad
 *   argument, e.g. an XtrustError('INVALID_ARGUMENT', …)) and the help text to print for `--help`.
 */
export function parseOrExit<O extends OptionSpecs>(spec: ScriptSpec<O>, argv?: readonly string[]): Options<O>;
export function parseOrExit<T>(parse: (argv: readonly string[]) => T, argv: readonly string[], usage: string): T;
export function parseOrExit(
  specOrParse: ScriptSpec | ((argv: readonly string[]) => unknown),
  argv: readonly string[] = process.argv.slice(2),
  usage?: string,
): unknown {
  const custom = typeof specOrParse === 'function';
  if (helpRequested(argv)) {
    const text = custom ? (usage ?? '') : helpText(specOrParse);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    process.exit(0);
  }
  try {
    return custom ? specOrParse(argv) : parseOptions(specOrParse, argv);
  } catch (e) {
    exitUsage(e instanceof Error ? e.message : String(e));
  }
}

/**
 * Runs a script written as `main(options)`: parses the command line (as `parseOrExit`), then awaits
 * `main`. A UsageError thrown by `main` (an option combination it finds wrong) is one line and exit 2;
 * any other error is `<script>: <message>` and exit 1 (with the stack when XTRUST_DEBUG is set).
 */
export async function runScript<O extends OptionSpecs>(
  spec: ScriptSpec<O>,
  main: (options: Options<O>) => Promise<void> | void,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const options = parseOrExit(spec, argv);
  try {
    await main(options);
  } catch (e) {
    if (e instanceof UsageError) exitUsage(e.message);
    else {
      const detail =
        process.env.XTRUST_DEBUG && e instanceof Error
          ? e.stack
          : e instanceof Error
            ? e.message.split('\n')[0]
            : String(e);
      process.stderr.write(`${scriptName()}: ${detail}\n`);
      process.exit(1);
    }
  }
}
