/**
 * stringOrder (release-compiler/write/string-order.ts), the radix sort of the index and search
 * keys, gives the order the comparator sort gives: string order, then the tie-breaker, then the index.
 */
import { describe, expect, it } from "vitest";
import { BigArray } from "../../release-compiler/collections.js";
import { stringOrder } from "../../release-compiler/write/string-order.js";

/** A deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const byComparator = (keys: string[], tie: (a: number, b: number) => number = () => 0) =>
  Int32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : tie(a, b) || a - b));

/** Keys much like a release's: long shared prefixes, repeats, prefixes of each other, the empty key, and code units past ASCII (accents, a surrogate pair). */
function releaseLikeKeys(count: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * 5000);
    keys.push(
      pick([
        () => `ENSP${String(n).padStart(11, "0")}`,
        () => `ENSP${String(n).padStart(11, "0")}.${n % 3}`,
        () => `P${n % 97}`,
        () => `p${n % 97}`,
        () => "",
        () => `gène${n % 50}`,
        () => `gene${n % 50}\u{1F9EC}${n % 7}`,
        () => `\u00e9${n % 20}`,
        () => `~${n % 5}`,
      ])(),
    );
  }
  return keys;
}

describe("stringOrder", () => {
  it("orders keys as the comparator sort does, stable, for any mix of keys", () => {
    for (const [count, seed] of [[0, 1], [1, 2], [47, 3], [49, 4], [5000, 5], [60_000, 6]]) {
      const keys = releaseLikeKeys(count, seed);
      expect(Array.from(stringOrder(keys)), `${count} keys`).toEqual(Array.from(byComparator(keys)));
    }
  });

  it("orders equal keys by the tie-breaker, then by index", () => {
    const keys = releaseLikeKeys(20_000, 7);
    const numbers = Int32Array.from(keys, (_, i) => (i * 7919) % 13);
    const tie = (a: number, b: number) => numbers[a] - numbers[b];
    const order = stringOrder(keys, tie);
    expect(Array.from(order)).toEqual(Array.from(byComparator(keys, tie)));
    // Every index once.
    expect(new Set(order).size).toBe(keys.length);
  });

  it("orders a BigArray's keys as those of one array, across its segments", () => {
    const keys = releaseLikeKeys(5000, 8);
    const big = new BigArray<string>(6);
    for (const key of keys) big.push(key);
    expect(big.segments.length).toBe(79);
    const numbers = Int32Array.from(keys, (_, i) => i % 5);
    const tie = (a: number, b: number) => numbers[a] - numbers[b];
    expect(Array.from(stringOrder(big, tie))).toEqual(Array.from(byComparator(keys, tie)));
  });
});
