import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBrown, loadSotu, loadSpamAssassin } from '@xtrust/datasets';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { FIXTURES } from '../../../models/transformers/fixture-paths.js';

/**
 * The kit's tokenizer, two implementations: the Python WordPiece encoder the kit trained every model on
 * (models/transformers/kit/wordpiece.py, whose ids for each text are committed as sha1 digests in
 * fixtures/tokenizer-ids.json) and transformers.js reading the committed tokenizer.json — which is
 * xtrust's own tokenizer path (hf-tokenizer-loader.ts loads every HF folder through it). Equal ids on
 * the first 1,000 texts of each corpus (Brown, SOTU, SpamAssassin bodies and whole messages with headers:
 * accents, HTML, base64, non-Latin scripts) mean the graphs see at run time the ids they were trained on.
 */
interface IdsReference {
  corpora: Record<string, { id: string; n: number; sha1: string; ids?: number[] }[]>;
}

const ref = JSON.parse(readFileSync(join(FIXTURES, 'tokenizer-ids.json'), 'utf8')) as IdsReference;
const corpora: Record<string, () => readonly { id: string; text: string }[]> = {
  brown: () => loadBrown({ tags: false }).rows,
  sotu: () => loadSotu().rows,
  spam: () => loadSpamAssassin({ headers: false }).rows,
  'spam-headers': () => loadSpamAssassin({ headers: true }).rows,
};

describe("the kit's WordPiece encoder and transformers.js give the same ids", () => {
  for (const [corpus, load] of Object.entries(corpora)) {
    it(`${corpus}: the first 1,000 texts`, async () => {
      const tok = await loadLocalTokenizer(join(FIXTURES, 'tiny-bert-spam'), 'tiny-bert-spam');
      const rows = load().slice(0, 1000);
      const expected = ref.corpora[corpus];
      expect(expected).toHaveLength(1000);
      // the full id lists compared below exist for some texts (the rest by length and sha1): never for none
      expect(expected.filter((e) => e.ids).length, `${corpus}: texts with full ids in the reference`).toBeGreaterThan(
        0,
      );
      expect(rows.map((r) => r.id)).toEqual(expected.map((e) => e.id));
      const mismatches: string[] = [];
      rows.forEach((r, i) => {
        const ids = tok.encode(r.text).map(Number);
        const e = expected[i];
        if (e.ids) expect(ids, r.id).toEqual(e.ids);
        const sha1 = createHash('sha1').update(ids.join(' ')).digest('hex');
        if (ids.length !== e.n || sha1 !== e.sha1)
          mismatches.push(`${r.id}: ${ids.length} ids here, ${e.n} in the kit`);
      });
      expect(mismatches).toEqual([]);
    });
  }
});
