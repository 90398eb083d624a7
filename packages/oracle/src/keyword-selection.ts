import type { WordEmbedding } from '@xtrust/core';
import { averageLinkage, cosineMatrix } from '@xtrust/native';
import { ABSTAIN } from './ensemble-vote.js';
import { classNameVector, knownVectors } from './word-vectors.js';

/** One embedding method's view of a class's pool after Steps 3–4. */
export interface MethodKeywords {
  readonly embedding: string;
  /** Per pool word: 1 keyword, 0 non-keyword, -1 abstain (word or class name out of vocabulary). */
  readonly ballots: Int8Array;
  /** Per pool word: its cluster id, -1 when abstaining. */
  readonly clusters: Int32Array;
  /** Number of clusters (Eq. 3) and how many were kept as related (Eq. 4). */
  readonly clusterCount: number;
  readonly relatedClusters: number;
  /** False when the embedding knows no word of the class name: the method abstains on the whole class. */
  readonly classNameKnown: boolean;
}

/**
 * Steps 3 and 4 of keyword identification for one class and one embedding method.
 * Eq. 3: C_c = hierarchical_cluster(W_c, θ_dist) — average linkage on cosine distance 1 − cos, cut
 * at θ_dist. Eq. 4: K_c = ∪ { C_i | sim(mean vector of C_i, c) ≥ θ_relate }, F_c = W_c \ K_c, with the
 * class vector the mean of its name's word vectors. The mean of a cluster is the plain mean of its
 * members' vectors, as the paper states (not the mean of unit vectors). One cosine matrix per pool.
 */
export async function selectKeywords(
  poolWords: readonly string[],
  embedding: WordEmbedding,
  className: string,
  thetaDist: number,
  thetaRelate: number,
): Promise<MethodKeywords> {
  const n = poolWords.length;
  const ballots = new Int8Array(n).fill(ABSTAIN);
  const clusters = new Int32Array(n).fill(-1);
  const classVec = await classNameVector(embedding, className);
  if (!classVec || n === 0) {
    return { embedding: embedding.name, ballots, clusters, clusterCount: 0, relatedClusters: 0, classNameKnown: classVec !== null };
  }
  const kv = await knownVectors(embedding, poolWords);
  const m = kv.known.length;
  const dim = kv.dim;
  if (m === 0) return { embedding: embedding.name, ballots, clusters, clusterCount: 0, relatedClusters: 0, classNameKnown: true };
  const ids = clusterByCosine(kv.vectors, m, dim, thetaDist);
  let clusterCount = 0;
  for (let i = 0; i < m; i++) clusterCount = Math.max(clusterCount, ids[i] + 1);
  const means = new Float32Array(clusterCount * dim);
  const sizes = new Float64Array(clusterCount);
  for (let i = 0; i < m; i++) {
    const c = ids[i];
    sizes[c]++;
    for (let d = 0; d < dim; d++) means[c * dim + d] += kv.vectors[i * dim + d];
  }
  for (let c = 0; c < clusterCount; c++) for (let d = 0; d < dim; d++) means[c * dim + d] /= sizes[c];
  const rel = cosineMatrix(means, classVec, dim); // clusterCount×1
  let relatedClusters = 0;
  const related = new Uint8Array(clusterCount);
  for (let c = 0; c < clusterCount; c++) {
    if (rel[c] >= thetaRelate) {
      related[c] = 1;
      relatedClusters++;
    }
  }
  for (let i = 0; i < m; i++) {
    const w = kv.known[i];
    clusters[w] = ids[i];
    ballots[w] = related[ids[i]] as 0 | 1;
  }
  return { embedding: embedding.name, ballots, clusters, clusterCount, relatedClusters, classNameKnown: true };
}

/**
 * Eq. 3 on raw vectors: average linkage (UPGMA, @xtrust/native) on cosine distance 1 − cos, cut at
 * `thetaDist` (two words share a cluster when their cophenetic distance is ≤ θ_dist). Cluster ids are
 * numbered 0,1,… by first word. One cosine matrix for the whole pool.
 */
export function clusterByCosine(vectors: Float32Array, n: number, dim: number, thetaDist: number): Int32Array {
  if (n === 0) return new Int32Array(0);
  if (n === 1) return new Int32Array(1);
  const sims = cosineMatrix(vectors, vectors, dim);
  const dist = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // upper triangle mirrored: the clustering needs an exactly symmetric matrix; rounding can push cos above 1
      const d = Math.max(0, 1 - sims[i * n + j]);
      dist[i * n + j] = d;
      dist[j * n + i] = d;
    }
  }
  return averageLinkage(dist, n).cut(thetaDist);
}
