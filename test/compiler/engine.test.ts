/**
 * The row engine (DuckDB) that sorts what the compiler cannot hold: rows come back in order,
 * measures (NaN included) intact, also when they spill past a small memory limit; relations
 * come back per genome sorted; family pairs derived on worker threads, each into a database
 * file of its own, read back as one table are the families' relations.
 */
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { familyTable } from "../../release-compiler/derive/family-table.js";
import { hogTree } from "../../release-compiler/derive/hog-columns.js";
import type { FamilyBuild } from "../../release-compiler/derive/hogs.js";
import { deriveFamilyPairsInWorkers } from "../../release-compiler/derive/pair-workers.js";
import { familyPairs } from "../../release-compiler/derive/pairs.js";
import { deriveRelations, readRelations, relationColumns, RELATION_MIRROR, RELATIONS_TABLE } from "../../release-compiler/derive/relations.js";
import { openEngine, type Engine } from "../../release-compiler/engine.js";
import { Problems } from "../../release-compiler/problems.js";
import { scratchFolder } from "../../release-compiler/scratch.js";
import { DUPLICATION, REL_TYPES, SPECIATION, type HogNode } from "../../release-format/format.js";
import { syntheticFamily } from "../synthetic-family.js";
import { tempPacks } from "./temp-packs.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what these tests compare.
process.env.ORTH_THREADS_ALWAYS = "1";

const scratch = scratchFolder(join(mkdtempSync(join(tmpdir(), "orth-engine-")), "scratch"));
const engines: Engine[] = [];
const engine = async (threads = 2, memoryBytes = 256 * 2 ** 20, folder = scratch.folder("engine")) => {
  const opened = await openEngine({ database: join(folder, "rows.duckdb"), spill: join(folder, "spill"), threads, memoryBytes });
  engines.push(opened);
  return opened;
};
afterAll(() => {
  for (const e of engines) e.close();
  scratch.remove();
});

describe("the row engine", () => {
  it("gives rows back sorted by the columns asked for, every column intact", async () => {
    const rows = await (await engine()).table("t", { a: "int32", b: "int32", code: "uint8", x: "float64" });
    const expected: Array<[number, number, number, number]> = [];
    let seed = 3;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let i = 0; i < 10_000; i++) {
      // (a, b) unique, so the order is fully defined
      const row: [number, number, number, number] = [random() % 50, (i * 104_729) % 2 ** 31 - 2 ** 30, random() % 256, i % 7 === 0 ? NaN : random() / 3];
      expected.push(row);
      rows.append(...row);
    }
    expect(rows.rows).toBe(10_000);
    const back: Array<[number, number, number, number]> = [];
    for await (const { count, columns } of rows.sorted(["a", "b"])) {
      for (let r = 0; r < count; r++) back.push([columns[0][r], columns[1][r], columns[2][r], columns[3][r]]);
    }
    expected.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    expect(back).toEqual(expected);
    expect(() => rows.append(1, 2)).toThrow(/append after close\(\) or sorted\(\)/);
  });

  it("reads a table of symmetric rows held once in both directions, mirrored rows swapped and mapped, within a range of the first key", async () => {
    const rows = await (await engine()).table("m", { a: "int32", b: "int32", code: "uint8", x: "float64" });
    const held: Array<[number, number, number, number]> = [[1, 5, 1, 0.5], [2, 3, 0, NaN], [4, 1, 2, 2], [2, 2, 3, 1]];
    for (const row of held) rows.append(...row);
    const mirror = { swap: ["a", "b"] as [string, string], map: { column: "code", to: [0, 2, 1, 3] } };
    const read = async (range?: { from: number; to: number }) => {
      const back: number[][] = [];
      for await (const { count, columns } of rows.sorted(["a", "b"], range, mirror)) for (let r = 0; r < count; r++) back.push(columns.map((c) => c[r]));
      return back;
    };
    expect(await read({ from: 1, to: 3 })).toEqual([
      [1, 4, 1, 2], // (4, 1) seen from 1: one-to-many becomes many-to-one
      [1, 5, 1, 0.5],
      [2, 2, 3, 1], // a row of a protein with itself, in both directions
      [2, 2, 3, 1],
      [2, 3, 0, NaN],
    ]);
    expect((await read()).map(([a, b]) => `${a}-${b}`)).toEqual(["1-4", "1-5", "2-2", "2-2", "2-3", "3-2", "4-1", "5-1"]);
  });

  it("sorts more rows than its memory limit holds, spilling to its folder", async () => {
    const folder = scratch.folder("small");
    const small = await engine(2, 16 * 2 ** 20, folder);
    const rows = await small.table("big", { a: "int32", b: "int32" });
    const n = 3_000_000; // 24 MB of rows, more than DuckDB sorts within 16 MB with its own overhead
    for (let i = 0; i < n; i++) rows.append((i * 7_919) % n, i);
    let previous = -1;
    let seen = 0;
    let outOfOrder = 0;
    let spilled = 0;
    for await (const { count, columns } of rows.sorted(["a"])) {
      if (seen === 0) spilled = existsSync(join(folder, "spill")) ? readdirSync(join(folder, "spill")).length : 0;
      for (let r = 0; r < count; r++) {
        if (columns[0][r] !== previous + 1) outOfOrder++;
        previous = columns[0][r];
      }
      seen += count;
    }
    expect(seen).toBe(n);
    expect(outOfOrder).toBe(0);
    expect(spilled).toBeGreaterThan(0);
  });
});

