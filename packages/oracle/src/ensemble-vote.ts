/** A method's ballot on a yes/no question: 1 yes, 0 no, -1 abstain (the word or class name is missing from its vocabulary). */
export type Ballot = 1 | 0 | -1;

export const ABSTAIN = -1;

/**
 * Plurality vote of the embedding methods (§3.2, last paragraph). Abstentions do not count.
 * Tie rule: a tie between yes and no resolves to yes — the same side the paper's own comparisons take
 * at equality (Eq. 4 "≥ θ_relate", Eq. 5 "max_K ≥ max_F", Eq. 6 "IS_rel ≥ IS_unr").
 * Returns -1 when every method abstained, so the caller decides (see each caller's rule).
 */
export function plurality(ballots: ArrayLike<number>): Ballot {
  let yes = 0;
  let no = 0;
  for (let i = 0; i < ballots.length; i++) {
    if (ballots[i] === 1) yes++;
    else if (ballots[i] === 0) no++;
  }
  if (yes + no === 0) return -1;
  return yes >= no ? 1 : 0;
}

/**
 * Column-wise plurality over an m×n ballot matrix (m methods, row-major): one decision per item.
 * Items on which every method abstained get `allAbstain`.
 */
export function pluralityColumns(ballots: Int8Array, methods: number, items: number, allAbstain: 0 | 1): Uint8Array {
  const out = new Uint8Array(items);
  const column = new Int8Array(methods);
  for (let j = 0; j < items; j++) {
    for (let m = 0; m < methods; m++) column[m] = ballots[m * items + j];
    const v = plurality(column);
    out[j] = v === -1 ? allAbstain : v;
  }
  return out;
}
