/**
 * Table and hash index writers: a table written row by row has the chunks of one written at
 * once, cut by bytes (no row split, row order kept); a slotted table has a fixed count of rows
 * a chunk, each slot checked by its Merkle path (by the worker, and apart by the test's reader);
 * a hash index built from (key, number) pairs holds what the one built from a map holds.
 */
import { describe, expect, it } from "vitest";
import { packChunk } from "../../release-compiler/write/packs.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LAYOUT } from "../../release-compiler/write/layout.js";
import { tableWriter, writeHashIndex, writeHashIndexOfPairs, writeSlottedTable, writeTable } from "../../release-compiler/write/tables.js";
import { packKey, type KeyIndexLeaf, type Manifest, type PlainShard, type TableShard } from "../../release-format/format.js";
import { rowCount, rowOf } from "../../release-format/rows.js";
import { bucketOf } from "../../release-format/slots.js";
import { createBlobCache } from "../../src/release/blob-cache.js";
import { fetchChunks } from "../../src/release/chunks.js";
import { releaseView } from "../../src/release/release.js";
import type { ReleaseStorage } from "../../src/release/storage.js";
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
    const chunks = whole.chunks<PlainShard<{ r: number; pad: string }>, number>(ref.tree);
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

  it("packs a table's rows apart when asked (apart): the same chunks, each row read alone through the worker", async () => {
    const target = 100;
    const rowAt = (r: number) => ({ r, pad: "x".repeat(r === 17 ? 300 : (r * 7) % 45), ...(r % 4 ? { tag: `t${r}` } : {}) });
    const count = 40;
    const plain = tempPacks();
    const apart = tempPacks();
    const extra = (rows: Array<{ r: number }>) => ({ first: rows[0].r });
    const plainRef = writeTable(plain, count, target, rowAt, { chunkExtra: extra });
    const apartRef = writeTable(apart, count, target, rowAt, { chunkExtra: extra, apart: true });
    const plainChunks = plain.chunks<PlainShard<ReturnType<typeof rowAt>> & { first: number }, number>(plainRef.tree);
    const apartChunks = apart.chunks<TableShard<ReturnType<typeof rowAt>> & { first: number }, number>(apartRef.tree);
    // Cut where the plain table is cut, its extra fields kept; each chunk's rows packed apart.
    expect(apartChunks.map((c) => [c.start, c.value.first, rowCount(c.value)])).toEqual(plainChunks.map((c) => [c.start, c.value.first, c.value.rows.length]));
    for (const { value } of apartChunks) expect("packed" in value && !("rows" in value)).toBe(true);
    const view = releaseView(storageOver(apart.dir), createBlobCache(), { tables: { t: apartRef }, genomes: [], taxonomy: { names: [] } } as unknown as Manifest);
    for (const r of [0, 16, 17, 18, 39]) expect(await view.row(apartRef, r)).toEqual(rowAt(r));
    const walked: unknown[] = [];
    for await (const row of await view.rows(apartRef, 0, count)) walked.push(row);
    expect(walked).toEqual(Array.from({ length: count }, (_, r) => rowAt(r)));
    // Only records are packed apart: a table of strings or tuples is refused, not written as their indexes.
    expect(() => writeTable(tempPacks(), 3, target, (r) => `row ${r}`, { apart: true })).toThrow(/records, not string/);
    expect(() => writeTable(tempPacks(), 3, target, (r) => [r, r], { apart: true })).toThrow(/records, not arrays/);
  });
});

/** A byte-level reader of a temp folder's packs, as the worker's storage. */
const storageOver = (dir: string): ReleaseStorage => ({
  async get(key, range) {
    const bytes = readFileSync(join(dir, key));
    return range ? bytes.subarray(range.offset, range.offset + range.length) : bytes;
  },
});

