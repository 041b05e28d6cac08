import { describe, expect, it } from "vitest";
import { readXrefTsv } from "../../../release-compiler/readers/xrefs.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readXrefTsv on real data", () => {
  it("reads HUMAN.xrefs.tsv (22,291 rows after the header)", async () => {
    const problems = new Problems();
    const rows = await collect(readXrefTsv(data("primates-chr12/annotations/HUMAN.xrefs.tsv"), problems));
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(22_291);
    expect(rows[0]).toEqual({ proteinId: "ENSG00000002016.18", source: "EntrezGene", xref: "5893", line: 2 });
    expect(rows[2]).toEqual({ proteinId: "ENSG00000002016.18", source: "Description", xref: "RAD52 homolog, DNA repair protein", line: 4 });
    expect(rows.filter((r) => r.source === "UniProtKB")).toHaveLength(1715);
  });
});

describe("readXrefTsv problems", () => {
  it("reports wrong column counts and empty fields", async () => {
    const file = tempFile("x.tsv", "protein_id\tsource\txref\np1\tRefSeq\tNP_1\np2\tRefSeq\n\np3\t\tX\np4\ta\tb\tc\n");
    const problems = new Problems();
    const rows = await collect(readXrefTsv(file, problems));
    expect(rows).toEqual([{ proteinId: "p1", source: "RefSeq", xref: "NP_1", line: 2 }]);
    expect(messages(problems)).toEqual([
      "3: expected 3 tab-separated columns (protein_id, source, xref), found 2",
      "5: empty source",
      "6: expected 3 tab-separated columns (protein_id, source, xref), found 4",
    ]);
  });
});
