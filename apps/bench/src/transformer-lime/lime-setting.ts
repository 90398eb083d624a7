/**
 * LIME settings as lime-candidates (candidates.ts) takes and names them (issue 49: the same answer from fewer
 * model calls):
 *   - `METHOD:COUNT:SAMPLES` — candidate-restricted LIME: the cheap pass (`omission`, `gradient`, or `limeN`, a
 *     short LIME pass of N rows over every word), how many words LIME then samples over (the others held
 *     present), and its samples over them;
 *   - `random:N` / `balanced:N` — LIME over every word with N samples, drawn independently (the reference's
 *     sampler) or balanced (LimeOptions.sampler); `+adaptive` adds the default adaptive stopping at that budget.
 */
import type { LimeOptions } from '@xtrust/explainers';

/** One setting: its name and the LimeExplainer options it stands for. */
export interface LimeSetting {
  readonly name: string;
  readonly options: LimeOptions;
}

/** Parses one setting; a malformed one names the forms there are. */
export function parseLimeSetting(raw: string): LimeSetting {
  const name = raw.trim();
  const full = /^(random|balanced):(\d+)(\+adaptive)?$/.exec(name);
  if (full && Number(full[2]) >= 2) {
    return {
      name,
      options: {
        numSamples: Number(full[2]),
        ...(full[1] === 'balanced' ? { sampler: 'balanced' as const } : {}),
        ...(full[3] ? { adaptive: true } : {}),
      },
    };
  }
  const m = /^(omission|gradient|lime(\d+)):(\d+):(\d+)$/.exec(name);
  const count = m ? Number(m[3]) : Number.NaN;
  const samples = m ? Number(m[4]) : Number.NaN;
  const short = m?.[2] === undefined ? undefined : Number(m[2]);
  if (!m || count < 2 || samples < 2 || (short !== undefined && short < 2)) {
    throw new Error(
      `expected METHOD:COUNT:SAMPLES (METHOD omission, gradient or limeN — a short LIME pass of N ≥ 2 rows —, COUNT ≥ 2, SAMPLES ≥ 2; e.g. lime1000:30:1000) or random:N / balanced:N with an optional +adaptive (N ≥ 2), got ${JSON.stringify(raw)}`,
    );
  }
  const method = short === undefined ? (m[1] as 'omission' | 'gradient') : 'lime';
  return {
    name,
    options: {
      numSamples: samples,
      candidates: { method, count, ...(short === undefined ? {} : { samples: short }) },
    },
  };
}

/** `lime1000:30:1000;balanced:2000`: settings separated by semicolons. */
export function parseLimeSettings(raw: string): LimeSetting[] {
  return raw.split(';').map(parseLimeSetting);
}
