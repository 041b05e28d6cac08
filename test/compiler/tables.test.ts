/**
 * Table and key index writers: a table written row by row has the shards of one written at
 * once, and a key index built from (key, number) pairs equals the one built from a map of
 * sorted lists.
 */
import { describe, expect, it } from "vitest";
import { tableWriter, writeKeyIndex, writeKeyIndexOfPairs, writeTable } from "../../release-compiler/write/tables.js";
import { memoryBlobs } from "./memory-blobs.js";

describe("tableWriter", () => {
  it("cuts the same shards as writeTable, the last one partial", () => {
    const whole = memoryBlobs({ clone: true });
    const streamed = memoryBlobs({ clone: true });
    const ref = writeTable(whole, 10, 4, (r) => ({ r }));
    const table = tableWriter<{ r: number }>(streamed, 4);
    for (let r = 0; r < 10; r++) table.push({ r });
    expect(table.rows).toBe(10);
    expect(table.finish()).toEqual(ref);
    expect(streamed.values).toEqual(whole.values);
    expect(whole.values.map((v) => (v as { firstRow: number }).firstRow)).toEqual([0, 4, 8]);
  });
});

describe("writeKeyIndexOfPairs", () => {
  it("equals writeKeyIndex of the map key → distinct numbers ascending", () => {
    let seed = 3;
    const random = (n: number) => (seed = (seed * 48_271) % 2_147_483_647) % n;
    const keys: string[] = [];
    const numbers: number[] = [];
    const map = new Map<string, number[]>();
    for (let i = 0; i < 5_000; i++) {
      // Few distinct keys (so most have several numbers, some repeated), mixed case and length.
      const key = ["P", "q", "Q1", "a", "ENSG"][random(5)] + String(random(900));
      const n = 1 + random(50);
      keys.push(key);
      numbers.push(n);
      const list = map.get(key) ?? [];
      if (!list.includes(n)) list.push(n);
      map.set(key, list);
    }
    for (const list of map.values()) list.sort((a, b) => a - b);
    const expected = memoryBlobs({ clone: true });
    const got = memoryBlobs({ clone: true });
    const ref = writeKeyIndexOfPairs(got, keys, numbers, 256);
    expect(ref).toEqual(writeKeyIndex(expected, map, 256));
    expect(ref.leaves.length).toBeGreaterThan(5);
    expect(got.values).toEqual(expected.values);
  });
});
