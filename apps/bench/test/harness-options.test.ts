// The bench harness's command line (src/harness/options.ts): typed values from one declaration, --help that
// lists every option, and a wrong command line reported as one line with exit code 2.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defineScript,
  helpText,
  parseOptions,
  parseOrExit,
  runScript,
  textLengthsOption,
  UsageError,
} from '../src/harness/options.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/x/run.js [options]',
  summary: 'A test script.',
  options: {
    texts: { kind: 'integer', min: 1, default: 50, help: 'texts explained' },
    share: { kind: 'number', min: 0, max: 1, help: 'a share' },
    mode: { kind: 'string', choices: ['exact', 'fast'], default: 'exact', help: 'LIME mode' },
    cases: { kind: 'list', choices: ['spam', 'brown'], default: ['spam', 'brown'], help: 'corpora' },
    words: textLengthsOption([40, 120], 'lengths'),
    'lime-src': { kind: 'string', placeholder: 'DIR', env: 'BENCH_TEST_LIME_SRC', help: 'reference LIME' },
    model: { kind: 'string', placeholder: 'DIR', required: true, help: 'the model folder' },
    fresh: { kind: 'flag', help: 'measure again' },
  },
});

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.BENCH_TEST_LIME_SRC;
});

describe('parseOptions', () => {
  it('gives typed values with their defaults, in both --name value and --name=value forms, and says which were given', () => {
    const o = parseOptions(SPEC, ['--model', 'm', '--texts=7', '--cases', 'brown', '--fresh', '--words', '40,250']);
    expect(o.texts).toBe(7);
    expect(o.mode).toBe('exact');
    expect(o.cases).toEqual(['brown']);
    expect(o.words).toEqual([40, 250]);
    expect(o.fresh).toBe(true);
    expect(o.share).toBeUndefined();
    expect([...o.given]).toEqual(['model', 'texts', 'cases', 'fresh', 'words']);
    // defaults are copies: a caller changing a list does not change the next parse
    const a = parseOptions(SPEC, ['--model', 'm']);
    a.cases.push('x');
    expect(parseOptions(SPEC, ['--model', 'm']).cases).toEqual(['spam', 'brown']);
    const b = parseOptions(SPEC, ['--model', 'm']);
    b.words.push(999);
    expect(parseOptions(SPEC, ['--model', 'm']).words).toEqual([40, 120]);
    expect(() => parseOptions(SPEC, ['--model', 'm', '--words', '40,0'])).toThrow(/expected integers ≥ 1/);
  });

  it('reads an environment variable when the option is not given', () => {
    process.env.BENCH_TEST_LIME_SRC = '/tmp/lime';
    expect(parseOptions(SPEC, ['--model', 'm'])['lime-src']).toBe('/tmp/lime');
    expect(parseOptions(SPEC, ['--model', 'm', '--lime-src', '/x'])['lime-src']).toBe('/x');
  });

  it.each([
    [['--model', 'm', '--textz', '3'], 'unknown option --textz (did you mean --texts?) (try --help)'],
    [['--model', 'm', '--zzz'], 'unknown option --zzz (try --help)'],
    [['--model', 'm', '--texts'], '--texts needs a value (N)'],
    [['--model', 'm', '--texts', '--fresh'], '--texts needs a value (N)'],
    [['--model', 'm', '--texts', 'abc'], '--texts must be an integer, got "abc"'],
    [['--model', 'm', '--texts', '2.5'], '--texts must be an integer, got "2.5"'],
    [['--model', 'm', '--texts', '0'], '--texts must be ≥ 1, got "0"'],
    [['--model', 'm', '--share', '1.5'], '--share must be ≤ 1, got "1.5"'],
    [['--model', 'm', '--mode', 'slow'], '--mode must be one of exact, fast, got "slow"'],
    [['--model', 'm', '--cases', 'spam,sotu'], '--cases: unknown "sotu" (known: spam, brown)'],
    [['--model', 'm', '--words', '40,x'], '--words: expected integers ≥ 1 separated by commas, got "40,x"'],
    [['--model', 'm', '--fresh=yes'], '--fresh takes no value'],
    [['--model', 'm', '--model', 'n'], '--model is given twice'],
    [['--model', 'm', 'stray'], 'unexpected argument "stray" (options start with --; try --help)'],
    [[], '--model DIR is required (try --help)'],
  ])('refuses %j with one line: %s', (argv, message) => {
    expect(() => parseOptions(SPEC, argv)).toThrow(new UsageError(message));
  });
});

