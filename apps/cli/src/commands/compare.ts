import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { tokenize, type Explanation } from '@xtrust/core';
import { GloveEmbedding } from '@xtrust/embeddings';
import { intervalSyn, rankedWords, standardMeasures, weightedMeasures, type ExplanationPair } from '@xtrust/metrics';
import { UsageError } from '../exit.js';
import { emit } from '../output.js';
import { examples, intArg, pairsArg, positiveIntArg, withCommonOptions } from '../options.js';

/** Options of `xtrust compare`. */
export interface CompareOptions {
  k?: number;
  index: number;
  mapping?: Record<string, string>;
  json: boolean;
}

/**
 * Reads one explanation from a file: an Explanation as JSON, `xtrust explain --json` output, a JSON
 * array, or JSONL (explanations, or checkpoint records `{key, explanation}`); `index` picks one.
 */
export function readExplanation(path: string, index: number): Explanation {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`${path}: no such file (expected an explanation as JSON or JSONL)`);
  }
  let items: unknown[];
  try {
    const v = JSON.parse(content) as unknown;
    items = Array.isArray(v)
      ? v
      : v && typeof v === 'object' && Array.isArray((v as { explanations?: unknown }).explanations)
        ? (v as { explanations: unknown[] }).explanations
        : [v];
  } catch {
    try {
      items = content
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown);
    } catch (error) {
      throw new UsageError(`${path}: neither JSON nor JSONL (${(error as Error).message})`);
    }
  }
  const item = items[index] as { explanation?: unknown } | undefined;
  if (item === undefined) throw new UsageError(`${path}: no explanation at index ${index} (${items.length} found)`);
  const e = (item.explanation ?? item) as Explanation;
  if (!e || !Array.isArray(e.features))
    throw new UsageError(`${path}: item ${index} is not an explanation (no "features" list)`);
  return e;
}

/** Word substitutions between two texts of equal token count (lower-cased), as the mapping a → b of the weighted measures. */
function inferMapping(a: string, b: string): [string, string][] {
  const ta = tokenize(a, { lowercase: true });
  const tb = tokenize(b, { lowercase: true });
  if (ta.length !== tb.length) return [];
  const out: [string, string][] = [];
  const seenA = new Set<string>();
  const seenB = new Set<string>();
  ta.forEach((t, i) => {
    const u = tb[i].text;
    if (t.text !== u && !seenA.has(t.text) && !seenB.has(u)) {
      seenA.add(t.text);
      seenB.add(u);
      out.push([t.text, u]);
    }
  });
  return out;
}

/** Ranked-list similarity of two explanations: the six measures, plain and synonymity-weighted (GloVe cosine, interval form). */
export async function runCompare(fileA: string, fileB: string, options: CompareOptions) {
  const a = readExplanation(fileA, options.index);
  const b = readExplanation(fileB, options.index);
  const k = options.k;
  const original = rankedWords(a, k);
  const perturbed = rankedWords(b, k);
  const mapping: [string, string][] = options.mapping
    ? Object.entries(options.mapping)
    : inferMapping(a.text ?? '', b.text ?? '');
  // Syn must answer synchronously: the cosines of the mapped pairs are computed up front.
  const glove = await GloveEmbedding.load();
  const cos = new Map<string, number>();
  for (const [x, y] of mapping) {
    if (!glove.has(x) || !glove.has(y)) {
      cos.set(`${x}\u0000${y}`, 0);
      continue;
    }
    const v = await glove.vectors([x, y]);
    const d = glove.dim;
    let dot = 0;
    let nx = 0;
    let ny = 0;
    for (let i = 0; i < d; i++) {
      dot += v[i] * v[d + i];
      nx += v[i] * v[i];
      ny += v[d + i] * v[d + i];
    }
    cos.set(`${x}\u0000${y}`, nx && ny ? dot / Math.sqrt(nx * ny) : 0);
  }
  const syn = intervalSyn((x, y) => cos.get(`${x}\u0000${y}`) ?? 0);
  const pair: ExplanationPair = { original, perturbed, mapping } as ExplanationPair;
  const listOptions = { duplicates: 'dedupe' as const };
  const plain = Object.fromEntries(Object.entries(standardMeasures(listOptions)).map(([n, m]) => [n, m(pair)]));
  const weighted = Object.fromEntries(Object.entries(weightedMeasures(syn, listOptions)).map(([n, m]) => [n, m(pair)]));
  return { original, perturbed, mapping, syn: `interval (${glove.name} cosine)`, plain, weighted };
}

/** Registers `xtrust compare`. */
export function compareCommand(): Command {
  const c = new Command('compare')
    .description(
      'compare two explanations: ranked-list similarity (Jaccard, Kendall, Spearman footrule, RBO), plain and synonymity-weighted',
    )
    .argument('<a>', 'the original explanation (JSON or JSONL, e.g. from `xtrust explain --json`)')
    .argument('<b>', 'the perturbed explanation')
    .option('--k <n>', 'compare the top k words of each', positiveIntArg)
    .option('--index <n>', 'which explanation of each file (default the first)', intArg, 0)
    .option('--mapping <pairs>', 'substitutions original=substitute (default: inferred from the texts)', pairsArg);
  withCommonOptions(c);
  examples(c, [
    'xtrust compare original.json perturbed.json',
    'xtrust compare a.jsonl b.jsonl --index 3 --k 5 --mapping film=movie',
  ]);
  return c.action(async (a: string, b: string, opts: CompareOptions) => {
    const r = await runCompare(a, b, opts);
    emit(opts.json, r, () =>
      [
        `A: ${r.original.join(', ')}`,
        `B: ${r.perturbed.join(', ')}`,
        `mapping: ${r.mapping.map(([x, y]) => `${x}→${y}`).join(', ') || '(none)'}`,
        `measure     plain    weighted`,
        ...Object.keys(r.plain).map(
          (n) => `${n.padEnd(10)} ${r.plain[n].toFixed(3).padStart(6)}   ${r.weighted[n].toFixed(3).padStart(6)}`,
        ),
      ].join('\n'),
    );
  });
}
