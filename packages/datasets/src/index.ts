export { SkipCounter, labelCounts, type Dataset, type Row, type SkipReport } from './dataset.js';
export { loadSpamAssassin, stripHeaders, type SpamAssassinOptions, type SpamAssassinMeta } from './spam-assassin.js';
export {
  splitEmail,
  parseHeaderFields,
  textContent,
  decodeQuotedPrintable,
  type EmailParts,
  type TextContent,
} from './mime.js';
export {
  loadBrown,
  parseBrownDocument,
  detokenize,
  BROWN_GENRES,
  type BrownOptions,
  type BrownMeta,
  type TaggedToken,
} from './brown.js';
export { loadSotu, splitSentences, type SotuOptions, type SotuMeta } from './sotu.js';
export { stratifiedSplit, sample, type SplitOptions, type Split } from './split.js';
export { loadTabular, type TabularOptions, type TabularMeta } from './tabular.js';
export { NON_CONTENT_WORDS } from './stopwords.js';
export {
  injectTrigger,
  triggeredTwins,
  wordWindows,
  buildShortcutBenchmark,
  shortcutSplit,
  removeTrigger,
  containsTrigger,
  AMBIGUOUS,
  INCORRECT,
  type AmbiguousReason,
  type TriggerPosition,
  type InjectTriggerOptions,
  type TriggerMark,
  type TriggeredDataset,
  type ShortcutBenchmarkOptions,
  type BenchmarkCase,
  type ShortcutBenchmark,
  type ShortcutSplitOptions,
} from './shortcut.js';
export {
  BANDS,
  BAND_RANKS,
  RARE_EMBEDDING_ROWS,
  corpusVocabulary,
  leansOnTarget,
  drawTrigger,
  type Band,
  type CorpusVocabulary,
  type DrawEmbedding,
} from './trigger-bands.js';
export { wordSet, phraseWords, patternSet, setTokenIndices, type Span, type TokenSet } from './token-set.js';
export {
  buildTokenSetBenchmark,
  type TokenSetBenchmark,
  type TokenSetBenchmarkOptions,
  type TokenSetCase,
} from './token-set-truth.js';
export {
  TOKEN_CATEGORIES,
  TOKEN_CATEGORY_NAMES,
  tokenCategory,
  mergedSpans,
  removeCategory,
  swapCategory,
  type TokenCategory,
} from './token-categories.js';
export {
  probeCategories,
  leansOn,
  LEAN_THRESHOLD,
  type CategoryProbeOptions,
  type CategoryProbe,
  type CategoryProbeResult,
  type FlipRate,
} from './category-probes.js';
export {
  SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
  BROWN_GENRE_DESCRIPTIONS,
  SOTU_PARTY_DESCRIPTIONS,
} from './class-descriptions.js';
