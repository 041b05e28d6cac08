import { describe, expect, it } from "vitest";
import { readDomainTsv } from "../../../release-compiler/readers/domains.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe("readDomainTsv", () => {
  it("reads rows after an optional header", async () => {
    const file = tempFile("d.tsv", "protein_id\tsource\tdomain_id\tname\tstart\tend\nP1\tPfam\tPF00001\t7tm_1\t10\t200\nP1\tCATH\t1.10.10.10\t\t5\t5\n");
    const problems = new Problems();
    expect(await collect(readDomainTsv(file, problems))).toEqual([
      { proteinId: "P1", source: "Pfam", domainId: "PF00001", name: "7tm_1", start: 10, end: 200, line: 2 },
      { proteinId: "P1", source: "CATH", domainId: "1.10.10.10", name: "", start: 5, end: 5, line: 3 },
    ]);
    expect(problems.list).toEqual([]);
  });

  it("reports column counts, empty ids, non-integers, start < 1 and end < start", async () => {
    const file = tempFile(
      "d.tsv",
      ["P1\tPfam\tPF1\tx\t10", "\tPfam\tPF1\tx\t1\t2", "P1\tPfam\tPF1\tx\t1.5\t20", "P1\tPfam\tPF1\tx\t0\t20", "P1\tPfam\tPF1\tx\t300\t120"].join("\n"),
    );
    const problems = new Problems();
    expect(await collect(readDomainTsv(file, problems))).toEqual([]);
    expect(messages(problems)).toEqual([
      "1: expected 6 tab-separated columns (protein_id, source, domain_id, name, start, end), found 5",
      "2: empty protein_id",
      '3: start "1.5" is not a positive integer',
      '4: start "0" is not a positive integer',
      "5: end 120 is before start 300",
    ]);
  });
});
