import type { Command } from 'commander';
import { KEYWORD_METHODS, type AuditSettings, type KeywordMethod } from '../audit-settings.js';
import { ENSEMBLE_MEMBERS, type EnsembleMemberName } from '../ensemble.js';
import { InvalidArgumentError } from 'commander';
import { fractionArg, intArg, pairsArg, positiveIntArg } from '../options.js';
import { ORACLES, resolveOracle, type OracleName } from '@xtrust/oracle';
import { readClassDescriptions } from '../class-descriptions-file.js';
import { LIME_MODE_HELP, limeModeArg, type LimeMode } from '../lime-mode.js';
import { DEFAULT_AUDIT_MODE, resolveLimeMode, withAuditModeOption, type AuditMode } from '../audit-mode.js';
import { LEAN_THRESHOLD, TOKEN_CATEGORY_NAMES } from '@xtrust/datasets';

/** Defaults of the audit settings: a few minutes on two cores. The paper's scale: --train-sample 2000 --samples 5000. */
export const AUDIT_DEFAULTS = {
  trainSample: 400,
  testSample: 300,
  samples: 1000,
  topK: 10,
  thetaConf: 0.9,
  seed: 0,
  embeddings: ['glove'] as EnsembleMemberName[],
  oracle: 'toki' as OracleName,
};

/** Parses `--oracle`: a named configuration of @xtrust/oracle (`toki`, the default, `toki-phrase`, `toki-cluster`, `toki-name` or `toki-paper`). */
export function oracleArg(value: string): OracleName {
  if (!(value in ORACLES))
    throw new InvalidArgumentError(`unknown oracle "${value}" (expected one of ${Object.keys(ORACLES).join(', ')})`);
  return value as OracleName;
}

