/**
 * The relations and pairs written in parts over runs of genomes (tasks.ts, RELATION_PARTS) and
 * put together: the same chunks, pair directory, genes with relations and close groups as the
 * tables written in one part, whichever the cut.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isOrthologType, packKey, type ChunkTree } from "../../release-format/format.js";
import type { GenomeRelations, RelationsBuild } from "../../release-compiler/derive/relations.js";
import { packWriter } from "../../release-compiler/write/packs.js";
import { closeGroupsOf, putRelationPartsTogether, relationParts, writeRelationPart, type RelationProteins } from "../../release-compiler/write/relations.js";
import { seededRandom } from "../seeded-random.js";

describe("runs of genomes for the parts", () => {
  it("cover every genome once, in order, each part within a share and a genome of the rows", () => {
    const random = seededRandom(5);
    for (let trial = 0; trial < 200; trial++) {
      const genomes = 1 + Math.floor(random() * 30);
      const perGenome = Array.from({ length: genomes }, () => (random() < 0.2 ? 0 : Math.floor(random() ** 3 * 1000)));
      const parts = 1 + Math.floor(random() * 10);
      const runs = relationParts(perGenome, parts);
      expect(runs).toHaveLength(parts);
      expect(runs[0].from).toBe(0);
      expect(runs.at(-1)!.to).toBe(genomes);
      runs.forEach((run, i) => {
        expect(run.from).toBeLessThanOrEqual(run.to);
        if (i) expect(run.from).toBe(runs[i - 1].to);
      });
      const total = perGenome.reduce((a, b) => a + b, 0);
      const largest = Math.max(...perGenome);
      for (const { from, to } of runs) {
        const rows = perGenome.slice(from, to).reduce((a, b) => a + b, 0);
        expect(rows).toBeLessThanOrEqual(total / parts + largest);
      }
      expect(relationParts(perGenome, parts)).toEqual(runs);
    }
  });

  it("leave parts empty when there are fewer genomes than parts, or one genome holds most rows", () => {
    expect(relationParts([5, 5], 4).filter(({ from, to }) => to > from)).toHaveLength(2);
    const runs = relationParts([1, 1000, 1, 1], 4);
    expect(runs.find(({ from, to }) => from <= 1 && 1 < to)).toBeDefined();
    expect(runs.filter(({ from, to }) => to > from).length).toBeLessThan(4);
    expect(relationParts([0, 0, 0], 2)).toEqual([
      { from: 0, to: 0 },
      { from: 0, to: 3 },
    ]);
  });
});

/**
 * Random directed relations among genomes of `sizes` proteins each (some may be empty), every
 * entry's sorted by partner, and the genome of each entry.
 */
function randomRelations(sizes: number[], seed: number) {
  const random = seededRandom(seed);
  const genomes = sizes.length;
  const genomeFirstEntry = Int32Array.from({ length: genomes + 1 }, (_, g) => 1 + sizes.slice(0, g).reduce((a, b) => a + b, 0));
  const count = genomeFirstEntry[genomes] - 1;
  const genomeOf = Int32Array.from({ length: count }, (_, i) => sizes.findIndex((_, g) => i + 1 < genomeFirstEntry[g + 1]));
  const proteins: RelationProteins = {
    genomes,
    genomeFirstEntry,
    isMain: Uint8Array.from({ length: count }, () => (random() < 0.8 ? 1 : 0)),
    group: Int32Array.from({ length: count }, () => (random() < 0.3 ? 0 : 1 + Math.floor(random() * 6))),
    groupCount: 6,
  };
  const byGenome: GenomeRelations[] = [];
  for (let g = 0; g < genomes; g++) {
    const size = sizes[g];
    const first = [0];
    const entry2: number[] = [];
    const code: number[] = [];
    for (let k = 0; k < size; k++) {
      const partners = [...new Set(Array.from({ length: Math.floor(random() * 8) }, () => 1 + Math.floor(random() * count)))]
        .filter((e) => e !== genomeFirstEntry[g] + k)
        .sort((a, b) => a - b);
      for (const e of partners) {
        entry2.push(e);
        code.push(genomeOf[e - 1] === g ? 4 : Math.floor(random() * 4));
      }
      first.push(entry2.length);
    }
    byGenome.push({
      firstEntry: genomeFirstEntry[g],
      first: Int32Array.from(first),
      entry2: Int32Array.from(entry2),
      code: Uint8Array.from(code),
      distance: new Float64Array(entry2.length).fill(NaN),
      score: Float64Array.from(entry2, () => (random() < 0.5 ? NaN : Math.round(random() * 1000))),
    });
  }
  // Rows between main isoforms per genome: where each genome's pairs rows start.
  const mainPerGenome = byGenome.map((rel) => {
    let n = 0;
    for (let k = 0; k + 1 < rel.first.length; k++) {
      if (!proteins.isMain[rel.firstEntry + k - 1]) continue;
      for (let r = rel.first[k]; r < rel.first[k + 1]; r++) n += proteins.isMain[rel.entry2[r] - 1];
    }
    return n;
  });
  const build = (from: number, to: number): RelationsBuild => ({
    count: byGenome.slice(from, to).reduce((n, rel) => n + rel.entry2.length, 0),
    async *genomes() {
      yield* byGenome.slice(from, to);
    },
  });
  return { proteins, genomeOf, perGenome: byGenome.map((rel) => rel.entry2.length), mainPerGenome, build };
}

