import { defineConfig } from 'vitest/config';

// One vitest run over every package: each package is a project with its own config.
// Workspace packages resolve to their TypeScript sources through the "development"
// export condition, so tests never depend on a stale dist/.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'native'],
  },
});
