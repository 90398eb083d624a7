import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Import circles between the repository's TypeScript source files (the check `madge --circular` makes,
 * done here over the TypeScript syntax tree so it needs no extra dependency). Every `src/**\/*.ts` of
 * packages/*, apps/* and native/ is a node; an edge is any import of another source file: `import` and
 * `import type`, `export … from`, `import x = require(…)`, `import(…)` calls and `import('…')` types.
 * Relative specifiers resolve as NodeNext does for TypeScript sources (`./a.js` → `./a.ts`, a folder →
 * its index.ts); `@xtrust/<name>` resolves to that workspace package's `src/index.ts` (as vitest's
 * aliases do), so a circle through two packages counts too. Type-only imports count: they make the
 * same knot for a reader, even where they vanish at run time.
 */

/** Folders holding one workspace package each, relative to the root. */
const PACKAGE_PARENTS = ['packages', 'apps'];

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(m|c)?tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
}

/** The workspace packages' folders (absolute): packages/*, apps/*, native. */
export function packageDirs(root: string): string[] {
  const dirs: string[] = [];
  for (const parent of PACKAGE_PARENTS) {
    const p = join(root, parent);
    if (!existsSync(p)) continue;
    for (const name of readdirSync(p).sort()) if (existsSync(join(p, name, 'package.json'))) dirs.push(join(p, name));
  }
  if (existsSync(join(root, 'native', 'package.json'))) dirs.push(join(root, 'native'));
  return dirs;
}

/** Every source file (absolute path) under the packages' src/ folders. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  for (const dir of packageDirs(root)) if (existsSync(join(dir, 'src'))) walk(join(dir, 'src'), files);
  return files.sort();
}

/** `@xtrust/<name>` → the package's src/index.ts, from each package.json's name. */
export function workspaceEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const dir of packageDirs(root)) {
    const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
    const entry = join(dir, 'src', 'index.ts');
    if (name && existsSync(entry)) entries.set(name, entry);
  }
  return entries;
}

/** The module specifiers a file imports (every form listed above), in source order. */
export function importSpecifiers(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) out.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The source file a specifier names, or null when it is not one of `files` (a dependency, JSON, …). */
export function resolveSpecifier(
  from: string,
  spec: string,
  files: ReadonlySet<string>,
  entries: ReadonlyMap<string, string>,
): string | null {
  if (entries.has(spec)) return entries.get(spec)!;
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((c) => files.has(c)) ?? null;
}

/** file → the source files it imports. */
export function importGraph(files: readonly string[], entries: ReadonlyMap<string, string>): Map<string, string[]> {
  const set = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(file)) {
      const target = resolveSpecifier(file, spec, set, entries);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The import circles of a graph: one per strongly connected component with more than one file (or a
 * file importing itself), each given as a concrete path a → b → … → a through that component (the
 * shortest from its first file, so the message names files that really import each other).
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative (no recursion limit on deep import chains).
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    if (indices.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indices.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!indices.has(to)) {
          indices.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, indices.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === indices.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((component) => {
    const inside = new Set(component);
    const first = component[0];
    // breadth-first from `first` back to `first`, staying inside the component
    const previous = new Map<string, string>();
    const queue = [first];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const to of graph.get(node) ?? []) {
        if (!inside.has(to)) continue;
        if (to === first) {
          const path = [node];
          while (path[0] !== first) path.unshift(previous.get(path[0])!);
          return [...path, first];
        }
        if (!previous.has(to)) {
          previous.set(to, node);
          queue.push(to);
        }
      }
    }
    return [...component, first];
  });
}

/** The import circles between the source files under `root`, paths relative to it. */
export function repositoryCycles(root: string): string[][] {
  const files = sourceFiles(root);
  return findCycles(importGraph(files, workspaceEntries(root))).map((cycle) => cycle.map((f) => relative(root, f)));
}
