/**
 * Walks up the release's taxonomy (levels by index, each with its parent): the compiler places
 * HOGs with them and the worker answers taxonomy, HOG and summary requests with them.
 */
import type { Taxonomy } from "./format.js";

type Parents = Pick<Taxonomy, "parents">;

/** Level indexes from `level` up to the root, `level` first. */
export function lineage(taxonomy: Parents, level: number): number[] {
  const out: number[] = [];
  for (let l = level; l >= 0; l = taxonomy.parents[l]) out.push(l);
  return out;
}

/** True when `ancestor` is `level` or lies above it. */
export function isAncestorOrSelf(taxonomy: Parents, ancestor: number, level: number): boolean {
  for (let l = level; l >= 0; l = taxonomy.parents[l]) if (l === ancestor) return true;
  return false;
}

/** Most recent common ancestor level of two levels; -1 when they share none. */
export function mrcaLevel(taxonomy: Parents, a: number, b: number): number {
  const above = new Set(lineage(taxonomy, a));
  for (let l = b; l >= 0; l = taxonomy.parents[l]) if (above.has(l)) return l;
  return -1;
}
