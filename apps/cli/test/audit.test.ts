import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_CATEGORY_NAMES } from '@xtrust/datasets';
import { buildFixture, SMALL_AUDIT, tempDir, xtrust, xtrustAsync, XSS_TEXTS, type Fixture } from './helpers.js';

let fx: Fixture;
let runDir: string;
let audit: { summary: any; files: any };

beforeAll(async () => {
  fx = await buildFixture();
  runDir = join(fx.dir, 'run');
  const r = await xtrustAsync([
    'audit',
    '--model',
    fx.model,
    '--train',
    fx.train,
    '--test',
    fx.test,
    '--trust-column',
    'trust',
    '--out',
    runDir,
    '--json',
    ...SMALL_AUDIT,
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  audit = JSON.parse(r.stdout);
}, 300_000);

/** `xtrust label` with the audit's saved store on `test` (the fixture's test file), into `out` (JSON on stdout). */
function labelWithStore(out: string, extra: readonly string[] = [], test = fx.test) {
  return xtrustAsync([
    'label',
    '--model',
    fx.model,
    '--store',
    runDir,
    '--test',
    test,
    ...extra,
    '--out',
    out,
    '--json',
    '--quiet',
  ]);
}

/** The records of a JSONL file. */
function readJsonl(file: string): any[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('xtrust audit on a saved model and CSV files', () => {
  it('reports accuracy, verdicts and the untrustworthy share consistently', () => {
    const s = audit.summary;
    expect(s.format).toBe('xtrust-audit');
    expect(s.data.labels).toEqual(fx.labels);
    expect(s.data.auditedTestRows).toBe(40);
    const v = s.verdicts;
    expect(v.trustworthy + v.untrustworthy + v.incorrect + v.unknown).toBe(40);
    expect(s.accuracy).toBeCloseTo((40 - v.incorrect) / 40, 10);
    expect(s.untrustworthyShare).toBeCloseTo(v.untrustworthy / (v.trustworthy + v.untrustworthy), 10);
    expect(s.settings).toMatchObject({ samples: 200, trainSample: 120, classNames: { ham: 'legitimate' } });
    for (const label of fx.labels)
      expect(s.pools[label].keywords.length + s.pools[label].spurious.length).toBeGreaterThan(0);
  });

  it('says per class how much of the pool is related, and why each listed word is or is not (summary, report)', () => {
    const html = readFileSync(audit.files.report, 'utf8');
    for (const label of fx.labels) {
      const p = audit.summary.pools[label];
      const r = p.related;
      expect(r.pool).toBeGreaterThan(0);
      expect(r.words).toBeLessThanOrEqual(r.pool);
      expect(r.importanceShare).toBeGreaterThanOrEqual(0);
      expect(r.importanceShare).toBeLessThanOrEqual(1);
      for (const w of p.keywords) expect(w.why).toMatch(/^related: /);
      expect(html.includes(`${r.words} of ${r.pool} pool words (`)).toBe(true);
    }
  });

  it('probes token categories over the audited texts (CheckList) and shows them in the report', () => {
    const p = audit.summary.categoryProbes;
    expect(p).toMatchObject({ method: 'checklist-invariance', texts: 40, seed: 0, threshold: 0.05 });
    expect(p.categories.map((c: { category: string }) => c.category)).toEqual([
      'person-names',
      'numbers',
      'years',
      'urls',
      'emails',
      'markup',
      'mail-headers',
    ]);
    for (const c of p.categories) {
      expect(c.texts + c.without).toBe(40);
      if (c.removal) expect(c.removal.lo).toBeLessThanOrEqual(c.removal.rate);
    }
    // the two hostile texts carry markup (<script>, <img …>)
    expect(p.categories.find((c: { category: string }) => c.category === 'markup').texts).toBeGreaterThanOrEqual(2);
    const leaned = p.categories
      .filter((c: { removal: { lo: number } | null }) => c.removal && c.removal.lo > p.threshold)
      .map((c: { category: string }) => c.category);
    expect([...p.leansOn].sort()).toEqual(leaned.sort());
    expect(p.cost.modelCalls).toBeGreaterThan(0);
    const html = readFileSync(audit.files.report, 'utf8');
    expect(html.includes('<section id="category-probes"><h2>Category probes</h2>')).toBe(true);
    for (const c of p.categories) expect(html.includes(`>${c.category}</td><td>${c.texts}</td>`)).toBe(c.texts > 0);
  });

  it('writes predictions.jsonl (one line a test row), the keyword store and a complete manifest', () => {
    const lines = readFileSync(join(runDir, 'predictions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(40);
    expect(lines[0].text).toBe(XSS_TEXTS[0]);
    for (const p of lines) expect(['trustworthy', 'untrustworthy', 'incorrect', 'unknown']).toContain(p.verdict);
    expect(JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')).status).toBe('complete');
    expect(JSON.parse(readFileSync(join(runDir, 'keywords.json'), 'utf8')).format).toBe('xtrust-keyword-store');
  });

  it('against the trust column (issue 14 ground truth): too few of each kind, so no accuracy or G-mean is given', () => {
    const c = audit.summary.comparison;
    const trustworthy = fx.truth.filter((t) => t === 'trustworthy').length;
    expect(fx.truth.length).toBeGreaterThan(20);
    expect(c).toEqual({
      cases: fx.truth.length,
      trustworthy,
      untrustworthy: fx.truth.length - trustworthy,
      minPerSide: 100,
      tooSmall: true,
      thetaConf: 0.9,
      rows: [],
      roc: [],
    });
    const html = readFileSync(audit.files.report, 'utf8');
    expect(html.includes('Too small to score an oracle')).toBe(true);
    expect(html.includes('id="chart-roc"')).toBe(false);
  });

  it('renders user texts in the report as text: <script> and <img onerror> never become markup', () => {
    const html = readFileSync(audit.files.report, 'utf8');
    // (booleans, not toContain: a failure must not print 200 kB of inlined Chart.js)
    expect(html.includes('<script>window.__xss')).toBe(false);
    expect(html.includes('<img src=x')).toBe(false);
    // highlighted words are wrapped in <mark>; without the marks the escaped texts read as typed
    const plain = html.replace(/<mark[^>]*>|<\/mark>/g, '');
    expect(plain.includes('&lt;script&gt;window.__xss = 1&lt;/script&gt;')).toBe(true);
    expect(plain.includes('&lt;img src=x onerror=&quot;window.__xss = 2&quot;&gt;')).toBe(true);
    // self-contained: Chart.js inline, nothing fetched
    expect(html.includes('window.Chart=')).toBe(true);
    expect(/<script[^>]+src=/.test(html)).toBe(false);
    expect(/<link[^>]+href=/.test(html)).toBe(false);
  });

  it('xtrust gate passes under a loose bound and fails (exit 1) under a strict one', () => {
    const share = audit.summary.untrustworthyShare as number;
    const loose = xtrust(['gate', '--run', runDir, '--max-untrustworthy', '1', '--json']);
    expect(loose.code).toBe(0);
    expect(JSON.parse(loose.stdout)).toMatchObject({ passed: true, untrustworthyShare: share });
    // the fixture's audit judges some predictions untrustworthy, so a bound below its share fails
    expect(share).toBeGreaterThan(0);
    const strict = xtrust(['gate', '--run', runDir, '--max-untrustworthy', String(share / 2)]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^FAILED/);
  });

  it("xtrust label with the saved store gives the audit's verdicts", async () => {
    const out = join(fx.dir, 'labels');
    const r = await labelWithStore(out);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).verdicts).toEqual(audit.summary.verdicts);
    const labels = readJsonl(join(out, 'labels.jsonl')).map((l) => l.verdict);
    const audited = readJsonl(join(runDir, 'predictions.jsonl')).map((l) => l.verdict);
    expect(labels).toEqual(audited);
  });

  it('counts token categories as no reason for any class (--unrelated-categories) and says why', async () => {
    expect(audit.summary.settings.unrelatedCategories).toEqual([...TOKEN_CATEGORY_NAMES]);
    const audited = readJsonl(join(runDir, 'predictions.jsonl'));
    const withCategories = audited.filter((p) => p.categories);
    expect(withCategories.length).toBeGreaterThan(0);
    // the summary counts, per category, the untrustworthy predictions resting on it
    const counted: Record<string, number> = {};
    for (const p of audited.filter((x) => x.verdict === 'untrustworthy'))
      for (const c of p.categories ?? []) counted[c.category] = (counted[c.category] ?? 0) + 1;
    expect(audit.summary.untrustworthyByCategory).toEqual(counted);
    for (const p of withCategories)
      for (const c of p.categories) {
        expect(TOKEN_CATEGORY_NAMES).toContain(c.category);
        for (const w of c.words) {
          expect(p.unrelated).toContain(w);
          if (p.verdict === 'untrustworthy') expect(p.why[w]).toMatch(/^a token of the category "/);
        }
      }
    const out = join(fx.dir, 'labels-no-categories');
    const r = await labelWithStore(out, ['--unrelated-categories', 'none']);
    expect(r.code).toBe(0);
    const plain = readJsonl(join(out, 'labels.jsonl'));
    expect(plain.some((p) => p.categories)).toBe(false);
    // a category only adds unrelated weight and merges reasons: what was flagged without it stays flagged
    plain.forEach((p, i) => {
      if (p.verdict === 'untrustworthy') expect(audited[i].verdict).toBe('untrustworthy');
    });
  });

  it("names each untrustworthy prediction's decisive reason, above its bound, and counts the bounds", () => {
    const audited = readJsonl(join(runDir, 'predictions.jsonl'));
    const counted = { margin: 0, share: 0, related: 0 };
    for (const p of audited) {
      if (p.verdict !== 'untrustworthy') {
        expect(p.decisive).toBeUndefined();
        continue;
      }
      // toki's decisive-word rule names the reason: its words are unrelated decision words, heavier than the bound
      expect(p.decisive.words.length).toBeGreaterThan(0);
      for (const w of p.decisive.words) expect(p.unrelated).toContain(w);
      expect(p.decisive.weight).toBeGreaterThan(p.decisive.bound);
      counted[p.decisive.by as 'margin' | 'share' | 'related']++;
    }
    expect(audit.summary.untrustworthyByBound).toEqual(counted);
  });

  it('confirms each decisive reason by removing it: the prediction changes or loses > 0.75 of its margin', () => {
    const audited = readJsonl(join(runDir, 'predictions.jsonl'));
    // two classes: the margin of the predicted class is 2p − 1, before and without the reason's words
    const keeps = (p: { predicted: string; confidence: number }, w: { predicted: string; probability: number }) =>
      w.predicted === p.predicted && 2 * w.probability - 1 >= 0.25 * (2 * p.confidence - 1);
    let overruled = 0;
    for (const p of audited) {
      if (p.verdict === 'untrustworthy') expect(keeps(p, p.decisive.without)).toBe(false);
      if (!p.overruled) continue;
      overruled++;
      expect(p.verdict).toBe('trustworthy');
      expect(p.overruled.weight).toBeGreaterThan(p.overruled.bound);
      expect(keeps(p, p.overruled.without)).toBe(true);
    }
    expect(audited.some((p) => p.decisive?.without)).toBe(true);
    expect(audit.summary.overruledByRemoval).toBe(overruled);
  });

  it('xtrust label --unlabelled labels every prediction of texts without labels', async () => {
    const texts = join(fx.dir, 'incoming.txt');
    writeFileSync(texts, 'free money offer, click here now\nthe meeting moved to thursday, see the agenda\n');
    const out = join(fx.dir, 'labels-unlabelled');
    const r = await labelWithStore(out, ['--unlabelled'], texts);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).verdicts.incorrect).toBe(0);
    const rows = readJsonl(join(out, 'labels.jsonl'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.truth).toBeNull();
      expect(['trustworthy', 'untrustworthy', 'unknown']).toContain(row.verdict);
    }
  });

  it('xtrust report writes the report again from the run', () => {
    const target = join(fx.dir, 'again.html');
    const r = xtrust(['report', '--run', runDir, '--output', target, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).report).toBe(target);
    expect(readFileSync(target, 'utf8')).toContain('Naive vs TOKI');
  });

  it('xtrust explain prints explanations of given texts as JSON', () => {
    const r = xtrust([
      'explain',
      '--model',
      fx.model,
      '--text',
      'free money offer click now',
      '--samples',
      '100',
      '--top-k',
      '3',
      '--json',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    const [e] = JSON.parse(r.stdout).explanations;
    expect(e.predictedLabel).toMatch(/^(ham|spam)$/);
    expect(e.features.length).toBeLessThanOrEqual(3);
    expect(e.params).toMatchObject({ numSamples: 100 });
  });

  it('xtrust compare scores two explanations, plain and synonymity-weighted', () => {
    const a = join(fx.dir, 'a.json');
    const b = join(fx.dir, 'b.json');
    const expl = (text: string, words: string[]) => ({
      text,
      method: 'lime',
      params: {},
      predictedLabel: 'spam',
      explainedLabel: 'spam',
      features: words.map((word, i) => ({ word, weight: 1 - i / 10 })),
    });
    writeFileSync(a, JSON.stringify(expl('the film was good', ['good', 'film', 'was'])));
    writeFileSync(b, JSON.stringify(expl('the movie was good', ['good', 'movie', 'was'])));
    const r = xtrust(['compare', a, b, '--json']);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.mapping).toEqual([['film', 'movie']]);
    expect(c.plain.jaccard).toBeCloseTo(2 / 4, 10);
    // film → movie are near-synonyms: the weighted Jaccard credits the substitution
    expect(c.weighted.jaccard).toBeGreaterThan(c.plain.jaccard);
  });
});

describe('bad input: one line, exit 2', () => {
  const oneLine = (r: { code: number | null; stderr: string }) => {
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^xtrust: /);
  };

  it('a model path that does not exist', () => {
    const r = xtrust(['audit', '--model', join(fx.dir, 'nope'), '--train', fx.train, '--test', fx.test]);
    oneLine(r);
    expect(r.stderr).toContain('does not exist');
  });

  it('a folder that is not a classifier', () => {
    const r = xtrust(['audit', '--model', fx.dir, '--train', fx.train, '--test', fx.test]);
    oneLine(r);
    expect(r.stderr).toContain('not a classifier');
  });

  it('a CSV without the named column', () => {
    const r = xtrust(['audit', '--model', fx.model, '--train', fx.train, '--test', fx.test, '--text-column', 'body']);
    oneLine(r);
    expect(r.stderr).toContain('body');
  });

  it("class names that do not match the model's labels", () => {
    const r = xtrust([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--class-names',
      'spma=junk',
    ]);
    oneLine(r);
    expect(r.stderr).toContain('"spma"');
  });

  it('a label the model does not have', () => {
    const bad = join(fx.dir, 'bad-label.csv');
    writeFileSync(bad, 'text,label\nhello there friend,eggs\n');
    const r = xtrust(['audit', '--model', fx.model, '--train', fx.train, '--test', bad]);
    oneLine(r);
    expect(r.stderr).toContain('eggs');
  });

  it('--resume on a run directory of another command', () => {
    const r = xtrust(['keywords', '--model', fx.model, '--train', fx.train, '--out', runDir, '--resume']);
    oneLine(r);
    expect(r.stderr).toContain('xtrust audit');
  });

  it('--resume on a run directory made with other settings', () => {
    const otherSamples = SMALL_AUDIT.map((a, i) => (SMALL_AUDIT[i - 1] === '--samples' ? '300' : a));
    const r = xtrust([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--trust-column',
      'trust',
      '--out',
      runDir,
      '--resume',
      ...otherSamples,
    ]);
    oneLine(r);
    expect(r.stderr).toContain('samples');
  });

  it('--resume with another model', async () => {
    // any model other than the fixture's will do
    const other = join(fx.dir, 'other-model');
    const { trainClassifier } = await import('@xtrust/models');
    const { loadSpamAssassin, sample } = await import('@xtrust/datasets');
    const train = sample(loadSpamAssassin({ headers: false }).rows, 100, 7).map((r) => ({
      text: r.text.slice(0, 300),
      label: r.label,
    }));
    await (await trainClassifier('bow-logistic', train, { seed: 7, labels: fx.labels })).save(other);
    const r = xtrust([
      'audit',
      '--model',
      other,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--trust-column',
      'trust',
      '--out',
      runDir,
      '--resume',
      ...SMALL_AUDIT,
    ]);
    oneLine(r);
    expect(r.stderr).toMatch(/^xtrust: cannot resume: .* was made with model = probe-sha256:/);
  });

  it('a gate on an unfinished or missing run', () => {
    oneLine(xtrust(['gate', '--run', tempDir(), '--max-untrustworthy', '0.1']));
    const bound = xtrust(['gate', '--run', runDir, '--max-untrustworthy', '2']);
    oneLine(bound);
  });

  it('an --out folder with other files is never overwritten', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'precious.txt'), 'keep me');
    const r = xtrust(['audit', '--model', fx.model, '--train', fx.train, '--test', fx.test, '--out', dir]);
    oneLine(r);
    expect(existsSync(join(dir, 'precious.txt'))).toBe(true);
  });
});
