import { describe, expect, it } from "vitest";
import { parseDrLine, readUniProt } from "../../../release-compiler/readers/uniprot.js";
import { data, hasSharedData } from "./data-path.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readUniProt on real data", () => {
  it("reads bacteria3/swissprot-test.txt.gz (68 reviewed entries, 2,741 DR lines, 12 domains)", async () => {
    const problems = new Problems();
    const entries = await collect(readUniProt(data("bacteria3/swissprot-test.txt.gz"), problems));
    expect(problems.list).toEqual([]);
    expect(entries).toHaveLength(68);
    expect(entries.every((e) => e.reviewed)).toBe(true);
    expect(entries.reduce((n, e) => n + e.crossRefs.length, 0)).toBe(2741);
    expect(entries.reduce((n, e) => n + e.domains.length, 0)).toBe(12);

    const first = entries[0];
    expect(first).toMatchObject({ entryName: "ATPA_AQUAE", accessions: ["O66907"], line: 1, domains: [] });
    expect(first).toMatchObject({ organism: "Aquifex aeolicus (strain VF5)", taxonId: 224324 });
    expect(first.sequence).toHaveLength(503);
    expect(first.crossRefs[0]).toEqual({ database: "EMBL", id: "AE000657", extra: ["AAC06855.1", "-", "Genomic_DNA"] });

    const eftu = entries.find((e) => e.entryName === "EFTU_CHLTR")!;
    expect(eftu.accessions).toEqual(["P0CD71", "O84324", "P26622"]);
    expect(eftu.domains).toEqual([{ name: "tr-type G", start: 10, end: 204 }]);
    expect(eftu.line).toBe(2068);
    expect(eftu.sequence).toHaveLength(394);
    expect(eftu.sequence.startsWith("MSKETFQRNKPHINIGTIGHVDHGKTTLTA")).toBe(true);
    expect(eftu.crossRefs).toHaveLength(60);
    expect(eftu.crossRefs).toContainEqual({ database: "GO", id: "GO:0005737", extra: ["C:cytoplasm", "IEA:UniProtKB-SubCell"] });

    expect(entries.find((e) => e.entryName === "PRIA_CHLTR")!.domains).toEqual([
      { name: "Helicase ATP-binding", start: 228, end: 395 },
      { name: "Helicase C-terminal", start: 491, end: 646 },
    ]);
  });
});

describe("parseDrLine", () => {
  it("splits fields, drops the final '.', keeps an isoform reference", () => {
    expect(parseDrLine("Pfam; PF00006; ATP-synt_ab; 1.")).toEqual({ database: "Pfam", id: "PF00006", extra: ["ATP-synt_ab", "1"] });
    expect(parseDrLine("RefSeq; NP_000001.1; NM_000001.2. [P12345-2]")).toEqual({
      database: "RefSeq",
      id: "NP_000001.1",
      extra: ["NM_000001.2", "[P12345-2]"],
    });
    expect(parseDrLine("garbage")).toBeUndefined();
  });
});

const ENTRY = (id: string, more: string[] = []) => [
  `ID   ${id}              Unreviewed;        30 AA.`,
  "AC   Q00001; Q00002;",
  "AC   Q00003;",
  "DR   InterPro; IPR000001; Kringle.",
  ...more,
  "SQ   SEQUENCE   30 AA;  3000 MW;  0000000000000000 CRC64;",
  "     mkvlaagiva lllaaa",
  "//",
];

describe("readUniProt problems", () => {
  it("reads several AC lines, multi-line notes, skips uncertain positions, reports bad locations", async () => {
    const file = tempFile(
      "u.dat",
      ENTRY("A_HUMAN", [
        "FT   DOMAIN          1..20",
        'FT                   /note="Kringle domain with a long',
        'FT                   name"',
        'FT                   /evidence="ECO:0000259"',
        "FT   DOMAIN          <1..>20",
        'FT                   /note="uncertain"',
        "FT   DOMAIN          ?..20",
        "FT   DOMAIN          5",
        'FT                   /note="one residue"',
        "FT   DOMAIN          abc",
        'FT                   /note="broken"',
        "FT   REGION          1..5",
        'FT                   /note="Disordered"',
      ]).join("\n"),
      { gzip: true },
    );
    const problems = new Problems();
    const entries = await collect(readUniProt(file, problems));
    expect(entries).toEqual([
      {
        entryName: "A_HUMAN",
        reviewed: false,
        accessions: ["Q00001", "Q00002", "Q00003"],
        crossRefs: [{ database: "InterPro", id: "IPR000001", extra: ["Kringle"] }],
        domains: [
          { name: "Kringle domain with a long name", start: 1, end: 20 },
          { name: "one residue", start: 5, end: 5 },
        ],
        sequence: "MKVLAAGIVALLLAAA",
        line: 1,
      },
    ]);
    expect(messages(problems)).toEqual(['14: DOMAIN feature has an unparsable location "abc"']);
  });

  it("reports entries without ID, without AC, and a truncated last entry", async () => {
    const noAc = ENTRY("B_HUMAN").filter((l) => !l.startsWith("AC"));
    const noId = ENTRY("C_HUMAN").slice(1);
    const truncated = ENTRY("D_HUMAN").slice(0, -2);
    const file = tempFile("u.dat", [...ENTRY("A_HUMAN"), ...noAc, ...noId, ...truncated].join("\n"));
    const problems = new Problems();
    const entries = await collect(readUniProt(file, problems));
    expect(entries.map((e) => e.entryName)).toEqual(["A_HUMAN"]);
    expect(messages(problems)).toEqual([
      "8: entry B_HUMAN has no AC line",
      "13: entry without an ID line",
      "19: entry D_HUMAN is not terminated by '//' at the end of the file (truncated file?)",
    ]);
  });
});
