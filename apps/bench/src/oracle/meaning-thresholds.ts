/**
 * The meaning test's thresholds chosen on validation triggers (issue 47, second round): for the first
 * `--unrelated` draws of the unrelated VALIDATION family and the first `--related` draws of the
 * RELATED-VALIDATION family, each planted trigger's meaning evidence for its target class — its topic
 * percentile and its corpus-neighbour lean, from @xtrust/oracle's wordMeanings on GloVe, the class's
 * WordNet description and the whole corpus (ClassCorpus, unplanted) — and, over a grid of thresholds, the
 * share of related triggers called related and of unrelated triggers called related (a phrase is related
 * when one of its words is). The rule, fixed before this script ran: the most related triggers among the
 * thresholds calling ≤ `--max-unrelated` of the unrelated ones related, the topic percentile kept (below
 * 1: a user's class description must be able to relate a word). No test draw is read. Third round: a
 * third threshold, the word percentile (MeaningSettings.wordPercentile: the class score must also beat that
 * share of GloVe's 20,000 most frequent content words), and `--descriptions builtin` (the bundled corpora's
 * class descriptions, as `xtrust demo` uses them). Sixth round of issue 47: the joint bars (jointGrid).
 *
 *   node apps/bench/dist/oracle/meaning-thresholds.js [--unrelated 400] [--related 150] [--out FILE]
 */
import { GloveEmbedding } from '@xtrust/embeddings';
import {
  ClassCorpus,
  classDescriptionItems,
  DEFAULT_MEANING,
  descriptionTarget,
  MEANING_CORPUS,
  WORDNET_CLASS_DESCRIPTION,
  wordMeanings,
} from '@xtrust/oracle';
import { CLASS_DESCRIPTIONS, CLASS_NAMES, type CorpusName } from './family.js';
import { corpusLookup, drawCase, familySeed, type DrawFamily } from './family-draw.js';
import { thetaRelateOf } from './oracle-setups.js';
import { defineScript, machineInfo, runScript, writeJsonAtomic, type Options } from '../harness/index.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/meaning-thresholds.js [options]',
  summary:
    "The meaning test's thresholds on validation triggers (issue 47): related and unrelated triggers called related over a grid, and the rule's choice.",
  options: {
    unrelated: { kind: 'integer', default: 400, min: 1, help: 'draws of the unrelated validation family' },
    related: { kind: 'integer', default: 150, min: 1, help: 'draws of the related-validation family' },
    'max-unrelated': {
      kind: 'number',
      default: 0.05,
      min: 0,
      help: 'the most unrelated triggers the rule lets be related',
    },
    descriptions: {
      kind: 'string',
      default: 'wordnet',
      choices: ['wordnet', 'builtin'],
      placeholder: 'wordnet|builtin',
      help: "class descriptions: WordNet's alone, or with the corpora's built-in ones (@xtrust/datasets)",
    },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results' },
  },
});

const PERCENTILES = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98];
const LEANS = [0.3, 0.5, 0.7, 0.8, 1, 1.2, 1.5, 2];
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The joint rule's grid (MeaningSettings.joint): topic percentile and neighbour lean cleared together. */
const JOINT_TOPICS = [0.8, 0.85, 0.9, 0.93, 0.95];
const JOINT_LEANS = [0.3, 0.5, 0.8, 1, 1.2];
/** The word-percentile gate's grid (0: no gate). */
const WORD_PERCENTILES = [0, 0.8, 0.9, 0.95, 0.97, 0.98];

/** One known word of a trigger: its topic percentile, word percentile and neighbour lean. */
type WordEvidence = TriggerEvidence['words'][number];

