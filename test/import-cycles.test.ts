import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importSpecifiers, repositoryCycles, sourceFiles } from '../scripts/import-cycles.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('import circles between source files', () => {
  it('there are none in the repository (every src/**/*.ts of packages/*, apps/*, native)', () => {
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith(join('apps', 'cli', 'src', 'audit.ts')))).toBe(true);
    const cycles = repositoryCycles(root);
    expect(
      cycles.map((c) => c.join(' → ')),
      'import circles (cut each by moving what both sides need to a module of its own)',
    ).toEqual([]);
  });
});

describe('the circle checker', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'xtrust-cycles-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(tmp, path)), { recursive: true });
    writeFileSync(join(tmp, path), text);
  };

  it('reads every import form: import, import type, export from, require, import() calls and types', () => {
    const specs = importSpecifiers(
      'x.ts',
      [
        "import a from './a.js';",
        "import type { B } from './b.js';",
        "export { c } from './c.js';",
        "export * from './d.js';",
        "import e = require('./e.js');",
        "const f = await import('./f.js');",
        "type G = import('./g.js').G;",
        "// import h from './h.js';",
        'const s = "import i from \'./i.js\'";',
      ].join('\n'),
    );
    expect(specs).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
  });

  it('finds a three-file circle of type-only imports, a circle through two packages, and none once cut', () => {
    const repo = join(tmp, 'repo');
    write('repo/packages/one/package.json', JSON.stringify({ name: '@xtrust/one' }));
    write('repo/packages/two/package.json', JSON.stringify({ name: '@xtrust/two' }));
    write('repo/apps/cli/package.json', JSON.stringify({ name: 'cli' }));
    // apps/cli: audit → panel → records is fine; records → audit (type only) closes a circle
    write('repo/apps/cli/src/audit.ts', "import { panel } from './panel.js';\nexport const audit = panel;\n");
    write('repo/apps/cli/src/panel.ts', "import type { Row } from './records/index.js';\nexport const panel = 1;\n");
    write(
      'repo/apps/cli/src/records/index.ts',
      "import type { audit } from '../audit.js';\nexport type Row = typeof audit;\n",
    );
    // packages: one's index → one's util → @xtrust/two → @xtrust/one
    write('repo/packages/one/src/index.ts', "export * from './util.js';\n");
    write('repo/packages/one/src/util.ts', "import { two } from '@xtrust/two';\nexport const one = two;\n");
    write(
      'repo/packages/two/src/index.ts',
      "import { one } from '@xtrust/one';\nexport const two = 2;\nexport const again = one;\n",
    );
    write('repo/packages/two/src/leaf.ts', "import { two } from './index.js';\nexport const leaf = two;\n");
    expect(repositoryCycles(repo)).toEqual([
      ['apps/cli/src/audit.ts', 'apps/cli/src/panel.ts', 'apps/cli/src/records/index.ts', 'apps/cli/src/audit.ts'],
      [
        'packages/one/src/index.ts',
        'packages/one/src/util.ts',
        'packages/two/src/index.ts',
        'packages/one/src/index.ts',
      ],
    ]);
    write('repo/apps/cli/src/records/index.ts', 'export type Row = number;\n');
    write('repo/packages/two/src/index.ts', 'export const two = 2;\n');
    expect(repositoryCycles(repo)).toEqual([]);
    // a file importing itself is a circle too
    write(
      'repo/packages/two/src/leaf.ts',
      "import { leaf as me } from './leaf.js';\nexport const leaf = 1;\nexport const self = me;\n",
    );
    expect(repositoryCycles(repo)).toEqual([['packages/two/src/leaf.ts', 'packages/two/src/leaf.ts']]);
  });
});
