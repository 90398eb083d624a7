import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** Each shell step of each root script, as `pnpm <name>` runs it. */
const steps = Object.entries(scripts).flatMap(([name, command]) =>
  command.split(/&&|\|\||;/).map((step) => ({ name, step: step.trim() })),
);

describe('root package.json scripts', () => {
  it('turn Turborepo telemetry off for every turbo they run (no first-run notice, no outbound event)', () => {
    // a step whose command (after any VAR=value assignments) is turbo
    const turboSteps = steps.filter(({ step }) => /^(\w+=\S*\s+)*turbo\b/.test(step));
    expect(turboSteps.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['build', 'test', 'demo', 'bench', 'turbo']),
    );
    for (const { name, step } of turboSteps)
      expect(step, `script "${name}"`).toMatch(/^TURBO_TELEMETRY_DISABLED=1 turbo\b/);
  });
});
