/**
 * Markdown of the shortcut benchmark family: per case, the ground-truth counts of issue 14's
 * definition, Table 3 with G-mean intervals and the keyword / trigger report; for the family, one row
 * per case. Every figure printed comes from a scored case (≥ the minimum per side); a case below it
 * is printed as "too small", with its counts and no metric.
 */
import { nearestRankQuantile } from '@xtrust/metrics';
import type { CaseResult, ScoredRow } from './evaluate-case.js';
import { leadOracle, type ShortcutOptions } from './family-options.js';
import { DEFAULT_ENCODER, shownPath, type KitBertInfo } from './kit-bert.js';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const int = (n: number) => n.toLocaleString('en-US');

/** `0.812 [0.771, 0.850]` */
export function withCI(r: Pick<ScoredRow, 'metrics' | 'gmeanCI'>): string {
  return `${f3(r.metrics.gmean)} [${f3(r.gmeanCI.lo)}, ${f3(r.gmeanCI.hi)}]`;
}

/** The ambiguous counts by reason, e.g. "survives-but-spurious-alone-suffices 50, nothing-left 2". */
export function ambiguousText(c: CaseResult): string {
  const r = Object.entries(c.counts.ambiguous.reasons);
  return r.length ? r.map(([k, v]) => `${k} ${int(v)}`).join(', ') : 'none';
}

/** Trigger column of the tables: the trigger and its kind, or the headers. */
function triggerCell(c: CaseResult): string {
  if (c.mode === 'headers') return 'header block';
  // a category case plants nothing: its "trigger" is every token of the category, on any class
  if (c.spec.set === 'category') return `category: ${c.spec.category} (unplanted)`;
  return `"${c.spec.trigger}"${c.spec.triggerKind ? ` (${c.spec.triggerKind})` : ''} → ${c.spec.target}`;
}

/** The planted share of a case, or a dash where nothing is planted (the header corpus, a category case). */
function shareCell(c: CaseResult): string {
  return c.mode === 'headers' || c.spec.set === 'category' ? '—' : String(c.spec.share);
}

/** The counts of the ground truth, in words. */
export function countsText(c: CaseResult, minPerSide: number): string {
  const k = c.counts;
  const lines = [
    `Ground truth (issue 14's definition) on ${int(k.rows)} test-pool texts: **${int(k.trustworthy)} trustworthy**, **${int(k.untrustworthy)} untrustworthy**, ${int(k.ambiguous.count)} ambiguous (${ambiguousText(c)}), ${int(k.incorrect)} incorrect predictions.`,
  ];
  if (c.spuriousAlone)
    lines.push(`The trigger alone ("${c.spuriousAlone.text}") is classified ${c.spuriousAlone.predicted}.`);
  const pre = Object.entries(c.preexisting).filter(([, n]) => n > 0);
  if (pre.length)
    lines.push(`Texts holding the trigger before planting: ${pre.map(([l, n]) => `${l} ${n}`).join(', ')}.`);
  if (c.attempts.length > 1)
    lines.push(
      `Test fractions tried: ${c.attempts.map((a) => `${a.testFraction} → ${a.trustworthy}/${a.untrustworthy}`).join('; ')}.`,
    );
  if (c.status === 'too small') {
    lines.push(
      `**Too small — not scored**: fewer than ${minPerSide} ${k.trustworthy < minPerSide ? 'trustworthy' : 'untrustworthy'} correct predictions even at test fraction ${c.testFraction}.`,
    );
  } else {
    lines.push(
      `Scored: ${int(c.scored!.trustworthy)} trustworthy + ${int(c.scored!.untrustworthy)} untrustworthy predictions (a seeded sample of each side); G-mean intervals: percentile bootstrap, 1,000 resamples of these predictions.`,
    );
  }
  return lines.join('  \n');
}

/** Table 3 of a scored case, G-mean with its 95 % interval. */
export function table3(c: CaseResult): string {
  const out = [
    '| Method | Oracle | Acc | Pre | Sen | F1 | Spec | G-mean [95 % CI] | Unknown |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const r of c.rows) {
    const m = r.metrics;
    out.push(
      `| ${r.method} | ${r.oracle ?? '—'} | ${f3(m.accuracy)} | ${f3(m.precision)} | ${f3(m.sensitivity)} | ${f3(m.f1)} | ${f3(m.specificity)} | ${withCI(r)} | ${r.unknown || ''} |`,
    );
  }
  return out.join('\n');
}

