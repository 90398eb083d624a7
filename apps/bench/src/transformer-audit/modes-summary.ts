/**
 * Issue 49, item 5: a machine-readable summary of the audit modes — per mode its command, LIME mode, audit mode,
 * keyword method, measured fraction, hours (extrapolated to the paper's 2,000 + 1,000 and as measured), CPU hours,
 * labels equal to the exact audit's of those compared, keyword Jaccard per class against exact, exact LIME's own
 * seed-to-seed keyword Jaccard per class (the floor a mode is read against: `faithful`), and the host it ran on.
 *
 * Built from stored results only (no measurement): transformer-audit's summary.json.gz and runs/*.json.gz (the
 * runs' label digests, keyword sets and oracle configurations), keyword-pass.json.gz (its keyword passes — the
 * screening modes — and the `lime:<samples>@<seed>` pass whose Jaccard is exact's seed-to-seed agreement) and
 * keyword-pass's whole-audit records. Labels and Jaccard are computed by audit-table.ts's labelAgreement and
 * keywordJaccards, each run against the exact run of its own oracle configuration (exact-reference.ts), as the
 * transformer-audit section's audit table computes them. A figure the stored files do not hold is null, and the
 * mode's `notes` say why. modes-summary-cli.ts reads the files and writes the summary.
 */
import { keywordJaccards, labelAgreement } from './audit-table.js';
import { chooseReference, type ExactReference } from './exact-reference.js';
import type { PredictionDigest } from './predictions.js';

export const MODES_FORMAT = 'xtrust-transformer-audit-modes/1';

/** One sitting of a run as stored (transformer-audit's and keyword-pass/whole-audit.js's alike). */
export interface StoredSitting {
  readonly started?: string;
  readonly wall: number;
  readonly cpu: number;
  readonly finished: boolean;
  readonly machine?: string;
}

/** The part of transformer-audit's summary.json.gz read here. */
export interface AuditSummaryFile {
  readonly model: string;
  readonly fraction: number;
  readonly trainSample: number;
  readonly testSample: number;
  readonly samples: number;
  readonly runs: readonly {
    readonly name: string;
    readonly mode: string;
    readonly command: string;
    readonly wall: number;
    readonly cpu: number;
    readonly sittings?: readonly StoredSitting[];
    readonly explanations: number;
    readonly extrapolated: { readonly wall: number; readonly cpu: number };
  }[];
  readonly peer?: {
    readonly file: string;
    readonly seconds: number;
    readonly cpuSeconds: number;
    readonly words: number;
    readonly texts: number;
    readonly threads: number;
    readonly blas: string;
  } | null;
}

/** The part of a stored run (`runs/<name>.json.gz`) read here. */
export interface StoredAuditRun {
  readonly key: Record<string, unknown>;
  readonly measured: string;
  readonly result: {
    readonly files: {
      readonly predictions: readonly Pick<PredictionDigest, 'text' | 'predicted' | 'verdict'>[];
      readonly keywords?: Record<string, string[]>;
      readonly oracle?: Record<string, unknown>;
    };
  };
}

/** The part of keyword-pass.json.gz read here. */
export interface KeywordPassFile {
  readonly model: string;
  readonly trainSample: number;
  readonly testSample: number;
  readonly date?: string;
  readonly machine?: { readonly cpuModel: string; readonly cores: number; readonly vectorExtensions?: string };
  readonly reference: { readonly keywords: Record<string, string[]> };
  readonly passes: readonly {
    readonly name: string;
    readonly texts: number;
    readonly wall: number;
    readonly cpu: number;
    readonly keywords: Record<string, string[]>;
    readonly labelsEqual: number;
    readonly labelled: number;
    readonly verdict?: {
      readonly labelsEqual: number;
      readonly labelled: number;
      readonly wall: number;
      readonly cpu: number;
    };
  }[];
}

/** A whole fast audit's record (keyword-pass/whole-audit.js --record). */
export interface WholeAuditRecordFile {
  readonly command: string;
  readonly keywordMethod: string;
  readonly sittings: readonly StoredSitting[];
}

