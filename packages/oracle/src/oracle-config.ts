import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { checkCooccurrenceSettings, type CooccurrenceSettings } from './word-cooccurrence.js';
import { AllButTheTopEmbedding, StaticEmbedding, wordnet } from '@xtrust/embeddings';
import type { TokenCheckSettings } from './token-response.js';
import type { MeaningSettings } from './word-meaning.js';
import type { CategoryNesting } from './unrelated-categories.js';
import { WORDNET_CLASS_DESCRIPTION, type ClassDescriptionConfig, type UserDescription } from './class-description.js';

/**
 * Eq. 4's test for a cluster C_i of class c's pool:
 * - `mean`: the paper's — the cluster's mean vector relates to c;
 * - `member-share`: the mean relates AND at least `memberShare` of the members relate to c one by one,
 *   so one related word cannot carry an unrelated one (a planted trigger) into K_c through a mean;
 * - `individual`: the mean relates, and a member is a keyword only when it relates to c itself.
 */
export type ClusterRule = 'mean' | 'member-share' | 'individual';

/**
 * Eq. 6's verdict:
 * - `sum`: the paper's — trustworthy iff IS_rel ≥ IS_unr;
 * - `decisive`: untrustworthy iff the unrelated words carry the decision — IS_unr > (p_c − p_2)/2, where
 *   p_c is the model's probability of the predicted class and p_2 the runner-up's. LIME's weights are
 *   local effects on p_c; removing the unrelated words lowers p_c by about IS_unr and, at worst, hands
 *   that mass to the runner-up, so the prediction would flip once IS_unr exceeds half the margin (exact
 *   for two classes). Related words then never excuse a decisive unrelated one, and unrelated words
 *   that cannot move the decision do not condemn it;
 * - `decisive-word`: untrustworthy iff one unrelated word alone exceeds that half margin;
 * - `sum-and-decisive`: trustworthy only when both the paper's test and the decisive test say so.
 * Explanations without probabilities fall back to `sum`.
 */
export type VerdictRule = 'sum' | 'decisive' | 'decisive-word' | 'sum-and-decisive';

/** Embedding post-processing applied before every cosine (clustering, Eq. 4, Eq. 5, –K.I, calibration). */
export type PostProcess = 'none' | 'all-but-the-top';

/**
 * One TOKI configuration: every choice where the default oracle departs from the paper, as a value that
 * identifyKeywords, labelPredictions/labelExplanations (through the store) and compareOracles take.
 */
