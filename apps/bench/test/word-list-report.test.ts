import { describe, expect, it } from 'vitest';
import { relatednessAgainstLists, type WordLists } from '../src/oracle/relatedness-lists.js';
import { agreementHeadline, type CorpusAgreement } from '../src/oracle/word-list-report.js';

const lists: WordLists = {
  spam: { related: ['free', 'money'], unrelated: ['the', 'table'] },
  ham: { related: ['meeting'], unrelated: ['of'] },
};
/** A run whose keyword status judges `keyword`'s words and whose Eq. 5 judges `eq5`'s (absent: not judged). */
function run(oracle: string, keyword: Record<string, boolean>, eq5: Record<string, boolean>): CorpusAgreement {
  return {
    corpus: 'spam',
    model: 'bow-logistic',
    testAccuracy: 0.97,
    oracle,
    keyword: relatednessAgainstLists(lists, (_, w) => keyword[w]),
    eq5: relatednessAgainstLists(lists, (_, w) => eq5[w]),
    coverage: [],
    seconds: 1,
  };
}
const right = { free: true, money: true, the: false, table: false, meeting: true, of: false };

describe('the word-list headline', () => {
  it('counts a class with no listed word judged apart, not as precision 0', () => {
    // keyword status judges the spam list only (ham's words are in no pool); Eq. 5 judges every word rightly
    const h = agreementHeadline(
      [run('toki', { free: true, money: true, the: false, table: false }, right)],
      '2026-11-26',
    );
    expect(h.xtrust).toContain(
      'keyword status 1 of 1 classes at precision and recall ≥ 0.8 (precision 1.00–1.00, recall 1.00–1.00; 1 class with no listed word judged)',
    );
    expect(h.xtrust).toContain('Eq. 5 2 of 2 classes');
    expect(h.met).toBe('yes');
  });

  it('is met only when every judged class of the default reaches 0.8 in both readings', () => {
    // Eq. 5 calls the function word "of" related to ham: precision 1/2
    const h = agreementHeadline(
      [run('toki', right, { ...right, of: true }), run('toki-paper', right, right)],
      '2026-11-26',
    );
    expect(h.xtrust).toContain('Eq. 5 1 of 2 classes at precision and recall ≥ 0.8 (precision 0.50–1.00');
    expect(h.peer).toContain('toki-paper keyword status 2 of 2 classes');
    expect(h.met).toBe('no');
  });

  it('says so when no class of a reading had a word judged', () => {
    const h = agreementHeadline([run('toki', {}, right)], '2026-11-26');
    expect(h.xtrust).toContain('keyword status: no class with a listed word judged');
    expect(h.peer).toBe('same run: toki-paper —');
  });
});