/** Everything the summary is built from; `file` names are what `generatedFrom` and `source` show. */
export interface ModesInput {
  readonly summary: { readonly file: string; readonly data: AuditSummaryFile };
  /** transformer-audit's stored runs by name (exact among them). */
  readonly runs: { readonly file: string; readonly name: string; readonly data: StoredAuditRun }[];
  /** Kept exact references (runs/exact-reference-<date>.json.gz). */
  readonly kept?: readonly { readonly file: string; readonly data: ExactReference }[];
  readonly keywordPass?: { readonly file: string; readonly data: KeywordPassFile };
  readonly whole?: readonly { readonly file: string; readonly data: WholeAuditRecordFile }[];
  /** The paper's scale the hours are extrapolated to (default 2,000 + 1,000). */
  readonly full?: { readonly train: number; readonly test: number };
}

export type PerClass = Record<string, number | null>;

export interface ModeSummary {
  readonly name: string;
  /** The stored file the mode's figures come from. */
  readonly source: string;
  /** The command as stored; null where the mode was measured in process (keyword-pass) and no command is stored. */
  readonly command: string | null;
  readonly limeMode: string | null;
  readonly auditMode: string | null;
  readonly keywordMethod: string | null;
  /** The share of 2,000 + 1,000 that was measured. */
  readonly measuredFraction: number | null;
  /** Wall hours: at 2,000 + 1,000 (extrapolated unless the whole was measured) and as measured. */
  readonly hours: { readonly extrapolated: number | null; readonly measured: number | null };
  readonly cpuHours: { readonly extrapolated: number | null; readonly measured: number | null };
  /** Whether `hours.extrapolated` is an extrapolation from a part. */
  readonly extrapolated: boolean;
  /** The keyword pass alone (keyword-pass's modes): its wall and CPU hours, measured and at 2,000 texts. */
  readonly keywordPassHours?: {
    readonly wall: { readonly extrapolated: number; readonly measured: number };
    readonly cpu: { readonly extrapolated: number; readonly measured: number };
  };
  readonly labelsEqual: number | null;
  readonly labelsCompared: number | null;
  /** Of the compared, those the exact run judged (trustworthy or untrustworthy), and how many this mode labels alike. */
  readonly labelsJudgedEqual: number | null;
  readonly labelsJudged: number | null;
  /** What the labels were compared on. */
  readonly labelsBasis: string | null;
  readonly keywordJaccard: PerClass | null;
  readonly exactSeedToSeed: PerClass;
  /** Keyword Jaccard at or above exact's seed-to-seed in every class: true; below in one: false; else null. */
  readonly faithful: boolean | null;
  /** The machines of the mode's sittings (distinct, in order, ' / ' between), or of the run that measured it. */
  readonly host: string | null;
  /** When it was measured (ISO time or date), as stored. */
  readonly measured: string | null;
  readonly notes: string[];
}

export interface ModesSummary {
  readonly format: string;
  readonly generatedFrom: string[];
  readonly model: string;
  readonly scale: { readonly train: number; readonly test: number; readonly samples: number };
  /** Exact LIME's seed-to-seed keyword Jaccard per class and where it comes from. */
  readonly exactSeedToSeed: { readonly perClass: PerClass; readonly source: string | null; readonly notes: string[] };
  readonly modes: ModeSummary[];
  readonly peer?: {
    readonly name: string;
    readonly source: string;
    readonly hours: { readonly extrapolated: number };
    readonly cpuHours: { readonly extrapolated: number };
    readonly explanations: number;
    readonly secondsPerExplanation: { readonly wall: number; readonly cpu: number };
    readonly host: null;
    readonly notes: string[];
  };
  readonly notes: string[];
}

/** `--name value` of a command line, or null. */
export function flagOf(command: string, name: string): string | null {
  return new RegExp(`(?:^|\\s)--${name}\\s+(\\S+)`).exec(command)?.[1] ?? null;
}

/** The distinct machines of sittings, in order (' / ' between); null when none recorded one. */
export function hostOf(sittings: readonly StoredSitting[] | undefined): string | null {
  const machines = [...new Set((sittings ?? []).map((s) => s.machine).filter((m): m is string => !!m))];
  return machines.length ? machines.join(' / ') : null;
}

/** keywordJaccards as `{ class: value }`. */
const perClass = (rows: { label: string; jaccard: number }[]): PerClass =>
  Object.fromEntries(rows.map((r) => [r.label, r.jaccard]));

/**
 * Whether a mode's keyword sets are as close to exact's as exact LIME is to itself under another seed: false when
 * one class is below the floor, true when every class of the floor is at or above it, null when a figure is missing.
 */
