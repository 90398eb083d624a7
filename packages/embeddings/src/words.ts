import { XtrustError } from '@xtrust/core';

/** Throws INVALID_ARGUMENT unless `word` is a string: a number or undefined must never be looked up as "undefined". */
export function checkWord(word: unknown, where: string): string {
  if (typeof word !== 'string') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `${where}: expected a word (string), got ${word === null ? 'null' : typeof word}`,
      {
        where,
        type: word === null ? 'null' : typeof word,
      },
    );
  }
  return word;
}

/** Checks a list of words (see `checkWord`); the list itself must be an array. */
export function checkWords(words: unknown, where: string): readonly string[] {
  if (!Array.isArray(words)) {
    throw new XtrustError('INVALID_ARGUMENT', `${where}: expected an array of words, got ${typeof words}`, { where });
  }
  for (let i = 0; i < words.length; i++) {
    if (typeof words[i] !== 'string') {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${where}: word ${i} is ${words[i] === null ? 'null' : typeof words[i]}, expected a string`,
        {
          where,
          index: i,
        },
      );
    }
  }
  return words as readonly string[];
}