/** Keyword share of each class's pool and where the trigger went, per configuration and explainer. */
export function keywordTable(c: CaseResult): string {
  const out: string[] = [];
  for (const k of c.keywords) {
    out.push(`Keywords (${k.oracle}, ${k.explainer}; identification ${k.keywordSeconds.toFixed(0)} s):`, '');
    out.push(
      '| class | pool | keywords | keyword share | trigger | first keywords |',
      '| --- | ---: | ---: | ---: | --- | --- |',
    );
    for (const cl of k.classes) {
      const trig =
        Object.entries(cl.trigger)
          .map(([w, p]) => `${w}: ${p}`)
          .join(', ') || '—';
      out.push(
        `| ${cl.label} | ${cl.pool} | ${cl.keywords} | ${(100 * cl.share).toFixed(0)} % | ${trig} | ${cl.top.join(' ')} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

const secs = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');

/** The fine-tuned transformer of a case (--model kit-bert), in words. */
export function transformerText(t: KitBertInfo): string {
  return (
    `Fine-tuned from ${t.encoder} (${t.size}) by models/transformers/finetune.py: ${t.epochs} epoch${t.epochs === 1 ? '' : 's'}, epoch ${t.bestEpoch} kept (validation accuracy ${f3(t.validationAccuracy)} on ${int(t.rows.validation)} texts); ` +
    `${int(t.rows.train)} training texts, ${int(t.truncated.train)} of them cut at ${t.maxLength} word pieces; fine-tuning ${secs(t.seconds)} s${t.cached ? ' (folder reused from the cache)' : ''}; folder ${t.folder}.`
  );
}

/** One row per case of a transformer run: the model's figures beside the ground-truth counts. */
export function transformerTable(cases: readonly CaseResult[]): string {
  const head = [
    '#',
    'case',
    'pool accuracy',
    'validation accuracy (epoch kept / epochs)',
    'training texts (cut at the position limit)',
    'fine-tuning wall s (where)',
    'trustworthy / untrustworthy (ambiguous)',
    'status',
  ];
  const out = [`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i === 0 ? '---:' : '---')).join(' | ')} |`];
  cases.forEach((c, i) => {
    const t = c.transformer;
    const k = c.counts;
    out.push(
      `| ${[
        String(i + 1),
        c.name,
        f3(c.poolAccuracy),
        t ? `${f3(t.validationAccuracy)} (${t.bestEpoch} / ${t.epochs})` : '—',
        t ? `${int(t.rows.train)} (${int(t.truncated.train)} cut at ${t.maxLength} pieces)` : '—',
        // older results have no trainedOn: they were all fine-tuned here
        t ? `${secs(t.seconds)} (${t.trainedOn ?? 'cpu'})` : '—',
        `${int(k.trustworthy)} / ${int(k.untrustworthy)} (${int(k.ambiguous.count)})`,
        c.status === 'scored' ? `scored (${c.scored!.trustworthy}+${c.scored!.untrustworthy})` : '**too small**',
      ].join(' | ')} |`,
    );
  });
  return out.join('\n');
}

/** The whole report of one case. */
export function caseMarkdown(c: CaseResult, index: number, minPerSide: number, detail?: readonly string[]): string {
  const head = `### Case ${index}: ${c.name}`;
  const what = `${c.note}. Model ${c.model}, accuracy ${f3(c.poolAccuracy)} on the test pool (test fraction ${c.testFraction}).${c.transformer ? ` ${transformerText(c.transformer)}` : ''}`;
  const parts = [head, '', what, '', countsText(c, minPerSide), ''];
  // with `detail`, the per-case tables show those configurations (and Naive); the family tables show every one
  const shown = detail
    ? {
        ...c,
        rows: c.rows.filter((r) => !r.oracle || detail.includes(r.oracle)),
        keywords: c.keywords.filter((k) => detail.includes(k.oracle)),
      }
    : c;
  if (c.status === 'scored') parts.push(table3(shown), '', keywordTable(shown));
  return parts.join('\n');
}

const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 1e4) / 1e4 : x);

