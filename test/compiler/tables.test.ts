/**
 * Table and key index writers: a table written row by row has the chunks of one written at
 * once, cut by bytes (no row split, row order kept), and a key index built from (key, number)
 * pairs holds what the one built from a map of sorted lists holds.
 */
import { describe, expect, it } from "vitest";
import { packChunk } from "../../release-compiler/write/packs.js";
import { tableWriter, writeKeyIndex, writeKeyIndexOfPairs, writeTable } from "../../release-compiler/write/tables.js";
import type { KeyIndexLeaf, TableShard } from "../../release-format/format.js";
import { tempPacks } from "./temp-packs.js";

describe("tableWriter", () => {
  it("cuts the same chunks as writeTable: each closes once its rows reach the byte target, the last one partial", () => {
    const target = 100;
    // Rows of varied packed sizes, one of them alone larger than the target.
    const rowAt = (r: number) => ({ r, pad: "x".repeat(r === 17 ? 300 : (r * 7) % 45) });
    const count = 40;
    const whole = tempPacks();
    const streamed = tempPacks();
    const ref = writeTable(whole, count, target, rowAt);
    const table = tableWriter<{ r: number; pad: string }>(streamed, target);
    for (let r = 0; r < count; r++) table.push(rowAt(r));
    expect(table.rows).toBe(count);
    expect(table.finish()).toEqual(ref);
    expect(ref.rows).toBe(count);
    const chunks = whole.chunks<TableShard<{ r: number; pad: string }>, number>(ref.tree);
    expect(streamed.chunks(ref.tree).map((c) => c.value)).toEqual(chunks.map((c) => c.value));

    // Row order kept, no row split or repeated: the chunks' rows are rows 0..count-1, each chunk
    // keyed by its first row.
    expect(chunks.flatMap((c) => c.value.rows)).toEqual(Array.from({ length: count }, (_, r) => rowAt(r)));
    let next = 0;
    for (const { start, value } of chunks) {
      expect(value.firstRow).toBe(next);
      expect(start).toBe(next);
      next += value.rows.length;
    }
    // Cut by bytes: every chunk but the last reaches the target, none holds a row more than it
    // takes to reach it, and a row of the target's size or more is a chunk of its own (the chunk
    // before it closes short of the target).
    const sizes = chunks.map((c) => c.value.rows.map((row) => packChunk(row).length));
    sizes.forEach((s, k) => {
      const total = s.reduce((a, b) => a + b, 0);
      const nextIsLarge = k + 1 < sizes.length && sizes[k + 1][0] >= target;
      if (k < sizes.length - 1 && !nextIsLarge) expect(total).toBeGreaterThanOrEqual(target);
      expect(total - s[s.length - 1]).toBeLessThan(target);
    });
    expect(chunks.length).toBeGreaterThan(3);
    // Not a fixed count of rows a chunk.
    expect(new Set(chunks.slice(0, -1).map((c) => c.value.rows.length)).size).toBeGreaterThan(1);
    // The row larger than the target is a chunk alone.
    expect(chunks.filter((c) => c.value.rows.some((row) => row.r === 17)).map((c) => c.value.rows.map((row) => row.r))).toEqual([[17]]);
  });
});

describe("writeKeyIndexOfPairs", () => {
  it("holds what writeKeyIndex of the map key → distinct numbers ascending holds, in leaves cut by bytes", () => {
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
    const target = 256;
    const expectedPacks = tempPacks();
    const gotPacks = tempPacks();
    const got = writeKeyIndexOfPairs(gotPacks, keys, numbers, target);
    const expected = writeKeyIndex(expectedPacks, map, target);
    expect(got.keys).toBe(map.size);
    expect(expected.keys).toBe(map.size);
    const gotLeaves = gotPacks.chunks<KeyIndexLeaf<number[]>, string>(got.tree);
    const expectedLeaves = expectedPacks.chunks<KeyIndexLeaf<number[]>, string>(expected.tree);
    expect(gotLeaves.length).toBeGreaterThan(5);

    // Both hold the map, keys in JavaScript string order, each leaf keyed by its first key. (The
    // two cut their leaves by bytes measured differently, so the leaves need not be the same.)
    const sorted = [...map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const leaves of [gotLeaves, expectedLeaves]) {
      for (const { start, value } of leaves) expect(start).toBe(value.keys[0]);
      expect(leaves.flatMap((l) => l.value.keys)).toEqual(sorted);
      expect(leaves.flatMap((l) => l.value.values)).toEqual(sorted.map((k) => map.get(k)));
      // Leaves of about the target: every one but the last holds at least half of it, none twice it.
      leaves.forEach(({ value }, k) => {
        const bytes = packChunk(value).length;
        if (k < leaves.length - 1) expect(bytes).toBeGreaterThanOrEqual(target / 2);
        expect(bytes).toBeLessThan(2 * target);
      });
    }
    // writeKeyIndex closes a leaf once its keys and packed values reach the target, not before.
    expectedLeaves.forEach(({ value }, k) => {
      const sizes = value.keys.map((key, i) => key.length + 1 + packChunk(value.values[i]).length);
      const total = sizes.reduce((a, b) => a + b, 0);
      if (k < expectedLeaves.length - 1) expect(total).toBeGreaterThanOrEqual(target);
      expect(total - sizes[sizes.length - 1]).toBeLessThan(target);
    });
  });
});
