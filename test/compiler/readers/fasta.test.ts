import { describe, expect, it } from "vitest";
import { readFasta } from "../../../release-compiler/readers/fasta.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readFasta on real data", () => {
  it("reads every primates proteome (counts from grep -c '>')", async () => {
    const expected: Record<string, number> = {
      HUMAN: 1033, PANTR: 1149, PANPA: 1124, GORGO: 1121, PONAB: 1063, NOMLE: 1114,
      MACMU: 726, MACFA: 722, PAPAN: 1275, CHLSB: 706, CALJA: 1110,
    };
    let total = 0;
    for (const [code, count] of Object.entries(expected)) {
      const problems = new Problems();
      const records = await collect(readFasta(data(`primates-chr12/proteome/${code}.fa`), problems));
      expect(messages(problems), code).toEqual([]);
      expect(records.length, code).toBe(count);
      total += records.length;
    }
    expect(total).toBe(11_143);
  });

  it("spot-checks the first HUMAN record", async () => {
    const problems = new Problems();
    const gen = readFasta(data("primates-chr12/proteome/HUMAN.fa"), problems);
    const first = (await gen.next()).value!;
    await gen.return(undefined);
    expect(first.id).toBe("ENSG00000120645.12");
    expect(first.description).toBe("");
    expect(first.line).toBe(1);
    expect(first.sequence).toHaveLength(1182);
    expect(first.sequence.startsWith("MESLLENPVRAVLYLKELTAIVQNQQ")).toBe(true);
    expect(first.uniprot).toBeUndefined();
  });

  it("parses UniProt headers (bacteria3) and descriptions (isoforms-toy)", async () => {
    const problems = new Problems();
    const aquae = await collect(readFasta(data("bacteria3/proteome/AQUAE.fa"), problems));
    expect(aquae).toHaveLength(12);
    expect(aquae[0].id).toBe("sp|O67618|LEPA_AQUAE");
    expect(aquae[0].uniprot).toEqual({ reviewed: true, accession: "O67618", entryName: "LEPA_AQUAE" });
    expect(aquae[0].sequence).toHaveLength(600);
    const human = await collect(readFasta(data("isoforms-toy/DB/human.fa"), problems));
    expect(human).toHaveLength(18);
    expect(human[2]).toMatchObject({ id: "ENSP00000235222", description: "| ENSG00000121083" });
    expect(problems.list).toEqual([]);
  });
});

describe("readFasta problems", () => {
  it("uppercases, removes whitespace and one trailing '*', gunzips", async () => {
    const file = tempFile("a.fa", ">tr|Q1|X_Y some protein\nmk l\nVV*\n\n>b\nAC\n", { gzip: true });
    const problems = new Problems();
    const records = await collect(readFasta(file, problems));
    expect(problems.list).toEqual([]);
    expect(records).toEqual([
      { id: "tr|Q1|X_Y", description: "some protein", sequence: "MKLVV", line: 1, uniprot: { reviewed: false, accession: "Q1", entryName: "X_Y" } },
      { id: "b", description: "", sequence: "AC", line: 5 },
    ]);
  });

  it("reports orphan sequence, empty ids, bad characters, duplicates, empty and truncated records", async () => {
    const file = tempFile(
      "b.fa",
      [
        "MKV", // 1: before any header
        ">", // 2
        "MKV", // 3
        ">p1", // 4
        "MK1V", // 5
        ">p2", // 6
        "MK*", // 7
        "VV", // 8
        ">p3", // 9
        ">p1", // 10
        "AAA", // 11
        ">p4", // 12
      ].join("\n"),
    );
    const problems = new Problems();
    const records = await collect(readFasta(file, problems));
    expect(records.map((r) => [r.id, r.sequence])).toEqual([
      ["p1", "MKV"],
      ["p2", "MKVV"],
    ]);
    expect(problems.list.every((p) => p.file === file)).toBe(true);
    expect(messages(problems)).toEqual([
      "1: sequence line before the first '>' header",
      "2: empty header: no protein id after '>'",
      "5: invalid character '1' in the sequence of \"p1\" (only letters are allowed)",
      "7: '*' inside the sequence of \"p2\" (only one trailing '*' is allowed)",
      '9: record "p3" has no sequence',
      '10: duplicate id "p1" (first on line 4)',
      '12: record "p4" has no sequence: the file ends after its header (truncated file?)',
    ]);
  });

  it("reports a file cut in the middle of a sequence line (no final newline), and drops that record", async () => {
    for (const gzip of [false, true]) {
      const problems = new Problems();
      const records = await collect(readFasta(tempFile("cut.fa", ">p1\nMKV\n>p2 x\nMKVL\nMK", { gzip }), problems));
      expect(records.map((r) => r.id)).toEqual(["p1"]);
      expect(messages(problems)).toEqual(['5: the file ends in the middle of a line, inside the sequence of "p2" (truncated file? if it is complete, end it with a newline)']);
    }
    // A missing final newline after a blank line is not a cut.
    const problems = new Problems();
    expect(await collect(readFasta(tempFile("ok.fa", ">p1\nMKV\n  "), problems))).toHaveLength(1);
    expect(problems.list).toEqual([]);
  });

  it("reports an empty file and a binary file", async () => {
    for (const content of ["", "\n  \n"]) {
      const problems = new Problems();
      expect(await collect(readFasta(tempFile("empty.fa", content), problems))).toEqual([]);
      expect(messages(problems)).toEqual(["0: empty file: no FASTA record"]);
    }
    const problems = new Problems();
    expect(await collect(readFasta(tempFile("bin.fa", Buffer.from("MKV\0\u0001\u0002\n>p\nMK\n")), problems))).toEqual([]);
    expect(messages(problems)).toEqual(["0: binary file (it contains NUL bytes), expected text"]);
  });
});
