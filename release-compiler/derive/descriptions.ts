import { NO_DESCRIPTION, type ProteinTable } from "./proteins.js";

/**
 * The description most members share (the first of equals in entry order); "" when none has
 * one. Groups and HOG families are described by it.
 */
export function mostCommonDescription(t: Pick<ProteinTable, "description" | "descriptions">, entries: ArrayLike<number>): string {
  // By their numbers: equal texts have one.
  const counts = new Map<number, number>();
  let best = NO_DESCRIPTION;
  for (const e of Array.from(entries).sort((a, b) => a - b)) {
    const d = t.description[e - 1];
    if (d === NO_DESCRIPTION) continue;
    const n = (counts.get(d) ?? 0) + 1;
    counts.set(d, n);
    if (n > (counts.get(best) ?? 0)) best = d;
  }
  return t.descriptions.idOf(best);
}