/** Parses `--keyword-method`: one of KEYWORD_METHODS. */
export function keywordMethodArg(value: string): KeywordMethod {
  if (!(KEYWORD_METHODS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${KEYWORD_METHODS.join(', ')}, got "${value}"`);
  return value as KeywordMethod;
}

/** Parses `glove,counter-fitted,use` into ensemble member names (each once, in the order given). */
export function embeddingsArg(value: string): EnsembleMemberName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = Object.keys(ENSEMBLE_MEMBERS);
  for (const n of names)
    if (!known.includes(n))
      throw new InvalidArgumentError(
        `unknown embedding "${n}" (expected a comma-separated list of ${known.join(', ')})`,
      );
  if (names.length === 0) throw new InvalidArgumentError(`expected at least one of ${known.join(', ')}`);
  return [...new Set(names)] as EnsembleMemberName[];
}

/** `--lime-mode`'s help in an audit: its default depends on `--audit-mode` (audit-mode.ts, resolveLimeMode). */
export const AUDIT_LIME_MODE_HELP = `${LIME_MODE_HELP}. Default: exact under --audit-mode exact, adaptive under --audit-mode fast (which, with the LIME keyword pass, takes adaptive or int8+adaptive only: exact and int8 with it are a usage error, never rewritten)`;

/** The audit settings as flags (shared by demo, audit and keywords). */
export function withAuditSettings(c: Command): Command {
  // no commander default: a --lime-mode left out (flag and config file) takes --audit-mode's default, and one
  // given is run as given or refused (resolveLimeMode) — checked before anything loads
  c.option('--lime-mode <mode>', AUDIT_LIME_MODE_HELP, limeModeArg);
  withAuditModeOption(c);
  c.hook('preAction', (command) => {
    const o = command.opts() as { auditMode?: AuditMode; limeMode?: LimeMode; keywordMethod?: KeywordMethod };
    resolveLimeMode(o.auditMode, o.limeMode, o.keywordMethod);
  });
  return c
    .option(
      '--train-sample <n>',
      'training texts sampled for keyword identification (paper: 2000)',
      positiveIntArg,
      AUDIT_DEFAULTS.trainSample,
    )
    .option('--test-sample <n>', 'test predictions explained and labelled (0: all)', intArg, AUDIT_DEFAULTS.testSample)
    .option('--samples <n>', 'LIME neighbourhood size (paper: 5000)', positiveIntArg, AUDIT_DEFAULTS.samples)
    .option('--top-k <n>', 'decision-contributing words per explanation', positiveIntArg, AUDIT_DEFAULTS.topK)
    .option(
      '--oracle <name>',
      "TOKI configuration: toki (xtrust's default, chosen on validation data: keywords are the pool words related to the class in meaning; a prediction is untrustworthy when one unrelated word — or a group of unrelated words that travel together in the training texts — can flip it), toki-phrase (toki with function words counted: finds boilerplate phrases made of them, at the cost of more false alarms), toki-cluster (the default before issue 47: Eq. 4's clusters and the surface-token check), toki-name (toki-cluster with class names alone) or toki-paper (the paper's)",
      oracleArg,
      AUDIT_DEFAULTS.oracle,
    )
    .option(
      '--theta-dist <d>',
      "dendrogram cut in cosine distance (TOKI; default: the oracle's, 0.3 for both)",
      fractionArg,
    )
    .option('--theta-conf <p>', "Naive baseline's confidence threshold", fractionArg, AUDIT_DEFAULTS.thetaConf)
    .option('--seed <n>', 'seed of sampling and LIME (and training, for demo)', intArg, AUDIT_DEFAULTS.seed)
    .option('--class-names <pairs>', 'names standing for labels in similarities, e.g. ham=legitimate', pairsArg)
    .option(
      '--class-descriptions <file>',
      'JSON label → description (words or a sentence): TOKI relates keywords to the class name and these words, e.g. {"ham": "personal and work e-mail"} (demo: the bundled corpus describes its classes unless this is given)',
    )
    .option(
      '--keyword-method <method>',
      `explainer of the keyword pass: ${KEYWORD_METHODS.join(' | ')} (default lime, the paper's; gradient and integrated-gradients need a model with gradients). Test predictions are always labelled with LIME`,
      keywordMethodArg,
    )
    .option(
      '--embeddings <list>',
      "TOKI's embedding ensemble, plurality vote across members (paper: glove,counter-fitted,use)",
      embeddingsArg,
      AUDIT_DEFAULTS.embeddings,
    );
}

/**
 * Parses a list of token categories (`--category-probes`, `--unrelated-categories`): `all` (undefined:
 * every category of @xtrust/datasets TOKEN_CATEGORIES), `none` (false) or a comma-separated list of names.
 */
export function categoryListArg(value: string): string[] | false | undefined {
  const v = value.trim();
  if (v === 'all') return undefined;
  if (v === 'none') return false;
  const names = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const n of names)
    if (!TOKEN_CATEGORY_NAMES.includes(n))
      throw new InvalidArgumentError(
        `unknown token category "${n}" (expected all, none or a comma-separated list of ${TOKEN_CATEGORY_NAMES.join(', ')})`,
      );
  if (names.length === 0)
    throw new InvalidArgumentError(`expected all, none or a list of ${TOKEN_CATEGORY_NAMES.join(', ')}`);
  return [...new Set(names)];
}

/** `--category-probes` (demo and audit): CheckList-style probes of token categories over the audited texts. */
export function withCategoryProbesOption(c: Command): Command {
  return c.option(
    '--category-probes <list>',
    `token categories probed over the audited texts (CheckList invariance tests: how often removing or swapping them changes the prediction): all (default), none, or a list of ${TOKEN_CATEGORY_NAMES.join(', ')}; "leans on" when the removal-flip Wilson 95 % lower bound exceeds ${LEAN_THRESHOLD}`,
    categoryListArg,
  );
}

/** The token-category options of an audit (demo, audit): `--category-probes` and `--unrelated-categories`. */
export function withTokenCategoryOptions(c: Command): Command {
  return withUnrelatedCategoriesOption(withCategoryProbesOption(c));
}

/**
 * `--unrelated-categories` (demo, audit, label): the token categories TOKI counts as no reason for any class
 * (issue 47's rubric), each weighed as one reason (@xtrust/oracle LabelOptions.unrelatedCategories).
 */
export function withUnrelatedCategoriesOption(c: Command): Command {
  return c.option(
    '--unrelated-categories <list>',
    `token categories that are no reason for any class: a prediction resting on them (all of a text's tokens of one category weighed as one reason) is untrustworthy: all (default), none, or a list of ${TOKEN_CATEGORY_NAMES.join(', ')}`,
    categoryListArg,
  );
}

/** Parsed audit-setting flags. */
export interface AuditSettingFlags {
  trainSample: number;
  testSample: number;
  samples: number;
  topK: number;
  thetaDist?: number;
  thetaConf: number;
  oracle?: OracleName;
  seed: number;
  classNames?: Record<string, string>;
  classDescriptions?: string;
  embeddings?: EnsembleMemberName[];
  limeMode?: LimeMode;
  auditMode?: AuditMode;
  keywordMethod?: KeywordMethod;
  /** `--category-probes`: undefined for all categories, false for none, else the names (not part of AuditSettings: probes never change a run's checkpoints). */
  categoryProbes?: string[] | false;
  /** `--unrelated-categories`: undefined for the default (all), false for none, else the names (labelling only: not part of a run's key). */
  unrelatedCategories?: string[] | false;
}

/** The settings of an audit from its flags, `classNames` over `defaultClassNames`. */
export function auditSettings(flags: AuditSettingFlags, defaultClassNames: Record<string, string> = {}): AuditSettings {
  return {
    trainSample: flags.trainSample,
    testSample: flags.testSample,
    samples: flags.samples,
    topK: flags.topK,
    oracle: flags.oracle ?? AUDIT_DEFAULTS.oracle,
    thetaDist: flags.thetaDist ?? resolveOracle(flags.oracle ?? AUDIT_DEFAULTS.oracle).thetaDist,
    thetaConf: flags.thetaConf,
    seed: flags.seed,
    classNames: { ...defaultClassNames, ...(flags.classNames ?? {}) },
    ...(flags.classDescriptions !== undefined
      ? { classDescriptions: readClassDescriptions(flags.classDescriptions) }
      : {}),
    ensemble: flags.embeddings ?? AUDIT_DEFAULTS.embeddings,
    // always set, so a run directory's key names the mode and --resume never mixes modes: the --lime-mode
    // given, or --audit-mode's default (fast: adaptive); a pair that contradicts itself is a usage error
    limeMode: resolveLimeMode(flags.auditMode, flags.limeMode, flags.keywordMethod),
    auditMode: flags.auditMode ?? DEFAULT_AUDIT_MODE,
    // only when not LIME: a run directory from before the flag keeps its key and resumes
    ...(flags.keywordMethod !== undefined && flags.keywordMethod !== 'lime'
      ? { keywordMethod: flags.keywordMethod }
      : {}),
  };
}