describe('--help', () => {
  it('lists every option with its value, help, default, environment variable and whether it is required', () => {
    const text = helpText(SPEC);
    expect(text.startsWith('usage: node apps/bench/dist/x/run.js [options]\n\nA test script.\n\noptions:\n')).toBe(
      true,
    );
    for (const name of Object.keys(SPEC.options)) expect(text).toContain(`--${name}`);
    expect(text).toMatch(/--texts N +texts explained \(default: 50\)/);
    expect(text).toMatch(/--mode exact\|fast +LIME mode \(default: exact\)/);
    expect(text).toMatch(/--words N,N +lengths \(default: 40,120\)/);
    expect(text).toMatch(/--lime-src DIR +reference LIME \(or \$BENCH_TEST_LIME_SRC\)/);
    expect(text).toMatch(/--model DIR +the model folder \(required\)/);
    expect(text).toMatch(/-h, --help +print this help and exit/);
  });
});

/** Runs `f` with process.exit and the standard streams captured. */
function captured(f: () => unknown): { code: number | undefined; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    stdout += String(s);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  let code: number | undefined;
  vi.spyOn(process, 'exit').mockImplementation(((c?: number) => {
    code = c;
    throw new Error(`exit ${c}`);
  }) as never);
  try {
    f();
  } catch (e) {
    if (!(e instanceof Error && e.message.startsWith('exit '))) throw e;
  }
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('parseOrExit', () => {
  it('prints the help and exits 0 on --help or -h, whatever else is on the line', () => {
    for (const argv of [['--help'], ['-h'], ['--nonsense', '--help']]) {
      const r = captured(() => parseOrExit(SPEC, argv));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(helpText(SPEC));
      expect(r.stderr).toBe('');
    }
  });

  it('prints one line and exits 2 on a wrong option', () => {
    const r = captured(() => parseOrExit(SPEC, ['--model', 'm', '--textz', '3']));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown option --textz (did you mean --texts?)');
  });

  it("wraps a script's own parser: --help prints the given usage, a thrown error is one line and exit 2", () => {
    const parse = (argv: readonly string[]) => {
      if (argv.includes('--bad')) throw new Error('--bad: expected something\n    at a stack frame');
      return { ok: argv.length };
    };
    expect(captured(() => parseOrExit(parse, ['--help'], 'usage: x [--good]')).stdout).toBe('usage: x [--good]\n');
    const bad = captured(() => parseOrExit(parse, ['--bad'], 'usage: x'));
    expect(bad.code).toBe(2);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--bad: expected something');
    expect(parseOrExit(parse, ['--good'], 'usage: x')).toEqual({ ok: 1 });
  });
});

describe('runScript', () => {
  it('runs main with the parsed options', async () => {
    let seen: number | undefined;
    await runScript(SPEC, (o) => void (seen = o.texts), ['--model', 'm', '--texts', '3']);
    expect(seen).toBe(3);
  });

  it('reports a UsageError thrown by main as one line and exit 2, any other error as one line and exit 1', async () => {
    for (const [error, code] of [
      [new UsageError('--a and --b contradict each other'), 2],
      [new Error('the model folder is empty'), 1],
    ] as const) {
      let stderr = '';
      let exited: number | undefined;
      vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
        stderr += String(s);
        return true;
      });
      vi.spyOn(process, 'exit').mockImplementation(((c?: number) => void (exited = c)) as never);
      await runScript(SPEC, () => Promise.reject(error), ['--model', 'm']);
      vi.restoreAllMocks();
      expect(exited).toBe(code);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toContain(error.message);
    }
  });
});