export function faithfulness(keywords: PerClass | null, floor: PerClass): boolean | null {
  const classes = Object.keys(floor);
  if (!keywords || classes.length === 0) return null;
  let unknown = false;
  for (const c of classes) {
    const k = keywords[c];
    const f = floor[c];
    if (k === null || k === undefined || f === null) unknown = true;
    else if (k < f) return false;
  }
  return unknown ? null : true;
}

const hoursOf = (seconds: number) => seconds / 3600;
const SEED_PASS = /^lime:(\d+)@(\d+)$/;

/** Exact LIME's seed-to-seed keyword Jaccard per class: keyword-pass's `lime:<samples>@<seed>` pass against its reference. */
function seedToSeed(
  input: ModesInput,
  exactKeywords: Record<string, string[]> | undefined,
): ModesSummary['exactSeedToSeed'] {
  const s = input.summary.data;
  const classes = [
    ...new Set([...Object.keys(exactKeywords ?? {}), ...Object.keys(input.keywordPass?.data.reference.keywords ?? {})]),
  ].sort();
  const none = (why: string) => ({
    perClass: Object.fromEntries(classes.map((c) => [c, null])),
    source: null,
    notes: [why],
  });
  const kp = input.keywordPass;
  if (!kp) return none('no keyword-pass results: exact LIME with another seed was not measured');
  if (kp.data.model !== s.model || kp.data.trainSample !== s.trainSample || kp.data.testSample !== s.testSample)
    return none(
      `keyword-pass's results are of ${kp.data.model} at ${kp.data.trainSample} + ${kp.data.testSample}, not of the exact run's ${s.model} at ${s.trainSample} + ${s.testSample}`,
    );
  const pass = kp.data.passes.find((p) => Number(SEED_PASS.exec(p.name)?.[1]) === s.samples);
  if (!pass)
    return none(
      `${kp.file} has no lime:${s.samples}@<seed> pass (exact LIME at ${s.samples} samples with another seed)`,
    );
  const notes = [
    `${kp.file}, pass ${pass.name}: exact LIME at ${s.samples} samples with seed ${SEED_PASS.exec(pass.name)![2]} on the exact run's ${pass.texts} keyword texts, its keyword sets against keyword-pass's reference (the exact run's own explanations, seed 0, relabelled with its oracle)`,
  ];
  const ref = kp.data.reference.keywords;
  const out: PerClass = {};
  const jaccards = perClass(keywordJaccards(ref, pass.keywords));
  for (const c of classes) {
    if (!(c in ref) || !(c in pass.keywords)) {
      out[c] = null;
      notes.push(`class ${c}: not in ${!(c in ref) ? "keyword-pass's reference" : `the ${pass.name} pass`}`);
    } else out[c] = jaccards[c];
  }
  if (exactKeywords) {
    const differ = classes.filter((c) => {
      const a = new Set(exactKeywords[c] ?? []);
      const b = new Set(ref[c] ?? []);
      return a.size !== b.size || [...a].some((w) => !b.has(w));
    });
    notes.push(
      differ.length === 0
        ? "keyword-pass's reference keyword sets equal the exact run's keywords.json in every class, so this floor and the modes' Jaccard share one reference"
        : `keyword-pass's reference differs from the exact run's keywords.json in ${differ.join(', ')}: the floor is against another reference than the modes' Jaccard`,
    );
  }
  return { perClass: out, source: `${kp.file}#${pass.name}`, notes };
}

