import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapInterval, type BootstrapInterval } from '@xtrust/metrics';
import { mean, topKJaccard, type WordWeights } from '../lime-parity/metrics.js';
import { readJson, writeJsonAtomic } from '../harness/store.js';
import { blockTexts } from './texts.js';

/** What one side produced for one text: its top features, the label it explained, and what it cost. */
export interface SideResult {
  label: string;
  features: [string, number][];
  seconds: number;
  cpuSeconds: number;
  /** LIME samples scored (the adaptive modes stop early). */
  samples: number;
}

/**
 * One text of a (model, words) block, measured in one sitting: the peer's seeds and xtrust's modes were
 * interleaved on it, so its ratio is same-run even when the block's texts span sittings (and hosts).
 */
export interface TextPart {
  index: number;
  /** The peer's explanation per seed, in the order of its seeds. */
  peer: SideResult[];
  /** The peer model's class probabilities on the text (for the max |Δp| check). */
  peerProbabilities: number[];
  /** xtrust's explanation per mode. */
  ours: Record<string, SideResult>;
  measured: string;
  host: string;
  /** 1-minute load average when the text was done (the host is shared: a busy text is visible). */
  load: number;
  /** The peer's own description of its run (PyTorch version, threads, BLAS, where its weights came from). */
  peerMeta: Record<string, unknown>;
}

interface PartsFile {
  key: unknown;
  parts: TextPart[];
}

/**
 * The per-text record of a block being measured, so that a block of many texts (30 per length at 5,000
 * samples is hours of the peer) resumes at the text it was in: written after every text, read back by a
 * later run with the same key (same graph, texts, samples, threads, batches, seeds and modes), discarded
 * when the key differs.
 */
export class TextPartStore {
  readonly parts: TextPart[];

  private constructor(
    readonly file: string,
    private readonly key: unknown,
    parts: TextPart[],
  ) {
    this.parts = parts;
  }

  /** The parts stored under `key` in `file` (gzipped JSON), or none when the file is absent or holds another key. */
  static open(file: string, key: unknown): TextPartStore {
    if (existsSync(file)) {
      const saved = readJson<PartsFile>(file);
      if (JSON.stringify(saved.key) === JSON.stringify(key))
        return new TextPartStore(
          file,
          key,
          [...saved.parts].sort((a, b) => a.index - b.index),
        );
    }
    return new TextPartStore(file, key, []);
  }

  has(index: number): boolean {
    return this.parts.some((p) => p.index === index);
  }

  /** Records a finished text and writes the file at once (atomically: a stop mid-write keeps the previous record). */
  add(part: TextPart): void {
    if (this.has(part.index)) throw new Error(`text ${part.index} is already recorded in ${this.file}`);
    this.parts.push(part);
    this.parts.sort((a, b) => a.index - b.index);
    writeJsonAtomic(this.file, { key: this.key, parts: this.parts } satisfies PartsFile);
  }

  remove(): void {
    rmSync(this.file, { force: true });
  }
}

/** One mode's agreement over a block's texts, with the per-text figures the means come from. */
export interface ModeAgreement {
  /** Top-10 Jaccard of xtrust's explanation against the peer's first seed, per text. */
  oursPeer: number[];
  /** Top-10 Jaccard of the peer's first seed against its second, per text (empty with one seed). */
  peerPeer: number[];
  /**
   * Mean over texts of (xtrust vs peer) − (peer seed 1 vs seed 2) with its 95 % percentile-bootstrap interval
   * over texts (paired: a text's two Jaccards are resampled together); absent with one peer seed.
   * The agreement bound holds on average when the estimate is ≥ −0.05.
   */
  gap?: BootstrapInterval;
}

/**
 * Agreement of one xtrust mode with the peer over the recorded texts: per-text top-10 Jaccards and the
 * paired gap to the peer's own seed-to-seed agreement, with a bootstrap interval (seeded: same parts, same interval).
 */
export function modeAgreement(parts: readonly TextPart[], mode: string, seed = 30): ModeAgreement {
  const feats = (s: SideResult) => s.features as WordWeights;
  const oursPeer = parts.map((p) => {
    const ours = p.ours[mode];
    if (!ours) throw new Error(`text ${p.index} has no result for mode ${mode}`);
    return topKJaccard(feats(ours), feats(p.peer[0]), 10);
  });
  const twoSeeds = parts.every((p) => p.peer.length > 1);
  const peerPeer = twoSeeds ? parts.map((p) => topKJaccard(feats(p.peer[0]), feats(p.peer[1]), 10)) : [];
  const gap =
    twoSeeds && parts.length > 0
      ? bootstrapInterval(parts.length, (idx) => mean(Array.from(idx, (i) => oursPeer[i] - peerPeer[i])), { seed })
      : undefined;
  return { oursPeer, peerPeer, ...(gap ? { gap } : {}) };
}

/** A finished block of transformer-lime (its key, per-text parts and texts), as the scripts that judge against its stored peer read it. */
export interface StoredBlock {
  key: Record<string, unknown>;
  parts: TextPart[];
  texts: string[];
  partsFile: string;
}

/**
 * Reads the finished block `tag` from `dir` (`<tag>-parts.json.gz`; its texts from `<tag>-texts.json.gz` or drawn
 * again, blockTexts), refusing one measured on another model than `fingerprint`, texts that are not the ones
 * its key digests, or a block not finished.
 */
export function readStoredBlock(dir: string, tag: string, fingerprint: string): StoredBlock {
  const partsFile = join(dir, `${tag}-parts.json.gz`);
  const textsFile = join(dir, `${tag}-texts.json.gz`);
  if (!existsSync(partsFile))
    throw new Error(`no stored block ${tag} in ${dir} (its parts file): run transformer-lime-30 first`);
  const stored = readJson<{ key: Record<string, unknown>; parts: TextPart[] }>(partsFile);
  const texts = blockTexts(textsFile, Number(stored.key.words), stored.parts.length);
  if (stored.key.model !== fingerprint)
    throw new Error(
      `${partsFile} was measured on another model (${String(stored.key.model)}, this one ${fingerprint})`,
    );
  if (stored.key.textsSha256 !== createHash('sha256').update(JSON.stringify(texts)).digest('hex'))
    throw new Error(
      `${existsSync(textsFile) ? textsFile : `the texts drawn again for ${tag}`} are not the texts ${partsFile} was measured on`,
    );
  if (stored.parts.length < texts.length)
    throw new Error(`${partsFile} holds ${stored.parts.length} of ${texts.length} texts: finish the block first`);
  return { key: stored.key, parts: stored.parts, texts, partsFile };
}