/**
 * A case as committed for a drawn family: every configuration's Table 3 row with its interval (4 decimals);
 * –K.I rows, the first keywords and what the wrong verdicts rest on only for the `detail` configurations;
 * where the trigger went and the surface-token check's figures for all. The full results file of a run keeps
 * everything and is regenerated.
 */
export function compactCase(c: CaseResult, detail: readonly string[]): CaseResult {
  const inDetail = (oracle: string | undefined) => oracle === undefined || detail.includes(oracle);
  const rows = c.rows
    .filter((r) => !r.method.includes('K.I') || inDetail(r.oracle))
    .map((r) => {
      // the other configurations keep what the family tables read: G-mean, sensitivity, specificity
      const keep = inDetail(r.oracle)
        ? (k: string) => k !== 'confusion'
        : (k: string) => k === 'gmean' || k === 'sensitivity' || k === 'specificity';
      // what the wrong verdicts rest on is read for the detailed configurations only
      const { errors, ...rest } = r;
      return {
        ...rest,
        ...(errors && inDetail(r.oracle) ? { errors } : {}),
        metrics: Object.fromEntries(
          Object.entries(r.metrics)
            .filter(([k]) => keep(k))
            .map(([k, v]) => [k, typeof v === 'number' ? round(v) : v]),
        ) as unknown as ScoredRow['metrics'],
        gmeanCI: { lo: round(r.gmeanCI.lo), hi: round(r.gmeanCI.hi) },
      };
    });
  // the other configurations' keyword reports shrink to what the summaries read: the words the check took out and its cost
  const checks: Record<string, { demoted: number; modelTexts: number; seconds: number }> = {};
  for (const k of c.keywords) {
    if (detail.includes(k.oracle) || !k.tokenCheckCost) continue;
    checks[k.oracle] = {
      demoted: k.classes.reduce((a, cl) => a + (cl.tokenCheck?.demoted ?? 0), 0),
      modelTexts: k.tokenCheckCost.modelTexts,
      seconds: round(k.tokenCheckCost.seconds),
    };
  }
  const keywords = c.keywords
    .filter((k) => detail.includes(k.oracle))
    .map((k) => ({
      ...k,
      keywordSeconds: round(k.keywordSeconds),
      classes: k.classes.map((cl) => ({ ...cl, share: round(cl.share) })),
    }));
  return { ...c, rows, keywords, ...(Object.keys(checks).length ? { checks } : {}), seconds: round(c.seconds) };
}

/** TOKI rows of the family table: one column per configuration and explainer, in the order of the first scored case. */
function tokiColumns(cases: readonly CaseResult[]): { method: string; oracle: string }[] {
  const first = cases.find((c) => c.status === 'scored');
  return first
    ? first.rows
        .filter((r) => r.oracle && !r.method.includes('K.I'))
        .map((r) => ({ method: r.method, oracle: r.oracle! }))
    : [];
}

