/**
 * The description most members share (the first of equals in entry order); "" when none has
 * one. Groups and HOG families are described by it.
 */
export function mostCommonDescription(descriptions: string[], entries: ArrayLike<number>): string {
  const counts = new Map<string, number>();
  let best = "";
  for (const e of Array.from(entries).sort((a, b) => a - b)) {
    const d = descriptions[e - 1];
    if (!d) continue;
    const n = (counts.get(d) ?? 0) + 1;
    counts.set(d, n);
    if (n > (counts.get(best) ?? 0)) best = d;
  }
  return best;
}
