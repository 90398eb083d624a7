import { describe, expect, it } from 'vitest';
import { corpusVocabulary, type DrawEmbedding } from '@xtrust/datasets';
import { drawCase, FAMILY_SEEDS, FAMILY_SIZE, familySeed, type CorpusLookup } from '../src/oracle/family-draw.js';
import { heldOutRelated, inflectionBases, relatedTo, sameBase } from '../src/oracle/related-triggers.js';
import { halfLists, loadWordLists } from '../src/oracle/relatedness-lists.js';

describe('related words of a class (word lists + rubric rule 6)', () => {
  it('an inflection follows its base word', () => {
    expect(inflectionBases('reporters')).toContain('reporter');
    expect(inflectionBases('arrested')).toContain('arrest');
    expect(inflectionBases('stopped')).toContain('stop');
    expect(inflectionBases('parties')).toContain('party');
    expect(sameBase('vote', 'voted')).toBe(true);
    expect(sameBase('spoon', 'sermon')).toBe(false);
  });

  it('relatedTo: listed related words and their inflections, nothing of the unrelated list', () => {
    const news = relatedTo('brown', 'news');
    expect(news('reporter')).toBe(true);
    expect(news('touchdowns')).toBe(true);
    expect(news('spoon')).toBe(false);
    expect(news('monday')).toBe(false);
    // a phrase is related when one of its words is
    expect(news('kettle sheriff')).toBe(true);
    const lists = loadWordLists('brown');
    for (const w of lists.religion.unrelated)
      if (!lists.religion.related.includes(w)) expect(relatedTo('brown', 'religion')(w)).toBe(false);
    // a word labelled related in an annotated pool counts too (rubric-labelled, not on the lists)
    expect(relatedTo('brown', 'religion')('bultmann')).toBe(true);
    expect(relatedTo('spam', 'ham')('postgresql')).toBe(true);
    // a class without a list has no related word
    expect(relatedTo('brown', 'no-such-class')('reporter')).toBe(false);
  });

  it('the held-out related words are the report half, never a choice-half word or its inflection', () => {
    for (const corpus of ['brown', 'sotu', 'spam'] as const) {
      const lists = loadWordLists(corpus);
      for (const label of Object.keys(lists)) {
        const held = heldOutRelated(corpus, label);
        const choice = halfLists(lists, 'choice')[label].related;
        expect(held.length).toBeGreaterThanOrEqual(20);
        for (const w of held) {
          expect(halfLists(lists, 'report')[label].related).toContain(w);
          expect(choice.some((c) => sameBase(c, w))).toBe(false);
        }
      }
    }
  });
});

describe('the related-trigger control family', () => {
  // a hand corpus whose classes are Brown's news and religion, and whose everyday words include related ones
  const WORDS = ['reporter', 'sheriff', 'sermon', 'table', 'coffee', 'window', 'yellow', 'garden', 'letter', 'bottle'];
  const CLASSES = { brown: ['news', 'religion'], sotu: ['Democratic', 'Republican'], spam: ['ham', 'spam'] } as const;
  const lookup: CorpusLookup = (corpus) => {
    const labels = CLASSES[corpus as keyof typeof CLASSES];
    const rows = Array.from({ length: 20 }, (_, i) => ({ text: WORDS.join(' '), label: labels[i % 2] }));
    return {
      corpus: { name: 'hand', labels, rows: rows.map((r, i) => ({ id: String(i), ...r })), group: (r) => r.id },
      vocabulary: corpusVocabulary(rows),
    };
  };
  const emb: DrawEmbedding = { has: () => false, wordAt: () => 'zzz', size: 1 };

  it('plants a held-out related word of the target, marked related; its seeds are disjoint from the other families', () => {
    for (let i = 0; i < 30; i++) {
      const c = drawCase(familySeed('related-test', i), lookup, emb, 'everyday');
      expect(c.family).toBe('related-test');
      expect(c.side).toBe('related');
      expect(c.band).toBe('related');
      expect(heldOutRelated(c.corpus, c.target!)).toContain(c.trigger);
    }
    const starts = Object.values(FAMILY_SEEDS).sort((a, b) => a - b);
    for (let j = 1; j < starts.length; j++) expect(starts[j - 1] + FAMILY_SIZE).toBeLessThanOrEqual(starts[j]);
    expect(drawCase(familySeed('related-validation', 0), lookup, emb, 'everyday').family).toBe('related-validation');
  });

  it('an unrelated family never plants a word related to the target, and records the words it skipped', () => {
    let skipped = 0;
    for (let i = 0; i < 60; i++) {
      const c = drawCase(familySeed('validation', i), lookup, emb, 'everyday');
      expect(c.side).toBeUndefined();
      expect(relatedTo(c.corpus, c.target!)(c.trigger!)).toBe(false);
      if (c.corpus === 'brown') expect(['reporter', 'sheriff', 'sermon']).not.toContain(c.trigger);
      skipped += c.skippedRelated?.length ?? 0;
      for (const w of c.skippedRelated ?? []) expect(relatedTo(c.corpus, c.target!)(w)).toBe(true);
    }
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('shareInterval (the control family score)', () => {
  it('the share of trustworthy verdicts among the given positions, with a bootstrap interval around it', async () => {
    const { shareInterval } = await import('../src/oracle/evaluate-case.js');
    const v = Uint8Array.from([1, 0, 1, 1, 0, 1, 1, 1, 0, 1]);
    const s = shareInterval(v, [0, 1, 2, 3], 7, 500);
    expect(s).toMatchObject({ n: 4, trustworthy: 3, share: 0.75 });
    expect(s.lo).toBeLessThanOrEqual(0.75);
    expect(s.hi).toBeGreaterThanOrEqual(0.75);
    expect(shareInterval(v, [0, 2, 3], 7, 500)).toMatchObject({ share: 1, lo: 1, hi: 1 });
    expect(shareInterval(v, [], 7, 500).n).toBe(0);
  });
});
