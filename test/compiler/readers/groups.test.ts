import { describe, expect, it } from "vitest";
import { readGroupsTsv } from "../../../release-compiler/readers/groups.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readGroupsTsv on real data", () => {
  it("reads bacteria3/OrthologousGroups.tsv (28 rows)", async () => {
    const problems = new Problems();
    const rows = await collect(readGroupsTsv(data("bacteria3/OrthologousGroups.tsv"), problems));
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(28);
    expect(rows[0]).toEqual({ group: "OG_0000001", protein: "sp|P0CE13|G3P_CHLTR", line: 2 });
    expect(new Set(rows.map((r) => r.group)).size).toBeGreaterThan(1);
  });
});

describe("readGroupsTsv problems", () => {
  it("reports wrong column counts and empty fields", async () => {
    const file = tempFile("g.tsv", "Group\tProtein\nOG1\tP1\nOG1\nOG2\tP2\textra\n\tP3\nOG3\t\n");
    const problems = new Problems();
    expect(await collect(readGroupsTsv(file, problems))).toEqual([{ group: "OG1", protein: "P1", line: 2 }]);
    expect(messages(problems)).toEqual([
      "3: expected 2 tab-separated columns (Group, Protein), found 1",
      "4: expected 2 tab-separated columns (Group, Protein), found 3",
      "5: empty group id",
      "6: empty protein id",
    ]);
  });
});
