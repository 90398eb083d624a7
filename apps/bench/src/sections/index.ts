/**
 * The registry: every benchmark of apps/bench, by area, in BENCHMARKS.md order. Each area's benchmarks are
 * defined in its own module (what runs, its sizes, what it needs, its time limit); src/index.ts runs them.
 */
import { AREAS, type Area } from '../harness/areas.js';
import { ATTACKS } from './attacks.js';
import { EXPLANATIONS } from './explanations.js';
import { ORACLE } from './oracle.js';
import { SCALE } from './scale.js';
import { SPEED } from './speed.js';
import type { Benchmark } from './types.js';

const BY_AREA: Readonly<Record<Area, readonly Benchmark[]>> = {
  explanations: EXPLANATIONS,
  oracle: ORACLE,
  attacks: ATTACKS,
  speed: SPEED,
  scale: SCALE,
};

/** Every benchmark, area by area. */
export const BENCHMARKS: readonly Benchmark[] = AREAS.flatMap((a) => BY_AREA[a]);

export { ATTACK_BENCH } from './attacks.js';
export { NDCG_TRANSFORMER } from './explanations.js';
export { TABLE3_TRANSFORMER_CASES, table3TransformerArgs, VALIDATION_ORACLES } from './oracle.js';
export type { Benchmark, Produced, RunContext, Step } from './types.js';
