/**
 * Every measured transformer-lime block, kept for the spread of its ratio over sittings, in one gzipped archive
 * (`<out>/sittings.json.gz`). The blocks were once kept one file each in `<out>/sittings/`: a few kilobytes of
 * JSON per file, each costing a whole 4 KB disk block of the results folder's git budget, and the latest a
 * copy of its `<tag>-block.json`. Opening the archive folds such files into it and removes them.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../harness/store.js';

/** One sitting of a block: the tag it was stored under and the block as it was measured. */
export interface Sitting<B> {
  readonly tag: string;
  readonly block: B;
}

const LEGACY_FILE = /^(.*)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)-block\.json$/;

export class SittingArchive<B extends { readonly measured: string }> {
  private constructor(
    readonly file: string,
    private readonly sittings: Sitting<B>[],
  ) {}

  /** The archive in `out`, with the legacy `sittings/` files folded in (and removed) when there are any. */
  static open<B extends { readonly measured: string }>(out: string): SittingArchive<B> {
    const file = join(out, 'sittings.json.gz');
    const archive = new SittingArchive<B>(file, existsSync(file) ? readJson<Sitting<B>[]>(file) : []);
    const legacy = join(out, 'sittings');
    if (existsSync(legacy)) {
      const files = readdirSync(legacy).filter((f) => LEGACY_FILE.test(f));
      for (const f of files) {
        const block = JSON.parse(readFileSync(join(legacy, f), 'utf8')) as B;
        archive.push({ tag: LEGACY_FILE.exec(f)![1], block });
      }
      if (files.length) archive.write();
      for (const f of files) rmSync(join(legacy, f));
      if (readdirSync(legacy).length === 0) rmdirSync(legacy);
    }
    return archive;
  }

  /** Keeps a measured block (written at once); a block already kept (same tag and time) is not kept twice. */
  add(tag: string, block: B): void {
    if (this.push({ tag, block })) this.write();
  }

  /** The kept blocks of `tag` that `matches` accepts, oldest first. */
  of(tag: string, matches: (block: B) => boolean): B[] {
    return this.sittings
      .filter((s) => s.tag === tag && matches(s.block))
      .map((s) => s.block)
      .sort((a, b) => a.measured.localeCompare(b.measured));
  }

  get size(): number {
    return this.sittings.length;
  }

  private push(s: Sitting<B>): boolean {
    if (this.sittings.some((t) => t.tag === s.tag && t.block.measured === s.block.measured)) return false;
    this.sittings.push(s);
    this.sittings.sort((a, b) => a.tag.localeCompare(b.tag) || a.block.measured.localeCompare(b.block.measured));
    return true;
  }

  private write(): void {
    writeJsonAtomic(this.file, this.sittings);
  }
}
