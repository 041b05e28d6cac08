import { describe, expect, it } from "vitest";
import { readGaf } from "../../../release-compiler/readers/gaf.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readGaf on real data", () => {
  it("reads primates-chr12/annotations/HUMAN.gaf (GAF 2.2, 18,860 rows)", async () => {
    const problems = new Problems();
    const rows = await collect(readGaf(data("primates-chr12/annotations/HUMAN.gaf"), problems));
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(18_860);
    expect(rows[0]).toEqual({
      db: "Ensembl",
      objectId: "ENSG00000175899.15",
      symbol: "A2M",
      qualifier: "involved_in",
      goId: "GO:0001553",
      reference: "org.Hs.eg.db:3.16.0",
      evidence: "IEA",
      withFrom: "",
      aspect: "P",
      date: "20220701",
      assignedBy: "org.Hs.eg.db",
      line: 3,
    });
  });

  it("reads bacteria3/A_aeolicus.goa (206 rows)", async () => {
    const problems = new Problems();
    const rows = await collect(readGaf(data("bacteria3/A_aeolicus.goa"), problems));
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(206);
    expect(rows[0]).toMatchObject({ db: "UniProtKB", objectId: "O66429", goId: "GO:0003746", aspect: "F", withFrom: "InterPro:IPR004541", line: 6 });
  });
});

describe("readGaf problems", () => {
  it("accepts 15 to 17 columns; reports column counts, GO ids, aspects and empty object ids", async () => {
    const cols = (over: Record<number, string> = {}, n = 17) =>
      Array.from({ length: n }, (_, i) => over[i] ?? ["DB", "P1", "sym", "", "GO:0000001", "ref", "IEA", "", "P", "", "", "protein", "taxon:1", "20240101", "me", "", ""][i]).join("\t");
    const file = tempFile(
      "a.gaf",
      [
        "!gaf-version: 2.0",
        cols({}, 15),
        cols(),
        cols({}, 12),
        cols({ 4: "GO:123" }),
        cols({ 8: "X" }),
        cols({ 1: "" }),
        "",
      ].join("\n"),
    );
    const problems = new Problems();
    const rows = await collect(readGaf(file, problems));
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
    expect(messages(problems)).toEqual([
      "4: expected 15 to 17 tab-separated columns (GAF 2.x), found 12",
      '5: GO id "GO:123" is not of the form GO:0000000 (column 5)',
      '6: aspect "X" is not one of P, F, C (column 9)',
      "7: empty DB object id (column 2)",
    ]);
  });
});
