/**
 * The order of millions of string keys (entry ids, cross-reference ids, search grams), as a
 * permutation: an MSD radix sort on UTF-16 code units, what `<` compares.
 *
 * Why by hand: sorting indices with a comparator (`order.sort((a, b) => keys[a] < keys[b] …)`)
 * calls it n·log n times, each comparing two whole strings from their first character, and ids
 * share long prefixes (`ENSP00000…`). The radix sort reads each key's characters once per level
 * it takes to tell it from its neighbours, and ranges left small are sorted by the comparator.
 * The result is the comparator sort's, stable: keys in string order, equal keys by `tie`, then
 * by index.
 */
import { segmentsOf, type Keys } from "../collections.js";

/** Ranges of at most this many keys are sorted by the comparator. */
const SMALL = 48;
/** Buckets at a character: 0 for keys that end before it, 1–128 for ASCII, 129 for any other code unit. */
const ENDED = 0;
const OTHER = 129;
const BUCKETS = 130;

const bucketOf = (key: string, depth: number): number => {
  if (depth >= key.length) return ENDED;
  const code = key.charCodeAt(depth);
  return code < 128 ? code + 1 : OTHER;
};

/** The indices of `keys` in string order; equal keys ordered by `tie` (a comparator of indices), then by index. */
export function stringOrder(keys: Keys, tie?: (a: number, b: number) => number): Int32Array {
  const n = keys.length;
  // Element i at segments[i >>> bits][i & mask], written out where it is read: a plain array is one segment.
  const { segments, bits, mask } = segmentsOf(keys);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const scratch = new Int32Array(n);
  // The bucket of each place of a range, found once in the counting pass and read back in the
  // placing pass: each key's characters are read once per pass, not twice.
  const bucketAt = new Uint8Array(n);
  const compare = (a: number, b: number): number => {
    const x = segments[a >>> bits][a & mask];
    const y = segments[b >>> bits][b & mask];
    return x < y ? -1 : x > y ? 1 : (tie?.(a, b) ?? 0) || a - b;
  };
  const counts = new Int32Array(BUCKETS + 1);
  const next = new Int32Array(BUCKETS);
  // Ranges still to sort: [lo, hi) whose keys share their first `depth` code units.
  const stack: number[] = [0, n, 0];
  while (stack.length) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo <= SMALL) {
      order.subarray(lo, hi).sort(compare);
      continue;
    }
    counts.fill(0);
    for (let i = lo; i < hi; i++) {
      const k = order[i];
      const bucket = bucketOf(segments[k >>> bits][k & mask], depth);
      bucketAt[i] = bucket;
      counts[bucket + 1]++;
    }
    for (let b = 1; b <= BUCKETS; b++) counts[b] += counts[b - 1];
    next.set(counts.subarray(0, BUCKETS));
    // Stable: each bucket keeps the range's order.
    for (let i = lo; i < hi; i++) scratch[lo + next[bucketAt[i]]++] = order[i];
    order.set(scratch.subarray(lo, hi), lo);
    for (let b = 0; b < BUCKETS; b++) {
      const from = lo + counts[b];
      const to = lo + counts[b + 1];
      if (to - from < 2) continue;
      // Keys that ended are equal; keys past ASCII differ in ways one bucket does not tell.
      if (b === ENDED || b === OTHER) order.subarray(from, to).sort(compare);
      else stack.push(from, to, depth + 1);
    }
  }
  return order;
}
