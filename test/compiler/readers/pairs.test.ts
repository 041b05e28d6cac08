import { describe, expect, it } from "vitest";
import { readPairsTsv } from "../../../release-compiler/readers/pairs.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readPairsTsv on real data", () => {
  it("reads bacteria3/orthologs.tsv (20 pairs, no header)", async () => {
    const problems = new Problems();
    const rows = await collect(readPairsTsv(data("bacteria3/orthologs.tsv"), problems));
    expect(problems.list).toEqual([]);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({ protein1: "sp|O67161|G3P_AQUAE", protein2: "sp|P0CE13|G3P_CHLTR", line: 1 });
  });
});

describe("readPairsTsv problems", () => {
  it("skips a header, reads optional columns", async () => {
    const file = tempFile("p.tsv", "protein1\tprotein2\trel_type\tdistance\tscore\nA\tB\t1:1\t0.5\t1e3\nA\tC\tclose paralog\nA\tD\t\t\t7\n");
    const problems = new Problems();
    expect(await collect(readPairsTsv(file, problems))).toEqual([
      { protein1: "A", protein2: "B", relType: "1:1", distance: 0.5, score: 1000, line: 2 },
      { protein1: "A", protein2: "C", relType: "close paralog", line: 3 },
      { protein1: "A", protein2: "D", score: 7, line: 4 },
    ]);
    expect(problems.list).toEqual([]);
  });

  it("reports bad numbers, bad relation types, self pairs and column counts", async () => {
    const file = tempFile("p.tsv", "A\tB\t1:2\nA\tA\nA\tB\tm:n\tfar\nA\nA\tB\t1:1\t1\t2\t3\n");
    const problems = new Problems();
    expect(await collect(readPairsTsv(file, problems))).toEqual([]);
    expect(messages(problems)).toEqual([
      '1: relation type "1:2" is not one of 1:1, 1:n, m:1, m:n, close paralog, homeolog',
      "2: protein A is paired with itself",
      '3: distance "far" is not a number',
      "4: expected 2 to 5 tab-separated columns (protein1, protein2[, rel_type, distance, score]), found 1",
      "5: expected 2 to 5 tab-separated columns (protein1, protein2[, rel_type, distance, score]), found 6",
    ]);
  });
});