/** One row per case: corpus, trigger, share, words, counts, TOKI and Naive G-mean with intervals, status. */
export function familyTable(cases: readonly CaseResult[]): string {
  const cols = tokiColumns(cases);
  const head = [
    '#',
    'corpus',
    'trigger → target',
    'share',
    'words',
    'trustworthy / untrustworthy (ambiguous)',
    ...cols.map((c) => `${c.method} [${c.oracle}] G-mean [95 % CI]`),
    'Naive (θ=0.9) G-mean [95 % CI]',
    'status',
  ];
  const out = [
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, i) => (i === 0 || i === 3 ? '---:' : '---')).join(' | ')} |`,
  ];
  cases.forEach((c, i) => {
    const k = c.counts;
    const cells = [
      String(i + 1),
      c.spec.corpus,
      triggerCell(c),
      shareCell(c),
      String(c.spec.words),
      `${int(k.trustworthy)} / ${int(k.untrustworthy)} (${int(k.ambiguous.count)})`,
      ...cols.map((col) => {
        const r = c.rows.find((x) => x.method === col.method && x.oracle === col.oracle);
        return r ? withCI(r) : '—';
      }),
      (() => {
        const r = c.rows.find((x) => x.method.startsWith('Naive (θ='));
        return r ? withCI(r) : '—';
      })(),
      c.status === 'scored' ? `scored (${c.scored!.trustworthy}+${c.scored!.untrustworthy})` : '**too small**',
    ];
    out.push(`| ${cells.join(' | ')} |`);
  });
  return out.join('\n');
}

/** The frequency band a drawn case's trigger came from (family-draw.ts), if it is a drawn case. */
export function bandOf(c: CaseResult): string | undefined {
  return (c.spec as { band?: string }).band;
}

const quantile = (xs: readonly number[], q: number) => (xs.length ? nearestRankQuantile(xs, q) : NaN);

/** Seeded percentile-bootstrap 95 % interval of the median over cases (the cases resampled). */
function medianInterval(xs: readonly number[], seed: number, resamples = 2000): [number, number] {
  if (xs.length === 0) return [NaN, NaN];
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const meds: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const draw = Array.from(xs, () => xs[Math.floor(next() * xs.length)]).sort((a, c) => a - c);
    meds.push(quantile(draw, 0.5));
  }
  meds.sort((a, c) => a - c);
  return [quantile(meds, 0.025), quantile(meds, 0.975)];
}

/** A group of cases the band summary reports together. */
interface BandGroup {
  readonly name: string;
  readonly holds: (c: CaseResult) => boolean;
}

const inBands =
  (...bands: string[]) =>
  (c: CaseResult) =>
    bands.includes(bandOf(c) ?? '');

/** Band groups of the single-word drawn family: each band, and the issue's three target groups. */
const BAND_GROUPS: readonly BandGroup[] = [
  { name: 'everyday (single word)', holds: inBands('everyday') },
  { name: 'everyday (two-word phrase)', holds: inBands('phrase') },
  { name: 'mid', holds: inBands('mid') },
  { name: 'rare', holds: inBands('rare') },
  { name: 'absent', holds: inBands('absent') },
  { name: '**everyday + phrase**', holds: inBands('everyday', 'phrase') },
  { name: '**rare + absent**', holds: inBands('rare', 'absent') },
  { name: '**all bands**', holds: inBands('everyday', 'phrase', 'mid', 'rare', 'absent') },
];

/** The natural-shortcut kind of a family's cases (issue 48: phrase, scattered or category), or undefined for a drawn family. */
function naturalSet(cases: readonly CaseResult[]): CaseResult['spec']['set'] {
  return cases.find((c) => c.spec.set)?.spec.set;
}

/** The scattered family's groups: the band its words were drawn from, then all sets. */
const SCATTERED_BANDS = [
  ['everyday', 'scattered set of everyday words'],
  ['mid', 'scattered set of mid-band words'],
  ['rare', 'scattered set of rare words'],
] as const;

/**
 * The groups of a family's band summary. The natural families (issue 48) reuse the drawn family's band
 * names for other things — a boilerplate phrase is drawn in band "phrase", a scattered set's words in
 * "everyday", "mid" or "rare", a category case in "category" — so they are named for what they hold, and a
 * category family is grouped by category. A family holds one kind of case (family-draw.ts).
 */
function bandGroups(cases: readonly CaseResult[]): readonly BandGroup[] {
  const all = (name: string): BandGroup => ({ name, holds: () => true });
  switch (naturalSet(cases)) {
    case 'phrase':
      return [all('boilerplate phrase')];
    case 'scattered':
      return [
        ...SCATTERED_BANDS.map(([band, name]) => ({ name, holds: inBands(band) })),
        all('**all scattered sets**'),
      ];
    case 'category': {
      const categories = [...new Set(cases.map((c) => c.spec.category ?? ''))].filter((x) => x).sort();
      return [
        ...categories.map((k) => ({ name: `category: ${k}`, holds: (c: CaseResult) => c.spec.category === k })),
        all('**all categories**'),
      ];
    }
    default:
      return BAND_GROUPS;
  }
}

/**
 * Per band and oracle column of a drawn family: draws, scored cases, the G-mean's median over scored cases
 * with a bootstrap 95 % interval (cases resampled), its 10th percentile and minimum, the share of cases at
 * ≥ 0.85, and — on cases where Naive (θ 0.9) is below 0.8 — in how many TOKI's interval lies wholly above
 * Naive's.
 */
export function bandSummary(cases: readonly CaseResult[]): string {
  const cols = [
    ...tokiColumns(cases).map((c) => ({
      label: `${c.method} [${c.oracle}]`,
      pick: (r: ScoredRow) => r.method === c.method && r.oracle === c.oracle,
    })),
    { label: 'Naive (θ=0.9)', pick: (r: ScoredRow) => r.method.startsWith('Naive (θ=') },
  ];
  const naive = (c: CaseResult) => c.rows.find((r) => r.method.startsWith('Naive (θ='));
  const out = [
    '| band | oracle | draws (scored) | median G-mean [95 % CI over cases] | 10th pct | min | ≥ 0.85 | above Naive where Naive < 0.8 (non-overlapping CIs) |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | --- |',
  ];
  for (const g of bandGroups(cases)) {
    const inBand = cases.filter(g.holds);
    if (inBand.length === 0) continue;
    const scored = inBand.filter((c) => c.status === 'scored');
    if (scored.length === 0) {
      out.push(`| ${g.name} | every configuration | ${inBand.length} (0) | — | — | — | — | — |`);
      continue;
    }
    for (const col of cols) {
      const rows = scored.map((c) => ({ c, r: c.rows.find(col.pick) })).filter((x) => x.r !== undefined) as {
        c: CaseResult;
        r: ScoredRow;
      }[];
      const gm = rows.map((x) => x.r.metrics.gmean).sort((a, b) => a - b);
      const [lo, hi] = medianInterval(gm, 29);
      const weak = rows.filter((x) => naive(x.c)!.metrics.gmean < 0.8);
      const above = weak.filter((x) => x.r.gmeanCI.lo > naive(x.c)!.gmeanCI.hi).length;
      const isNaive = col.label.startsWith('Naive');
      out.push(
        `| ${g.name} | ${col.label} | ${inBand.length} (${scored.length}) | ${gm.length ? `${f3(quantile(gm, 0.5))} [${f3(lo)}, ${f3(hi)}]` : '—'} | ${f3(quantile(gm, 0.1))} | ${f3(gm[0] ?? NaN)} | ${gm.length ? `${gm.filter((x) => x >= 0.85).length} / ${gm.length}` : '—'} | ${isNaive ? '—' : `${above} / ${weak.length}`} |`,
      );
    }
  }
  return out.join('\n');
}

/**
 * One row per oracle configuration over every scored case: how many at G-mean ≥ 0.85, the minimum, 10th
 * percentile and median, the words the surface-token check took out of keyword sets (summed over cases and
 * classes) and its cost (texts scored by the model and seconds, per case, inside keyword identification).
 */
export function configurationSummary(cases: readonly CaseResult[]): string {
  const scored = cases.filter((c) => c.status === 'scored');
  const out = [
    '| configuration | scored | ≥ 0.85 | min | 10th pct | median | words taken out by the check | check cost per case (texts scored, s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const col of tokiColumns(cases)) {
    const gm = scored
      .map((c) => c.rows.find((r) => r.method === col.method && r.oracle === col.oracle)?.metrics.gmean)
      .filter((x): x is number => x !== undefined)
      .sort((a, b) => a - b);
    // a full report, or the compact file's per-configuration figures (compactCase)
    const figures = scored
      .map((c) => {
        const k = c.keywords.find((x) => x.oracle === col.oracle);
        if (k?.tokenCheckCost)
          return { demoted: k.classes.reduce((b, cl) => b + (cl.tokenCheck?.demoted ?? 0), 0), ...k.tokenCheckCost };
        return c.checks?.[col.oracle];
      })
      .filter((x) => x !== undefined);
    const demoted = figures.reduce((a, x) => a + x!.demoted, 0);
    const costs = figures;
    const cost = costs.length
      ? `${(costs.reduce((a, x) => a + x!.modelTexts, 0) / costs.length).toFixed(0)}, ${(costs.reduce((a, x) => a + x!.seconds, 0) / costs.length).toFixed(2)}`
      : '—';
    out.push(
      `| ${col.oracle} | ${gm.length} | ${gm.filter((x) => x >= 0.85).length} | ${f3(gm[0] ?? NaN)} | ${f3(quantile(gm, 0.1))} | ${f3(quantile(gm, 0.5))} | ${costs.length ? demoted : '—'} | ${cost} |`,
    );
  }
  return out.join('\n');
}

/** The family summary and every case, as printed at the end of a run (and kept in BENCHMARKS.md). */
export function familyMarkdown(cases: readonly CaseResult[], minPerSide: number, detail?: readonly string[]): string {
  const scored = cases.filter((c) => c.status === 'scored').length;
  const drawn = cases.some((c) => bandOf(c) !== undefined);
  const natural = naturalSet(cases);
  return [
    `#### Family summary: ${cases.length} cases, ${scored} scored, ${cases.length - scored} too small (< ${minPerSide} per side)`,
    '',
    ...(drawn
      ? [
          'Every configuration over all scored cases:',
          '',
          configurationSummary(cases),
          '',
          `Per ${natural ? `kind of ${natural} case` : 'trigger band'} (G-mean over the scored cases; the intervals of the median resample cases):`,
          '',
          bandSummary(cases),
          '',
        ]
      : []),
    familyTable(cases),
    '',
    ...(detail
      ? [
          `The per-case tables below show ${detail.join(' and ')} beside Naive; the family tables above show every configuration.`,
          '',
        ]
      : []),
    ...cases.map((c, i) => caseMarkdown(c, i + 1, minPerSide, detail)),
  ].join('\n');
}

