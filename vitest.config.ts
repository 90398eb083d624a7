import { defineConfig } from 'vitest/config';
import { xtrustProject } from './vitest.shared.js';

// One vitest run over every package: each package is a project with its own config
// (vitest.shared.ts maps @xtrust/* to their TypeScript sources, so tests never run a stale dist/).
// The root's own test/ checks the repository as a whole (its scripts, a fresh clone's install).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'native', xtrustProject('workspace')],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Debian packages some tests need, installed once before the workers start (see the file)
    globalSetup: ['./scripts/system-packages.ts'],
  },
});
