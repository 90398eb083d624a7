/**
 * `--audit-mode exact|fast` (issue 30, "modes, honestly named"): how much LIME work an audit asks for.
 * `exact` (the default) is the paper's computation — every explanation, keyword pass and labelling, at
 * `--samples` rows (with whatever `--lime-mode` says). `fast` changes two things and nothing else:
 * the keyword pass uses the adaptive LIME of `--lime-mode adaptive` (stop once the top words are stable;
 * int8 stays int8), and each test prediction's explanation uses verdict-aware sampling (@xtrust/oracle
 * verdictSampling: stop once the trust verdict is settled at 95 % confidence). Its agreement with exact
 * is measured in apps/bench (lime-verdict; the full-size audit table of issue 30), not assumed.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { LimeMode } from './lime-mode.js';

export const AUDIT_MODES = ['exact', 'fast'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];
export const DEFAULT_AUDIT_MODE: AuditMode = 'exact';

/** The flag's help: what each mode does. */
export const AUDIT_MODE_HELP =
  "exact (the paper's computation: every LIME explanation at --samples) | fast (keywords: adaptive LIME, stopping once the top words are stable; labels: LIME stops once each prediction's verdict is settled at 95 % confidence) — fast is approximate, its agreement is measured in apps/bench";

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
 * The `--lime-mode` the keyword pass runs in: `fast` adds the adaptive sample count to the mode asked for
 * (exact → adaptive, int8 → int8+adaptive); `exact` leaves it as given.
 */
export function keywordLimeMode(auditMode: AuditMode | undefined, limeMode: LimeMode): LimeMode {
  if (auditMode !== 'fast') return limeMode;
  return limeMode === 'exact' ? 'adaptive' : limeMode === 'int8' ? 'int8+adaptive' : limeMode;
}

/** Whether a mode labels predictions with verdict-aware sampling. */
export function verdictSamplingOf(auditMode: AuditMode | undefined): boolean {
  return auditMode === 'fast';
}