export interface OracleConfig {
  /** The name shown in reports and saved in keyword stores. */
  readonly name: string;
  /** Eq. 3's cut height in cosine distance (paper: 0.3). */
  readonly thetaDist: number;
  /**
   * `all-but-the-top`: each embedding is centred on its vocabulary mean and its top D = dim/100
   * principal directions are removed (Mu & Viswanath 2018) before any cosine, and θ_relate is
   * calibrated on the post-processed vectors. The paper uses raw vectors.
   */
  readonly postProcess: PostProcess;
  /** Eq. 4's cluster test (paper: `mean`). */
  readonly clusterRule: ClusterRule;
  /** With `member-share`: the share of a cluster's members that must relate to the class (a majority, 0.5). */
  readonly memberShare: number;
  /**
   * Relatedness relative to the other classes: a vector relates to class c only when its cosine with c's
   * name is ≥ θ_relate AND at least its cosine with every other class name, so a word equally close to
   * all class names (a generic word, or a generic direction of a cluster mean) relates to none. Applies
   * to Eq. 4 (means and members) and to TOKI(–K.I). The paper thresholds each class on its own.
   */
  readonly classContrast: boolean;
  /** Eq. 6's verdict rule (paper: `sum`). */
  readonly verdictRule: VerdictRule;
  /**
   * With `decisive-word`: how many of the heaviest unrelated words are summed against half the margin
   * (absent: 1, one word alone) — 2 lets a two-word shortcut (a phrase) count as one reason.
   */
  readonly decisiveWords?: number;
  /**
   * With `decisive-word`: a reason (an unrelated word, or a group of them) is also decisive when it carries
   * at least this share of the explanation's supporting weight (the summed weight of its decision words,
   * related, unrelated and neutral). LIME's weights are slopes of a linear model fitted where about half the
   * words are gone; a saturated model (p_c ≈ 1) spreads a phrase's joint effect thinly over its words, so a
   * phrase that flips the prediction when removed can weigh less than half the margin while carrying most of
   * the explanation (issue 48). null / absent: half the margin alone.
   */
  readonly decisiveShare?: number | null;
  /**
   * With `decisive-word`: an unrelated reason is decisive only when it also outweighs this many times the
   * prediction's related weight IS_rel — Eq. 6's comparison of related against unrelated importance, kept
   * inside the decisive rule. A prediction with a small margin p_c − p_2 can be flipped by removing almost any
   * word, so without it a light era or genre word beside a heavy related word condemns a prediction that
   * rests mostly on the related one (issue 47's related controls: *statistics* → government weighing 0.46
   * against an unrelated *2* at 0.065 over a half margin of 0.015). null / absent: the bound alone decides.
   */
  readonly relatedCounterweight?: number | null;
  /**
   * With `decisive-word` and the model at hand (LabelOptions.classifier; labelPredictions passes its own):
   * a reason the weights call decisive is removed from the text — every occurrence of its words, and of the
   * categories it holds — and the model asked again; the prediction is untrustworthy only when the removal
   * changes it or costs more than this share of its margin p_c − p_2 (1: only a changed prediction counts;
   * removal-check.ts). LIME's weights are a linear fit where half the words are gone: on a saturated
   * prediction a reason can outweigh the bound while the rest of the text decides the class as well (a
   * mail's header block beside its body). null / absent: the weights alone decide.
   */
  readonly removalCheck?: number | null;
  /**
   * With unrelated categories (LabelOptions.unrelatedCategories), which category names a token that spans of
   * several cover (a date's numbers inside a mail's header block, digits inside a URL): `first` (absent /
   * null), the first listed; `outermost`, the one whose covering span is longest, and a category reason's
   * removal then takes that category only — what is weighed as one reason is what the removal check removes.
   */
  readonly categoryNesting?: CategoryNesting | null;
  /**
   * Function words (FUNCTION_WORDS: NLTK's and the `stopword` package's English lists) are never
   * keywords, whatever their cosine to the class name. The paper lets the embedding decide them.
   */
  readonly functionWordsNeverKeywords: boolean;
  /**
   * With function words never keywords: a function word the model **leans on** for a class is counted in
   * that class's verdicts as an unrelated word instead of staying neutral (issue 48: a boilerplate phrase
   * made of function words, *to make a long*, is otherwise invisible). The model leans on w for c when w is
   * among the decision words of a share of c's pool explanations at least this much larger than of any other
   * class's (count_c(w) / n_c − max_o count_o(w) / n_o, Eq. 2's pools): a word every class's texts use the
   * same way stays neutral. null / absent: every function word neutral.
   */
  readonly functionWordLean?: number | null;
  /**
   * With function words never keywords: a function word the model leans on for a class by at least this
   * much (the same pool-share difference as functionWordLean, below it) counts in that class's verdicts only
   * inside a reason that also holds a word other than a function word — a phrase (*as a matter of*, *have
   * a great day*), grouped by `cooccurrence` — and stays neutral alone or among function words only (*you,
   * your* → spam). A boilerplate phrase planted in a share of one class's texts gives its function words a
   * lean proportional to that share, as weak as the natural lean of a class's own style words; the company
   * of a content word is what tells them apart (issue 48's eighth round). null / absent: only functionWordLean.
   */
  readonly phraseFunctionWordLean?: number | null;
  /**
   * The surface-token check (token-response.ts), or null: a keyword the model responds to as one surface
   * token — replacing it by its meaning-neighbours removes its effect (retention < minRetention) — is not
   * a keyword. Needs the model, so it runs in identifyKeywords (a store built from explanations alone
   * keeps the vote's keywords). The paper has no such step.
   */
  readonly tokenCheck: TokenCheckSettings | null;
  /**
   * A class described by several words instead of its one name (class-description.ts): Eq. 4's
   * sim(mean vector of C_i, c) becomes a relatedness to the name and its description (WordNet senses'
   * lemmas and definition words, and/or the user's `classDescriptions`) under `relate`. null: the
   * paper's one name. Absent in stores written before it existed: null.
   */
  readonly classDescription?: ClassDescriptionConfig | null;
  /**
   * Descriptions a user gives, by label (words, or a sentence whose content words are taken): added to
   * the class name whatever `classDescription` says (with its `relate`, else DEFAULT_DESCRIPTION_RELATE).
   */
  readonly classDescriptions?: Readonly<Record<string, UserDescription>>;
  /**
   * The meaning test (word-meaning.ts) in place of Eq. 4's cluster test: a pool word is a keyword when it
   * relates to the class in meaning — its score for the class's description beats that share of 300
   * background subjects, or its nearest words of the training corpus lean towards the class's texts.
   * null / absent: Eq. 4 (the cluster mean against θ_relate).
   */
  readonly meaning?: MeaningSettings | null;
  /**
   * Words that travel together are one reason (word-cooccurrence.ts, issue 48): with `decisive-word`, the
   * verdict groups a prediction's unrelated words whose training texts overlap (Jaccard ≥ minJaccard) and
   * weighs each group's summed weight where it weighed one word — a phrase planted as a shortcut counts
   * as the one reason it is. null / absent: every word alone.
   */
  readonly cooccurrence?: CooccurrenceSettings | null;
}