/** The settings line of the transformer section: every option that shapes its figures. */
export function transformerSettings(o: ShortcutOptions): string {
  return (
    `Model: the model kit's BERT encoder ${shownPath(o.encoder ?? DEFAULT_ENCODER)} fine-tuned per case (${o.epochs} epochs, the best on validation kept; torch and onnxruntime on ${o.modelThreads} thread${o.modelThreads > 1 ? 's' : ''}). ` +
    `Explainers ${o.explainers.join(', ')} (LIME ${o.samples.toLocaleString('en-US')} samples, through OnnxClassifier's token scorer); oracles ${o.oracles.join(', ')}; embeddings ${o.embeddings.join(', ')}; ` +
    `${o.train.toLocaleString('en-US')} training texts sampled for keyword identification; at most ${o.perSide} predictions per side explained and scored; a case is scored with ≥ ${o.minPerSide} per side; test fractions ${o.testFractions.join(', ')}; ${o.resamples.toLocaleString('en-US')} bootstrap resamples.`
  );
}

/** A run's settings in a few words, for the side-by-side table. */
function settingsCell(o: Pick<ShortcutOptions, 'train' | 'samples' | 'perSide'>): string {
  return `LIME ${o.samples.toLocaleString('en-US')} samples, ${o.train.toLocaleString('en-US')} keyword texts, ≤ ${o.perSide} per side`;
}

