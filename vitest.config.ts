import { defineConfig } from 'vitest/config';

// One vitest run over every package: each package is a project with its own config
// (vitest.shared.ts maps @xtrust/* to their TypeScript sources, so tests never run a stale dist/).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'native'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
