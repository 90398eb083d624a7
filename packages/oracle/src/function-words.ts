import { NON_CONTENT_WORDS } from '@xtrust/core';
import { eng } from 'stopword';

/**
 * Words that are never a class's keywords: function words carry no topic, so a class "related" to
 * "the", "another" or "while" is a coincidence of the embedding (GloVe places many of them near any
 * frequent noun), never what a person means by a word related to a class (issue 29).
 * The list is NLTK's English stop words (@xtrust/core NON_CONTENT_WORDS) together with the `stopword`
 * package's English list (determiners such as "another", light verbs such as "said", "get").
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...NON_CONTENT_WORDS,
  ...eng.map((w: string) => w.toLowerCase()),
]);

/** True when `word` (any case) is a function word: never a keyword (OracleConfig.functionWords = 'never-keywords'). */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word.toLowerCase());
}