/** The paper's TOKI (§3, Eqs. 1–6): raw vectors, θ_dist 0.3, a cluster is related when its mean vector is. */
export const TOKI_PAPER: OracleConfig = Object.freeze({
  name: 'toki-paper',
  thetaDist: 0.3,
  postProcess: 'none',
  clusterRule: 'mean',
  memberShare: 0.5,
  classContrast: false,
  verdictRule: 'sum',
  functionWordsNeverKeywords: false,
  tokenCheck: null,
});

/**
 * The surface-token check of `toki`: per class, the keywords whose Σ importance is at least 10× the
 * median of the class's 50 heaviest content words (at most 20 of them) are replaced by their 8 nearest
 * GloVe neighbours among words of ≥ 3 sampled training texts, in the 4 texts where they weighed most; a
 * keyword whose neighbours keep less than 30 % of its effect on the class log-odds is not a keyword.
 * The thresholds sit in the middle of the plateau where every value tied on the validation family
 * (minConcentration 10–20, minRetention 0.15–9); the rest was fixed before any run.
 */
export const DEFAULT_TOKEN_CHECK: TokenCheckSettings = Object.freeze({
  neighbours: 8,
  texts: 4,
  maxWords: 20,
  minConcentration: 10,
  referenceWords: 50,
  minRetention: 0.3,
  minTextCount: 3,
  minEffect: 0.05,
});

/**
 * `toki` before issue 29's class descriptions: the paper's keyword identification (Eqs. 1–5, θ_dist 0.3,
 * raw vectors, the cluster-mean rule, Eq. 4 against the class NAME alone) with three departures — the
 * `decisive` verdict in place of Eq. 6's sum (issue 14), function words never keywords and neutral in the
 * verdict, and the surface-token check (DEFAULT_TOKEN_CHECK), which takes a planted everyday word out of
 * its class's keywords although its cosine to the class name is as high as a real keyword's. Kept under
 * its own name to reproduce the results measured with it and for class names WordNet does not know.
 */
export const TOKI_NAME_ONLY: OracleConfig = Object.freeze({
  name: 'toki-name',
  thetaDist: 0.3,
  postProcess: 'none',
  clusterRule: 'mean',
  memberShare: 0.5,
  classContrast: false,
  verdictRule: 'decisive',
  functionWordsNeverKeywords: true,
  tokenCheck: DEFAULT_TOKEN_CHECK,
});

/**
 * `toki` from issue 29 to issue 47, kept as `toki-cluster`: TOKI_NAME_ONLY with each class described in Eq. 4
 * by its name and its WordNet description (WORDNET_CLASS_DESCRIPTION: the lemmas and definition words of
 * every sense agreeing in case with the name, related to a keyword cluster by the mean over its members of
 * their largest cosine with a description item), plus any description the user gives
 * (OracleConfig.classDescriptions), the `decisive` verdict and the surface-token check. Chosen on the
 * person-written word lists' CHOICE half and the VALIDATION family of drawn shortcut cases. Issue 47 found
 * that its "related" no longer meant related: 80–95 % of a real pool passed Eq. 4, and the surface-token
 * check demoted any dominant word, a planted related word included (packages/oracle/choosing-the-default.md).
 */
export const TOKI_CLUSTER: OracleConfig = Object.freeze({
  ...TOKI_NAME_ONLY,
  name: 'toki-cluster',
  classDescription: WORDNET_CLASS_DESCRIPTION,
});

