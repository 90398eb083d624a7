import type { AttackedText } from '../text.js';

/** What a transformation may know about the instance besides the text. */
export interface TransformContext {
  /** Index of the label the attack works against (the predicted = true class). */
  readonly label: number;
  readonly labels: readonly string[];
  readonly original: AttackedText;
}

/**
 * A source of substitute words (TextAttack's word-swap `Transformation`). `candidates` answers for
 * several positions at once — one neighbour search, or one masked-language-model pass with all the
 * positions masked (CEA's batch masking) — one list per position, best first. The engine drops words that
 * are not single tokens or equal the current word.
 */
export interface Transformation {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  candidates(text: AttackedText, indices: readonly number[], ctx: TransformContext): Promise<string[][]>;
  /**
   * Optional: called once per instance with every position the search may visit, so a context-free source
   * can answer all of them in one batched look-up up front (later `candidates` calls hit its memo).
   */
  prepare?(text: AttackedText, indices: readonly number[], ctx: TransformContext): Promise<void>;
}
