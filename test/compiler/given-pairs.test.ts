/**
 * Given pairs (release-compiler/derive/given-pairs.ts): checked row by row, appended to a row
 * engine of their own, their repeats found and their untyped orthologs typed by its queries.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REL_TYPES } from "../../release-format/format.js";
import { readGivenPairs, type GivenPairContext } from "../../release-compiler/derive/given-pairs.js";
import type { PairRow } from "../../release-compiler/inputs.js";
import { Problems } from "../../release-compiler/problems.js";
import { readPairBatches } from "../../release-compiler/readers/pairs.js";
import { tempDir, tempFile } from "./readers/tmp.js";

/** Entries 1-3 in genome 0, 4-6 in genome 1, 7-9 in genome 2, a polyploid whose 7 and 8 are on subgenome A and 9 on B; P<entry> their ids. */
const context: GivenPairContext = {
  genomeOf: (e) => Math.floor((e - 1) / 3),
  subgenomeOf: (e) => (e === 7 || e === 8 ? "A" : e === 9 ? "B" : ""),
  entryOfId: (id) => (/^P[1-9]$/.test(id) ? Number(id.slice(1)) : undefined),
  idOf: (e) => `P${e}`,
};

/** The rows of `lines` as a reader gives them, in batches (of three: a file's lines a chunk at a time). */
async function* rowsOf(lines: Array<[string, string, string?]>, file?: string): AsyncGenerator<PairRow[]> {
  const rows: PairRow[] = lines.map(([protein1, protein2, relType], i) => ({ protein1, protein2, line: i + 1, ...(relType ? { relType } : {}), ...(file ? { file } : {}) }));
  for (let i = 0; i < rows.length; i += 3) yield rows.slice(i, i + 3);
}

/** What the given pairs read back as: "x y type" lines, sorted, with the problems reported. */
async function given(lines: Array<[string, string, string?]>, memoryBytes = 64 * 2 ** 20) {
  const problems = new Problems();
  const folder = join(tempDir(), "given");
  const pairs = await readGivenPairs("pairs.tsv", rowsOf(lines), context, problems, { folder, memoryBytes, threads: 2 });
  const out: string[] = [];
  for await (const { count, columns: [x, y, code] } of pairs.rows()) for (let r = 0; r < count; r++) out.push(`${x[r]} ${y[r]} ${REL_TYPES[code[r]]}`);
  pairs.close();
  pairs.close();
  expect(existsSync(folder)).toBe(false);
  return { rows: out.sort(), between: pairs.between, within: pairs.within, problems: problems.list.map((p) => `${p.file}:${p.line}: ${p.message}`) };
}

