import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));

/** Maps every `@xtrust/<name>` workspace package to its TypeScript source, so tests run on src/ and never on a stale build. */
function workspaceAliases(): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const dir of ['packages']) {
    for (const name of readdirSync(join(root, dir))) {
      const entry = join(root, dir, name, 'src', 'index.ts');
      if (existsSync(entry)) aliases[`@xtrust/${name}`] = entry;
    }
  }
  const nativeEntry = join(root, 'native', 'src', 'index.ts');
  if (existsSync(nativeEntry)) aliases['@xtrust/native'] = nativeEntry;
  return aliases;
}

/**
 * The vitest project of one workspace package. Tests live in `test/`; a file named
 * `*.slow.test.ts` is heavyweight and runs only when XTRUST_SLOW_TESTS=1 or in CI.
 */
export function xtrustProject(name: string, extra: UserWorkspaceConfig['test'] = {}): UserWorkspaceConfig {
  const slow = process.env.XTRUST_SLOW_TESTS === '1' || process.env.CI === 'true';
  return defineProject({
    resolve: { alias: workspaceAliases() },
    test: {
      name,
      include: ['test/**/*.test.ts'],
      exclude: slow ? [] : ['test/**/*.slow.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...extra,
    },
  });
}