interface TriggerEvidence {
  readonly family: DrawFamily;
  readonly corpus: string;
  readonly target: string;
  readonly trigger: string;
  /** Per known word of the trigger: topic percentile, word percentile and neighbour lean (null: a name or no neighbour). */
  readonly words: { word: string; topic: number; wordPct: number; lean: number | null }[];
}

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  const glove = await GloveEmbedding.load();
  const theta = await thetaRelateOf(glove);
  const lookup = corpusLookup();
  const corpora = new Map<string, ClassCorpus>();
  const corpusOf = (name: CorpusName) => {
    let c = corpora.get(name);
    if (!c) {
      // the corpus the draws already loaded (corpusLookup), counted once more per class
      const rows = lookup(name).corpus;
      c = ClassCorpus.fromTexts(
        rows.rows.map((r) => r.text),
        rows.rows.map((r) => r.label),
        rows.labels,
        MEANING_CORPUS,
      );
      corpora.set(name, c);
    }
    return c;
  };
  const evidence: TriggerEvidence[] = [];
  // wordPercentile 0: the gate is computed (every word's word percentile is returned) but never closes
  const settings = {
    topicPercentile: 1,
    neighbourLean: Number.POSITIVE_INFINITY,
    neighbours: 20,
    topItems: 3,
    wordPercentile: 0,
  };
  for (const [family, draws] of [
    ['related-validation', o.related],
    ['validation', o.unrelated],
  ] as const) {
    for (let i = 0; i < draws; i++) {
      const c = drawCase(familySeed(family, i), lookup, glove);
      const words = c.trigger!.split(' ').filter((w) => glove.has(w));
      if (words.length === 0) continue; // a word no embedding knows is never related: not informative here
      const name = CLASS_NAMES[c.corpus as CorpusName][c.target!] ?? c.target!;
      const user = o.descriptions === 'builtin' ? CLASS_DESCRIPTIONS[c.corpus as CorpusName][c.target!] : undefined;
      const target = await descriptionTarget(glove, classDescriptionItems(name, WORDNET_CLASS_DESCRIPTION, user));
      const m = await wordMeanings(
        glove,
        words,
        await glove.vectors(words),
        target!,
        c.target!,
        corpusOf(c.corpus as CorpusName),
        settings,
        undefined,
        theta,
      );
      evidence.push({
        family,
        corpus: c.corpus,
        target: c.target!,
        trigger: c.trigger!,
        words: words.map((w, j) => ({
          word: w,
          topic: m[j].topicPercentile,
          wordPct: m[j].wordPercentile ?? 1,
          lean: m[j].neighbourLean,
        })),
      });
    }
  }
  const related = (e: TriggerEvidence, p: number, l: number, q = 0) =>
    e.words.some((w) => (w.topic >= p && w.wordPct >= q) || (w.lean !== null && w.lean >= l));
  const rel = evidence.filter((e) => e.family === 'related-validation');
  const unr = evidence.filter((e) => e.family === 'validation');
  const grid = WORD_PERCENTILES.flatMap((q) =>
    PERCENTILES.flatMap((p) =>
      LEANS.map((l) => ({
        topicPercentile: p,
        neighbourLean: l,
        wordPercentile: q,
        related: rel.filter((e) => related(e, p, l, q)).length / rel.length,
        unrelated: unr.filter((e) => related(e, p, l, q)).length / unr.length,
      })),
    ),
  );
  const allowed = grid.filter((g) => g.unrelated <= o['max-unrelated']);
  const chosen = allowed.sort((a, b) => b.related - a.related || a.unrelated - b.unrelated)[0];
  console.log(
    `Triggers known to GloVe: ${rel.length} related (related-validation), ${unr.length} unrelated (validation).\n`,
  );
  console.log(
    `| topic percentile \\ neighbour lean | ${LEANS.join(' | ')} |\n| --- | ${LEANS.map(() => '---:').join(' | ')} |`,
  );
  for (const p of PERCENTILES)
    console.log(
      `| ${p} | ${LEANS.map((l) => {
        const g = grid.find((x) => x.topicPercentile === p && x.neighbourLean === l && x.wordPercentile === 0)!;
        return `${pct(g.related)} / ${pct(g.unrelated)}`;
      }).join(' | ')} |`,
    );
  console.log(
    '\n(each cell: related triggers called related / unrelated triggers called related; no word-percentile gate)\n',
  );
  console.log(
    '| word-percentile gate | best under the rule (topic percentile, neighbour lean) | related | unrelated |',
  );
  console.log('| ---: | --- | ---: | ---: |');
  for (const q of WORD_PERCENTILES) {
    const best = grid
      .filter((g) => g.wordPercentile === q && g.unrelated <= o['max-unrelated'])
      .sort((a, b) => b.related - a.related || a.unrelated - b.unrelated)[0];
    console.log(
      best
        ? `| ${q || 'none'} | ${best.topicPercentile} / ${best.neighbourLean} | ${pct(best.related)} | ${pct(best.unrelated)} |`
        : `| ${q || 'none'} | — | | |`,
    );
  }
  console.log('');
  console.log(
    chosen
      ? `Chosen: topic percentile ${chosen.topicPercentile}, neighbour lean ${chosen.neighbourLean}, word percentile ${chosen.wordPercentile || 'none'} — ${pct(chosen.related)} of related, ${pct(chosen.unrelated)} of unrelated triggers called related.`
      : `No threshold triple calls ≤ ${pct(o['max-unrelated'])} of the unrelated triggers related.`,
  );
  const joint = jointGrid(rel, unr);
  if (o.out)
    writeJsonAtomic(o.out, {
      joint,
      argv: process.argv.slice(2),
      date: new Date().toISOString(),
      machine: machineInfo(),
      theta,
      chosen: chosen ?? null,
      grid,
      evidence,
    });
}