/**
 * The meaning test's settings (word-meaning.ts) of the default `toki`: a word relates to a class when its
 * score for the class's description beats 98 % of the 300 background subjects, or when its 20 nearest words
 * of the training corpus lean towards the class's texts by a mean log-ratio ≥ 1.6 (about 5×); a word's
 * score is the mean of its 3 largest item cosines. The topic percentile was chosen on validation triggers
 * (see TOKI_DEFAULT; the first choice, 0.75 / 0.3, called 22 % of 337 unrelated validation triggers
 * related). The lean was raised from 0.8 (about 2.2×) on 2026-11-28 on the validation pool of rubric-labelled
 * pool words (bow-logistic on five Brown genres the test pools do not use; bench annotated-pools
 * `--split validation`): at 0.8 the lean related mostly genre vocabulary (on the test pools 44 words the rubric
 * calls related against 136 it does not), and by the rule fixed before that run (most classes at precision
 * and recall ≥ 0.8, then mean F1; the single-word validation family and the related-validation controls kept)
 * 1.6 won: 1 class of 5 and mean F1 0.665, against 0 and 0.511 at 0.8 (1.2: 0 / 0.559; 2: 1 / 0.646; off: 1 /
 * 0.520), with the same 26 of 27 single-word validation cases at the bar and 5 of 8 controls. The joint bars
 * (MeaningSettings.joint) tried in issue 47's sixth round are in no shipped configuration: chosen on validation,
 * they made an unrelated planted word related on the test family (packages/oracle/choosing-the-default.md).
 */
export const DEFAULT_MEANING: MeaningSettings = Object.freeze({
  topicPercentile: 0.98,
  neighbourLean: 1.6,
  neighbours: 20,
  topItems: 3,
});

/**
 * The verdict's word groups of `toki` (issue 48): two pool words are one reason when the training texts
 * holding either hold both at Jaccard ≥ 0.2 (each in ≥ 5 texts). Chosen on the validation families by a
 * rule fixed before the last runs: among the candidates that keep the single-word validation family (cases
 * meeting the bar) and the related-validation controls (cases ≥ 80 %) at least where `toki` had them, the
 * one with the most natural-shortcut validation cases (phrases, scattered sets, categories) meeting the bar.
 * +pg0.2 with function words neutral passed (25 / 27 single-word cases, 2 / 8 controls, 10 natural cases
 * against 9); with function words counted it found 4 / 10 phrase cases instead of 1 but lost a control.
 */
export const DEFAULT_COOCCURRENCE: CooccurrenceSettings = Object.freeze({ minJaccard: 0.2, minTexts: 5 });

/**
 * The lean at which `toki` counts a function word against a class (OracleConfig.functionWordLean, issue
 * 48's fifth round): its share of the class's pool explanations exceeds every other class's by ≥ 0.5.
 * Chosen on the validation families by the rule fixed in the first round (keep the single-word family and
 * the related controls, then the most natural cases meeting the bar): 0.05–0.4 cost the related control
 * *discount* → spam (82.6 % → 73.4 %: spam leans on *you, your* by 0.37–0.47); 0.5 and 0.6 kept it and
 * met the bar on 3 of 10 phrase cases against 1 (ties broken by the phrases' median G-mean, 0.755 / 0.749).
 */
export const DEFAULT_FUNCTION_WORD_LEAN = 0.5;

/**
 * The phrase lean of `toki` (OracleConfig.phraseFunctionWordLean, issue 48's eighth round): a function word
 * leaning towards a class by at least 0.05, below DEFAULT_FUNCTION_WORD_LEAN, counts in the class's verdicts
 * inside a reason that holds another kind of word. Lowering the lean itself (0.1–0.4) caught the phrase
 * validation cases the lean of 0.5 missed (*as a matter of*, *better late than never*, *have a great day* at
 * shares 0.35–0.5) but cost the related control *discount* → spam (83.5 % → 73.4 %): its predictions were
 * flagged on *you, your* alone, a natural lean of spam's texts. The flags that caught the phrases were reasons
 * holding a content word; those on the control were function words alone. Chosen on the validation families
 * (30 phrase draws, from 10, so that phrases of function words were there to read) by the first round's rule:
 * 0.3, 0.2, 0.1, 0.05 and 0.01 all kept the 26 single-word cases and 5 / 8 controls and met the bar on 40 of
 * 50 natural cases against 37; the mean G-mean is flat from 0.1 down (0.9010–0.9012, against 0.8993 at 0.3),
 * and 0.05 sits in the middle of that plateau.
 */
export const DEFAULT_PHRASE_FUNCTION_WORD_LEAN = 0.05;

