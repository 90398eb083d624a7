/** The groups of BENCHMARKS.md, in page order: every benchmark declares one (src/sections/<area>.ts). */
export const AREAS = ['explanations', 'oracle', 'attacks', 'speed', 'scale'] as const;
export type Area = (typeof AREAS)[number];

/** Each area's heading on BENCHMARKS.md and in the README's results block. */
export const AREA_TITLES: Readonly<Record<Area, string>> = {
  explanations: 'Explanations',
  oracle: 'Oracle (TOKI)',
  attacks: 'Attacks',
  speed: 'Speed',
  scale: 'Scale',
};