/**
 * The transformer's cases beside the same cases of a bag-of-words run (the table3 section's results file): pool
 * accuracy, ground-truth counts, TOKI per configuration and Naive G-means with their intervals, each with the
 * settings it was measured at. Cases of the transformer run that the other run lacks are left out.
 */
export function sideBySideTable(
  transformer: {
    readonly options: Pick<ShortcutOptions, 'train' | 'samples' | 'perSide'>;
    readonly cases: readonly CaseResult[];
  },
  bow: {
    readonly options: Pick<ShortcutOptions, 'train' | 'samples' | 'perSide'>;
    readonly cases: readonly CaseResult[];
  },
): string {
  const cols = tokiColumns(transformer.cases).length ? tokiColumns(transformer.cases) : tokiColumns(bow.cases);
  const head = [
    'case',
    'model',
    'settings',
    'pool accuracy',
    'trustworthy / untrustworthy (ambiguous)',
    ...cols.map((c) => `${c.method} [${c.oracle}] G-mean [95 % CI]`),
    'Naive (θ=0.9) G-mean [95 % CI]',
  ];
  const out = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  const line = (c: CaseResult, settings: string) => {
    const k = c.counts;
    const g = (pick: (r: ScoredRow) => boolean) => {
      const r = c.rows.find(pick);
      return r ? withCI(r) : c.status === 'scored' ? '—' : 'too small';
    };
    return `| ${[
      c.name,
      c.transformer ? `${c.model} (${c.transformer.size})` : c.model,
      settings,
      f3(c.poolAccuracy),
      `${int(k.trustworthy)} / ${int(k.untrustworthy)} (${int(k.ambiguous.count)})`,
      ...cols.map((col) => g((r) => r.method === col.method && r.oracle === col.oracle)),
      g((r) => r.method.startsWith('Naive (θ=')),
    ].join(' | ')} |`;
  };
  for (const c of transformer.cases) {
    const other = bow.cases.find((b) => b.name === c.name);
    if (!other) continue;
    out.push(line(other, settingsCell(bow.options)), line(c, settingsCell(transformer.options)));
  }
  return out.join('\n');
}

