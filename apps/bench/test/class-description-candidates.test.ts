import { describe, expect, it } from 'vitest';
import { ORACLES, WORDNET_CLASS_DESCRIPTION } from '@xtrust/oracle';
import { candidateOracle, describedLabels, setupModifiers } from '../src/oracle/oracle-setups.js';
import { CLASS_DESCRIPTIONS } from '../src/oracle/family.js';
import { halfLists } from '../src/oracle/relatedness-lists.js';

describe('the word lists split into a choice half and a report half', () => {
  it('takes alternate words in file order, disjoint and complete', () => {
    const lists = { spam: { related: ['a', 'b', 'c', 'd', 'e'], unrelated: ['u', 'v', 'w'] } };
    expect(halfLists(lists, 'choice')).toEqual({ spam: { related: ['a', 'c', 'e'], unrelated: ['u', 'w'] } });
    expect(halfLists(lists, 'report')).toEqual({ spam: { related: ['b', 'd'], unrelated: ['v'] } });
  });
});

describe('described candidates (candidateOracle +desc)', () => {
  it('toki-name+desc is toki-cluster (the default before issue 47) by its parts; +d… modifiers ablate its parts', () => {
    expect({ ...candidateOracle('toki-cluster+desc'), name: 'x' }).toEqual({ ...ORACLES['toki-cluster'], name: 'x' });
    expect({ ...candidateOracle('toki-name+desc'), name: 'x' }).toEqual({ ...ORACLES['toki-cluster'], name: 'x' });
    expect({ ...candidateOracle('toki-cluster+nodesc'), name: 'x' }).toEqual({
      ...ORACLES['toki-name'],
      classDescription: null,
      name: 'x',
    });
    expect(candidateOracle('toki+desc+ds1+dcentroid').classDescription).toEqual({
      wordnet: { ...WORDNET_CLASS_DESCRIPTION.wordnet, senses: 1 },
      relate: 'centroid',
    });
    expect(candidateOracle('toki+desc+dhypo+dnogloss').classDescription?.wordnet).toMatchObject({
      hyponyms: true,
      gloss: false,
    });
    expect(candidateOracle('toki-name').classDescription ?? null).toBeNull();
    expect(() => candidateOracle('toki+desc+dfoo')).toThrow(/unknown description modifier "\+dfoo"/);
    expect(() => candidateOracle('toki-name+ds2')).toThrow(/unknown modifier "\+ds2"/);
  });
});

describe('verdict-rule candidates (candidateOracle +v…)', () => {
  it('swaps only the label step', () => {
    expect(ORACLES.toki.verdictRule).toBe('decisive-word');
    expect({ ...candidateOracle('toki+vsum'), name: 'x' }).toEqual({ ...ORACLES.toki, verdictRule: 'sum', name: 'x' });
    expect(candidateOracle('toki+vboth').verdictRule).toBe('sum-and-decisive');
    expect(candidateOracle('toki+vword').verdictRule).toBe('decisive-word');
    expect(candidateOracle('toki-paper+vdecisive').verdictRule).toBe('decisive');
    expect(candidateOracle('toki+vw2')).toMatchObject({ verdictRule: 'decisive-word', decisiveWords: 2 });
    expect(candidateOracle('toki+mt0.8+ml0.5').meaning).toMatchObject({ topicPercentile: 0.8, neighbourLean: 0.5 });
    expect(candidateOracle('toki-cluster+meaning').meaning).toEqual(ORACLES.toki.meaning);
    expect(candidateOracle('toki+nomeaning').meaning).toBeNull();
    expect(candidateOracle('toki+vboth').classDescription).toEqual(ORACLES.toki.classDescription);
    expect(() => candidateOracle('toki+vmax')).toThrow(/unknown modifier "\+vmax"/);
    // issue 47's fifth round: the related counterweight, set or taken off
    expect(ORACLES.toki.relatedCounterweight).toBe(1);
    expect(candidateOracle('toki+rc0.5').relatedCounterweight).toBe(0.5);
    expect({ ...candidateOracle('toki+norc'), name: 'x' }).toEqual({
      ...ORACLES.toki,
      relatedCounterweight: null,
      name: 'x',
    });
    // issue 47's sixth round: the meaning test's joint bars, set or taken off
    expect(candidateOracle('toki+j0.9-0.8').meaning!.joint).toEqual({ topicPercentile: 0.9, neighbourLean: 0.8 });
    expect(candidateOracle('toki+j0.9-0.8+nojoint').meaning!.joint).toBeUndefined();
    expect(candidateOracle('toki+j0.9-0.8+mt0.95').meaning).toMatchObject({
      topicPercentile: 0.95,
      joint: { topicPercentile: 0.9, neighbourLean: 0.8 },
    });
    expect(() => candidateOracle('toki+j0.9')).toThrow(/unknown modifier "\+j0\.9"/);
  });
});

describe('benchmark-side modifiers (+cat, +ud)', () => {
  it('takes +cat and +ud off the candidate name wherever they stand', () => {
    expect(setupModifiers('toki+ml2+cat+ud')).toEqual({
      base: 'toki+ml2',
      categories: true,
      builtInDescriptions: true,
    });
    expect(setupModifiers('toki+ud+mt0.9')).toEqual({
      base: 'toki+mt0.9',
      categories: false,
      builtInDescriptions: true,
    });
    expect(setupModifiers('toki-cluster')).toEqual({
      base: 'toki-cluster',
      categories: false,
      builtInDescriptions: false,
    });
  });

  it("describes only the labels a case's model has (Brown describes 15 genres, a case uses 5)", () => {
    const d = describedLabels(CLASS_DESCRIPTIONS.brown, ['news', 'romance']);
    expect(Object.keys(d)).toEqual(['news', 'romance']);
    expect(d.news).toBe(CLASS_DESCRIPTIONS.brown.news);
    expect(describedLabels(CLASS_DESCRIPTIONS.spam, ['ham', 'spam'])).toEqual(CLASS_DESCRIPTIONS.headers);
  });
});
