import type { AuditedPrediction, AuditSummary, PoolWord, RelatedShare } from '../audit-records.js';
import { chartJsSource } from './assets.js';
import { escapeHtml, jsonForScript, scriptSafe } from './escape.js';
import { classColour, highlightText, markSubstitutions } from './highlight.js';
import { comparisonTooSmall, decidedSentence, overDeterminedSentence, tooSmallSentence } from '../ground-truth-text.js';
import { probesSection, type ProbedSummary } from './probes.js';
import { boundSentence, decisiveSentence, decisiveTotal, overruledLine, overruledSentence } from '../decisive-text.js';

/** One attack example for the report: the text before and after, and what the model said. */
export interface AttackExample {
  readonly recipe: string;
  readonly original: string;
  readonly perturbed: string;
  readonly originalLabel: string;
  readonly perturbedLabel: string;
  readonly success: boolean;
}

/** Everything a report shows. */
export interface ReportInput {
  readonly summary: ProbedSummary;
  readonly predictions: readonly AuditedPrediction[];
  readonly attacks?: readonly AttackExample[];
  readonly title?: string;
  /** Predictions listed at most (default 1,000: a report stays a few megabytes); all of them are in predictions.jsonl. */
  readonly maxPredictions?: number;
}

/** Predictions a report lists by default. */
export const MAX_REPORT_PREDICTIONS = 1000;

const pct = (x: number | null | undefined) =>
  x === null || x === undefined || Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)} %`;
const num = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** A word pool as a cloud: font size grows with the word's averaged importance s̄_w. */
function wordCloud(words: readonly PoolWord[], kind: 'keyword' | 'spurious'): string {
  if (words.length === 0) return '<p class="muted">none</p>';
  const max = Math.max(...words.map((w) => w.importance), 1e-12);
  return `<div class="cloud ${kind}">${words
    .map((w) => {
      // linear in importance: the few words a class leans on most stand out from the rest
      const size = (0.75 + 1.35 * (Math.max(0, w.importance) / max)).toFixed(2);
      const title = `${w.word}: importance ${w.importance.toFixed(4)}${w.why ? `\n${w.why}` : ''}`;
      return `<span style="font-size:${size}em" title="${escapeHtml(title)}">${escapeHtml(w.word)}</span>`;
    })
    .join(' ')}</div>`;
}

function summarySection(s: AuditSummary): string {
  const labelCount = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([l, n]) => `${escapeHtml(l)} ${n}`)
      .join(', ');
  const model = Object.entries(s.model)
    .filter(([k]) => k !== 'labels')
    .map(
      ([k, v]) =>
        `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(typeof v === 'number' ? String(Number(v.toFixed(4))) : typeof v === 'string' ? v : JSON.stringify(v))}</td></tr>`,
    )
    .join('');
  return `<section id="summary"><h2>Model and data</h2>
<div class="cards">
 <div class="card"><div class="big">${pct(s.accuracy)}</div><div>accuracy on the audited test texts</div></div>
 <div class="card"><div class="big" id="untrustworthy-share">${pct(s.untrustworthyShare)}</div><div>of correct predictions untrustworthy (TOKI)</div></div>
 <div class="card"><div class="big">${s.data.auditedTestRows}</div><div>test predictions audited</div></div>
