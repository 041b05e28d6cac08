import type { Release } from "../release/release.js";
import { alignAtLeast } from "../../release-format/align.js";
import { approximateCandidates } from "./sequence-index.js";

/** Alignments scoring below this are not homologs worth reporting (reference E.2). */
export const MIN_ALIGNMENT_SCORE = 70;

export interface Hit {
  entry: number;
  score: number;
  /** The query and the target as aligned, gaps as `-`. */
  alignment: [string, string];
}

/**
 * Approximate search (reference E.2): the 50 entries sharing the most sampled k-mers with the
 * query, aligned to it by Smith-Waterman (BLOSUM62, affine gaps); those scoring at least 70,
 * best first (ties by entry number).
 */
export async function approximateHits(release: Release, query: string): Promise<Hit[]> {
  const candidates = await approximateCandidates(release, query);
  // One DP pass per candidate, recording the traceback as it scores: the alignment strings
  // are only built for those reaching the threshold (see alignAtLeast).
  const hits: Hit[] = [];
  for (const c of candidates) {
    const { score, alignment } = alignAtLeast(query, c.sequence, MIN_ALIGNMENT_SCORE);
    if (alignment) hits.push({ entry: c.entry, score, alignment: [alignment.query, alignment.target] });
  }
  return hits.sort((a, b) => b.score - a.score || a.entry - b.entry);
}
