/**
 * BigMap, BigSet and BigArray (release-compiler/collections.ts): what one Map, Set or array
 * does, in the same order, past V8's limits.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BigArray, BigMap, BigSet, keyReader, segmentSizeOf } from "../../release-compiler/collections.js";
import { loadSnapshot, saveSnapshot } from "../../release-compiler/snapshot.js";

/** A small deterministic stream of numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe("BigMap", () => {
  it("answers as one Map does, in insertion order, across segments of 3", () => {
    const next = random(7);
    const big = new BigMap<string, number | undefined | null>(undefined, 3);
    const model = new Map<string, number | undefined | null>();
    for (let step = 0; step < 4000; step++) {
      const key = `k${Math.floor(next() * 60)}`;
      const op = next();
      if (op < 0.55) {
        // undefined and null are values like any other: get alone cannot tell them from a missing key.
        const value = op < 0.05 ? undefined : op < 0.1 ? null : step;
        expect(big.set(key, value)).toBe(big);
        model.set(key, value);
      } else if (op < 0.75) {
        expect(big.delete(key)).toBe(model.delete(key));
      } else {
        expect(big.get(key)).toBe(model.get(key));
        expect(big.has(key)).toBe(model.has(key));
      }
      expect(big.size).toBe(model.size);
    }
    expect([...big]).toEqual([...model]);
    expect([...big.keys()]).toEqual([...model.keys()]);
    expect([...big.values()]).toEqual([...model.values()]);
    const visited: Array<[string, unknown]> = [];
    big.forEach((value, key, map) => {
      expect(map).toBe(big);
      visited.push([key, value]);
    });
    expect(visited).toEqual([...model]);
  });

  it("keeps a key set again in its first place, in an earlier segment", () => {
    const big = new BigMap<string, number>([["a", 1], ["b", 2], ["c", 3], ["d", 4], ["e", 5]], 2);
    expect(big.data().segments.map((s) => [...s.keys()])).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    big.set("a", 10).set("d", 40).set("f", 6);
    expect([...big]).toEqual([["a", 10], ["b", 2], ["c", 3], ["d", 40], ["e", 5], ["f", 6]]);
    // A segment emptied by deletes is walked past, and a new key still goes to the last.
    big.delete("c");
    big.delete("d");
    big.set("g", 7);
    expect([...big.keys()]).toEqual(["a", "b", "e", "f", "g"]);
  });

  it("crosses to a worker thread as its segments and comes back whole", () => {
    const big = new BigMap<string, number>(Array.from({ length: 20 }, (_, i): [string, number] => [`gene${i}`, i + 1]), 6);
    const posted = structuredClone(big.data());
    expect(posted.segments).toHaveLength(4);
    const back = BigMap.from(posted);
    expect([...back]).toEqual([...big]);
    expect(back.get("gene13")).toBe(14);
    expect(BigMap.from({ segments: [] }).size).toBe(0);
  });

  it("is kept in a snapshot and read back as a BigMap, at any size", () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-bigmap-"));
    const entries = Array.from({ length: 70_000 }, (_, i): [string, number] => [`P${i}`, i + 1]);
    const proteins = { count: entries.length, byInputId: new BigMap(entries, 30_000), small: new BigMap([["x", 1]]) };
    saveSnapshot(join(dir, "output.v8"), { proteins });
    const back = loadSnapshot<{ proteins: typeof proteins }>(join(dir, "output.v8"));
    expect(back.proteins.byInputId).toBeInstanceOf(BigMap);
    expect(back.proteins.byInputId.size).toBe(70_000);
    expect([...back.proteins.byInputId]).toEqual(entries);
    expect(back.proteins.small).toBeInstanceOf(BigMap);
    expect(back.proteins.small.get("x")).toBe(1);
  });

  it("holds more keys than one Map can", () => {
    // V8's own limit, which this map is for.
    const one = new Map<number, number>();
    expect(() => {
      for (let i = 0; i <= 2 ** 24; i++) one.set(i, i);
    }).toThrow(/Map maximum size exceeded/);
    expect(one.size).toBe(2 ** 24);
    one.clear();
    const big = new BigMap<number, number>();
    for (let i = 0; i <= 2 ** 24; i++) big.set(i, i);
    expect(big.size).toBe(2 ** 24 + 1);
    expect(big.data().segments).toHaveLength(3);
    expect(big.get(2 ** 24)).toBe(2 ** 24);
    expect(big.get(5)).toBe(5);
    expect(big.has(2 ** 24 + 1)).toBe(false);
  }, 60_000);
});

describe("BigSet", () => {
  it("answers as one Set does, in insertion order, across segments of 4", () => {
    const next = random(3);
    const big = new BigSet<number>(undefined, 4);
    const model = new Set<number>();
    for (let step = 0; step < 3000; step++) {
      const key = Math.floor(next() * 50);
      if (next() < 0.7) {
        big.add(key);
        model.add(key);
      } else expect(big.delete(key)).toBe(model.delete(key));
      expect(big.has(key)).toBe(model.has(key));
      expect(big.size).toBe(model.size);
    }
    expect([...big]).toEqual([...model]);
    expect([...new BigSet(["b", "a", "b", "c"], 2)]).toEqual(["b", "a", "c"]);
  });
});

describe("the segment size a compile is given (ORTH_EDGE_MAP_SEGMENT)", () => {
  it("is V8's limit halved unless set, and refuses what is not a whole number within it", () => {
    expect(segmentSizeOf(undefined)).toBe(2 ** 23);
    expect(segmentSizeOf("")).toBe(2 ** 23);
    expect(segmentSizeOf("7")).toBe(7);
    for (const bad of ["0", "-3", "2.5", "lots", String(2 ** 23 + 1)]) expect(() => segmentSizeOf(bad), bad).toThrow(`ORTH_EDGE_MAP_SEGMENT=${bad}: expected a whole number from 1 to 8388608`);
  });
});

describe("BigArray", () => {
  it("holds what an array holds, in order, across segments of 2^bits, and reads like one", () => {
    const array = new BigArray<string>(2);
    const model: string[] = [];
    for (let i = 0; i < 23; i++) {
      array.push(`id${i}`);
      model.push(`id${i}`);
    }
    expect(array.length).toBe(23);
    expect(array.segments.map((s) => s.length)).toEqual([4, 4, 4, 4, 4, 3]);
    expect([...array]).toEqual(model);
    expect(Array.from({ length: 23 }, (_, i) => array.at(i))).toEqual(model);
    const read = keyReader(array);
    expect(read(0)).toBe("id0");
    expect(read(22)).toBe("id22");
    expect(keyReader(model)(7)).toBe("id7");
    expect([...new BigArray<number>()]).toEqual([]);
  });
});