/** Builds the summary (pure: reads nothing, writes nothing). */
export function buildModesSummary(input: ModesInput): ModesSummary {
  const s = input.summary.data;
  const full = input.full ?? { train: 2000, test: 1000 };
  const notes: string[] = [];
  const exactRun = input.runs.find((r) => r.name === 'exact');
  const exactFiles = exactRun?.data.result.files;
  const floor = seedToSeed(input, exactFiles?.keywords);
  // the exact run as exact-reference.ts's slimReference keeps it: what every other run is read against
  const current: ExactReference | null =
    exactRun && exactFiles
      ? {
          measured: exactRun.data.measured,
          key: exactRun.data.key,
          ...(exactFiles.oracle ? { oracle: exactFiles.oracle } : {}),
          ...(exactFiles.keywords ? { keywords: exactFiles.keywords } : {}),
          predictions: exactFiles.predictions,
        }
      : null;
  const kept = (input.kept ?? []).map((k) => k.data);
  if (!exactRun) notes.push('no stored exact run: labels and keyword Jaccard against exact are null throughout');

  const modes: ModeSummary[] = [];
  // ------------------------------------------------ transformer-audit's runs
  for (const r of s.runs) {
    const stored = input.runs.find((x) => x.name === r.name);
    const modeNotes: string[] = [];
    const auditMode = flagOf(r.command, 'audit-mode') ?? 'exact';
    const keywordMethod = flagOf(r.command, 'keyword-method') ?? 'lime';
    const limeMode = flagOf(r.command, 'lime-mode');
    if (auditMode === 'fast' && keywordMethod === 'lime' && limeMode && !limeMode.includes('adaptive'))
      modeNotes.push(
        `the stored command's --lime-mode ${limeMode} under --audit-mode fast ran as ${limeMode === 'exact' ? 'adaptive' : `${limeMode}+adaptive`} (fast's keyword pass is adaptive; the CLI of the time rewrote it, today's is given the adaptive name: run.ts's cliLimeMode)`,
      );
    if (r.command.includes('--queue'))
      modeNotes.push('through --queue with xtrust worker processes on the same machine; CPU counts the workers');
    let labels: Pick<
      ModeSummary,
      'labelsEqual' | 'labelsCompared' | 'labelsJudgedEqual' | 'labelsJudged' | 'labelsBasis'
    > = {
      labelsEqual: null,
      labelsCompared: null,
      labelsJudgedEqual: null,
      labelsJudged: null,
      labelsBasis: null,
    };
    let keywordJaccard: PerClass | null = null;
    if (r.name === 'exact') modeNotes.push('the reference: labels and keyword Jaccard are against this run');
    else if (!stored)
      modeNotes.push(`no runs/${r.name}.json.gz: labels and keyword Jaccard need its stored predictions and keywords`);
    else if (current) {
      const files = stored.data.result.files;
      const choice = chooseReference(files.oracle, current, kept);
      const a = labelAgreement(choice.reference.predictions, files.predictions);
      labels = {
        labelsEqual: a.equal,
        labelsCompared: a.shared,
        labelsJudgedEqual: a.judgedEqual,
        labelsJudged: a.judged,
        labelsBasis: `the ${a.shared} test predictions both runs made (by text), against the exact run of ${choice.reference.measured.slice(0, 10)}`,
      };
      if (choice.caveat) modeNotes.push(choice.caveat);
      if (choice.reference.keywords && files.keywords)
        keywordJaccard = perClass(keywordJaccards(choice.reference.keywords, files.keywords));
      else
        modeNotes.push(
          `keyword Jaccard: ${files.keywords ? "the exact run's" : "this run's"} keyword sets are not stored`,
        );
    }
    const fraction = s.fraction;
    modes.push({
      name: r.name,
      source: stored ? `${input.summary.file} + ${stored.file}` : input.summary.file,
      command: r.command,
      limeMode,
      auditMode,
      keywordMethod,
      measuredFraction: fraction,
      hours: { extrapolated: hoursOf(r.extrapolated.wall), measured: hoursOf(r.wall) },
      cpuHours: { extrapolated: hoursOf(r.extrapolated.cpu), measured: hoursOf(r.cpu) },
      extrapolated: fraction < 1,
      ...labels,
      keywordJaccard,
      exactSeedToSeed: floor.perClass,
      faithful: faithfulness(keywordJaccard, floor.perClass),
      host: hostOf(r.sittings),
      measured: stored?.data.measured ?? null,
      notes: [
        ...(hostOf(r.sittings) === null ? ['host: no sitting recorded its machine'] : []),
        ...((r.sittings?.length ?? 1) > 1 ? [`${r.sittings!.length} sittings; hours are their sums`] : []),
        ...modeNotes,
      ],
    });
  }

  // ------------------------------------------------ keyword-pass's passes: the keyword pass on the exact run's texts, in process
  const kp = input.keywordPass;
  const sameModel = kp && kp.data.model === s.model;
  if (kp && !sameModel) notes.push(`${kp.file} is of ${kp.data.model}, not ${s.model}: its passes are left out`);
  if (kp && sameModel) {
    const k = kp.data;
    const scaleTrain = full.train / k.trainSample;
    const scaleTest = full.test / k.testSample;
    const m = k.machine;
    const host = m ? `${m.cpuModel}${m.vectorExtensions ? ` (${m.vectorExtensions})` : ''}, ${m.cores} cores` : null;
    for (const p of k.passes) {
      if (SEED_PASS.test(p.name)) continue; // exact LIME with another seed: the floor, not a mode
      const v = p.verdict;
      const keywordJaccard = perClass(keywordJaccards(k.reference.keywords, p.keywords));
      modes.push({
        name: `keyword-pass ${p.name}`,
        source: kp.file,
        command: null,
        limeMode: null,
        auditMode: v ? 'fast' : null,
        keywordMethod: p.name,
        measuredFraction: scaleTrain === scaleTest ? 1 / scaleTrain : null,
        hours: v
          ? { extrapolated: hoursOf(p.wall * scaleTrain + v.wall * scaleTest), measured: hoursOf(p.wall + v.wall) }
          : { extrapolated: null, measured: null },
        cpuHours: v
          ? { extrapolated: hoursOf(p.cpu * scaleTrain + v.cpu * scaleTest), measured: hoursOf(p.cpu + v.cpu) }
          : { extrapolated: null, measured: null },
        extrapolated: scaleTrain > 1 || scaleTest > 1,
        keywordPassHours: {
          wall: { extrapolated: hoursOf(p.wall * scaleTrain), measured: hoursOf(p.wall) },
          cpu: { extrapolated: hoursOf(p.cpu * scaleTrain), measured: hoursOf(p.cpu) },
        },
        labelsEqual: v ? v.labelsEqual : p.labelsEqual,
        labelsCompared: v ? v.labelled : p.labelled,
        labelsJudgedEqual: null,
        labelsJudged: null,
        labelsBasis: v
          ? "a fast audit's labels (this pass's store, predictions explained again by verdict-aware LIME) on the exact run's correctly predicted test texts, against the reference store's"
          : "the exact run's stored LIME explanations of its correctly predicted test texts labelled with this pass's store, against the reference store's: the keyword pass's effect alone",
        keywordJaccard,
        exactSeedToSeed: floor.perClass,
        faithful: faithfulness(keywordJaccard, floor.perClass),
        host,
        measured: k.date ?? null,
        notes: [
          `measured in process by keyword-pass/run.js on the exact run's ${p.texts} keyword texts (no CLI command is stored; --lime-mode does not apply: the model is loaded in float32)`,
          ...(v
            ? ["hours: keyword pass + verdict-aware labelling, without the CLI's start-up, clustering and report"]
            : [
                'hours: no whole-audit labelling was measured for this pass (not among --verdict-passes), so only keywordPassHours',
              ]),
          'labels: keyword-pass stores counts, not each prediction, so labelsJudged is null',
          "keyword Jaccard against keyword-pass's reference (the exact run's explanations relabelled with its oracle)",
          `host: ${kp.file}'s machine, that of the last keyword-pass invocation; a pass reused from an earlier one may have run elsewhere`,
        ],
      });
    }
  }

  // ------------------------------------------------ keyword-pass's whole fast audits through the CLI
  for (const w of input.whole ?? []) {
    const model = flagOf(w.data.command, 'model');
    if (model !== s.model) {
      notes.push(`${w.file}: a whole audit of ${model ?? 'another model'}, not ${s.model}: left out`);
      continue;
    }
    const finished = w.data.sittings.at(-1)?.finished === true;
    if (!finished) {
      notes.push(`${w.file}: its last sitting did not finish: left out`);
      continue;
    }
    const train = Number(flagOf(w.data.command, 'train-sample'));
    const test = Number(flagOf(w.data.command, 'test-sample'));
    const scale = Math.max(full.train / train, full.test / test);
    const wall = w.data.sittings.reduce((a, x) => a + x.wall, 0);
    const cpu = w.data.sittings.reduce((a, x) => a + x.cpu, 0);
    const pass = kp && sameModel ? kp.data.passes.find((p) => p.name === w.data.keywordMethod) : undefined;
    const keywordJaccard = pass && kp ? perClass(keywordJaccards(kp.data.reference.keywords, pass.keywords)) : null;
    const limeMode = flagOf(w.data.command, 'lime-mode');
    modes.push({
      name: `whole fast, ${w.data.keywordMethod} keyword pass`,
      source: w.file,
      command: w.data.command,
      limeMode,
      auditMode: flagOf(w.data.command, 'audit-mode') ?? 'exact',
      keywordMethod: flagOf(w.data.command, 'keyword-method') ?? 'lime',
      measuredFraction: Number.isFinite(scale) && scale > 0 ? 1 / scale : null,
      hours: { extrapolated: hoursOf(wall * scale), measured: hoursOf(wall) },
      cpuHours: { extrapolated: hoursOf(cpu * scale), measured: hoursOf(cpu) },
      extrapolated: scale > 1,
      labelsEqual: null,
      labelsCompared: null,
      labelsJudgedEqual: null,
      labelsJudged: null,
      labelsBasis: null,
      keywordJaccard,
      exactSeedToSeed: floor.perClass,
      faithful: faithfulness(keywordJaccard, floor.perClass),
      host: hostOf(w.data.sittings),
      measured: w.data.sittings[0]?.started ?? null,
      notes: [
        `labels: ${kp?.file ?? 'keyword-pass.json.gz'} holds no \`whole\` entry (its last invocation was made without --whole), and the comparison needs this run's directory, which is not committed`,
        ...(keywordJaccard
          ? [
              `keyword Jaccard: the ${w.data.keywordMethod} pass on the exact run's ${kp?.data.trainSample} keyword texts sampled (${kp?.file}), as the audit table reads it: this run's own store, built from ${train} texts, is not stored`,
            ]
          : [`keyword Jaccard: no ${w.data.keywordMethod} pass in keyword-pass's results`]),
        ...(limeMode === null ? ["limeMode: not on the command line (the CLI's default)"] : []),
        ...(w.data.sittings.length > 1 ? [`${w.data.sittings.length} sittings; hours are their sums`] : []),
      ],
    });
  }

  // ------------------------------------------------ the peer: Python lime + PyTorch, explanations alone
  const exactSummary = s.runs.find((r) => r.name === 'exact');
  const peer =
    s.peer && exactSummary
      ? {
          name: 'peer: Python lime + PyTorch',
          source: `${input.summary.file}#peer (${s.peer.file})`,
          hours: { extrapolated: hoursOf((s.peer.seconds * exactSummary.explanations) / s.fraction) },
          cpuHours: { extrapolated: hoursOf((s.peer.cpuSeconds * exactSummary.explanations) / s.fraction) },
          explanations: exactSummary.explanations / s.fraction,
          secondsPerExplanation: { wall: s.peer.seconds, cpu: s.peer.cpuSeconds },
          host: null,
          notes: [
            `the explanations alone: its seconds per explanation at LIME ${s.samples} (${s.peer.words} words, ${s.peer.texts} texts, ${s.peer.threads} threads) × the exact audit's ${exactSummary.explanations} explanations ÷ ${s.fraction}`,
            `host: not recorded in the peer's stored figures (BLAS ${s.peer.blas})`,
            'no labels or keyword sets: the peer computes LIME explanations, not an audit',
          ],
        }
      : undefined;
  if (!s.peer) notes.push('no peer figures in the summary');

  const generatedFrom = [
    input.summary.file,
    ...input.runs.map((r) => r.file),
    ...(input.kept ?? []).map((k) => k.file),
    ...(kp ? [kp.file] : []),
    ...(input.whole ?? []).map((w) => w.file),
  ];
  return {
    format: MODES_FORMAT,
    generatedFrom: [...new Set(generatedFrom)],
    model: s.model,
    scale: { train: full.train, test: full.test, samples: s.samples },
    exactSeedToSeed: floor,
    modes,
    ...(peer ? { peer } : {}),
    notes: [
      `hours.extrapolated: at ${full.train} + ${full.test}; transformer-audit's runs as its summary stores them (fixed + (measured − fixed) ÷ fraction), keyword-pass's as it renders them (pass × ${full.train} ÷ keyword texts sampled + labelling × ${full.test} ÷ predictions sampled)`,
      "faithful: keyword Jaccard at or above exact LIME's own seed-to-seed Jaccard in every class (true), below in one (false), null when a figure is missing; the exact run itself is the reference (null)",
      "hours compare across modes only on the same CPU: see each mode's host",
      ...notes,
    ],
  };
}
