/**
 * `--audit-mode exact|fast` (issue 30, "modes, honestly named"): how much LIME work an audit asks for.
 * `exact` (the default) is the paper's computation — every explanation, keyword pass and labelling, at
 * `--samples` rows (with whatever `--lime-mode` says). `fast` changes two things and nothing else:
 * the keyword pass uses the adaptive LIME of `--lime-mode adaptive` (stop once the top words are stable),
 * and each test prediction's explanation uses verdict-aware sampling (@xtrust/oracle verdictSampling:
 * stop once the trust verdict is settled at 95 % confidence). Its agreement with exact is measured in
 * apps/bench (lime-verdict; the full-size audit table of issue 30), not assumed.
 *
 * How the two flags compose (`resolveLimeMode`, the table of AUDIT_LIME_PAIRS): `--audit-mode` decides
 * the default `--lime-mode` (exact → exact, fast → adaptive); a `--lime-mode` given (on the command line
 * or in the config file) is run as given when the audit mode allows it, and is otherwise a usage error
 * naming both flags and the valid choices — never rewritten. `fast` needs an adaptive LIME keyword pass
 * (adaptive or int8+adaptive), so `--audit-mode fast --lime-mode exact|int8` is refused — unless
 * `--keyword-method` is not lime: then there is no LIME keyword pass and any mode is taken as given.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { UsageError } from './exit.js';
import { LIME_MODES, type LimeMode } from './lime-mode.js';

export const AUDIT_MODES = ['exact', 'fast'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];
export const DEFAULT_AUDIT_MODE: AuditMode = 'exact';

/** The flag's help: what each mode does. */
export const AUDIT_MODE_HELP =
  "exact (the paper's computation: every LIME explanation at --samples; any --lime-mode, default exact) | fast (keywords: adaptive LIME, stopping once the top words are stable; labels: LIME stops once each prediction's verdict is settled at 95 % confidence; --lime-mode adaptive (default) or int8+adaptive, exact and int8 are refused unless --keyword-method is not lime) — fast is approximate, its agreement is measured in apps/bench";

/** Parses `--audit-mode`; an unknown value names the modes there are. */
export function auditModeArg(value: string): AuditMode {
  if (!(AUDIT_MODES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${AUDIT_MODES.join(', ')}, got "${value}"`);
  return value as AuditMode;
}

/** The `--audit-mode` flag (default exact). */
export function withAuditModeOption(c: Command, help = AUDIT_MODE_HELP): Command {
  return c.option('--audit-mode <mode>', help, auditModeArg, DEFAULT_AUDIT_MODE);
}

/**
 * The `--lime-mode` values an audit mode accepts (AUDIT_LIME_PAIRS): `exact` runs any LIME mode as given.
 * `fast` is defined by its adaptive LIME keyword pass, so with the LIME keyword pass (the default
 * `--keyword-method`) it takes the adaptive modes only. Its labelling is verdict-aware whatever the mode
 * (the mode's adaptive part has no effect there), so with another `--keyword-method` only the mode's int8
 * part has an effect and every mode is taken as given.
 */
export function acceptedLimeModes(auditMode: AuditMode | undefined, keywordMethod?: string): readonly LimeMode[] {
  return (keywordMethod ?? 'lime') === 'lime' ? AUDIT_LIME_PAIRS[auditMode ?? DEFAULT_AUDIT_MODE] : LIME_MODES;
}

/** The pairs, for the help and the README: the lime modes each audit mode takes with the LIME keyword pass, its default first. */
export const AUDIT_LIME_PAIRS: Readonly<Record<AuditMode, readonly LimeMode[]>> = {
  exact: LIME_MODES,
  fast: ['adaptive', 'int8+adaptive'],
};

/** The `--lime-mode` an audit mode runs when `--lime-mode` is not given: exact → exact, fast → adaptive. */
export function defaultLimeModeOf(auditMode: AuditMode | undefined): LimeMode {
  return AUDIT_LIME_PAIRS[auditMode ?? DEFAULT_AUDIT_MODE][0];
}

/**
 * The LIME mode an audit runs for `--audit-mode`, `--lime-mode` and `--keyword-method`: the lime mode
 * given when the audit mode accepts it, the audit mode's default when none is given (`undefined`: neither
 * the flag nor the config file), and a UsageError naming both flags and the valid choices for a pair that
 * contradicts itself. A lime mode given is never rewritten.
 */
export function resolveLimeMode(
  auditMode: AuditMode | undefined,
  limeMode: LimeMode | undefined,
  keywordMethod?: string,
): LimeMode {
  const audit = auditMode ?? DEFAULT_AUDIT_MODE;
  if (limeMode === undefined) return defaultLimeModeOf(audit);
  const valid = acceptedLimeModes(audit, keywordMethod);
  if (valid.includes(limeMode)) return limeMode;
  throw new UsageError(
    `--audit-mode ${audit} and --lime-mode ${limeMode} contradict each other: --audit-mode ${audit} runs the LIME keyword pass adaptively, ` +
      `so it takes --lime-mode ${valid.join(' or ')} (default ${defaultLimeModeOf(audit)}); ` +
      `for --lime-mode ${limeMode} use --audit-mode exact, or a --keyword-method other than lime`,
  );
}

/** Whether a mode labels predictions with verdict-aware sampling. */
export function verdictSamplingOf(auditMode: AuditMode | undefined): boolean {
  return auditMode === 'fast';
}

/**
 * The notice an audit prints when its keyword pass is a **screening** one (issue 49): a keyword method other
 * than LIME gives keyword sets that agree with exact LIME's less than exact LIME agrees with itself under
 * another seed (apps/cli/README.md, "Which mode is faithful, which screens"); null for LIME's pass.
 */
export function screeningNotice(keywordMethod: string | undefined): string | null {
  const method = keywordMethod ?? 'lime';
  if (method === 'lime') return null;
  return `keywords: --keyword-method ${method} is a screening mode — its keyword sets agree with exact LIME's less than LIME agrees with itself under another seed (apps/cli/README.md, "Which mode is faithful, which screens"); the verdict counts can gate a run, the keyword sets are not the audit's answer`;
}
