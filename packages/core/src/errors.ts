/**
 * The one error type of xtrust. `code` is stable across releases so callers (and the CLI's exit
 * codes) can branch on it; `message` names the offending input and what was expected.
 */
export type XtrustErrorCode =
  | 'INVALID_ARGUMENT' // a value of the wrong type, shape or range
  | 'DIMENSION_MISMATCH' // arrays whose sizes do not agree
  | 'EMPTY_TEXT' // a text with nothing to explain or classify
  | 'NO_KNOWN_WORDS' // a text none of whose words the model or embedding knows
  | 'UNKNOWN_LABEL' // a label that is not among the classifier's or dataset's labels
  | 'BAD_MODEL_OUTPUT' // a model returned NaN, the wrong shape, or rows that are not probabilities
  | 'FILE_NOT_FOUND' // a named file or folder does not exist
  | 'FILE_UNREADABLE' // it exists but cannot be read
  | 'PARSE_ERROR' // a file's content is malformed (the message carries file and line or byte offset)
  | 'DATASET_ROW' // a dataset row lacks its text or label
  | 'OUT_OF_VOCABULARY' // a word missing from an embedding or vocabulary
  | 'UNSUPPORTED' // the classifier or backend lacks a capability (never faked)
  | 'INCOMPATIBLE' // a cache, store or run directory made for something else
  | 'BACKEND_UNAVAILABLE' // a forced compute backend that cannot run here
  | 'NOT_FOUND'; // a named resource (package, model folder, dataset) is absent

export class XtrustError extends Error {
  readonly code: XtrustErrorCode;
  /** Structured context (file, line, row, argument…) for programs; the message already says it in words. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: XtrustErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'XtrustError';
    this.code = code;
    this.details = details;
  }
}

/** True when `e` is an XtrustError, optionally with the given code. */
export function isXtrustError(e: unknown, code?: XtrustErrorCode): e is XtrustError {
  return e instanceof XtrustError && (code === undefined || e.code === code);
}
