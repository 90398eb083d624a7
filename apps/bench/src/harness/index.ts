/**
 * The bench harness: what every benchmark script shares — its command line (options, `--help`, one-line
 * errors), timing, result storage, the machine line and section rendering.
 */
export {
  defineScript,
  exitUsage,
  helpRequested,
  helpText,
  integerList,
  parseOptions,
  parseOrExit,
  runScript,
  textLengthsOption,
  UsageError,
} from './options.js';
export type {
  CustomOption,
  FlagOption,
  ListOption,
  NumberOption,
  OptionSpec,
  OptionSpecs,
  Options,
  ScriptSpec,
  StringOption,
} from './options.js';
export { clockTicks, median, procCpuSeconds, speedup, timed, type Timed } from './timing.js';
export {
  isGzipPath,
  loadSections,
  orderAfter,
  readJson,
  saveSection,
  writeFileAtomic,
  writeJsonAtomic,
  type Headline,
  type Section,
} from './store.js';
export {
  benchmarksPage,
  byArea,
  cell,
  GENERATED_MARK,
  headlineTable,
  MAX_CELL_WORDS,
  metCounts,
  pagePath,
  resultsTable,
  secs,
  sectionCommand,
  sectionPage,
  spread,
  STALE_MARK,
  statusLine,
  toMarkdown,
  wordCount,
  writeBenchmarks,
} from './render.js';
export { AREA_TITLES, AREAS, type Area } from './areas.js';
export { readmeResults, RESULTS_BEGIN, RESULTS_END, updateReadme, withReadmeResults } from './readme-results.js';
export { cpuVectorExtensions, formatMachine, machineInfo, type MachineInfo } from './machine.js';
export { formatResults, type BenchResult } from './result.js';
