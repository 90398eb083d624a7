/**
 * The set-up benchmark definitions share (src/sections/<area>.ts): where the repository, the built scripts
 * and the results are, the model kit's models, the reference LIME source, the GPU, and the one-line reasons a
 * benchmark gives when something it needs is not here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Repository root (this file is apps/bench/dist/harness/setup.js). */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
/** The built scripts (apps/bench/dist). */
export const DIST = join(ROOT, 'apps/bench/dist');
/** Where results, run folders and caches go (apps/bench/results). */
export const RESULTS = join(ROOT, 'apps/bench/results');
/** The stored sections (apps/bench/results/sections). */
export const SECTIONS = join(RESULTS, 'sections');

/** What a benchmark definition reads from the command line. */
export interface SetupContext {
  readonly quick: boolean;
  /** Sections that store their measurements in parts render what is stored and measure nothing new. */
  readonly stored?: boolean;
  readonly limeSrc?: string;
  /** The model kit's generated models (default models/transformers/out) and its Python package. */
  readonly kitOut?: string;
  readonly kit?: string;
  readonly log: (line: string) => void;
}

/** Why a benchmark did not run here. */
export interface Skipped {
  readonly skipped: string;
  /** Keep the stored section as it is (a section measured elsewhere, e.g. on a lent GPU), instead of storing "not run". */
  readonly keep?: boolean;
}

/** The model kit's committed fixtures (tests never train): masked LM and GPT-2 (CEA), the classifiers attacked. */
export const KIT_MLM = 'models/transformers/fixtures/tiny-bert-mlm';
export const KIT_GPT2 = 'models/transformers/fixtures/tiny-gpt2';
export const KIT_SPAM = 'models/transformers/fixtures/tiny-bert-spam';
export const KIT_BROWN = 'models/transformers/fixtures/tiny-bert-brown';

/** A path relative to the repository root when inside it (recorded commands stay portable). */
export const rel = (p: string): string => (p.startsWith(`${ROOT}/`) ? p.slice(ROOT.length + 1) : p);

/** Whether a model folder (relative to the root, or absolute) holds its ONNX graph. */
export const hasModel = (dir: string): boolean => existsSync(join(resolve(ROOT, dir), 'onnx/model.onnx'));

/** The kit's generated models folder (default models/transformers/out). */
export const kitOut = (ctx: SetupContext): string => ctx.kitOut ?? join(ROOT, 'models/transformers/out');

/** A full-size model of the kit (out/<name>), absolute. */
export const kitModel = (ctx: SetupContext, name: string): string => join(kitOut(ctx), name);

/** `{ skipped }` naming the kit fixtures that are not in this checkout, or undefined when all are. */
export function needFixtures(...dirs: string[]): Skipped | undefined {
  const missing = dirs.filter((d) => !hasModel(d));
  return missing.length
    ? { skipped: `the model kit's fixtures ${missing.join(', ')} are not in this checkout` }
    : undefined;
}

/** `{ skipped }` naming the kit's full-size models (out/<name>) that are not built, or undefined when all are. */
export function needKitModels(ctx: SetupContext, ...names: string[]): Skipped | undefined {
  const missing = names.map((n) => kitModel(ctx, n)).filter((d) => !hasModel(d));
  return missing.length
    ? { skipped: `the model kit's full-size models ${missing.map(rel).join(', ')} are not built (pnpm models:build)` }
    : undefined;
}

/** The reference Python LIME source (a folder holding lime/lime_text.py): --lime-src, LIME_SRC or /tmp/lime-ref. */
export function limeSource(ctx: SetupContext): string | undefined {
  for (const dir of [ctx.limeSrc, process.env.LIME_SRC, '/tmp/lime-ref']) {
    if (dir && existsSync(join(dir, 'lime', 'lime_text.py'))) return dir;
  }
  return undefined;
}

export const NO_LIME_SOURCE =
  'the reference LIME source is not here: `git archive` the `lime` folder of github.com/marcotcr/lime into a folder and pass --lime-src DIR (or LIME_SRC=DIR); apt-get install -y python3-numpy python3-scipy python3-sklearn';

export const NO_KIT_MODELS = 'the kit models are not built: /usr/bin/python3 models/transformers/build.py';

/** The kit's spam classifier: the full-size out/bert-spam when built, else the committed tiny-bert-spam fixture. */
export function kitSpamClassifier(ctx: SetupContext): string | undefined {
  const out = kitOut(ctx);
  return [join(out, 'bert-spam'), join(out, '../fixtures/tiny-bert-spam')].find(hasModel);
}

/** Whether an NVIDIA GPU is attached (its device node, or `nvidia-smi -L` answering). */
export function hasGpu(): boolean {
  if (existsSync('/dev/nvidiactl')) return true;
  const r = spawnSync('nvidia-smi', ['-L'], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * The arguments a stored section records for its script (its `script` field, `<file> args…`, when it matches
 * `file`), split at spaces: to re-write a section from the files it was written from. Undefined when not stored.
 */
export function readStoredArgs(name: string, file: RegExp): string[] | undefined {
  const stored = join(SECTIONS, `${name}.json`);
  if (!existsSync(stored)) return undefined;
  const script = (JSON.parse(readFileSync(stored, 'utf8')) as { script?: string }).script;
  if (!script || !file.test(script)) return undefined;
  return script
    .replace(file, '')
    .trim()
    .split(/\s+/)
    .filter((a) => a !== '' && a !== '--write-section');
}

/** Imports a built module of apps/bench by its dist path at run time: a missing file is reported, not a build error. */
export async function load<T>(path: string): Promise<T> {
  const file = join(DIST, path);
  if (!existsSync(file))
    throw new Error(`${relative(ROOT, file)} is missing (not built, or the benchmark is not in this checkout)`);
  return (await import(pathToFileURL(file).href)) as T;
}

/** Command-line words written as one string (`argv('--texts 3 --samples 1000')`): no word holds a space. */
export const argv = (words: string): string[] => words.split(/\s+/).filter((w) => w !== '');