/**
 * The share of an explanation's supporting weight at which `toki` calls one unrelated reason decisive even
 * below half the margin (OracleConfig.decisiveShare, issue 48's sixth round). On saturated predictions
 * LIME's weights are slopes where half the words are gone: a planted phrase that flips the prediction when
 * removed weighed 0.3–0.45 against half margins near 0.49 while carrying most of the explanation. Chosen on
 * the validation families by the first round's rule (among the candidates keeping the single-word family and
 * the related controls at least where the default had them, the most natural cases meeting the bar): 0.5 kept
 * all 25 single-word cases (26 / 27) and 5 / 8 controls and met the bar on 18 of 31 natural cases against 13;
 * 0.6 met it on 20 but lost a single-word case, 0.4 lost three.
 */
export const DEFAULT_DECISIVE_SHARE = 0.5;

/**
 * The removal check of `toki` (OracleConfig.removalCheck, issue 48's seventh round): a reason the weights call
 * decisive is confirmed when removing it from the text changes the prediction or costs more than 0.75 of its
 * margin. The sixth round's cost was predictions flagged on a reason they do not need — a header block, a
 * text's numbers, one era word — because on a saturated prediction LIME's slopes overstate what removing a
 * reason does when the rest of the text decides the class too. Chosen on the validation families by the first
 * round's rule (keep the single-word family and the related controls where the default had them, then the most
 * natural cases at the bar, ties by their mean G-mean): 1, 0.75 and 0.5 all kept the 26 single-word and 5
 * control cases; 1 and 0.75 met the bar on 21 of 31 natural cases (0.5: 20; none: 18), 0.75 with the higher
 * mean G-mean (0.882 against 0.877; none 0.840).
 */
export const DEFAULT_REMOVAL_CHECK = 0.75;

/**
 * How `toki` names a token that several unrelated categories cover (OracleConfig.categoryNesting, issue 48's
 * tenth round): by the outermost, so a mail's header block — its dates, addresses and names included — is one
 * reason, and a number inside a URL is part of the URL; a category reason's removal then takes that category
 * only. Under `first` the block's numbers and addresses were weighed as separate reasons (each under its
 * bound, so a prediction resting on the whole block went unflagged), while the removal check took every
 * category covering a reason's words (a reason of numbers lost its URLs too, and survived). Chosen on the
 * validation families by the first round's rule (a natural case gained, none lost anywhere): the three header
 * cases rose over the bar (categories 7 of 11 against 4), phrases 28 / 29, scattered sets 8 / 10, single words
 * 27 / 27 and related controls 6 / 8 unchanged.
 */
export const DEFAULT_CATEGORY_NESTING: CategoryNesting = 'outermost';

/**
 * The related counterweight of `toki` (OracleConfig.relatedCounterweight, issue 47's fifth round): an unrelated
 * reason is decisive only when it also outweighs the prediction's related weight IS_rel — Eq. 6's comparison
 * kept inside the decisive rule. The related-validation controls lost trigger-reliant predictions on small
 * margins: *statistics* → government (related weight 0.42–0.61) flagged on an unrelated *2* or *development*
 * (0.07–0.45, lighter in 26 of 27 cases), whose removal costs most of a margin of 0.004–0.48. Chosen on the validation
 * families by the first round's rule (keep the single-word family and the related controls where the default
 * had them, then the most natural cases at the bar, ties by their mean G-mean): 0.5, 1, 1.5 and 2 all kept the
 * 26 single-word cases and raised the controls from 5 to 6 of 8; 0.5 and 1 met the bar on 40 of 50 natural
 * cases (1.5: 39, 2: 36), 1 with the higher mean G-mean (0.9022 against 0.9004; 0.9011 without it).
 */
export const DEFAULT_RELATED_COUNTERWEIGHT = 1;

