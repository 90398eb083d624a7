// TOKI's embedding ensemble as the command line loads it: the members by `--embeddings` name, the
// members a keyword store was built with, and each member's calibrated θ_relate.
import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { CounterFittedEmbedding, GloveEmbedding, UseEmbedding, wordnet } from '@xtrust/embeddings';
import { calibrateThetaRelate, type KeywordStore } from '@xtrust/oracle';
import type { Progress } from './progress.js';

/**
 * The embeddings TOKI's ensemble can use offline (§3.2: every method votes with its own θ_relate), by
 * the name `--embeddings` takes, with the name each reports (which a keyword store records).
 */
export const ENSEMBLE_MEMBERS = {
  glove: { reports: 'glove-6b-100d', load: (): Promise<WordEmbedding> => GloveEmbedding.load() },
  'counter-fitted': {
    reports: 'glove-counter-fitted',
    load: (): Promise<WordEmbedding> => CounterFittedEmbedding.load(),
  },
  use: { reports: 'use-lite-512', load: (): Promise<WordEmbedding> => UseEmbedding.load() },
} as const;
export type EnsembleMemberName = keyof typeof ENSEMBLE_MEMBERS;

/** The flag names of the members a keyword store was built with (so `xtrust label` loads the same ensemble). */
export function ensembleOfStore(store: KeywordStore): EnsembleMemberName[] {
  return store.ensemble.map(({ name: reported }) => {
    // a post-processed member (`glove-6b-100d+abtt1`) is loaded raw: the store's configuration post-processes it again
    const base = reported.replace(/\+abtt\d+$/u, '');
    const entry = Object.entries(ENSEMBLE_MEMBERS).find(([, m]) => m.reports === base);
    if (!entry)
      throw new XtrustError(
        'INCOMPATIBLE',
        `the keyword store was built with embedding "${reported}", which this xtrust cannot load (it knows ${Object.values(
          ENSEMBLE_MEMBERS,
        )
          .map((m) => m.reports)
          .join(', ')})`,
      );
    return entry[0] as EnsembleMemberName;
  });
}

/** The embedding ensemble of the audit and each member's calibrated θ_relate (cached by the oracle). */
export async function loadEnsemble(
  progress: Progress,
  members: readonly EnsembleMemberName[] = ['glove'],
): Promise<{ embeddings: WordEmbedding[]; thetaRelate: Record<string, number> }> {
  const embeddings: WordEmbedding[] = [];
  const thetaRelate: Record<string, number> = {};
  for (const member of members) {
    const embedding = await ENSEMBLE_MEMBERS[member].load();
    const calibration = await calibrateThetaRelate(embedding, wordnet(), { seed: 0 });
    progress.note(
      `embedding ${embedding.name}: θ_relate ${calibration.thetaRelate.toFixed(4)} (calibrated on WordNet synonyms vs random pairs)`,
    );
    embeddings.push(embedding);
    thetaRelate[embedding.name] = calibration.thetaRelate;
  }
  return { embeddings, thetaRelate };
}