</div>
<table class="kv"><tbody>
${model}
<tr><th>dataset</th><td>${escapeHtml(s.data.dataset)}</td></tr>
<tr><th>labels</th><td>${s.data.labels.map((l, i) => `<span class="chip" style="background:rgba(${classColour(i)},0.25)">${escapeHtml(l)}</span>`).join(' ')}</td></tr>
<tr><th>training texts</th><td>${s.data.trainRows} (${labelCount(s.data.labelCounts.train)})</td></tr>
<tr><th>test texts audited</th><td>${s.data.auditedTestRows} of ${s.data.testRows} (${labelCount(s.data.labelCounts.test)})</td></tr>
<tr><th>verdicts</th><td>${Object.entries(s.verdicts)
    .map(([v, n]) => `${escapeHtml(v)} ${n}`)
    .join(', ')}${
    Object.keys(s.untrustworthyByCategory ?? {}).length
      ? ` (untrustworthy resting on tokens of no class: ${Object.entries(s.untrustworthyByCategory!)
          .sort((a, b) => b[1] - a[1])
          .map(([c, n]) => `${escapeHtml(c)} ${n}`)
          .join(', ')})`
      : ''
  }${
    s.untrustworthyByBound && decisiveTotal(s.untrustworthyByBound) > 0
      ? `; untrustworthy decided by: ${escapeHtml(boundSentence(s.untrustworthyByBound))}`
      : ''
  }${s.overruledByRemoval ? `; ${escapeHtml(overruledLine(s.overruledByRemoval)!)}` : ''}</td></tr>
<tr><th>settings</th><td>${escapeHtml(`explainer ${s.settings.explainer} (${s.settings.samples} samples, top ${s.settings.topK} words), oracle ${s.settings.oracle ?? 'toki'}, keyword identification on ${s.settings.trainSample} training texts, θ_dist ${s.settings.thetaDist}, ${s.settings.embeddings.map((e) => `${e.name} θ_relate ${e.thetaRelate.toFixed(3)}`).join(', ')}, seed ${s.settings.seed}${s.settings.unrelatedCategories ? `, no reason for any class: ${s.settings.unrelatedCategories.length ? s.settings.unrelatedCategories.join(', ') : 'no token category'}` : ''}`)}</td></tr>
<tr><th>time</th><td>keywords ${num(s.seconds.keywords, 1)} s, labelling ${num(s.seconds.labelling, 1)} s</td></tr>
</tbody></table></section>`;
}

function confidenceSection(s: AuditSummary): string {
  const hasTruth = s.confidence.some((b) => b.truthTrustworthy !== undefined);
  const rows = s.confidence
    .map(
      (b) =>
        `<tr><td>${b.lo.toFixed(1)}–${b.hi.toFixed(1)}</td><td>${b.trustworthy}</td><td>${b.untrustworthy}</td>${hasTruth ? `<td>${b.truthTrustworthy}</td><td>${b.truthUntrustworthy}</td>` : ''}</tr>`,
    )
    .join('');
  return `<section id="confidence"><h2>Trustworthiness by confidence</h2>