/**
 * xtrust's default TOKI (issue 47: "related" must mean related). Keyword identification by meaning: a pool
 * word is a keyword when it relates to its class in meaning (DEFAULT_MEANING: its topic percentile against
 * 300 background subjects, or its training-corpus neighbours' lean; a name by the former only) — in place of
 * Eq. 4's cluster test, which called 80–95 % of every real pool related. No surface-token check: a dominant
 * word is no longer demoted for being dominant, so a planted word related to its class stays a keyword.
 * Reliance is the verdict's to judge: `decisive-word` — untrustworthy when one unrelated word alone could
 * flip the decision (its importance exceeds half the margin), so the many unrelated words of an ordinary
 * prediction do not condemn it and a shortcut word does; words that travel together in the training texts
 * (DEFAULT_COOCCURRENCE, issue 48) count as one reason, so a phrase is weighed whole, and a reason that
 * carries half the explanation's supporting weight is decisive too (DEFAULT_DECISIVE_SHARE: a saturated
 * model spreads a phrase's joint effect thinly over LIME's slopes). With the model at hand, a decisive reason
 * is confirmed by removing it from the text (DEFAULT_REMOVAL_CHECK: the prediction changes or loses more than
 * 0.75 of its margin), so a reason the rest of the text makes unnecessary does not condemn the prediction; a
 * token several unrelated categories cover is the outermost's (DEFAULT_CATEGORY_NESTING). Function words are
 * never keywords, and neutral in the verdict unless the model leans on one for the class
 * (DEFAULT_FUNCTION_WORD_LEAN), or leans on it less but it travels in a phrase with another unrelated word
 * (DEFAULT_PHRASE_FUNCTION_WORD_LEAN); an unrelated reason lighter than the prediction's related words decides
 * nothing (DEFAULT_RELATED_COUNTERWEIGHT); classes are described as in `toki-cluster` (WordNet, and the user's
 * `classDescriptions`).
 * Chosen on validation data only, in two rounds. First, among the candidates that kept the unrelated drawn
 * VALIDATION family at its bars (G-mean ≥ 0.85 on ≥ 90 % of scored cases, median ≥ 0.9, 10th percentile ≥
 * 0.8), the one with the most related-validation controls ≥ 80 % trustworthy: thresholds 0.75 / 0.3. Run once
 * on the TEST family it called 10 of 40 planted unrelated triggers related (26 of 40 cases ≥ 0.85): the 27
 * scored validation cases had held too few everyday triggers to show it. Second, on 487 triggers of the
 * validation families (338 unrelated and 150 related known to GloVe, of the first 400 / 150 draws), the
 * thresholds relating the most related triggers among those relating ≤ 5 % of the unrelated ones, keeping
 * the topic percentile (a user's class description must act): 0.98 / 0.8 — 36.7 % of the related and 3.8 %
 * of the unrelated triggers (apps/bench oracle/meaning-thresholds.ts); the lean was raised to 1.6 in a third
 * step, on rubric-labelled validation pools (DEFAULT_MEANING). The runs are in the bench's oracle sections
 * (related-controls, oracle-drawn, oracle-drawn-validation) and packages/oracle/choosing-the-default.md.
 */
export const TOKI_DEFAULT: OracleConfig = Object.freeze({
  ...TOKI_CLUSTER,
  name: 'toki',
  meaning: DEFAULT_MEANING,
  tokenCheck: null,
  verdictRule: 'decisive-word',
  cooccurrence: DEFAULT_COOCCURRENCE,
  functionWordLean: DEFAULT_FUNCTION_WORD_LEAN,
  phraseFunctionWordLean: DEFAULT_PHRASE_FUNCTION_WORD_LEAN,
  decisiveShare: DEFAULT_DECISIVE_SHARE,
  removalCheck: DEFAULT_REMOVAL_CHECK,
  relatedCounterweight: DEFAULT_RELATED_COUNTERWEIGHT,
  categoryNesting: DEFAULT_CATEGORY_NESTING,
});

/**
 * `toki` with function words counted (issue 48): a function word is judged by the meaning test like any
 * word (it relates to no class) and weighs in the verdict, so a shortcut phrase made mostly of function
 * words (*to make a long*, *on the other hand*) is seen — and so is a prediction resting on such words
 * wherever they occur. On the phrase families it found 4 / 10 validation and 7 / 15 test cases meeting
 * the bar against `toki`'s 1 / 10 and 3 / 15; it lost one related-validation control (1 / 8 at ≥ 80 %
 * against 2 / 8), which kept it from being the default under the rule fixed before the run.
 */
export const TOKI_PHRASE: OracleConfig = Object.freeze({
  ...TOKI_DEFAULT,
  name: 'toki-phrase',
  functionWordsNeverKeywords: false,
});

/**
 * The named configurations: `toki` (the default), `toki-phrase` (function words counted), `toki-cluster`
 * (the default before issue 47: Eq. 4's cluster test and the surface-token check), `toki-name`
 * (toki-cluster with class names alone) and `toki-paper`.
 */
export const ORACLES: Readonly<Record<string, OracleConfig>> = Object.freeze({
  toki: TOKI_DEFAULT,
  'toki-phrase': TOKI_PHRASE,
  'toki-cluster': TOKI_CLUSTER,
  'toki-name': TOKI_NAME_ONLY,
  'toki-paper': TOKI_PAPER,
});