/**
 * Issue 47, sixth round (MeaningSettings.joint): with the default's own bars (DEFAULT_MEANING) kept, a word is also
 * related when its topic percentile and its neighbour lean clear lower bars together. The rule, fixed before
 * the grid ran: the most related triggers among the joint bars that call no more unrelated triggers related
 * than the default does without them; ties to the higher bars.
 */
function jointGrid(rel: readonly TriggerEvidence[], unr: readonly TriggerEvidence[]) {
  const base = (w: WordEvidence) =>
    w.topic >= DEFAULT_MEANING.topicPercentile || (w.lean !== null && w.lean >= DEFAULT_MEANING.neighbourLean);
  const share = (es: readonly TriggerEvidence[], f: (w: WordEvidence) => boolean) =>
    es.filter((e) => e.words.some(f)).length / es.length;
  const without = { related: share(rel, base), unrelated: share(unr, base) };
  const grid = JOINT_TOPICS.flatMap((p) =>
    JOINT_LEANS.map((l) => {
      const f = (w: WordEvidence) => base(w) || (w.lean !== null && w.topic >= p && w.lean >= l);
      return { topicPercentile: p, neighbourLean: l, related: share(rel, f), unrelated: share(unr, f) };
    }),
  );
  const chosen = grid
    .filter((g) => g.unrelated <= without.unrelated)
    .sort(
      (a, b) =>
        b.related - a.related ||
        a.unrelated - b.unrelated ||
        b.topicPercentile - a.topicPercentile ||
        b.neighbourLean - a.neighbourLean,
    )[0];
  console.log(
    `\nJoint bars (the default's own kept: topic ${DEFAULT_MEANING.topicPercentile}, lean ${DEFAULT_MEANING.neighbourLean}; without joint bars ${pct(without.related)} / ${pct(without.unrelated)}):\n`,
  );
  console.log(
    `| joint topic percentile \\ joint lean | ${JOINT_LEANS.join(' | ')} |\n| --- | ${JOINT_LEANS.map(() => '---:').join(' | ')} |`,
  );
  for (const p of JOINT_TOPICS)
    console.log(
      `| ${p} | ${JOINT_LEANS.map((l) => {
        const g = grid.find((x) => x.topicPercentile === p && x.neighbourLean === l)!;
        return `${pct(g.related)} / ${pct(g.unrelated)}`;
      }).join(' | ')} |`,
    );
  console.log(
    chosen
      ? `\nChosen joint bars: topic percentile ${chosen.topicPercentile} and neighbour lean ${chosen.neighbourLean} together — ${pct(chosen.related)} of related, ${pct(chosen.unrelated)} of unrelated triggers called related.`
      : "\nNo joint bars keep the unrelated triggers at the default's rate.",
  );
  return { without, grid, chosen: chosen ?? null };
}

runScript(SPEC, main);
