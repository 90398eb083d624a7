/**
 * A redesign direction of issue 47, measured before it is built: is a word related to a class when it is
 * nearer the class's description than p % of a *background* of frequent words is? Today's keyword step
 * compares a cosine with θ_relate (calibrated on WordNet synonym pairs); this script shows where θ_relate
 * falls in each class's background, chooses p on the word lists' `choice` half only (the validation split
 * every choice reads), then reports the rule — without changing any oracle setting — on the lists' `report`
 * half, on the rubric-labelled pools (annotated-pools/), on the related-trigger control family's triggers
 * and on the unrelated drawn families' triggers.
 *
 *   node apps/bench/dist/oracle/relatedness-background.js [--background 20000] [--out FILE]
 *
 * Score of a word for a class: its best cosine (GloVe) to any description item of the class (the class name
 * and its WordNet description, as the default `toki` builds it: DESCRIPTION_BASE); the background is the
 * first `background` content words of GloVe's frequency-ordered rows (lower-case letters, ≥ 3, not function
 * words), scored the same way.
 */
import { GloveEmbedding } from '@xtrust/embeddings';
import { classDescriptionItems, descriptionScores, descriptionTarget, isFunctionWord } from '@xtrust/oracle';
import { CLASS_NAMES, type CorpusName } from './family.js';
import { corpusLookup, drawCase, familySeed } from './family-draw.js';
import { DESCRIPTION_BASE, thetaRelateOf } from './oracle-setups.js';
import { halfLists, loadWordLists, WORD_LIST_CORPORA, type WordListCorpus } from './relatedness-lists.js';
import { loadAnnotatedPools, scoreRelated } from './annotated-pool-labels.js';
import { defineScript, machineInfo, runScript, writeJsonAtomic, type Options } from '../harness/index.js';

const SPEC = defineScript({
  usage: 'node apps/bench/dist/oracle/relatedness-background.js [options]',
  summary:
    'Relatedness by percentile of a background of frequent words (issue 47): chosen on the word lists’ choice half, reported on the report half, the labelled pools and the drawn triggers.',
  options: {
    background: { kind: 'integer', default: 20000, min: 100, help: 'frequent GloVe words in the background' },
    draws: { kind: 'integer', default: 60, min: 1, help: 'draws of each drawn family whose triggers are scored' },
    description: {
      kind: 'string',
      default: 'wordnet',
      choices: ['wordnet', 'name'],
      help: "the class's description items: its name and WordNet description (today's toki), or its name alone",
    },
    out: { kind: 'string', placeholder: 'FILE', help: 'JSON results' },
  },
});

const PERCENTILES = [0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99];

type Scorer = { score(words: readonly string[]): Promise<(number | undefined)[]>; percentile(s: number): number };