/** The names `--oracle` and the library accept. */
export type OracleName = 'toki' | 'toki-phrase' | 'toki-cluster' | 'toki-name' | 'toki-paper';

/** A configuration from a name or a value (checked); `undefined` gives the default, `toki`. */
export function resolveOracle(oracle: OracleName | string | OracleConfig | undefined): OracleConfig {
  if (oracle === undefined) return TOKI_DEFAULT;
  if (typeof oracle === 'string') {
    const c = ORACLES[oracle];
    if (!c)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `unknown oracle "${oracle}"; expected one of ${Object.keys(ORACLES).join(', ')}`,
        { oracle },
      );
    return c;
  }
  checkOracle(oracle);
  return oracle;
}

/** Refuses a configuration with a value out of range, naming the field. */
export function checkOracle(c: OracleConfig): void {
  const bad = (field: string, expected: string, got: unknown) =>
    new XtrustError(
      'INVALID_ARGUMENT',
      `oracle configuration "${c.name}": ${field} must be ${expected}, got ${String(got)}`,
      { field },
    );
  if (typeof c.name !== 'string' || c.name === '') throw bad('name', 'a non-empty string', c.name);
  if (!(c.thetaDist >= 0 && c.thetaDist <= 2)) throw bad('thetaDist', 'a cosine distance in [0, 2]', c.thetaDist);
  if (c.postProcess !== 'none' && c.postProcess !== 'all-but-the-top')
    throw bad('postProcess', "'none' or 'all-but-the-top'", c.postProcess);
  if (!['mean', 'member-share', 'individual'].includes(c.clusterRule))
    throw bad('clusterRule', "'mean', 'member-share' or 'individual'", c.clusterRule);
  if (!(c.memberShare > 0 && c.memberShare <= 1)) throw bad('memberShare', 'in (0, 1]', c.memberShare);
  if (typeof c.classContrast !== 'boolean') throw bad('classContrast', 'a boolean', c.classContrast);
  if (!['sum', 'decisive', 'decisive-word', 'sum-and-decisive'].includes(c.verdictRule))
    throw bad('verdictRule', "'sum', 'decisive', 'decisive-word' or 'sum-and-decisive'", c.verdictRule);
  if (c.decisiveWords !== undefined && !(Number.isInteger(c.decisiveWords) && c.decisiveWords >= 1))
    throw bad('decisiveWords', 'a positive integer', c.decisiveWords);
  if (c.decisiveShare != null && !(c.decisiveShare > 0 && c.decisiveShare <= 1))
    throw bad('decisiveShare', 'a share in (0, 1], or null', c.decisiveShare);
  if (
    c.relatedCounterweight != null &&
    !(
      typeof c.relatedCounterweight === 'number' &&
      c.relatedCounterweight > 0 &&
      Number.isFinite(c.relatedCounterweight)
    )
  )
    throw bad('relatedCounterweight', 'a positive finite multiple of IS_rel, or null', c.relatedCounterweight);
  if (c.removalCheck != null && !(typeof c.removalCheck === 'number' && c.removalCheck > 0 && c.removalCheck <= 1))
    throw bad('removalCheck', 'a share of the margin in (0, 1], or null', c.removalCheck);
  if (c.categoryNesting != null && c.categoryNesting !== 'first' && c.categoryNesting !== 'outermost')
    throw bad('categoryNesting', '"first", "outermost" or null', c.categoryNesting);
  if (typeof c.functionWordsNeverKeywords !== 'boolean')
    throw bad('functionWordsNeverKeywords', 'a boolean', c.functionWordsNeverKeywords);
  if (c.functionWordLean != null && !(c.functionWordLean > 0 && c.functionWordLean <= 1))
    throw bad('functionWordLean', 'a share difference in (0, 1], or null', c.functionWordLean);
  if (c.phraseFunctionWordLean != null && !(c.phraseFunctionWordLean > 0 && c.phraseFunctionWordLean <= 1))
    throw bad('phraseFunctionWordLean', 'a share difference in (0, 1], or null', c.phraseFunctionWordLean);
  if (c.classDescription != null) {
    const d = c.classDescription;
    if (!['centroid', 'max', 'member-max'].includes(d.relate))
      throw bad('classDescription.relate', "'centroid', 'max' or 'member-max'", d.relate);
    if (d.wordnet !== null && (typeof d.wordnet !== 'object' || !(d.wordnet.senses >= 1)))
      throw bad('classDescription.wordnet.senses', 'a number ≥ 1', d.wordnet?.senses);
  }
  if (c.classDescriptions !== undefined && (typeof c.classDescriptions !== 'object' || c.classDescriptions === null))
    throw bad('classDescriptions', 'an object of label → description', c.classDescriptions);
  if (c.meaning != null) {
    const m = c.meaning;
    if (!(m.topicPercentile >= 0 && m.topicPercentile <= 1.01))
      throw bad('meaning.topicPercentile', 'a share in [0, 1] (above 1: never)', m.topicPercentile);
    if (!Number.isFinite(m.neighbourLean)) throw bad('meaning.neighbourLean', 'a number', m.neighbourLean);
    for (const f of ['neighbours', 'topItems'] as const)
      if (!(Number.isInteger(m[f]) && m[f] > 0)) throw bad(`meaning.${f}`, 'a positive integer', m[f]);
    if (m.wordPercentile !== undefined && !(m.wordPercentile >= 0 && m.wordPercentile <= 1))
      throw bad('meaning.wordPercentile', 'a share in [0, 1]', m.wordPercentile);
    if (m.backgroundWords !== undefined && !(Number.isInteger(m.backgroundWords) && m.backgroundWords > 0))
      throw bad('meaning.backgroundWords', 'a positive integer', m.backgroundWords);
    if (m.joint !== undefined) {
      if (typeof m.joint !== 'object' || m.joint === null)
        throw bad('meaning.joint', 'an object { topicPercentile, neighbourLean }', m.joint);
      if (!(m.joint.topicPercentile >= 0 && m.joint.topicPercentile <= 1))
        throw bad('meaning.joint.topicPercentile', 'a share in [0, 1]', m.joint.topicPercentile);
      if (!Number.isFinite(m.joint.neighbourLean))
        throw bad('meaning.joint.neighbourLean', 'a number', m.joint.neighbourLean);
    }
  }
  if (c.cooccurrence != null) checkCooccurrenceSettings(c.cooccurrence, 'oracle configuration cooccurrence');
  if (c.tokenCheck !== null) {
    const t = c.tokenCheck;
    if (typeof t !== 'object')
      throw bad(
        'tokenCheck',
        'null or { neighbours, texts, maxWords, minConcentration, referenceWords, minRetention, minTextCount, minEffect }',
        t,
      );
    if (!(t.minConcentration >= 0)) throw bad('tokenCheck.minConcentration', 'a number ≥ 0', t.minConcentration);
    for (const f of ['neighbours', 'texts', 'maxWords', 'minTextCount', 'referenceWords'] as const)
      if (!(Number.isInteger(t[f]) && t[f] > 0)) throw bad(`tokenCheck.${f}`, 'a positive integer', t[f]);
    if (!Number.isFinite(t.minRetention)) throw bad('tokenCheck.minRetention', 'a number', t.minRetention);
    if (!(t.minEffect >= 0)) throw bad('tokenCheck.minEffect', 'a number ≥ 0', t.minEffect);
  }
}

