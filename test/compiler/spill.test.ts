/**
 * The compiler's disk spilling: bucket files give back each bucket's records in append order
 * and are cleaned up; relations spilled by genome come back sorted; the k-mer index is the
 * same whether its postings are sorted in one bucket or in many.
 */
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FamilyBuild } from "../../release-compiler/derive/hogs.js";
import { deriveRelations } from "../../release-compiler/derive/relations.js";
import { Problems } from "../../release-compiler/problems.js";
import { BucketSpill, scratchFolder } from "../../release-compiler/spill.js";
import { writeSequenceIndex } from "../../release-compiler/write/sequence-index.js";
import { DUPLICATION, SPECIATION, type HogNode } from "../../release-format/format.js";
import { forEachKmer } from "../../release-format/kmers.js";
import { tempPacks } from "./temp-packs.js";

const scratch = () => scratchFolder(join(mkdtempSync(join(tmpdir(), "orth-spill-")), "scratch"));

describe("BucketSpill", () => {
  it("returns each bucket's records in append order, across buffer flushes, and removes its files", () => {
    const folder = scratch();
    // 3 buckets of 6-byte records; far more records than one buffer holds.
    const spill = new BucketSpill(folder.folder("test"), 3, 6);
    const expected: number[][] = [[], [], []];
    for (let i = 0; i < 20_000; i++) {
      const bucket = (i * 7) % 3 === 1 ? 1 : i % 5 === 0 ? 2 : 0;
      const { buffer, offset } = spill.append(bucket);
      buffer.writeInt32LE(i, offset);
      buffer.writeUInt16LE(i % 65_536, offset + 4);
      expected[bucket].push(i);
    }
    for (let b = 0; b < 3; b++) {
      expect(spill.count(b)).toBe(expected[b].length);
      const bytes = spill.read(b);
      const got: number[] = [];
      for (let at = 0; at < bytes.length; at += 6) {
        got.push(bytes.readInt32LE(at));
        expect(bytes.readUInt16LE(at + 4)).toBe(bytes.readInt32LE(at) % 65_536);
      }
      expect(got).toEqual(expected[b]);
    }
    expect(() => spill.append(0)).toThrow(/after read/);
    folder.remove();
    expect(existsSync(folder.path)).toBe(false);
  });

  it("gives an empty buffer for a bucket that got nothing", () => {
    const folder = scratch();
    const spill = new BucketSpill(folder.folder("empty"), 4, 8);
    spill.append(2).buffer.writeDoubleLE(1.5, 0);
    expect(spill.read(0).length).toBe(0);
    expect(spill.read(2).readDoubleLE(0)).toBe(1.5);
    expect(readdirSync(join(folder.path, readdirSync(folder.path)[0]))).toEqual([]);
    folder.remove();
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
    const family: FamilyBuild = { index: 1, rootId: "HOG:1", rootHog: 1, nodes, members: [3, 1, 5, 4], memberNode: [2, 3, 0, 0] };
    const relations = await deriveRelations(
      [family],
      undefined,
      {
        proteinCount: 6,
        genomeOf,
        genomeFirstEntry: [1, 4],
        genomeSize: [3, 3],
        subgenomeOf: () => "",
        entryOfId: () => undefined,
      },
      new Problems(),
      scratch(),
    );
    expect(relations.count).toBe(2 * (1 + 4));
    const g0 = relations.readGenome(0);
    const g1 = relations.readGenome(1);
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
    expect(Number.isNaN(g0.distance[0])).toBe(true);
  });
});

describe("the sequence index in buckets", () => {
  it("writes the same chunks whatever the bucket size", () => {
    const letters = "ACDEFGHIKLMNPQRSTVWYX";
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const sequences = Array.from({ length: 300 }, () =>
      Array.from({ length: 20 + Math.floor(random() * 400) }, () => letters[Math.floor(random() * letters.length)]).join(""),
    );
    const build = (postingsPerBucket: number) => {
      const packs = tempPacks();
      const ref = writeSequenceIndex(packs, sequences.length, (e) => sequences[e - 1], scratch(), postingsPerBucket);
      return { ref, values: packs.chunks(ref.tree).map((c) => c.value) };
    };
    const whole = build(Number.MAX_SAFE_INTEGER);
    const bucketed = build(1_000);
    expect(whole.values.length).toBeGreaterThan(1);
    expect(bucketed.ref).toEqual(whole.ref);
    expect(bucketed.values).toEqual(whole.values);
    // One posting per distinct k-mer of each sequence.
    const distinct = sequences.map((seq) => {
      const codes = new Set<number>();
      forEachKmer(seq, (code) => codes.add(code));
      return codes.size;
    });
    expect(whole.ref.postings).toBe(distinct.reduce((a, b) => a + b, 0));
  });
});
