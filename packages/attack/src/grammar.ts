import { XtrustError } from '@xtrust/core';

/** Counts language errors per text (CEA's "GE", 002 §4.2 and Figure 2). */
export interface LanguageChecker {
  readonly name: string;
  /** What the count measures, in words (the paper's LanguageTool is not available offline). */
  readonly measures: string;
  count(texts: readonly string[]): Promise<Int32Array>;
}

interface HarperLint {
  lint_kind(): string;
}
interface HarperLinter {
  setup(): Promise<void>;
  lint(text: string): Promise<HarperLint[]>;
}

/**
 * Harper (npm `harper.js`, Apache-2.0), an offline rule-based English grammar checker compiled to
 * WebAssembly — the substitute for LanguageTool, which CEA used and which is not available here. It counts
 * Harper's lints: agreement, article and word-order errors, repeated words, spelling, capitalisation and
 * punctuation/formatting rules. Lint kinds listed in `ignoreKinds` are not counted (default: `Formatting`,
 * which flags spaces before punctuation — tokenized corpora have them everywhere).
 */
export class HarperChecker implements LanguageChecker {
  readonly name = 'harper.js';
  readonly measures: string;
  private constructor(
    private readonly linter: HarperLinter,
    private readonly ignore: ReadonlySet<string>,
  ) {
    this.measures = `Harper lints (grammar, agreement, articles, repetition, spelling, capitalisation, punctuation${ignore.size ? `; not counted: ${[...ignore].join(', ')}` : ''})`;
  }

  static async load(options: { ignoreKinds?: readonly string[] } = {}): Promise<HarperChecker> {
    let linter: HarperLinter;
    try {
      const harper = (await import('harper.js')) as unknown as {
        LocalLinter: new (o: { binary: unknown }) => HarperLinter;
      };
      const { binary } = (await import('harper.js/binary')) as unknown as { binary: unknown };
      linter = new harper.LocalLinter({ binary });
      await linter.setup();
    } catch (e) {
      throw new XtrustError(
        'NOT_FOUND',
        `harper.js (the offline grammar checker) could not be loaded: ${(e as Error).message}`,
        {},
        { cause: e },
      );
    }
    return new HarperChecker(linter, new Set(options.ignoreKinds ?? ['Formatting']));
  }

  async count(texts: readonly string[]): Promise<Int32Array> {
    const out = new Int32Array(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const lints = await this.linter.lint(texts[i]);
      out[i] = lints.filter((l) => !this.ignore.has(l.lint_kind())).length;
    }
    return out;
  }
}