/** The G-mean figures of one oracle column over a band group's scored cases. */
export interface BandFigures {
  readonly draws: number;
  readonly scored: number;
  readonly median: number;
  readonly p10: number;
  readonly atTarget: number;
  /** Cases where Naive (θ 0.9) is below 0.8, and how many of them have this oracle's interval wholly above Naive's. */
  readonly naiveWeak: number;
  readonly aboveNaive: number;
}

/** Figures of the oracle column picked by `pick` over the cases whose band is in `bands`. */
export function bandFigures(
  cases: readonly CaseResult[],
  bands: readonly string[],
  pick: (r: ScoredRow) => boolean,
): BandFigures {
  const inBand = cases.filter((c) => bands.includes(bandOf(c) ?? ''));
  const scored = inBand.filter((c) => c.status === 'scored');
  const rows = scored.map((c) => ({ c, r: c.rows.find(pick) })).filter((x) => x.r !== undefined) as {
    c: CaseResult;
    r: ScoredRow;
  }[];
  const gm = rows.map((x) => x.r.metrics.gmean).sort((a, b) => a - b);
  const naive = (c: CaseResult) => c.rows.find((r) => r.method.startsWith('Naive (θ='))!;
  const weak = rows.filter((x) => naive(x.c).metrics.gmean < 0.8);
  return {
    draws: inBand.length,
    scored: gm.length,
    median: quantile(gm, 0.5),
    p10: quantile(gm, 0.1),
    atTarget: gm.filter((x) => x >= 0.85).length,
    naiveWeak: weak.length,
    aboveNaive: weak.filter((x) => x.r.gmeanCI.lo > naive(x.c).gmeanCI.hi).length,
  };
}

/** Issue 29's three target groups. */
export const TARGET_GROUPS: readonly { readonly name: string; readonly bands: readonly string[] }[] = [
  { name: 'everyday', bands: ['everyday', 'phrase'] },
  { name: 'mid', bands: ['mid'] },
  { name: 'rare/absent', bands: ['rare', 'absent'] },
];

/**
 * BENCHMARKS.md's headline of a drawn family, from its results: per target group the default oracle's median
 * G-mean against the paper's TOKI and Naive, each cell ≤ 30 words; the 10th percentiles, case counts per
 * group and draws go to `notes` (the section page). For the test family: whether issue 29's targets hold
 * (per group median ≥ 0.9 and 10th percentile ≥ 0.8; ≥ 0.85 on ≥ 90 % of scored cases; above Naive with
 * non-overlapping intervals wherever Naive < 0.8; ≥ 40 scored cases, at least half everyday).
 */
