import type { AttackedText, Candidate } from '../text.js';

/**
 * A constraint on which positions may change at all, checked before any candidate is generated
 * (TextAttack's `PreTransformationConstraint`): modification budget, no repeated change, stopwords.
 */
export interface PreTransformationConstraint {
  readonly kind: 'pre';
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Whether position i of `current` (derived from `original`) may be modified. */
  modifiable(current: AttackedText, original: AttackedText): (i: number) => boolean;
}

/** A constraint on candidate texts, checked in one batch per position (embedding, sentence encoder, POS). */
export interface CandidateConstraint {
  readonly kind: 'candidate';
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** One verdict per candidate; all candidates of one position come in one call. */
  check(candidates: readonly Candidate[], current: AttackedText, original: AttackedText): Promise<boolean[]>;
}

export type Constraint = PreTransformationConstraint | CandidateConstraint;