describe("given pairs", () => {
  it("type untyped orthologs by their co-orthologs, same-genome pairs by subgenomes, and keep given types seen from the lower entry", async () => {
    const read = await given([
      // P1 has two orthologs in genome 1 (P4, P5), each of which has only P1 in genome 0: 1:n from P1.
      ["P1", "P4"],
      ["P5", "P1"],
      // P2 and P3 both pair with P6, and P6 with both: m:1 from P2 and P3.
      ["P2", "P6"],
      ["P3", "P6"],
      // P1-P7: each the other's only ortholog in its genome.
      ["P7", "P1"],
      // Typed from P8's side (1:n): kept from P2's, mirrored (m:1).
      ["P8", "P2", "1:n"],
      // Same genome: close paralogs, and homoeologs across subgenomes.
      ["P2", "P3"],
      ["P9", "P7"],
    ]);
    expect(read.problems).toEqual([]);
    expect([read.between, read.within]).toEqual([true, true]);
    expect(read.rows).toEqual([
      "1 4 1:n",
      "1 5 1:n",
      "1 7 1:1",
      "2 3 close paralog",
      "2 6 m:1",
      "2 8 m:1",
      "3 6 m:1",
      "7 9 homeolog",
    ]);
  });

  it("report a pair given again either way round at its line, with the line it was first given on, and rows not possible as they are read", async () => {
    const read = await given([
      ["P1", "P4"],
      ["P4", "P1"],
      ["P1", "P2", "1:1"],
      ["P1", "X"],
      ["P7", "P8", "homeolog"],
      ["P1", "P4"],
      ["P2", "P3"],
    ]);
    expect(read.problems).toEqual([
      `pairs.tsv:3: P1 and P2 are of one genome, so they cannot be "1:1" orthologs`,
      "pairs.tsv:4: unknown protein X",
      "pairs.tsv:5: P7 and P8 are not on different subgenomes of a polyploid genome",
      "pairs.tsv:2: the pair P4, P1 was already given on line 1",
      "pairs.tsv:6: the pair P1, P4 was already given on line 1",
    ]);
    // Refused: none of them is a relation of the release.
    expect(read.rows).toEqual([]);
  });

  it("type as counting in memory does, on thousands of random pairs across three genomes, with the engine's least memory", async () => {
    // 9,000 proteins, 3,000 a genome, and 6,000 pairs: a protein has none, one or a few orthologs in another genome.
    const big: GivenPairContext = {
      genomeOf: (e) => Math.floor((e - 1) / 3000),
      subgenomeOf: () => "",
      entryOfId: (id) => Number(id.slice(1)),
      idOf: (e) => `P${e}`,
    };
    let seed = 5;
    const random = (n: number) => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) % n;
    const seen = new Set<string>();
    const lines: Array<[string, string]> = [];
    while (lines.length < 6_000) {
      const a = 1 + random(9000);
      const b = 1 + random(9000);
      if (big.genomeOf(a) === big.genomeOf(b) || seen.has(`${Math.min(a, b)} ${Math.max(a, b)}`)) continue;
      seen.add(`${Math.min(a, b)} ${Math.max(a, b)}`);
      lines.push([`P${a}`, `P${b}`]);
    }
    const problems = new Problems();
    const pairs = await readGivenPairs("pairs.tsv", rowsOf(lines), big, problems, { folder: join(tempDir(), "given"), memoryBytes: 0, threads: 1 });
    const got = new Map<string, number>();
    for await (const { count, columns: [x, y, code] } of pairs.rows()) for (let r = 0; r < count; r++) got.set(`${x[r]} ${y[r]}`, code[r]);
    pairs.close();
    // The reference: each protein's orthologs per other genome, counted in a Map.
    const partners = new Map<string, number>();
    const bump = (e: number, g: number) => partners.set(`${e}@${g}`, (partners.get(`${e}@${g}`) ?? 0) + 1);
    for (const key of seen) {
      const [x, y] = key.split(" ").map(Number);
      bump(x, big.genomeOf(y));
      bump(y, big.genomeOf(x));
    }
    expect(problems.list).toEqual([]);
    expect(got.size).toBe(seen.size);
    for (const key of seen) {
      const [x, y] = key.split(" ").map(Number);
      const many1 = partners.get(`${y}@${big.genomeOf(x)}`)! > 1;
      const many2 = partners.get(`${x}@${big.genomeOf(y)}`)! > 1;
      expect(got.get(key), key).toBe(many1 ? (many2 ? 3 : 2) : many2 ? 1 : 0);
    }
    // Every kind appears.
    expect(new Set(got.values())).toEqual(new Set([0, 1, 2, 3]));
  });

  it("name the file of each row when pairs come from several (OrthoFinder's orthologues)", async () => {
    const problems = new Problems();
    async function* two(): AsyncGenerator<PairRow[]> {
      yield* rowsOf([["P1", "P4", "1:1"]], "A__v__B.tsv");
      yield* rowsOf([["P1", "P7", "1:1"], ["P7", "P1", "1:1"]], "A__v__C.tsv");
    }
    const pairs = await readGivenPairs("Orthologues", two(), context, problems, { folder: join(tempDir(), "given"), memoryBytes: 0, threads: 1 });
    pairs.close();
    expect(problems.list.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual(["A__v__C.tsv:2: the pair P7, P1 was already given on line 1"]);
    expect([pairs.between, pairs.within]).toEqual([true, false]);
  });

  it("report the pairs file's problems and the rows' in line order, read a chunk of lines at a time", async () => {
    // 30,000 lines: several chunks; every 1,000th row names an unknown protein, every 1,000th from the 500th has four columns with a bad type.
    const lines = Array.from({ length: 30_000 }, (_, i) => (i % 1000 === 0 ? "P1\tPX" : i % 1000 === 500 ? "P1\tP4\tnot-a-type" : `P${1 + (i % 3)}\tP${4 + (i % 3)}`));
    const file = tempFile("pairs.tsv", lines.join("\n"));
    const problems = new Problems();
    const pairs = await readGivenPairs(file, readPairBatches(file, problems), context, problems, { folder: join(tempDir(), "given"), memoryBytes: 0, threads: 1 });
    pairs.close();
    const reported = problems.list.map((p) => p.line);
    expect(reported.slice(0, 4)).toEqual([1, 501, 1001, 1501]);
    // Every unknown protein and bad type, then the repeats (reported after every row is read), each part in line order.
    const readOrder = reported.slice(0, 60);
    expect(readOrder).toEqual([...readOrder].sort((a, b) => a - b));
    expect(problems.list[0].message).toBe("unknown protein PX");
    expect(problems.list[1].message).toMatch(/^relation type "not-a-type"/);
  });
});