export function drawnHeadline(
  cases: readonly CaseResult[],
  family: 'test' | 'validation',
  from: string,
  transformer?: string,
): {
  question: string;
  xtrust: string;
  peer: string;
  goal: string;
  met: 'yes' | 'no' | 'partly' | 'n/a';
  from: string;
  notes: string;
} {
  const col = (oracle: string) => (r: ScoredRow) =>
    r.oracle === oracle && !r.method.includes('K.I') && r.method.startsWith('TOKI-lime');
  const naivePick = (r: ScoredRow) => r.method.startsWith('Naive (θ=');
  const all = ['everyday', 'phrase', 'mid', 'rare', 'absent'];
  // the default's figures, or — in a run made before a rename, without a `toki` column — its first configuration's
  const tokiRows = cases
    .flatMap((c) => c.rows)
    .filter((r) => !r.method.includes('K.I') && r.method.startsWith('TOKI-lime'));
  const names = [...new Set(tokiRows.flatMap((r) => (r.oracle ? [r.oracle] : [])))];
  const lead = leadOracle(names) ?? tokiRows.find((r) => r.oracle !== 'toki-paper')?.oracle ?? 'toki';
  // the peer column: the previous default when the run has it (issue 47 renamed it toki-cluster), else the paper's
  const peerOracle = tokiRows.some((r) => r.oracle === 'toki-cluster') ? 'toki-cluster' : 'toki-paper';
  const t = bandFigures(cases, all, col(lead));
  const groups = TARGET_GROUPS.map((g) => ({
    g,
    f: bandFigures(cases, g.bands, col(lead)),
    p: bandFigures(cases, g.bands, col(peerOracle)),
    n: bandFigures(cases, g.bands, naivePick),
  }));
  const everydayScored = groups[0].f.scored;
  const medians = `median ${groups.map(({ g, f }) => `${g.name} ${f3(f.median)}`).join(', ')}`;
  const aboveNaive = `above Naive on ${t.aboveNaive} of ${t.naiveWeak}`;
  const peer = `same run: ${peerOracle} median ${groups.map(({ p }) => f3(p.median)).join(' / ')}; Naive (θ_conf 0.9) ${groups.map(({ n }) => f3(n.median)).join(' / ')} (${groups.map(({ g }) => g.name).join(' / ')})`;
  const notes =
    `${lead} per target group: ${groups.map(({ g, f }) => `${g.name} median ${f3(f.median)}, 10th percentile ${f3(f.p10)} (${f.scored} scored cases)`).join('; ')}. ` +
    `≥ 0.85 on ${t.atTarget} of ${t.scored} scored cases (${t.draws} draws); above Naive (non-overlapping intervals) on ${t.aboveNaive} of the ${t.naiveWeak} cases where Naive < 0.8.`;
  if (transformer) {
    const scored = cases.filter((c) => c.status === 'scored');
    const ok = scored.filter((c) => (c.rows.find(col('toki'))?.metrics.gmean ?? 0) >= 0.85).length;
    const everyday = scored.filter((c) => ['everyday', 'phrase'].includes(bandOf(c) ?? '')).length;
    // the target names the full-size encoder: on the 2 × 128 fixture it can at most be met in part
    const fixture = transformer === '2 × 128';
    const lowest = scored
      .flatMap((c) => c.rows.filter(col('toki')).map((row) => ({ name: c.name, row })))
      .sort((a, b) => a.row.metrics.gmean - b.row.metrics.gmean)[0];
    const held = scored.length >= 8 && everyday * 2 >= scored.length && ok === scored.length;
    return {
      question: fixture
        ? 'Does TOKI hold on drawn shortcut cases with a transformer fine-tuned per case? (issue 29; the 2 × 128 fixture encoder)'
        : `Does TOKI hold on drawn shortcut cases with the full-size kit BERT (${transformer}) fine-tuned per case? (issue 29)`,
      xtrust: `toki ≥ 0.85 on ${ok} of ${scored.length} scored cases (${everyday} everyday; ${cases.length} draws)${lowest ? `, lowest ${f3(lowest.row.metrics.gmean)}` : ''}; ${medians}; ${aboveNaive}`,
      peer,
      goal: '≥ 0.85 on each of ≥ 8 drawn test cases, half everyday, with the full-size kit BERT (issue 29)',
      met: fixture ? (held ? 'partly' : 'no') : held ? 'yes' : ok > 0 ? 'partly' : 'no',
      from,
      notes: lowest ? `${notes} Lowest: ${withCI(lowest.row)} on ${lowest.name}.` : notes,
    };
  }
  const xtrust = `${lead}: ≥ 0.85 on ${t.atTarget} of ${t.scored} scored cases; ${medians.replace('median', 'median G-mean')}; ${aboveNaive}`;
  if (family === 'validation') {
    return {
      question:
        'Which oracle configuration holds on the validation family of drawn cases (where the default was chosen), and what does each step add?',
      xtrust,
      peer,
      goal: '— (the selection set; the targets are judged on the test family)',
      met: 'n/a',
      from,
      notes,
    };
  }
  const checks = [
    ...groups.map(({ f }) => f.scored > 0 && f.median >= 0.9 && f.p10 >= 0.8),
    t.scored > 0 && t.atTarget >= 0.9 * t.scored,
    t.aboveNaive === t.naiveWeak,
    t.scored >= 40 && everydayScored * 2 >= t.scored,
  ];
  const held = checks.filter(Boolean).length;
  return {
    question:
      'Does TOKI tell trustworthy from untrustworthy predictions on drawn shortcut cases, everyday words included, above Naive? (issue 29, test family)',
    xtrust,
    peer,
    goal: 'per band median G-mean ≥ 0.9, 10th percentile ≥ 0.8; ≥ 0.85 on 90 % of scored cases; above Naive where Naive < 0.8 (issue 29)',
    met: held === checks.length ? 'yes' : held === 0 ? 'no' : 'partly',
    from,
    notes,
  };
}