<p>Correct predictions by the model's confidence and the oracle's verdict (the TOKI paper's Figure 6): high confidence does not mean the right reasons.</p>
<div class="chart"><canvas id="chart-confidence"></canvas></div>
<table class="grid"><thead><tr><th>confidence</th><th>TOKI trustworthy</th><th>TOKI untrustworthy</th>${hasTruth ? '<th>truly trustworthy</th><th>truly untrustworthy</th>' : ''}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

/**
 * "N of M pool words (X % of the pool's importance) are related to the class", or '' for a summary written
 * before the related share existed.
 */
export function relatedShareSentence(related: RelatedShare | undefined): string {
  if (!related) return '';
  return `${related.words} of ${related.pool} pool words (${pct(related.importanceShare)} of the pool's importance) are related to the class`;
}

/** "leans on the function words to, a (counted as unrelated in its verdicts)": a class's leaned-on function words. */
export function leanedSentence(words: readonly string[] = [], phrase: readonly string[] = []): string {
  const plural = (ws: readonly string[]) => `function word${ws.length > 1 ? 's' : ''} ${ws.join(', ')}`;
  const strong = words.length ? `leans on the ${plural(words)} (counted as unrelated in its verdicts)` : '';
  const weak = phrase.length
    ? `${strong ? ', and less on the' : 'leans on the'} ${plural(phrase)} (counted as unrelated only inside a phrase with other unrelated words)`
    : '';
  return strong + weak;
}

function poolsSection(s: AuditSummary): string {
  const classes = s.data.labels
    .map((label, i) => {
      const p = s.pools[label];
      if (!p) return '';
      return `<div class="pool"><h3><span class="chip" style="background:rgba(${classColour(i)},0.25)">${escapeHtml(label)}</span>${p.className !== label ? ` <span class="muted">as “${escapeHtml(p.className)}”</span>` : ''} <span class="muted">(${p.explanations} explanations)</span></h3>
${p.related ? `<p class="related-share">${escapeHtml(relatedShareSentence(p.related))}.</p>` : ''}
${p.leanedFunctionWords?.length || p.phraseFunctionWords?.length ? `<p class="related-share">The model ${escapeHtml(leanedSentence(p.leanedFunctionWords, p.phraseFunctionWords))}.</p>` : ''}
<h4>Keywords: related to the class</h4>${wordCloud(p.keywords, 'keyword')}
<h4>Spurious words: the model relies on them, unrelated to the class</h4>${wordCloud(p.spurious, 'spurious')}</div>`;
    })
    .join('');
  return `<section id="pools"><h2>What each class rests on</h2><p>Word pools from explanations of correctly predicted training texts, sized by averaged importance; hover a word to see why it is or is not related. A pool almost all related to its class is worth a second look.</p><div class="pools">${classes}</div></section>`;
}

/** LIME's highlighted text, and beside it the last-layer attention's when the prediction has one. */
function explanationPanels(p: AuditedPrediction, pi: number, labels: readonly string[]): string {
  const lime = `<div class="text">${highlightText(p.text, p.features, pi, labels)}</div>`;
  if (!p.attention) return lime;
  return `<div class="panels"><div class="panel"><h5>LIME</h5>${lime}</div><div class="panel attention"><h5>attention (last layer, heads averaged)</h5><div class="text">${highlightText(p.text, p.attention, pi, labels)}</div></div></div>`;
}

function predictionsSection(s: AuditSummary, all: readonly AuditedPrediction[], max: number): string {
  const labels = s.data.labels;
  const predictions = all.slice(0, max);
  const cut =
    all.length > predictions.length
      ? `<p class="muted">Listing the first ${predictions.length} of ${all.length} predictions; predictions.jsonl in the run directory holds all of them.</p>`
      : '';
  const items = predictions
    .map((p) => {
      const pi = labels.indexOf(p.predicted);
      const truth =
        p.trustworthy === undefined ? '' : ` · ground truth <b>${p.trustworthy ? 'trustworthy' : 'untrustworthy'}</b>`;
      const words =
        p.verdict === 'trustworthy' || p.verdict === 'untrustworthy'
          ? `<div class="words">related: ${p.related.map((w) => `<span class="rel">${escapeHtml(w)}</span>`).join(' ') || '–'} · unrelated: ${p.unrelated.map((w) => `<span class="unr"${p.why?.[w] ? ` title="${escapeHtml(p.why[w])}"` : ''}>${escapeHtml(w)}</span>`).join(' ') || '–'} · IS<sub>rel</sub> ${num(p.isRel)} / IS<sub>unr</sub> ${num(p.isUnr)}${p.decisive ? ` · ${escapeHtml(decisiveSentence(p.decisive))}` : ''}${p.overruled ? ` · ${escapeHtml(overruledSentence(p.overruled))}` : ''}</div>`
          : p.reason
            ? `<div class="words muted">${escapeHtml(p.reason)}</div>`
            : '';
      return `<article class="pred" data-verdict="${escapeHtml(p.verdict)}" data-predicted="${escapeHtml(p.predicted)}">
<header>#${p.index} · predicted <span class="chip" style="background:rgba(${classColour(pi)},0.25)">${escapeHtml(p.predicted)}</span> (${num(p.confidence)})${p.truth === null ? '' : ` · true ${escapeHtml(p.truth)}`} · <span class="verdict v-${escapeHtml(p.verdict)}">${escapeHtml(p.verdict)}</span>${truth}</header>
${explanationPanels(p, pi, labels)}${words}</article>`;
    })
    .join('\n');
  const verdicts = ['trustworthy', 'untrustworthy', 'incorrect', 'unknown'];
  return `<section id="predictions"><h2>Predictions</h2>
<p>Words highlighted by their contribution: the predicted class's colour when they push towards it, the other class's${labels.length > 2 ? ' (grey with more than two classes)' : ''} when they push against it; darker means more weight. Class colours: ${labels.map((l, i) => `<span class="chip" style="background:rgba(${classColour(i)},0.6)">${escapeHtml(l)}</span>`).join(' ')}. Below each text, the oracle's <span class="rel">related</span> and <span class="unr">unrelated</span> decision words.</p>${cut}
<div class="filters">verdict: <button class="filter active" data-filter="all">all <span class="n">${predictions.length}</span></button>${verdicts
    .map(
      (v) =>
        `<button class="filter" data-filter="${v}">${v} <span class="n">${predictions.filter((p) => p.verdict === v).length}</span></button>`,
    )
    .join(
      '',
    )} · predicted <select id="label-filter"><option value="">any</option>${labels.map((l) => `<option value="${escapeHtml(l)}">${escapeHtml(l)}</option>`).join('')}</select> · showing <span id="shown-count">${predictions.length}</span></div>
<div id="prediction-list">${items}</div></section>`;
}

function comparisonSection(s: AuditSummary): string {
  const c = s.comparison;
  const g = s.groundTruth;
  if (!c && !g) return '';
  const over = g ? overDeterminedSentence(g) : null;
  const words = g ? `<p>${over ? `<b>${escapeHtml(over)}</b> ` : ''}${escapeHtml(decidedSentence(g))}</p>` : '';
  if (!c || c.tooSmall) {
    return `<section id="comparison"><h2>Naive vs TOKI against ground truth</h2>${words}
<p class="too-small">${c ? escapeHtml(comparisonTooSmall(c)) : 'No correct prediction has a ground truth.'}</p></section>`;
  }
  const rows = c.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.method)}</td><td>${num(r.accuracy)}</td><td>${num(r.precision)}</td><td>${num(r.sensitivity)}</td><td>${num(r.specificity)}</td><td>${num(r.f1)}</td><td>${num(r.gmean)}</td></tr>`,
    )
    .join('');
  const aucs = c.roc.map((r) => `${escapeHtml(r.method)} AUC ${num(r.auc)}`).join(' · ');
  return `<section id="comparison"><h2>Naive vs TOKI against ground truth</h2>${words}
