/**
 * The word-list section's tables and headline, from stored results only (no model, no run): kept apart from
 * word-list-agreement.ts, which runs on import, so the reading rules can be tested.
 */
import type { ClassRelatedness, ListHalf, listsCoverage, WordListCorpus } from './relatedness-lists.js';

export interface CorpusAgreement {
  readonly corpus: WordListCorpus;
  readonly model: string;
  readonly testAccuracy: number;
  readonly oracle: string;
  readonly keyword: readonly ClassRelatedness[];
  readonly eq5: readonly ClassRelatedness[];
  readonly coverage: ReturnType<typeof listsCoverage>;
  readonly seconds: number;
  /** Keyword status on each half of the lists (halfLists: alternate words in file order); absent in runs before the halves existed. */
  readonly halves?: Readonly<Record<ListHalf, readonly ClassRelatedness[]>>;
  /** The words each class was described by, when the configuration describes classes (KeywordStore.descriptionItems). */
  readonly descriptions?: Readonly<Record<string, readonly string[]>>;
}

const pct = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** The tables of a results file: per model and configuration, precision and recall per class in both readings. */
export function agreementMarkdown(results: readonly CorpusAgreement[]): string {
  const out: string[] = [];
  const groups = new Map<string, CorpusAgreement[]>();
  for (const r of results) {
    const key = `${r.model}|${r.oracle}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  out.push(
    '| model | oracle | classes with precision and recall ≥ 0.8 (keyword status) | (Eq. 5, every listed word) | function words called related (Eq. 5) |',
    '| --- | --- | ---: | ---: | ---: |',
  );
  for (const rs of groups.values()) {
    const ok = (xs: readonly ClassRelatedness[]) =>
      xs.filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
    const all = rs.flatMap((r) => r.keyword).length;
    out.push(
      `| ${rs[0].model} | ${rs[0].oracle} | ${rs.reduce((a, r) => a + ok(r.keyword), 0)} / ${all} | ${rs.reduce((a, r) => a + ok(r.eq5), 0)} / ${all} | ${rs.reduce((a, r) => a + r.eq5.reduce((b, x) => b + x.functionWordsCalledRelated.length, 0), 0)} |`,
    );
  }
  out.push('');
  const halved = results.filter((r) => r.halves);
  if (halved.length > 0) {
    out.push(
      '#### Keyword status on the two halves of the lists',
      '',
      'Each class\'s related and unrelated lists split by alternate words in file order (halfLists): every choice of a candidate read only the **choice** half; the **report** half was read by none. Precision / recall of "related" among the listed words in the class\'s pool; ✓ = both ≥ 0.8.',
      '',
    );
    const oracles = [...new Set(halved.map((r) => r.oracle))];
    const models = [...new Set(halved.map((r) => r.model))];
    for (const model of models) {
      const rows = halved.filter((r) => r.model === model);
      const classes = [...new Set(rows.flatMap((r) => r.keyword.map((k) => `${r.corpus}|${k.label}`)))];
      out.push(
        `${model}:`,
        '',
        `| class | ${oracles.map((o) => `${o}: choice P / R | report P / R`).join(' | ')} |`,
        `| --- | ${oracles.map(() => '---: | ---:').join(' | ')} |`,
      );
      const cell = (x: ClassRelatedness | undefined) =>
        x
          ? `${pct(x.precision)} / ${pct(x.recall)}${(x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8 ? ' ✓' : ''}`
          : '—';
      for (const c of classes) {
        const [corpus, label] = c.split('|');
        const cells = oracles.map((o) => {
          const r = rows.find((x) => x.oracle === o && x.corpus === corpus);
          return `${cell(r?.halves?.choice.find((k) => k.label === label))} | ${cell(r?.halves?.report.find((k) => k.label === label))}`;
        });
        out.push(`| ${corpus} ${label} | ${cells.join(' | ')} |`);
      }
      const count = (o: string, h: ListHalf) =>
        rows
          .filter((r) => r.oracle === o)
          .flatMap((r) => r.halves![h])
          .filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
      out.push(
        `| **classes ✓ (of ${classes.length})** | ${oracles.map((o) => `${count(o, 'choice')} | ${count(o, 'report')}`).join(' | ')} |`,
        '',
      );
    }
  }
  for (const r of results) {
    out.push(`#### ${r.corpus}, ${r.model} (held-out accuracy ${r.testAccuracy.toFixed(3)}), oracle ${r.oracle}`, '');
    out.push(
      '| class | listed related / unrelated | in pool (related / unrelated) | keyword status: precision | recall | Eq. 5: precision | recall | Eq. 5 false positives (first 8) |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | --- |',
    );
    r.keyword.forEach((k, i) => {
      const e = r.eq5[i];
      const c = r.coverage.find((x) => x.label === k.label);
      out.push(
        `| ${k.label} | ${k.related} / ${k.unrelated} | ${c ? `${c.relatedInPool} / ${c.unrelatedInPool}` : '—'} | ${pct(k.precision)} | ${pct(k.recall)} | ${pct(e.precision)} | ${pct(e.recall)} | ${e.falsePositives.slice(0, 8).join(', ')}${e.falsePositives.length > 8 ? ', …' : ''} |`,
      );
    });
    out.push('');
  }
  return out.join('\n');
}

/** BENCHMARKS.md's headline: the default's classes at precision and recall ≥ 0.8 against the paper's configuration. */
export function agreementHeadline(results: readonly CorpusAgreement[], from: string) {
  const of = (oracle: string) => results.filter((r) => r.oracle === oracle);
  const reading = (all: readonly ClassRelatedness[], name: string) => {
    // a class none of whose listed words was judged (none in its pool) has no precision or recall: not a 0
    const rs = all.filter((x) => x.precision !== null || x.recall !== null);
    const unjudged = all.length - rs.length;
    const none = unjudged ? `; ${unjudged} class${unjudged > 1 ? 'es' : ''} with no listed word judged` : '';
    if (rs.length === 0) return `${name}: no class with a listed word judged`;
    const ok = rs.filter((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8).length;
    const p = rs.map((x) => x.precision ?? 0).sort((a, b) => a - b);
    const r = rs.map((x) => x.recall ?? 0).sort((a, b) => a - b);
    return `${name} ${ok} of ${rs.length} classes at precision and recall ≥ 0.8 (precision ${p[0].toFixed(2)}–${p[p.length - 1].toFixed(2)}, recall ${r[0].toFixed(2)}–${r[r.length - 1].toFixed(2)}${none})`;
  };
  const summary = (oracle: string) => {
    const rs = of(oracle);
    if (rs.length === 0) return '—';
    return `${reading(
      rs.flatMap((r) => r.keyword),
      'keyword status',
    )}; ${reading(
      rs.flatMap((r) => r.eq5),
      'Eq. 5',
    )}; models ${[...new Set(rs.map((r) => r.model))].join(', ')}`;
  };
  const toki = of('toki').flatMap((r) => [...r.keyword, ...r.eq5]);
  const judged = toki.filter((x) => x.precision !== null || x.recall !== null);
  const met = judged.length > 0 && judged.every((x) => (x.precision ?? 0) >= 0.8 && (x.recall ?? 0) >= 0.8);
  return {
    question:
      "Does TOKI's keyword step call 'related' the words a person calls related to a class, and not the others (function words never)?",
    xtrust: `toki (the default: class names with their WordNet descriptions): ${summary('toki')}${of('toki-name').length ? ` · toki-name (class names alone, the default before issue 29's descriptions): ${summary('toki-name')}` : ''}`,
    peer: `same run: toki-paper ${summary('toki-paper')}`,
    goal: 'precision and recall of "related" ≥ 0.8 for every class (issue 29)',
    met: (met ? 'yes' : 'no') as 'yes' | 'no',
    from,
  };
}
