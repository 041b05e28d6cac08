/**
 * BigMap, BigSet and BigArray (release-compiler/collections.ts): what one Map, Set or array
 * does, in the same order, past V8's limits.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BigArray, BigMap, BigSet, hashOf, KeyFilter, keyReader, segmentSizeOf } from "../../release-compiler/collections.js";
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

/** Entries in a fixed order (by key), to compare maps whose order is the parts'. */
const byKey = <K extends string | number, V>(entries: Iterable<[K, V]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe("BigMap", () => {
  it("answers as one Map does while it is one, in insertion order", () => {
    const big = new BigMap<string, number>([["c", 1], ["a", 2], ["b", 3]]);
    big.set("a", 20).delete("c");
    big.set("c", 4);
    expect([...big]).toEqual([["a", 20], ["b", 3], ["c", 4]]);
    expect(big.data().parts).toHaveLength(1);
  });

  it("answers as one Map does across parts split at 3 keys, whatever the order of the calls", () => {
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
    // Split into parts of at most 3 (60 keys: at least 32 parts), each key in the part its hash names.
    const { parts, bits } = big.data();
    expect(parts).toHaveLength(2 ** bits);
    expect(bits).toBeGreaterThanOrEqual(5);
    parts.forEach((part, i) => {
      for (const key of part.keys()) expect(hashOf(key) >>> (32 - bits)).toBe(i);
    });
    expect(byKey(big)).toEqual(byKey(model));
    expect([...big.keys()].sort()).toEqual([...model.keys()].sort());
    expect([...big.values()]).toEqual([...big].map(([, value]) => value));
    const visited: Array<[string, unknown]> = [];
    big.forEach((value, key, map) => {
      expect(map).toBe(big);
      visited.push([key, value]);
    });
    expect(visited).toEqual([...big]);
  });

  it("iterates in the same order for the same calls, so a release's bytes do not depend on the run", () => {
    const build = () => {
      const big = new BigMap<number, string>(undefined, 4);
      for (let i = 0; i < 500; i++) big.set((i * 7919) % 1009, `v${i}`);
      return [...big];
    };
    expect(build()).toEqual(build());
  });

  it("crosses to a worker thread as its parts and comes back whole", () => {
    const big = new BigMap<string, number>(Array.from({ length: 40 }, (_, i): [string, number] => [`gene${i}`, i + 1]), 6);
    const posted = structuredClone(big.data());
    expect(posted.parts.length).toBeGreaterThanOrEqual(8);
    const back = BigMap.from(posted);
    expect([...back]).toEqual([...big]);
    expect(back.get("gene13")).toBe(14);
    expect(back.has("gene40")).toBe(false);
  });

  it("is kept in a snapshot and read back as a BigMap, at any size", () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-bigmap-"));
    const entries = Array.from({ length: 70_000 }, (_, i): [string, number] => [`P${i}`, i + 1]);
    const proteins = { count: entries.length, byId: new BigMap(entries, 30_000), small: new BigMap([["x", 1]]) };
    saveSnapshot(join(dir, "output.v8"), { proteins });
    const back = loadSnapshot<{ proteins: typeof proteins }>(join(dir, "output.v8"));
    expect(back.proteins.byId).toBeInstanceOf(BigMap);
    expect(back.proteins.byId.size).toBe(70_000);
    expect(byKey(back.proteins.byId)).toEqual(byKey(entries));
    expect(back.proteins.byId.get("P69999")).toBe(70_000);
    expect(back.proteins.small).toBeInstanceOf(BigMap);
    expect(back.proteins.small.get("x")).toBe(1);
  });

  it("hashes strings and whole numbers below 2^53 to 32 bits that spread", () => {
    expect(hashOf("SIM0001P000001")).toBe(hashOf("SIM0001P000001"));
    expect(hashOf("")).toBeGreaterThanOrEqual(0);
    for (const key of ["a", "SIM0001P000001", 0, 1, 2 ** 32, 2 ** 53 - 1]) expect(Number.isInteger(hashOf(key)) && hashOf(key) >= 0 && hashOf(key) < 2 ** 32, String(key)).toBe(true);
    // Consecutive ids and numbers fall evenly into 16 parts by the top four bits.
    for (const keyOf of [(i: number) => `SIM0042P${String(i).padStart(6, "0")}`, (i: number) => i * 2 ** 20]) {
      const counts = new Array<number>(16).fill(0);
      for (let i = 0; i < 16_000; i++) counts[hashOf(keyOf(i)) >>> 28]++;
      for (const c of counts) expect(c).toBeGreaterThan(800);
    }
  });
});

describe("BigSet", () => {
  it("answers as one Set does, across parts split at 4 keys", () => {
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
    expect([...big].sort((a, b) => a - b)).toEqual([...model].sort((a, b) => a - b));
    expect([...new BigSet(["b", "a", "b", "c"])]).toEqual(["b", "a", "c"]);
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

describe("KeyFilter", () => {
  // Ids shaped like a release's: accessions asked for, cross-reference ids that mostly are not.
  const asked = Array.from({ length: 50_000 }, (_, i) => `Q${String(i * 7).padStart(5, "0")}`);
  const others = Array.from({ length: 200_000 }, (_, i) => `XP_${String(i * 13).padStart(9, "0")}.1`);

  it("never misses a key it was given, strings and numbers", () => {
    const filter = KeyFilter.of(asked, asked.length);
    expect(asked.every((id) => filter.mayHave(id))).toBe(true);
    const numbers = KeyFilter.of([0, 1, 2 ** 40 + 3, -5, 0.5], 5);
    expect([0, 1, 2 ** 40 + 3, -5, 0.5].every((n) => numbers.mayHave(n))).toBe(true);
  });

  it("answers false for nearly every key it was not given (16 bits a key: ~1.4% falsely)", () => {
    const filter = KeyFilter.of(asked, asked.length);
    const falsely = others.filter((id) => filter.mayHave(id)).length / others.length;
    expect(falsely).toBeLessThan(0.03);
    // An empty filter holds nothing.
    expect(others.some((id) => KeyFilter.of<string>([], 0).mayHave(id))).toBe(false);
  });
});
