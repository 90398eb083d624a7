/**
 * Function words that carry no topic of their own: NLTK's English stop-word list (Porter et al.,
 * 179 entries) with two changes. Forms with an apostrophe are left out, because xtrust's tokenizer
 * splits "don't" into "don" + "t" and never yields them. Negations (no, nor, not) and the stems of
 * negative contractions (didn, wasn, won, …) are left out too: a negation changes what a sentence
 * says, and "won" is also a verb — neither is a token whose removal should leave meaning intact.
 */
export const NON_CONTENT_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under ' +
    'again further then once here there when where why how all any both each few more most other some such only own ' +
    'same so than too very s t can will just should now d ll m o re ve y ma'
  ).split(' '),
);