/** Words that estimate the mean and principal directions of an embedding without an enumerable vocabulary (USE): the most frequent WordNet lemmas. */
const FIT_WORDS = 5000;

const fitted = new WeakMap<WordEmbedding, Promise<AllButTheTopEmbedding>>();

/** The suffix post-processing adds to a member's name. */
function isPostProcessed(e: WordEmbedding): boolean {
  return e instanceof AllButTheTopEmbedding;
}

/**
 * The embeddings a configuration computes cosines with: the given ones, or their all-but-the-top
 * versions (fitted once per embedding object and reused). A static embedding is fitted on its 20,000
 * most frequent rows; any other on the 5,000 most frequent WordNet lemmas it knows.
 */
export async function oracleEmbeddings(
  config: OracleConfig,
  embeddings: readonly WordEmbedding[],
): Promise<WordEmbedding[]> {
  if (config.postProcess === 'none') return [...embeddings];
  const out: WordEmbedding[] = [];
  for (const e of embeddings) {
    if (isPostProcessed(e)) {
      out.push(e);
      continue;
    }
    let p = fitted.get(e);
    if (!p) {
      const words =
        e instanceof StaticEmbedding
          ? undefined
          : [
              ...new Set(
                wordnet()
                  .mostFrequent(FIT_WORDS * 3, { singleWord: true })
                  .map((r) => r.lemma.toLowerCase()),
              ),
            ].slice(0, FIT_WORDS);
      p = AllButTheTopEmbedding.fit(e, { words });
      fitted.set(e, p);
    }
    out.push(await p);
  }
  return out;
}
