import { describe, expect, it } from 'vitest';
import { definitionWords, glossDefinition, wordNetDescription, wordnet } from '../src/index.js';

const wn = wordnet();

describe('wordNetDescription (a class name described from WordNet 3.1)', () => {
  it('splits a gloss into its definition and content words', () => {
    expect(glossDefinition('in accordance with recognized standards; "legitimate advertising practices"')).toBe(
      'in accordance with recognized standards',
    );
    expect(glossDefinition('unwanted e-mail (usually of a commercial nature sent out in bulk)')).toBe(
      'unwanted e-mail (usually of a commercial nature sent out in bulk)',
    );
    expect(definitionWords('unwanted e-mail (usually of a commercial nature sent out in bulk)')).toEqual([
      'unwanted',
      'e-mail',
      'usually',
      'commercial',
      'nature',
      'sent',
      'bulk',
    ]);
  });

  it('describes "spam" by its junk e-mail sense: the proper noun "Spam" (canned meat) disagrees in case', () => {
    const d = wordNetDescription(wn, 'spam');
    expect(d.senses.map((s) => s.definition)).toEqual([
      'unwanted e-mail (usually of a commercial nature sent out in bulk)',
    ]);
    expect(d.lemmas).toEqual(['junk e-mail']);
    expect(d.glossWords).toEqual(expect.arrayContaining(['unwanted', 'e-mail', 'commercial', 'bulk']));
    expect(d.glossWords).not.toContain('pork');
    expect(d.glossWords).not.toContain('spam');
  });

  it('reads base forms, more senses, hypernyms and hyponyms when asked', () => {
    const hobbies = wordNetDescription(wn, 'hobbies');
    expect(hobbies.lemmas).toEqual(expect.arrayContaining(['avocation', 'pursuit', 'spare-time activity']));
    expect(hobbies.lemmas).not.toContain('hobby');
    expect(hobbies.glossWords).not.toContain('falcon'); // the third sense
    expect(wordNetDescription(wn, 'hobbies', { senses: 3 }).glossWords).toContain('falcon');
    const religion = wordNetDescription(wn, 'religion', { hypernyms: true, hyponyms: true, gloss: false });
    expect(religion.glossWords).toEqual([]);
    expect(religion.hypernyms).toContain('theological virtue');
    expect(religion.hyponyms).toEqual(expect.arrayContaining(['christianity', 'buddhism']));
    // a capitalised name keeps the capitalised senses: the Democratic Party's, not democracy's
    expect(wordNetDescription(wn, 'Democratic').senses.map((s) => s.definition)).toEqual([
      'belong to or relating to the Democratic Party',
    ]);
  });
});
