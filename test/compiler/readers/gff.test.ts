import { describe, expect, it } from "vitest";
import { readGff } from "../../../release-compiler/readers/gff.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readGff on real data", () => {
  it("reads HUMAN.gff: one locus per protein, gene bounds and CDS exons", async () => {
    const problems = new Problems();
    const loci = await readGff(data("primates-chr12/gff3/HUMAN.gff"), problems);
    expect(problems.list).toEqual([]);
    expect(loci.size).toBe(1033);
    const plus = loci.get("ENSG00000120645.12")!;
    expect(plus).toMatchObject({ chromosome: "12", start: 66883, end: 175033, strand: 1, line: 1 });
    expect(plus.exons).toHaveLength(14);
    expect(plus.exons[0]).toEqual([66883, 67436]);
    expect(plus.exons[13]).toEqual([174599, 175033]);
    const minus = loci.get("ENSG00000111181.12")!;
    expect(minus).toMatchObject({ chromosome: "12", start: 191068, end: 209986, strand: -1, line: 16 });
    expect(minus.exons).toHaveLength(14);
    expect(minus.exons.slice(0, 2)).toEqual([
      [191068, 191211],
      [192478, 192648],
    ]); // sorted by start although the file lists them 3'→5'
  });

  it("reads every primates GFF without problems", async () => {
    for (const code of ["PANTR", "PANPA", "GORGO", "PONAB", "NOMLE", "MACMU", "MACFA", "PAPAN", "CHLSB", "CALJA"]) {
      const problems = new Problems();
      const loci = await readGff(data(`primates-chr12/gff3/${code}.gff`), problems);
      expect(messages(problems), code).toEqual([]);
      expect(loci.size, code).toBeGreaterThan(500);
    }
  });
});

const row = (...cols: string[]) => cols.join("\t");

describe("readGff problems", () => {
  it("uses the CDS span without a gene, Parent as fallback, percent-decoding, stops at ##FASTA", async () => {
    const file = tempFile(
      "a.gff",
      [
        "##gff-version 3",
        row("chr1", ".", "CDS", "500", "600", ".", "-", "0", "ID=c1;Parent=tx%3B1"),
        row("chr1", ".", "CDS", "100", "200", ".", "-", "0", "ID=c2;Parent=tx%3B1"),
        row("chr2", ".", "mRNA", "10", "90", ".", "+", ".", "ID=p%2C2"),
        row("chr2", ".", "CDS", "20", "30", ".", "+", "0", "protein_id=p%2C2"),
        "##FASTA",
        ">x",
        "ACGT",
      ].join("\n"),
    );
    const problems = new Problems();
    const loci = await readGff(file, problems);
    expect(problems.list).toEqual([]);
    expect(Object.fromEntries(loci)).toEqual({
      "tx;1": { chromosome: "chr1", start: 100, end: 600, strand: -1, exons: [[100, 200], [500, 600]], line: 2 },
      "p,2": { chromosome: "chr2", start: 10, end: 90, strand: 1, exons: [[20, 30]], line: 4 },
    });
  });

  it("reports columns, coordinates, strands and CDS disagreeing with earlier ones", async () => {
    const file = tempFile(
      "b.gff",
      [
        row("chr1", ".", "CDS", "100", "200", ".", "+", "0"), // 1: 8 columns
        row("chr1", ".", "CDS", "x", "200", ".", "+", "0", "protein_id=a"), // 2
        row("chr1", ".", "CDS", "0", "200", ".", "+", "0", "protein_id=a"), // 3
        row("chr1", ".", "CDS", "300", "120", ".", "+", "0", "protein_id=a"), // 4
        row("chr1", ".", "CDS", "100", "200", ".", "*", "0", "protein_id=a"), // 5
        row("chr1", ".", "CDS", "100", "200", ".", "+", "0", "protein_id=a"), // 6
        row("chr2", ".", "CDS", "300", "400", ".", "+", "0", "protein_id=a"), // 7
        row("chr1", ".", "CDS", "300", "400", ".", "-", "0", "protein_id=a"), // 8
        row("chr1", ".", "gene", "1", "1000", ".", "+", ".", "ID=a"), // 9
        row("chr1", ".", "CDS", "100", "200", ".", "+", "0", "protein_id=b%ZZ"), // 10
        row("chr1", ".", "CDS", "100", "200", ".", "+", "0", "protein_id=c;note"), // 11
      ].join("\n"),
    );
    const problems = new Problems();
    const loci = await readGff(file, problems);
    expect(messages(problems)).toEqual([
      "1: expected 9 tab-separated columns, found 8",
      '2: start "x" is not a positive integer',
      '3: start "0" is not a positive integer',
      "4: end 120 is before start 300",
      '5: strand "*" is not one of + - . ?',
      "7: CDS of a is on chromosome chr2, but its earlier CDS (line 6) is on chr1",
      "8: CDS of a is on strand -, but its earlier CDS (line 6) is on +",
      '10: attribute protein_id has an invalid percent-encoding: "b%ZZ"',
      '11: attribute "note" has no \'=\'',
    ]);
    expect([...loci.keys()]).toEqual(["a"]);
    expect(loci.get("a")).toEqual({ chromosome: "chr1", start: 1, end: 1000, strand: 1, exons: [[100, 200]], line: 9 });
  });

  it("reports a CDS outside its gene or mRNA, wherever the gene line is", async () => {
    const file = tempFile(
      "c.gff",
      [
        row("chr1", ".", "CDS", "150", "200", ".", "+", "0", "protein_id=a"), // 1
        row("chr1", ".", "gene", "100", "500", ".", "+", ".", "ID=a"), // 2
        row("chr1", ".", "CDS", "450", "520", ".", "+", "0", "protein_id=a"), // 3: past the gene's end
        row("chr1", ".", "mRNA", "1000", "2000", ".", "-", ".", "ID=b"), // 4
        row("chr1", ".", "CDS", "900", "1100", ".", "-", "0", "protein_id=b"), // 5: before the mRNA's start
        row("chr1", ".", "CDS", "1500", "2000", ".", "-", "0", "protein_id=b"), // 6
      ].join("\n"),
    );
    const problems = new Problems();
    await readGff(file, problems);
    expect(messages(problems)).toEqual([
      "3: CDS of a (450-520) is outside its gene (100-500, line 2)",
      "5: CDS of b (900-1100) is outside its mRNA (1000-2000, line 4)",
    ]);
  });
});
