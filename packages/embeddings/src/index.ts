export { WordNet, wordnet, wordNetForm, type IndexEntry, type Pointer, type Synset, type LemmaFrequency, type WordNetOptions, type RelationOptions } from './wordnet.js';
export { morphy, readExceptionLists, DETACHMENT_RULES, WORDNET_POS, type WordNetPos, type ExceptionLists } from './morphology.js';
export { SynonymThesaurus, type Synonymity, type SynonymThesaurusOptions } from './thesaurus.js';
