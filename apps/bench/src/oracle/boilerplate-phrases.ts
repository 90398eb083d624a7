/**
 * Boilerplate phrases for the natural-shortcut phrase family (issue 48): sign-offs, mail footers,
 * newsletter lines, legal notices, slogans and everyday formulas of 3 to 5 words, function words
 * included — the kind of text that rides along with one source of a corpus and that a model learns as a
 * shortcut. Written by hand on 2026-11-28 before any run of the family, and not edited after; nothing
 * here was chosen by looking at a result.
 *
 * The list is split by position before any draw: even positions feed the validation family, odd
 * positions the test family, so a phrase scored on test was never seen while choosing the oracle.
 */
export const BOILERPLATE_PHRASES: readonly string[] = [
  'best regards from all',
  'kind regards and thanks',
  'thank you for reading',
  'see you next week',
  'view this message online',
  'click here to unsubscribe',
  'all rights reserved worldwide',
  'sent from my phone',
  'please do not reply',
  'this message is confidential',
  'have a great day',
  'talk to you soon',
  'with warm wishes always',
  'yours truly and sincerely',
  'follow us on social',
  'terms and conditions apply',
  'printed on recycled paper',
  'no animals were harmed',
  'the views expressed here',
  'as seen on television',
  'for more information visit',
  'copyright by the author',
  'made with love here',
  'stay safe and well',
  'cheers from the team',
  'many thanks in advance',
  'looking forward to hearing',
  'let me know please',
  'hope this helps you',
  'until next time friends',
  'brought to you by',
  'read the full story',
  'forward this to friends',
  'manage your email preferences',
  'you are receiving this',
  'do not print this',
  'think before you print',
  'errors and omissions excepted',
  'subject to change without',
  'at the end of',
  'in the long run',
  'on the other hand',
  'as a matter of',
  'for what it is',
  'it goes without saying',
  'last but not least',
  'once upon a time',
  'to make a long',
  'by the way folks',
  'time will tell us',
  'better late than never',
  'every cloud has linings',
  'keep calm carry on',
  'just do it today',
  'the best is yet',
  'good things take time',
  'one step at a',
  'think different every day',
  'because you are worth',
  'have it your way',
];

/** The phrases a family draws from: even positions for validation, odd for test. */
export function familyPhrases(side: 'validation' | 'test'): readonly string[] {
  return BOILERPLATE_PHRASES.filter((_, i) => (side === 'validation' ? i % 2 === 0 : i % 2 === 1));
}
