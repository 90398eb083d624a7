#!/usr/bin/env node
// Builds @xtrust/native: the TypeScript wrapper (tsc), then the C++ addon through cmake-js. When
// cmake or a C++ compiler is missing, or the native build fails, it says so in one line and exits 0:
// the package then runs the TypeScript kernels. XTRUST_NATIVE_STRICT=1 makes every way of ending
// without an addon an error (exit 1): a missing cmake or compiler, a failed build, an addon that was
// built but does not load, and XTRUST_SKIP_NATIVE=1 (the two contradict each other).
// XTRUST_SKIP_NATIVE=1 alone skips the C++ build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const strict = process.env.XTRUST_NATIVE_STRICT === '1';

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
}
function has(cmd, args = ['--version']) {
  const r = run(cmd, args);
  return r.status === 0;
}

const tsc = run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** Without the addon: under XTRUST_NATIVE_STRICT=1 an error (exit 1), else a note and exit 0. */
function withoutAddon(reason) {
  if (strict) {
    console.error(`@xtrust/native: ${reason}; XTRUST_NATIVE_STRICT=1 requires the native addon`);
    process.exit(1);
  }
  console.log(`@xtrust/native: ${reason}; the TypeScript kernels will be used`);
  process.exit(0);
}

if (process.env.XTRUST_SKIP_NATIVE === '1') {
  if (strict) withoutAddon('XTRUST_SKIP_NATIVE=1 skips the addon build');
  console.log('@xtrust/native: XTRUST_SKIP_NATIVE=1, addon not built; the TypeScript kernels will be used');
  process.exit(0);
}
const compiler = ['c++', 'g++', 'clang++'].find((c) => has(c));
if (!has('cmake') || !compiler) {
  withoutAddon(`${has('cmake') ? 'no C++ compiler' : 'cmake'} not found; addon not built`);
}

const log = join(root, 'build', 'build.log');
mkdirSync(join(root, 'build'), { recursive: true });
const cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
const r = run(process.execPath, [cmakeJs, 'build', '--out', 'build', '--config', 'Release', '--log-level', 'warn'], {
  env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? nodedir() },
  maxBuffer: 64 * 1024 * 1024,
});
writeFileSync(log, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
const addon = join(root, 'build', 'Release', 'xtrust_native.node');
if (r.status !== 0 || !existsSync(addon)) {
  const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
  if (strict) {
    console.error(tail);
    console.error(`@xtrust/native: the native build failed (log: ${log})`);
    process.exit(1);
  }
  rmSync(addon, { force: true });
  console.log(`@xtrust/native: the native build failed, the TypeScript kernels will be used (log: ${log})`);
  process.exit(0);
}
if (strict) {
  // Built is not enough: the addon must load in this Node (ABI, missing shared libraries).
  try {
    require(addon).info();
  } catch (e) {
    console.error(`@xtrust/native: the addon was built but does not load: ${e.message}`);
    console.error('@xtrust/native: XTRUST_NATIVE_STRICT=1 requires the native addon');
    process.exit(1);
  }
}
const cuda = existsSync(join(root, 'build', 'Release', 'libxtrust_cuda.so'));
console.log(`@xtrust/native: addon built (CPU${cuda ? ' + CUDA library' : ''})`);

/** Node's headers: npm's nodedir setting when present, else the prefix of this node binary when it ships them. */
function nodedir() {
  const r = run('npm', ['config', 'get', 'nodedir']);
  const v = r.status === 0 ? r.stdout.trim() : '';
  if (v && v !== 'undefined' && v !== 'null') return v;
  const prefix = join(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? prefix : undefined;
}
