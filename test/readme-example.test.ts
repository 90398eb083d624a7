import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('README, "Use the packages from your own code"', () => {
  it('shows examples/library-example.mjs verbatim (the file test/library.slow.test.ts runs)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use the packages from your own code'));
    const block = section.match(/```js\n([\s\S]*?)```/)?.[1];
    expect(block).toBe(readFileSync(join(root, 'examples', 'library-example.mjs'), 'utf8'));
  });

  it('names in its pack loop every package the slow test packs', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const loop = readme
      .match(/for p in ([^;]+); do/)?.[1]
      .trim()
      .split(/\s+/);
    const slow = readFileSync(join(root, 'test', 'library.slow.test.ts'), 'utf8').match(
      /const PACKAGES = \[([^\]]+)\]/,
    )?.[1];
    expect(loop?.sort()).toEqual(
      slow
        ?.split(',')
        .map((s) => s.trim().replace(/'/g, ''))
        .filter((s) => s !== '') // the formatter's trailing comma
        .sort(),
    );
  });
});