describe("writeSlottedTable", () => {
  const rowAt = (r: number) => ({ r, pad: "x".repeat(r === 29 ? 900 : (r * 7) % 45), ...(r % 3 ? { odd: r % 2 === 1 } : {}) });
  /** The table of `count` rows, `perChunk` a chunk, with roots of at most `roots` runs. */
  function slotted(count: number, perChunk: number, roots: number) {
    const saved = LAYOUT.slottedRootRuns;
    LAYOUT.slottedRootRuns = roots;
    try {
      const packs = tempPacks();
      return { packs, table: writeSlottedTable(packs, count, perChunk, rowAt, (rows) => ({ extra: rows.length })) };
    } finally {
      LAYOUT.slottedRootRuns = saved;
    }
  }

  it("cuts a fixed count of rows a chunk, in runs of equal slots that the worker reads and checks one by one", async () => {
    for (const [count, perChunk, roots] of [[100, 4, 7], [100, 4, 1], [37, 5, 100], [1, 3, 4], [64, 8, 8]]) {
      const { packs, table } = slotted(count, perChunk, roots);
      const label = `${count} rows, ${perChunk} a chunk, ${roots} runs at most`;
      const chunks = Math.ceil(count / perChunk);
      expect(table.rows, label).toBe(count);
      expect(table.tree.depth, label).toBe(1);
      expect(table.tree.slotted!.stride, label).toBe(perChunk);
      expect(table.tree.root.starts.length, label).toBe(Math.ceil(chunks / Math.ceil(chunks / roots)));
      // The test's own reader checks each slot's path; rows in order, perChunk each but the last.
      const read = packs.chunks<TableShard<{ r: number; pad: string }> & { extra: number }, number>(table.tree);
      expect(read.length, label).toBe(chunks);
      read.forEach(({ start, value }, k) => {
        expect(start).toBe(k * perChunk);
        expect(value.firstRow).toBe(k * perChunk);
        // Packed apart (release-format/rows.ts): each row decoded alone, a field some rows lack absent from theirs.
        expect("packed" in value && !("rows" in value), label).toBe(true);
        const rows = Array.from({ length: rowCount(value) }, (_, i) => rowOf(value, i));
        expect(rows).toEqual(Array.from({ length: Math.min(perChunk, count - k * perChunk) }, (_, i) => rowAt(k * perChunk + i)));
        for (const row of rows) expect(Object.keys(row!), label).toEqual(Object.keys(rowAt(row!.r)));
        expect(rowOf(value, rows.length)).toBeUndefined();
        expect(value.extra).toBe(rows.length);
      });
      // Slots of one run are equal and follow each other: the run is one range.
      for (let i = 0; i < table.tree.root.starts.length; i++) {
        expect(table.tree.root.lengths[i] % table.tree.slotted!.slots[i]).toBe(0);
      }
      // The worker's check, over the whole table in one range and chunk by chunk: the same values.
      const refs = read.map((c) => c.ref);
      const storage = storageOver(packs.dir);
      const runs = new Map<string, typeof refs>();
      for (const ref of refs) runs.set(`${ref[0]}:${ref[3]}`, [...(runs.get(`${ref[0]}:${ref[3]}`) ?? []), ref]);
      const whole = (await Promise.all([...runs.values()].map((run) => fetchChunks(storage, run)))).flat();
      expect(whole).toEqual(read.map((c) => c.value));
      for (const [k, ref] of refs.entries()) expect((await fetchChunks(storage, [ref]))[0]).toEqual(read[k].value);
    }
  });

  it("reads rows packed apart one by one, in runs and as a walk; a packed row that does not decode is a 503", async () => {
    const { packs, table } = slotted(100, 8, 4);
    const view = () => releaseView(storageOver(packs.dir), createBlobCache(), { tables: { t: table }, genomes: [], taxonomy: { names: [] } } as unknown as Manifest);
    const release = view();
    for (const r of [0, 7, 8, 29, 99]) expect(await release.row(table, r)).toEqual(rowAt(r));
    await expect(release.row(table, 100)).rejects.toMatchObject({ status: 503 });
    // Scattered and adjacent rows (a run decoded at once), across chunks.
    const wanted = [3, 4, 5, 6, 7, 8, 9, 40, 42, 97, 98, 99];
    expect([...(await view().rowsAt(table, wanted))].sort((a, b) => a[0] - b[0])).toEqual(wanted.map((r) => [r, rowAt(r)]));
    const walked: unknown[] = [];
    for await (const row of await view().rows(table, 5, 91)) walked.push(row);
    expect(walked).toEqual(Array.from({ length: 86 }, (_, k) => rowAt(5 + k)));

    // A chunk whose hash is right but whose second row is not msgpack (a compiler's fault).
    const bad = tempPacks();
    const tree = bad.slottedTree(2, 1);
    tree.add(0, { firstRow: 0, packed: { fields: ["r"], ends: [2, 4], bytes: Uint8Array.of(0x91, 0x00, 0xc1, 0xc1) } });
    const broken = { rows: 2, tree: tree.finish() };
    const badView = releaseView(storageOver(bad.dir), createBlobCache(), { tables: { t: broken }, genomes: [], taxonomy: { names: [] } } as unknown as Manifest);
    expect(await badView.row(broken, 0)).toEqual({ r: 0 });
    await expect(badView.row(broken, 1)).rejects.toMatchObject({ status: 503, message: expect.stringContaining("do not decode") });
  });

  it("answers a changed byte anywhere in a slot's chunk or path with a 503, in the worker and in the test's reader", async () => {
    const { packs, table } = slotted(100, 4, 7);
    const read = packs.chunks<TableShard<unknown>, number>(table.tree);
    // A run of 4 chunks: the third, whose path has two siblings.
    const { ref } = read[2];
    expect(ref[4]).toEqual([2, 4]);
    const path = join(packs.dir, packKey(ref[0]));
    const original = readFileSync(path);
    const length = original.readUInt32BE(ref[1]);
    for (const at of [0, 3, 4, 4 + Math.floor(length / 2), 4 + length - 1, 4 + length, 4 + length + 20, 4 + length + 31]) {
      const bytes = Buffer.from(original);
      bytes[ref[1] + at] ^= 0x20;
      writeFileSync(path, bytes);
      await expect(fetchChunks(storageOver(packs.dir), [ref]), `byte ${at}`).rejects.toMatchObject({ status: 503 });
      expect(() => packs.chunk(ref), `byte ${at}`).toThrow();
    }
    writeFileSync(path, original);
    expect(await fetchChunks(storageOver(packs.dir), [ref])).toEqual([read[2].value]);
    // Another slot of the run, or the right slot named as another index, does not pass either.
    await expect(fetchChunks(storageOver(packs.dir), [[ref[0], ref[1], ref[2], ref[3], [1, 4]]])).rejects.toMatchObject({ status: 503 });
    await expect(fetchChunks(storageOver(packs.dir), [read[3].ref.slice(0, 4).concat([[2, 4]]) as typeof ref])).rejects.toMatchObject({ status: 503 });
  });
});

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("hash indexes", () => {
  /** 5,000 (key, number) pairs over a few hundred keys, and the map key → distinct numbers ascending. */
  function pairs() {
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
    return { keys, numbers, map };
  }

  /** `write` with slotted roots of at most `runs` runs. */
  function withRuns<T>(runs: number, write: () => T): T {
    const saved = LAYOUT.slottedRootRuns;
    LAYOUT.slottedRootRuns = runs;
    try {
      return write();
    } finally {
      LAYOUT.slottedRootRuns = saved;
    }
  }

  it("writeHashIndexOfPairs and writeHashIndex hold the map: runs of sorted key ranges, each key in its run's bucket, every bucket of about the target", () => {
    const { keys, numbers, map } = pairs();
    const target = 256;
    const gotPacks = tempPacks();
    const expectedPacks = tempPacks();
    const got = withRuns(6, () => writeHashIndexOfPairs(gotPacks, keys, numbers, target));
    const expected = withRuns(6, () => writeHashIndex(expectedPacks, map, target));
    for (const [index, packs] of [[got, gotPacks], [expected, expectedPacks]] as const) {
      expect(index.keys).toBe(map.size);
      expect(index.buckets).toBeGreaterThan(20);
      const { starts } = index.tree.root;
      expect(starts.length).toBeGreaterThan(3);
      expect(starts.length).toBeLessThanOrEqual(6);
      expect(starts).toEqual([...starts].sort(byString));
      const buckets = packs.chunks<KeyIndexLeaf<number[]>, string>(index.tree);
      expect(buckets).toHaveLength(index.buckets);
      const found = new Map<string, number[]>();
      for (const { start, ref, value } of buckets) {
        const [j, n] = ref[4]!;
        const next = starts[starts.indexOf(start) + 1];
        expect(value.keys).toEqual([...value.keys].sort(byString));
        value.keys.forEach((key, i) => {
          expect(bucketOf(key, n), key).toBe(j);
          expect(key >= start && (next === undefined || key < next), key).toBe(true);
          found.set(key, value.values[i]);
        });
      }
      expect(found).toEqual(map);
      // Buckets of about the target on average.
      const bytes = buckets.reduce((n, b) => n + packChunk(b.value).length, 0);
      expect(bytes / index.buckets).toBeGreaterThan(target / 3);
      expect(bytes / index.buckets).toBeLessThan(2 * target);
    }
  });

  it("finds every key in one read through the worker's lookup, many keys of a run in one range, and nothing for a key it does not hold", async () => {
    const { keys, numbers, map } = pairs();
    const packs = tempPacks();
    const entryIds = withRuns(6, () => writeHashIndexOfPairs(packs, keys, numbers, 256));
    const view = () => releaseView(storageOver(packs.dir), createBlobCache(), { indexes: { entryIds }, genomes: [], taxonomy: { names: [] } } as unknown as Manifest);
    const release = view();
    for (const [key, value] of [...map].slice(0, 200)) {
      const before = release.reads.reads;
      expect(await release.lookup(entryIds, key)).toEqual(value);
      expect(release.reads.reads - before).toBeLessThanOrEqual(1);
    }
    const absent = ["", "P", "p1", "Q1 ", "ENSG9999", "\u00e9", "~"];
    for (const key of absent) expect(await release.lookup(entryIds, key)).toBeUndefined();
    // Every key at once, cold: each run's buckets in one range at most (they follow each other in
    // the pack, and so do the runs: neighbours share a range up to its cap).
    const many = view();
    const all = await many.lookupMany(entryIds, [...map.keys(), ...absent]);
    expect(new Map([...all].filter(([, v]) => v !== undefined))).toEqual(map);
    for (const key of absent) expect(all.get(key)).toBeUndefined();
    expect(many.reads.reads).toBeLessThanOrEqual(entryIds.tree.root.starts.length);
    expect(many.reads.reads * 10).toBeLessThan(entryIds.buckets);
  });

  it("keeps a key's smallest numbers only, when told how many", () => {
    const { keys, numbers, map } = pairs();
    const packs = tempPacks();
    const index = writeHashIndexOfPairs(packs, keys, numbers, 256, 2);
    const found = new Map<string, number[]>();
    for (const { value } of packs.chunks<KeyIndexLeaf<number[]>, string>(index.tree)) value.keys.forEach((key, i) => found.set(key, value.values[i]));
    expect(found).toEqual(new Map([...map].map(([key, list]) => [key, list.slice(0, 2)])));
    expect([...map.values()].some((list) => list.length > 2)).toBe(true);
  });

  it("gives an empty map one empty bucket", () => {
    const packs = tempPacks();
    const index = writeHashIndex(packs, new Map<string, number>(), 256);
    expect(index).toMatchObject({ keys: 0, buckets: 1 });
    expect(packs.chunks<KeyIndexLeaf<number>, string>(index.tree).map((b) => b.value)).toEqual([{ keys: [], values: [] }]);
  });
});