<p>${c.trustworthy} trustworthy and ${c.untrustworthy} untrustworthy correct predictions with a known ground truth (trustworthy is the positive class). Naive calls a prediction trustworthy when the model's confidence is at least θ_conf.</p>
<table class="grid"><thead><tr><th>oracle</th><th>Acc</th><th>Pre</th><th>Sen</th><th>Spec</th><th>F1</th><th>G-mean</th></tr></thead><tbody>${rows}</tbody></table>
<p>${aucs}</p><div class="chart"><canvas id="chart-roc"></canvas></div></section>`;
}

/** The planted-trigger check scored beside the audit (demo). */
function scoredCaseSection(s: AuditSummary): string {
  const sc = s.scoredCase;
  if (!sc) return '';
  const head = `<section id="scored-check"><h2>Scored check: a planted shortcut with a known ground truth</h2>
<p>${escapeHtml(sc.description)} (model ${escapeHtml(sc.model)}, trained for this check with the audit's settings).</p>
<p>${sc.groundTruth && overDeterminedSentence(sc.groundTruth) ? `${escapeHtml(overDeterminedSentence(sc.groundTruth)!)} ` : ''}${escapeHtml(decidedSentence(sc.groundTruth))}</p>`;
  if (sc.tooSmall)
    return `${head}<p class="too-small">${escapeHtml(tooSmallSentence(sc.groundTruth.trustworthy, sc.groundTruth.untrustworthy, sc.minPerSide))}</p></section>`;
  const rows = sc.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.method)}</td><td>${num(r.accuracy)}</td><td>${num(r.precision)}</td><td>${num(r.sensitivity)}</td><td>${num(r.specificity)}</td><td>${num(r.f1)}</td><td>${num(r.gmean)} [${num(r.gmeanLo)}, ${num(r.gmeanHi)}]</td></tr>`,
    )
    .join('');
  return `${head}<p>Scored on ${sc.scored!.trustworthy} trustworthy and ${sc.scored!.untrustworthy} untrustworthy predictions (a seeded sample of each side); G-mean with its percentile-bootstrap 95 % interval.</p>
<table class="grid"><thead><tr><th>oracle</th><th>Acc</th><th>Pre</th><th>Sen</th><th>Spec</th><th>F1</th><th>G-mean [95 % CI]</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function attacksSection(attacks: readonly AttackExample[] | undefined): string {
  if (!attacks || attacks.length === 0) return '';
  const items = attacks
    .map((a) => {
      const m = markSubstitutions(a.original, a.perturbed);
      return `<article class="attack"><header>${escapeHtml(a.recipe)} · ${escapeHtml(a.originalLabel)} → ${escapeHtml(a.perturbedLabel)} · ${a.success ? '<b class="v-untrustworthy">succeeded</b>' : 'failed'}${m.changed >= 0 ? ` · ${m.changed} words substituted` : ''}</header>
