import { describe, expect, it } from 'vitest';
import { tokenCategory, wordSet } from '@xtrust/datasets';
import type { TrustLabel } from '@xtrust/oracle';
import { verdictErrors } from '../src/oracle/verdict-errors.js';

const w = (...words: string[]) => words.map((word) => ({ word, weight: 0.1 }));
const label = (text: string, verdict: TrustLabel['verdict'], extra: Partial<TrustLabel> = {}): TrustLabel => ({
  text,
  predicted: 'ham',
  verdict,
  isRel: 0,
  isUnr: 0,
  related: [],
  unrelated: [],
  ...extra,
});
const reason = (...words: string[]) => ({ words, weight: 0.4, bound: 0.2, by: 'margin' as const });

describe('verdictErrors (what the wrong verdicts of a token-set case rest on)', () => {
  it('sorts a phrase case’s false alarms by their decisive reason and its misses by where the words stood', () => {
    const set = wordSet(['best', 'regards'], 'best regards');
    const labels = [
      // false alarms (trustworthy by the ground truth)
      label('see you, best regards', 'untrustworthy', { decisive: reason('regards') }),
      label('call 555 1234 now', 'untrustworthy', {
        decisive: reason('555', '1234'),
        categories: [{ category: 'numbers', words: ['555', '1234'], weight: 0.4 }],
      }),
      label('the squirrel ate nuts', 'untrustworthy', { decisive: reason('squirrel') }),
      label('a squirrel and nuts', 'untrustworthy', { decisive: reason('Squirrel', 'nuts') }),
      label('nothing here', 'unknown'),
      // misses (untrustworthy by the ground truth)
      label('Best regards, ann', 'trustworthy', { related: w('best', 'ann') }),
      label('kind regards', 'trustworthy', { unrelated: w('regards'), overruled: reason('regards') }),
      label('regards to all', 'trustworthy', { unrelated: w('regards', 'all') }),
      label('best wishes', 'trustworthy', { related: w('wishes'), overruled: reason('wishes') }),
      // right verdicts: not counted
      label('best regards', 'trustworthy', { related: w('best') }),
      label('best regards', 'untrustworthy', { decisive: reason('best') }),
    ];
    const truth = Uint8Array.from([1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0]);
    expect(verdictErrors(labels, truth, set)).toEqual({
      falseAlarms: {
        count: 5,
        onSet: 1,
        onOtherCategory: 1,
        onOtherWords: 2,
        noReason: 1,
        words: [
          ['squirrel', 2],
          ['nuts', 1],
        ],
      },
      missed: { count: 4, setRelated: 1, overruled: 1, belowBound: 1, notDecisionWords: 1, related: [['best', 1]] },
    });
  });

  it('a category case counts a reason of its own category as the set, another category’s as another', () => {
    const set = tokenCategory('numbers');
    const numbers = (...words: string[]) => ({ category: 'numbers', words, weight: 0.3 });
    const labels = [
      label('in 1999 we won', 'untrustworthy', { decisive: reason('1999'), categories: [numbers('1999')] }),
      label('ask John Smith', 'untrustworthy', {
        decisive: reason('john', 'smith'),
        categories: [{ category: 'person-names', words: ['john', 'smith'], weight: 0.3 }],
      }),
      label('we won 3 of 4', 'trustworthy', { unrelated: w('won'), categories: [numbers('3', '4')] }),
      label('we won 3 of 4', 'trustworthy', { overruled: reason('3', '4'), categories: [numbers('3', '4')] }),
    ];
    const e = verdictErrors(labels, Uint8Array.from([1, 1, 0, 0]), set, { category: 'numbers' });
    expect(e.falseAlarms).toMatchObject({ count: 2, onSet: 1, onOtherCategory: 1, onOtherWords: 0 });
    expect(e.missed).toMatchObject({ count: 2, belowBound: 1, overruled: 1, setRelated: 0, notDecisionWords: 0 });
  });

  it('keeps the most blamed words only, ties in alphabetical order', () => {
    const set = wordSet(['zebra']);
    const labels = ['b', 'a', 'c', 'a'].map((x) => label(`${x} text`, 'untrustworthy', { decisive: reason(x) }));
    const e = verdictErrors(labels, Uint8Array.from([1, 1, 1, 1]), set, { top: 2 });
    expect(e.falseAlarms.words).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