describe("relations spilled by genome", () => {
  it("come back per genome sorted by (entry 1, entry 2), both directions, types mirrored", async () => {
    // Genome 0: entries 1-3, genome 1: entries 4-6. One family: a speciation over a
    // duplication in genome 0 (1, 3) and entries 5 and 4 of genome 1.
    const genomeOf = (e: number) => (e <= 3 ? 0 : 1);
    const nodes: HogNode[] = [
      { kind: SPECIATION, parent: -1, lo: 0, hi: 4, id: "HOG:1", level: 0, levels: [0], completeness: 1 },
      { kind: DUPLICATION, parent: 0, lo: 0, hi: 2, id: "", level: -1, levels: [], completeness: -1 },
      { kind: SPECIATION, parent: 1, lo: 0, hi: 1, id: "HOG:1.1a", level: 1, levels: [1], completeness: 1 },
      { kind: SPECIATION, parent: 1, lo: 1, hi: 2, id: "HOG:1.1b", level: 1, levels: [1], completeness: 1 },
    ];
    const family: FamilyBuild = { index: 1, rootId: "HOG:1", rootHog: 1, tree: hogTree(nodes), members: Int32Array.of(3, 1, 5, 4), memberNode: Int32Array.of(2, 3, 0, 0) };
    const rowEngine = await engine();
    const stored = await deriveRelations(
      familyTable([family]),
      undefined,
      {
        proteinCount: 6,
        genomeOf,
        // Entry 3 is not a main isoform: its relations are no pairs rows.
        isMain: (e) => e !== 3,
        genomeFirstEntry: [1, 4],
        genomeSize: [3, 3],
        subgenomeOf: () => "",
        entryOfId: () => undefined,
        idOf: (e) => `P${e}`,
      },
      new Problems(),
      rowEngine,
    );
    // Read back as the task after reads them: the table as closed, by name.
    const relations = readRelations(stored, rowEngine.existingTable(RELATIONS_TABLE, relationColumns(stored.measured)), rowEngine.rowsPerRange, {
      genomeFirstEntry: [1, 4],
      genomeSize: [3, 3],
      proteinCount: 6,
    });
    expect(relations.count).toBe(2 * (1 + 4));
    const genomes = [];
    for await (const g of relations.genomes()) genomes.push(g);
    expect(genomes).toHaveLength(2);
    const [g0, g1] = genomes;
    const rows = (g: typeof g0) =>
      [...Array(g.first.length - 1).keys()].flatMap((k) =>
        [...Array(g.first[k + 1] - g.first[k]).keys()].map((i) => {
          const r = g.first[k] + i;
          return [g.firstEntry + k, g.entry2[r], g.code[r]];
        }),
      );
    // 1 and 3 are close paralogs (code 4); each of 1, 3, 4, 5 has two orthologs in the other
    // genome, so every ortholog pair is m:n (code 3); 4 and 5 (a speciation) are not related.
    expect(rows(g0)).toEqual([
      [1, 3, 4],
      [1, 4, 3],
      [1, 5, 3],
      [3, 1, 4],
      [3, 4, 3],
      [3, 5, 3],
    ]);
    expect(rows(g1)).toEqual([
      [4, 1, 3],
      [4, 3, 3],
      [5, 1, 3],
      [5, 3, 3],
    ]);
    expect(Array.from(g1.first)).toEqual([0, 2, 4, 4]);
    // Unmeasured relations come without distances and scores (each unknown).
    expect(g0.distance).toBeUndefined();
    expect(g0.score).toBeUndefined();
    // Rows between main isoforms per genome: 1–4 and 1–5; 4–1 and 5–1.
    expect(Array.from(stored.mainPerGenome)).toEqual([2, 2]);

    // A run of genomes alone, as a part of the relation tables reads it: genome 1 only.
    const table = rowEngine.existingTable(RELATIONS_TABLE, relationColumns(stored.measured));
    const layout = { genomeFirstEntry: [1, 4], genomeSize: [3, 3], proteinCount: 6 };
    const second = readRelations(stored, table, rowEngine.rowsPerRange, layout, { from: 1, to: 2 });
    expect(second.count).toBe(4);
    const alone = [];
    for await (const g of second.genomes()) alone.push(g);
    expect(alone.map(rows)).toEqual([rows(g1)]);
    const none = readRelations(stored, table, rowEngine.rowsPerRange, layout, { from: 1, to: 1 });
    for await (const g of none.genomes()) expect.unreachable(`no genome, got one from ${g.firstEntry}`);
  });
});