/** Every chunk of a tree whose root lists its chunks, as stored. */
function chunkBytes(dir: string, tree: ChunkTree<number>): Buffer[] {
  expect(tree.depth).toBe(1);
  const { root } = tree;
  return root.starts.map((_, i) => readFileSync(join(dir, packKey(root.packs[root.pack[i]]))).subarray(root.offsets[i], root.offsets[i] + root.lengths[i]));
}

describe("the relation tables put together from parts", () => {
  const layout = { relationsChunkBytes: 96, pairsChunkBytes: 128 };

  it("hold the chunks, pair directory, genes with relations and close groups of the tables written in one part", async () => {
    // Genomes of several sizes, two of them empty (the partners' genomes are found along the genomes' first entries).
    const sizes = [9, 4, 0, 12, 1, 0, 9, 7];
    const genomes = sizes.length;
    const { proteins, genomeOf, perGenome, mainPerGenome, build } = randomRelations(sizes, 3);
    const write = async (dir: string, parts: number) => {
      const written = [];
      for (const { from, to } of relationParts(perGenome, parts)) {
        // Each part in packs of its own, as each task writes them.
        const firstPairRow = mainPerGenome.slice(0, from).reduce((a, b) => a + b, 0);
        written.push(await writeRelationPart(packWriter(dir), build(from, to), proteins, layout, 1, { from, to, firstPairRow }));
      }
      return putRelationPartsTogether(packWriter(dir), written, { genomes, proteins: genomeOf.length, groupCount: proteins.groupCount });
    };
    const oneDir = mkdtempSync(join(tmpdir(), "orth-relation-parts-"));
    const one = await write(oneDir, 1);
    expect(one.relations.tree.root.starts.length).toBeGreaterThan(genomes);
    for (const parts of [2, 3, 8]) {
      const dir = mkdtempSync(join(tmpdir(), "orth-relation-parts-"));
      const tables = await write(dir, parts);
      expect(chunkBytes(dir, tables.relations.tree), `relations in ${parts} parts`).toEqual(chunkBytes(oneDir, one.relations.tree));
      expect(chunkBytes(dir, tables.pairs.tree), `pairs in ${parts} parts`).toEqual(chunkBytes(oneDir, one.pairs.tree));
      expect(tables.relations.tree.root.starts).toEqual(one.relations.tree.root.starts);
      expect(tables.pairs.tree.root.starts).toEqual(one.pairs.tree.root.starts);
      expect(tables.pairs.rows).toBe(one.pairs.rows);
      expect(tables.pairStart).toEqual(one.pairStart);
      expect(tables.pairCount).toEqual(one.pairCount);
      expect(tables.withRelations).toEqual(one.withRelations);
      expect(tables.closeGroups).toEqual(one.closeGroups);
      // The parts' chunks lie in packs of their own: more packs than one part's.
      expect(new Set(tables.pairs.tree.root.packs).size).toBeGreaterThan(new Set(one.pairs.tree.root.packs).size);
    }
    expect(one.pairs.rows).toBe(mainPerGenome.reduce((a, b) => a + b, 0));
    // Close groups: for each group, the other groups its members' orthologs are in, by hits, as counted here.
    const hits = Array.from({ length: proteins.groupCount + 1 }, () => new Map<number, number>());
    for await (const rel of build(0, genomes).genomes()) {
      for (let k = 0; k + 1 < rel.first.length; k++) {
        const group = proteins.group[rel.firstEntry + k - 1];
        for (let r = rel.first[k]; r < rel.first[k + 1]; r++) {
          const other = proteins.group[rel.entry2[r] - 1];
          if (group && other && other !== group && isOrthologType(rel.code[r])) hits[group].set(other, (hits[group].get(other) ?? 0) + 1);
        }
      }
    }
    for (let g = 1; g <= proteins.groupCount; g++) expect(closeGroupsOf(one.closeGroups, g), `group ${g}`).toEqual([...hits[g]].sort((x, y) => y[1] - x[1] || x[0] - y[0]));
    expect(one.closeGroups.group.length).toBeGreaterThan(proteins.groupCount);
    // Per genome pair, as counted here: the pairs rows (relations between main isoforms), and the genes with a relation into the other genome.
    const pairCount = new Int32Array(genomes * genomes);
    const withRelations = new Int32Array(genomes * genomes);
    for await (const rel of build(0, genomes).genomes()) {
      for (let k = 0; k + 1 < rel.first.length; k++) {
        const entry = rel.firstEntry + k;
        const into = new Set<number>();
        for (let r = rel.first[k]; r < rel.first[k + 1]; r++) {
          const pair = genomeOf[entry - 1] * genomes + genomeOf[rel.entry2[r] - 1];
          into.add(pair);
          if (proteins.isMain[entry - 1] && proteins.isMain[rel.entry2[r] - 1]) pairCount[pair]++;
        }
        for (const pair of into) withRelations[pair]++;
      }
    }
    expect(one.pairCount).toEqual(pairCount);
    expect(one.withRelations).toEqual(withRelations);
    // The pair directory: each genome pair's rows follow the one before's, over every pairs row.
    expect(one.pairStart).toHaveLength(genomes * genomes);
    one.pairStart.forEach((start, k) => expect(start).toBe(k ? one.pairStart[k - 1] + one.pairCount[k - 1] : 0));
    expect(one.pairStart.at(-1)! + one.pairCount.at(-1)!).toBe(one.pairs.rows);
  });

  it("write unmeasured relations (no distances nor scores) as relations whose every distance and score is unknown", async () => {
    const sizes = [5, 0, 7, 3];
    const { proteins, genomeOf, mainPerGenome, build } = randomRelations(sizes, 11);
    const genomes = sizes.length;
    const unknown = async function* (measures: boolean): AsyncGenerator<GenomeRelations> {
      for await (const { distance, score, ...rel } of build(0, genomes).genomes()) {
        yield measures ? { ...rel, distance: distance!.map(() => NaN), score: score!.map(() => NaN) } : rel;
      }
    };
    const write = async (measures: boolean) => {
      const dir = mkdtempSync(join(tmpdir(), "orth-relation-parts-"));
      const part = await writeRelationPart(packWriter(dir), { count: 0, genomes: () => unknown(measures) }, proteins, layout, 1, { from: 0, to: genomes, firstPairRow: 0 });
      const tables = putRelationPartsTogether(packWriter(dir), [part], { genomes, proteins: genomeOf.length, groupCount: proteins.groupCount });
      return { relations: chunkBytes(dir, tables.relations.tree), pairs: chunkBytes(dir, tables.pairs.tree), rows: tables.pairs.rows };
    };
    const withNaN = await write(true);
    expect(withNaN.rows).toBe(mainPerGenome.reduce((a, b) => a + b, 0));
    expect(await write(false)).toEqual(withNaN);
  });

  it("refuses parts that do not follow one another", async () => {
    const genomes = 4;
    const { proteins, genomeOf, perGenome, mainPerGenome, build } = randomRelations([6, 6, 6, 6], 8);
    const dir = mkdtempSync(join(tmpdir(), "orth-relation-parts-"));
    const [a, b] = relationParts(perGenome, 2);
    expect(a.to).toBeGreaterThan(0);
    expect(b.to).toBeGreaterThan(b.from);
    const first = await writeRelationPart(packWriter(dir), build(a.from, a.to), proteins, layout, 1, { ...a, firstPairRow: 0 });
    const offBy = await writeRelationPart(packWriter(dir), build(b.from, b.to), proteins, layout, 1, { ...b, firstPairRow: mainPerGenome.slice(0, b.from).reduce((x, y) => x + y, 0) + 1 });
    const p = { genomes, proteins: genomeOf.length, groupCount: proteins.groupCount };
    expect(() => putRelationPartsTogether(packWriter(dir), [first, offBy], p)).toThrow(/starts at pairs row/);
    expect(() => putRelationPartsTogether(packWriter(dir), [first], p)).toThrow(`the parts end at genome ${a.to} of ${genomes}`);
    expect(() => putRelationPartsTogether(packWriter(dir), [offBy], p)).toThrow(`a part starts at genome ${b.from}, where genome 0 was next`);
    // Proteins whose genomes' first entries do not match the genomes.
    const short = { ...proteins, genomeFirstEntry: proteins.genomeFirstEntry.subarray(0, genomes) };
    await expect(writeRelationPart(packWriter(dir), build(a.from, a.to), short, layout, 1, { ...a, firstPairRow: 0 })).rejects.toThrow(`${genomes} genome first entries for ${genomes} genomes`);
  });
});