async function main(o: Options<typeof SPEC.options>): Promise<void> {
  const glove = await GloveEmbedding.load();
  const theta = await thetaRelateOf(glove);
  const background: string[] = [];
  for (let r = 0; r < glove.size && background.length < o.background; r++) {
    const w = glove.wordAt(r);
    if (/^[a-z]{3,}$/.test(w) && !isFunctionWord(w)) background.push(w);
  }
  const bgVectors = await glove.vectors(background);
  const scorers = new Map<string, Scorer>();
  const scorer = async (corpus: WordListCorpus | 'headers', label: string): Promise<Scorer> => {
    const key = `${corpus}|${label}`;
    const got = scorers.get(key);
    if (got) return got;
    const name = CLASS_NAMES[corpus as CorpusName][label] ?? label;
    const target = await descriptionTarget(
      glove,
      classDescriptionItems(name, o.description === 'name' ? null : DESCRIPTION_BASE, undefined),
    );
    if (!target) throw new Error(`GloVe knows no description item of ${name}`);
    const bg = Float64Array.from(descriptionScores(bgVectors, background.length, target, 'max')).sort();
    const s: Scorer = {
      async score(words) {
        const known = words.filter((w) => glove.has(w));
        const v = descriptionScores(await glove.vectors(known), known.length, target, 'max');
        const at = new Map(known.map((w, i) => [w, v[i]]));
        return words.map((w) => at.get(w));
      },
      percentile(x) {
        let lo = 0;
        let hi = bg.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (bg[mid] < x) lo = mid + 1;
          else hi = mid;
        }
        return lo / bg.length;
      },
    };
    scorers.set(key, s);
    return s;
  };
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

  // 1. Where θ_relate falls: the share of each class's background at or above it (today's rule would call those related)
  console.log(
    `θ_relate (GloVe, today's default) = ${theta.toFixed(3)}; background: ${background.length} frequent GloVe content words\n`,
  );
  console.log('| corpus | class | background words with best cosine ≥ θ_relate |\n| --- | --- | ---: |');
  const thetaShare: Record<string, number> = {};
  for (const corpus of WORD_LIST_CORPORA)
    for (const label of Object.keys(loadWordLists(corpus))) {
      const s = await scorer(corpus, label);
      const share = 1 - s.percentile(theta);
      thetaShare[`${corpus}|${label}`] = share;
      console.log(`| ${corpus} | ${label} | ${pct(share)} |`);
    }

  // 2. The percentile chosen on the choice half: the largest min(precision, recall) pooled over all classes
  const listScores = async (half: 'choice' | 'report') => {
    const out: { corpus: string; label: string; word: string; related: boolean; p: number | undefined }[] = [];
    for (const corpus of WORD_LIST_CORPORA) {
      const lists = halfLists(loadWordLists(corpus), half);
      for (const [label, l] of Object.entries(lists)) {
        const s = await scorer(corpus, label);
        const words = [...l.related, ...l.unrelated].filter((w) => !isFunctionWord(w));
        const sc = await s.score(words);
        words.forEach((w, i) =>
          out.push({
            corpus,
            label,
            word: w,
            related: l.related.includes(w),
            p: sc[i] === undefined ? undefined : s.percentile(sc[i]!),
          }),
        );
      }
    }
    return out;
  };
  const pr = (rows: { related: boolean; p: number | undefined }[], cut: number) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of rows) {
      if (r.p === undefined) continue;
      const v = r.p >= cut;
      if (v && r.related) tp++;
      else if (v) fp++;
      else if (r.related) fn++;
    }
    return { precision: tp / (tp + fp), recall: tp / (tp + fn) };
  };
  const choice = await listScores('choice');
  console.log('\nChoice half of the word lists (validation), content words only, pooled over the 9 classes:\n');
  console.log('| percentile p | precision | recall |\n| ---: | ---: | ---: |');
  let best = PERCENTILES[0];
  let bestScore = -1;
  for (const p of PERCENTILES) {
    const m = pr(choice, p);
    console.log(`| ${p} | ${f2(m.precision)} | ${f2(m.recall)} |`);
    if (Math.min(m.precision, m.recall) > bestScore) {
      bestScore = Math.min(m.precision, m.recall);
      best = p;
    }
  }
  console.log(`\nChosen: p = ${best} (largest min(precision, recall) on the choice half).\n`);
  const report = await listScores('report');
  const perClass = (rows: typeof report) => {
    const lines = ['| corpus | class | precision | recall |', '| --- | --- | ---: | ---: |'];
    const keys = [...new Set(rows.map((r) => `${r.corpus}|${r.label}`))];
    const out: Record<string, { precision: number; recall: number }> = {};
    for (const k of keys) {
      const m = pr(
        rows.filter((r) => `${r.corpus}|${r.label}` === k),
        best,
      );
      out[k] = m;
      lines.push(`| ${k.replace('|', ' | ')} | ${f2(m.precision)} | ${f2(m.recall)} |`);
    }
    return { table: lines.join('\n'), out };
  };
  const rep = perClass(report);
  console.log(`Report half of the word lists at p = ${best}:\n\n${rep.table}\n`);

  // 3. The labelled pools
  const poolLines = [
    '| pool | class | precision | recall | top-100 words called related |',
    '| --- | --- | ---: | ---: | ---: |',
  ];
  const pools: Record<string, unknown> = {};
  for (const pool of loadAnnotatedPools()) {
    const corpus = pool.settings.corpus as WordListCorpus | 'headers';
    for (const [label, words] of Object.entries(pool.classes)) {
      const s = await scorer(corpus === 'headers' ? 'spam' : corpus, label);
      const sc = await s.score(words.map((w) => w.word));
      const verdict = new Map(
        words.map((w, i) => [w.word, sc[i] === undefined ? undefined : s.percentile(sc[i]!) >= best]),
      );
      const m = scoreRelated(words, (w) => verdict.get(w));
      const called = [...verdict.values()].filter((v) => v === true).length / words.length;
      pools[`${corpus}|${label}`] = { ...m, called };
      poolLines.push(
        `| ${pool.settings.model} / ${corpus} | ${label} | ${f2(m.precision)} (${m.tp}/${m.tp + m.fp}) | ${f2(m.recall)} (${m.tp}/${m.tp + m.fn}) | ${pct(called)} |`,
      );
    }
  }
  console.log(`Labelled pools at p = ${best}:\n\n${poolLines.join('\n')}\n`);

  // 4. The drawn triggers: related controls should pass, unrelated triggers should not
  const lookup = corpusLookup();
  const triggerLines = [
    `| family | triggers scored (in GloVe) | ${PERCENTILES.map((p) => `called related at p = ${p}`).join(' | ')} | best cosine ≥ θ_relate |`,
    `| --- | ---: | ${PERCENTILES.map(() => '---:').join(' | ')} | ---: |`,
  ];
  const triggers: Record<string, unknown> = {};
  for (const family of ['related-validation', 'related-test', 'validation', 'test'] as const) {
    let n = 0;
    const atP = PERCENTILES.map(() => 0);
    let atTheta = 0;
    for (let i = 0; i < o.draws; i++) {
      const c = drawCase(familySeed(family, i), lookup, glove);
      const s = await scorer(c.corpus as WordListCorpus, c.target!);
      const words = c.trigger!.split(' ');
      const sc = await s.score(words);
      if (sc.some((x) => x === undefined)) continue;
      n++;
      const bestCos = Math.max(...(sc as number[]));
      PERCENTILES.forEach((p, j) => {
        if (s.percentile(bestCos) >= p) atP[j]++;
      });
      if (bestCos >= theta) atTheta++;
    }
    triggers[family] = { n, atP: Object.fromEntries(PERCENTILES.map((p, j) => [p, atP[j]])), atTheta };
    triggerLines.push(`| ${family} | ${n} | ${atP.map((x) => pct(x / n)).join(' | ')} | ${pct(atTheta / n)} |`);
  }
  console.log(`Drawn triggers (first ${o.draws} draws of each family):\n\n${triggerLines.join('\n')}`);
  if (o.out)
    writeJsonAtomic(o.out, {
      argv: process.argv.slice(2),
      date: new Date().toISOString(),
      machine: machineInfo(),
      description: o.description,
      theta,
      background: background.length,
      thetaShare,
      chosen: best,
      choice: PERCENTILES.map((p) => ({ p, ...pr(choice, p) })),
      report: rep.out,
      pools,
      triggers,
    });
}

runScript(SPEC, main);
