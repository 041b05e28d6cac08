import { describe, expect, it } from "vitest";
import { readSpeciesInfo } from "../../../release-compiler/readers/species-info.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readSpeciesInfo on real data", () => {
  it("reads primates-chr12 (with ScientificName)", async () => {
    const problems = new Problems();
    const rows = await readSpeciesInfo(data("primates-chr12/species_info.tsv"), problems);
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(11);
    expect(rows[0]).toEqual({ code: "HUMAN", taxonId: 9606, scientificName: "Homo sapiens", subgenomes: [], line: 2 });
    expect(rows.find((r) => r.code === "GORGO")?.scientificName).toBe("Gorilla gorilla gorilla");
  });

  it("reads bacteria3 (extra columns, no ScientificName)", async () => {
    const problems = new Problems();
    const rows = await readSpeciesInfo(data("bacteria3/species_info.tsv"), problems);
    expect(problems.list).toEqual([]);
    expect(rows.map((r) => [r.code, r.taxonId, r.scientificName])).toEqual([
      ["AQUAE", 224324, "AQUAE"],
      ["MYCGE", 243273, "MYCGE"],
      ["CHLTR", 272561, "CHLTR"],
    ]);
  });
});

describe("readSpeciesInfo problems", () => {
  it("reads subgenomes and skips blank lines", async () => {
    const file = tempFile("s.tsv", "Name\tNCBITaxonId\tScientificName\tSubgenomes\n\nWHEAT\t4565\tTriticum aestivum\tA,B,D\n");
    const problems = new Problems();
    const rows = await readSpeciesInfo(file, problems);
    expect(problems.list).toEqual([]);
    expect(rows).toEqual([{ code: "WHEAT", taxonId: 4565, scientificName: "Triticum aestivum", subgenomes: ["A", "B", "D"], line: 3 }]);
  });

  it("reads Subgenomes in any column position and case, empty = diploid", async () => {
    const file = tempFile(
      "s.tsv",
      [
        "subgenomes\tName\tncbitaxonid",
        "\tHUMAN\t9606",
        "A,B,D\tWHEAT\t4565",
        " A , B \tTRITD\t4567",
        "A,B,C,D,E,F,G,H\tMANYX\t1",
      ].join("\n"),
    );
    const problems = new Problems();
    const rows = await readSpeciesInfo(file, problems);
    expect(problems.list).toEqual([]);
    expect(rows.map((r) => [r.code, r.subgenomes])).toEqual([
      ["HUMAN", []],
      ["WHEAT", ["A", "B", "D"]],
      ["TRITD", ["A", "B"]],
      ["MANYX", ["A", "B", "C", "D", "E", "F", "G", "H"]],
    ]);
    // Without the column every genome is diploid.
    const plain = await readSpeciesInfo(tempFile("p.tsv", "Name\tNCBITaxonId\nWHEAT\t4565\n"), problems);
    expect(plain[0].subgenomes).toEqual([]);
  });

  it("reports bad Subgenomes values with file and line, and skips those rows", async () => {
    const file = tempFile(
      "s.tsv",
      [
        "Name\tNCBITaxonId\tSubgenomes",
        "GOODA\t1\tA,B",
        "LOWER\t2\ta,b",
        "ONEXX\t3\tA",
        "TWICE\t4\tA,B,A",
        "EMPTY\t5\tA,,B",
        "WORDS\t6\tAB,D",
        "SPACE\t7\tA B",
        "DIGIT\t8\t1,2",
        "SEMIC\t9\tA;B",
      ].join("\n"),
    );
    const problems = new Problems();
    const rows = await readSpeciesInfo(file, problems);
    expect(rows.map((r) => r.code)).toEqual(["GOODA"]);
    expect(problems.list.every((p) => p.file === file)).toBe(true);
    expect(messages(problems)).toEqual([
      '3: subgenome "a" is not a single upper-case letter (Subgenomes: "a,b")',
      '3: subgenome "b" is not a single upper-case letter (Subgenomes: "a,b")',
      '4: Subgenomes "A" names a single subgenome: a polyploid genome has at least two (leave it empty for a diploid genome)',
      "5: subgenome A is listed twice",
      '6: subgenome "" is not a single upper-case letter (Subgenomes: "A,,B")',
      '7: subgenome "AB" is not a single upper-case letter (Subgenomes: "AB,D")',
      '8: subgenome "A B" is not a single upper-case letter (Subgenomes: "A B")',
      '9: subgenome "1" is not a single upper-case letter (Subgenomes: "1,2")',
      '9: subgenome "2" is not a single upper-case letter (Subgenomes: "1,2")',
      '10: subgenome "A;B" is not a single upper-case letter (Subgenomes: "A;B")',
    ]);
  });

  it("reports bad codes, taxon ids, column counts, subgenomes and duplicates", async () => {
    const file = tempFile(
      "s.tsv",
      [
        "Name\tNCBITaxonId\tSubgenomes",
        "HUMAN\t9606\t",
        "hum\t9606\t",
        "MOUSE\tabc\t",
        "RATNO\t0\t",
        "CANFA\t9615",
        "HUMAN\t9606\t",
        "WHEAT\t4565\tA,bb",
      ].join("\n"),
    );
    const problems = new Problems();
    const rows = await readSpeciesInfo(file, problems);
    expect(rows.map((r) => r.code)).toEqual(["HUMAN"]);
    expect(problems.list.every((p) => p.file === file)).toBe(true);
    expect(messages(problems)).toEqual([
      '3: species code "hum" must be 5 upper-case letters or digits',
      '4: NCBITaxonId "abc" is not a positive integer',
      '5: NCBITaxonId "0" is not a positive integer',
      "6: expected 3 tab-separated columns, found 2",
      "7: duplicate species code HUMAN (first on line 2)",
      '8: subgenome "bb" is not a single upper-case letter (Subgenomes: "A,bb")',
    ]);
  });

  it("reports missing header columns on line 1", async () => {
    const file = tempFile("s.tsv", "Code\tTaxon\nHUMAN\t9606\n");
    const problems = new Problems();
    expect(await readSpeciesInfo(file, problems)).toEqual([]);
    expect(messages(problems)).toEqual(["1: header is missing the columns Name, NCBITaxonId (found: Code, Taxon)"]);
  });

  it("reports an empty file", async () => {
    const problems = new Problems();
    await readSpeciesInfo(tempFile("s.tsv", "\n\n"), problems);
    expect(messages(problems)).toEqual(["0: empty file: expected a header line with the columns Name and NCBITaxonId"]);
  });
});
