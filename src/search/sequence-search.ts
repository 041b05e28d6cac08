import type { Release } from "../release/release.js";
import { encode, localAlignment, localScore } from "./align.js";
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
  const encoded = encode(query);
  const scored = candidates
    .map((c) => ({ ...c, score: localScore(encoded, encode(c.sequence)) }))
    .filter((c) => c.score >= MIN_ALIGNMENT_SCORE)
    .sort((a, b) => b.score - a.score || a.entry - b.entry);
  return scored.map((c) => {
    const a = localAlignment(query, c.sequence);
    return { entry: c.entry, score: c.score, alignment: [a.query, a.target] };
  });
}
