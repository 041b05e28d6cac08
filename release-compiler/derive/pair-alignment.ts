/**
 * `--align-pairs`: the score and an evolutionary distance of every pairwise relation, from the
 * local alignment the sequence search uses (Smith-Waterman, BLOSUM62, gaps 11 + k;
 * release-format/align.ts), computed once per pair at compile time.
 *
 * Distance: Kimura's (1983) estimate of substitutions per site from the share p of differing
 * residues among the aligned (ungapped) columns of the local alignment,
 * d = −ln(1 − p − 0.2 p²). It is undefined (null in the release) when the argument reaches 0
 * (p ≥ ~0.85, saturated), when nothing aligns, or when the pair is too long to trace back
 * (over MAX_TRACEBACK_CELLS: the score is still given).
 */
import { localAlignment, localScore, encode, tracebackFits } from "../../release-format/align.js";

export interface PairMeasure {
  /** Local alignment score, BLOSUM62 units. */
  score: number;
  /** Substitutions per site (Kimura), NaN when undefined. */
  distance: number;
}

/** Kimura's protein distance from the share of differing aligned residues; NaN when saturated. */
export function kimuraDistance(differing: number, aligned: number): number {
  if (aligned === 0) return NaN;
  const p = differing / aligned;
  const x = 1 - p - 0.2 * p * p;
  return x > 0 ? -Math.log(x) : NaN;
}

/** Differing and aligned (gapless) columns of two aligned strings. */
export function alignedColumns(query: string, target: string): { differing: number; aligned: number } {
  let differing = 0;
  let aligned = 0;
  for (let i = 0; i < query.length; i++) {
    const a = query[i];
    const b = target[i];
    if (a === "-" || b === "-") continue;
    aligned++;
    if (a.toUpperCase() !== b.toUpperCase()) differing++;
  }
  return { differing, aligned };
}

export function measurePair(a: string, b: string): PairMeasure {
  if (!tracebackFits(a.length, b.length)) return { score: localScore(encode(a), encode(b)), distance: NaN };
  const alignment = localAlignment(a, b);
  const { differing, aligned } = alignedColumns(alignment.query, alignment.target);
  return { score: alignment.score, distance: kimuraDistance(differing, aligned) };
}