<div class="text">${m.original}</div><div class="text">${m.perturbed}</div></article>`;
    })
    .join('\n');
  return `<section id="attacks"><h2>Attack examples</h2><p>Substituted words are struck through in the original and underlined in the perturbed text.</p>${items}</section>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em 2em;color:#222}
h1{margin-bottom:0}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
.muted{color:#777}.cards{display:flex;gap:1em;margin:1em 0}.card{flex:1;border:1px solid #ddd;border-radius:6px;padding:.8em}
.big{font-size:2em;font-weight:600}table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .7em;text-align:left;vertical-align:top}
.grid td,.grid th{border:1px solid #ddd}.kv th{color:#555;font-weight:500}.chip{border-radius:3px;padding:0 .35em}
.chart{max-width:800px;height:320px}.pools{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:1em}
.pool{border:1px solid #ddd;border-radius:6px;padding:.5em 1em}.cloud span{display:inline-block;margin:0 .25em;line-height:1.2}
.cloud.keyword span{color:#1a7f37}.cloud.spurious span{color:#b42318}
.filters{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #eee;z-index:1}
.filter{border:1px solid #bbb;background:#f6f6f6;border-radius:4px;margin:0 .2em;padding:.2em .6em;cursor:pointer}.filter.active{background:#222;color:#fff}
.pred,.attack{border:1px solid #ddd;border-radius:6px;margin:.7em 0;padding:.5em .8em}.pred header,.attack header{font-size:.92em;color:#444;margin-bottom:.3em}
.text{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px;max-height:18em;overflow:auto;background:#fafafa;padding:.4em;border-radius:4px;margin:.2em 0}
mark.w{color:inherit;border-radius:2px}.cut{color:#777;font-style:italic}.words{font-size:.9em;margin-top:.3em}
.rel{color:#1a7f37}.unr{color:#b42318}tr.leans td{background:#fdecea}.verdict{font-weight:600}.v-trustworthy{color:#1a7f37}.v-untrustworthy{color:#b42318}.v-incorrect{color:#777}.v-unknown{color:#9a6700}
del{background:#fdd;text-decoration:line-through}ins{background:#dfd}
.panels{display:grid;grid-template-columns:1fr 1fr;gap:.6em}.panel h5{margin:.2em 0;font-weight:500;color:#555}`;

/** The report's own script: filters and charts, reading the data block (never HTML strings). */
const SCRIPT = `(function(){
var data=JSON.parse(document.getElementById('report-data').textContent);
var verdict='all',label='';
function apply(){var n=0;document.querySelectorAll('#prediction-list .pred').forEach(function(el){
var ok=(verdict==='all'||el.dataset.verdict===verdict)&&(!label||el.dataset.predicted===label);el.hidden=!ok;if(ok)n++;});
document.getElementById('shown-count').textContent=String(n);}
document.querySelectorAll('button.filter').forEach(function(b){b.addEventListener('click',function(){
verdict=b.dataset.filter;document.querySelectorAll('button.filter').forEach(function(x){x.classList.toggle('active',x===b);});apply();});});
var sel=document.getElementById('label-filter');if(sel)sel.addEventListener('change',function(){label=sel.value;apply();});
if(typeof Chart==='undefined')return;
var b=data.confidence,names=b.map(function(x){return x.lo.toFixed(1)+'–'+x.hi.toFixed(1);});
var sets=[{label:'TOKI trustworthy',data:b.map(function(x){return x.trustworthy;}),backgroundColor:'rgba(26,127,55,0.75)',stack:'toki'},
{label:'TOKI untrustworthy',data:b.map(function(x){return x.untrustworthy;}),backgroundColor:'rgba(180,35,24,0.75)',stack:'toki'}];
if(b.length&&b[0].truthTrustworthy!==undefined){sets.push({label:'truly trustworthy',data:b.map(function(x){return x.truthTrustworthy;}),backgroundColor:'rgba(26,127,55,0.35)',stack:'truth'});
sets.push({label:'truly untrustworthy',data:b.map(function(x){return x.truthUntrustworthy;}),backgroundColor:'rgba(180,35,24,0.35)',stack:'truth'});}
window.xtrustCharts=[new Chart(document.getElementById('chart-confidence'),{type:'bar',data:{labels:names,datasets:sets},
options:{animation:false,maintainAspectRatio:false,scales:{x:{stacked:true,title:{display:true,text:'model confidence'}},y:{stacked:true,title:{display:true,text:'correct predictions'}}}}})];
var roc=document.getElementById('chart-roc');
if(roc&&data.comparison){var colours=['rgba(127,127,127,1)','rgba(31,119,180,1)'];
var ds=data.comparison.roc.map(function(r,i){return {label:r.method+' (AUC '+r.auc.toFixed(3)+')',data:r.fpr.map(function(f,j){return {x:f,y:r.tpr[j]};}),showLine:true,borderColor:colours[i%2],backgroundColor:colours[i%2],pointRadius:0,stepped:false};});
ds.push({label:'chance',data:[{x:0,y:0},{x:1,y:1}],showLine:true,borderDash:[4,4],borderColor:'#bbb',pointRadius:0});
window.xtrustCharts.push(new Chart(roc,{type:'scatter',data:{datasets:ds},options:{animation:false,maintainAspectRatio:false,scales:{x:{min:0,max:1,title:{display:true,text:'false-positive rate'}},y:{min:0,max:1,title:{display:true,text:'true-positive rate'}}}}}));}
})();`;

/** The audit report: one self-contained HTML file (styles, data, Chart.js and script inline; no network). */
export function renderReport(input: ReportInput): string {
  const s = input.summary;
  const title = input.title ?? `xtrust audit: ${s.data.dataset}`;
  // The data block holds only what the charts need; texts are rendered (escaped) in the HTML.
  const data = { confidence: s.confidence, comparison: s.comparison ?? null };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1><p class="muted">xtrust trustworthiness audit · ${escapeHtml(new Date().toISOString().slice(0, 19).replace('T', ' '))} UTC</p>
${summarySection(s)}
${confidenceSection(s)}
${poolsSection(s)}
${probesSection(s)}
${comparisonSection(s)}
${scoredCaseSection(s)}
${attacksSection(input.attacks)}
${predictionsSection(s, input.predictions, input.maxPredictions ?? MAX_REPORT_PREDICTIONS)}
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${scriptSafe(chartJsSource())}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