describe("family pairs on worker threads", () => {
  it("are appended by each worker into its own database file, and read back as one table they equal the rows derived on one thread", async () => {
    const built = [3, 5, 8].map((seed) => syntheticFamily(32, 0.2, 0.02, seed)).map(({ family, genomes, taxonomy, speciesOf }, k) => ({
      genomes,
      // Entry e is member e of the family, a gene of the species level speciesOf[e - 1].
      genome: Int32Array.from(speciesOf, (level) => taxonomy.genomes[level]),
      family: { index: k + 1, rootId: family.rootId, rootHog: k + 1, tree: hogTree(family.nodes), members: Int32Array.from(family.entries), memberNode: new Int32Array() },
    }));
    // The synthetic families number their entries alike: one family per run, each on its own.
    for (const { family, genomes, genome } of built) {
      const count = genome.length;
      expect(new Set(genome).size).toBeGreaterThan(16);
      const isMain = Uint8Array.from({ length: count }, (_, i) => (i % 5 === 0 ? 0 : 1));
      const expected = familyPairs(family, (e) => genome[e - 1]).flatMap((p) => {
        const code = REL_TYPES.indexOf(p.relType);
        const mirrored = [0, 2, 1, 3, 4, 5][code];
        return [`${p.entry1}-${p.entry2}-${code}`, `${p.entry2}-${p.entry1}-${mirrored}`];
      });
      const folder = scratch.folder("pair-workers");
      // Sent 12 times over: more batches than workers, so each worker takes several.
      const families = familyTable(Array.from({ length: 12 }, (_, k) => ({ ...family, index: k + 1 })));
      const written = await deriveFamilyPairsInWorkers(families, {
        jobs: 2,
        genome,
        subgenome: new Uint8Array(count),
        isMain,
        genomes: genomes.length,
        keepWithin: true,
        keepBetween: true,
        measured: true,
        rows: { folder, scratch: folder, memoryBytes: 128 * 2 ** 20 },
        sequenceOf: (e) => "MKV".repeat(1 + (e % 5)),
      });
      // Orthologs and paralogs both.
      expect(expected.length).toBeGreaterThan(14);
      expect(new Set(expected.map((row) => row.split("-")[2])).size).toBeGreaterThan(2);
      expect(written.map((w) => w.file)).toEqual(["relations-1.duckdb", "relations-2.duckdb"]);
      expect(written.every((w) => w.rows > 0)).toBe(true);
      expect(written.reduce((n, w) => n + w.rows, 0)).toBe(12 * expected.length);

      // Read back as the relations parts read them: the first file with the other attached.
      const [first, ...others] = written.map((w) => join(folder, w.file));
      const reader = await openEngine({ database: first, attach: others, readOnly: true, spill: join(folder, "spill"), threads: 2, memoryBytes: 64 * 2 ** 20 });
      engines.push(reader);
      const got: string[] = [];
      let measured = 0;
      for await (const { count: n, columns } of reader.existingTable(RELATIONS_TABLE, relationColumns(true)).sorted(["entry1", "entry2"], undefined, RELATION_MIRROR)) {
        for (let r = 0; r < n; r++) {
          got.push(`${columns[0][r]}-${columns[1][r]}-${columns[2][r]}`);
          if (columns[4][r] > 0 && !Number.isNaN(columns[3][r])) measured++;
        }
      }
      const twelve = expected.flatMap((row) => Array<string>(12).fill(row));
      expect([...got].sort()).toEqual([...twelve].sort());
      expect(measured).toBe(got.length);
      // Sorted by (entry1, entry2) across the files.
      const keys = got.map((row) => row.split("-").map(Number));
      expect(keys.every((k, i) => i === 0 || keys[i - 1][0] < k[0] || (keys[i - 1][0] === k[0] && keys[i - 1][1] <= k[1]))).toBe(true);

      // The counts per genome, summed over the workers, are those of the rows.
      const perGenome = new Array<number>(genomes.length).fill(0);
      const mainPerGenome = new Array<number>(genomes.length).fill(0);
      for (const [a, b] of keys) {
        perGenome[genome[a - 1]]++;
        if (isMain[a - 1] && isMain[b - 1]) mainPerGenome[genome[a - 1]]++;
      }
      const sum = (pick: (w: (typeof written)[0]) => Float64Array) => perGenome.map((_, g) => written.reduce((n, w) => n + pick(w)[g], 0));
      expect(sum((w) => w.perGenome)).toEqual(perGenome);
      expect(sum((w) => w.mainPerGenome)).toEqual(mainPerGenome);
    }
  });

  it("refuses to attach databases to an engine that writes", async () => {
    const folder = scratch.folder("attach");
    await expect(openEngine({ database: join(folder, "a.duckdb"), attach: [join(folder, "b.duckdb")], spill: folder, threads: 1, memoryBytes: 64 * 2 ** 20 })).rejects.toThrow(/read-only/);
  });
});
