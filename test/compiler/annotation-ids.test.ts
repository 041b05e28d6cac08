/**
 * How an annotation names its protein (release-compiler/derive/annotations.ts): by FASTA id,
 * canonical id, UniProt alias, or a cross-reference read earlier that names exactly one
 * protein. The resolver keeps only the ids some annotation file names a protein by
 * (queriedIds), so these cases pin what it must still answer: ids learned from each kind of
 * file, in the files' order, ambiguous ones refused, and files that cannot be read.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAnnotations } from "../../release-compiler/derive/annotations.js";
import { NO_DESCRIPTION, type ProteinTable } from "../../release-compiler/derive/proteins.js";
import { IdIndex, StringColumn } from "../../release-compiler/packed-strings.js";
import { Problems } from "../../release-compiler/problems.js";
import { tempDir, tempFile } from "./readers/tmp.js";

/** Four proteins: FASTA ids p1–p4; p2 from UniProt (canonical id Q00002, aliases its FASTA id and entry name). */
function proteins(): ProteinTable {
  const inputId = ["p1", "sp|Q00002|KIN_HUMAN", "p3", "p4"];
  return {
    count: 4,
    inputIds: IdIndex.of(inputId),
    accessions: StringColumn.of(["", "Q00002", "", ""]),
    entryNames: StringColumn.of(["", "KIN_HUMAN", "", ""]),
    description: new Int32Array(4).fill(NO_DESCRIPTION),
    descriptions: IdIndex.of([""]),
    length: [500, 500, 500, 500],
  } as unknown as ProteinTable;
}

const gafLine = (id: string, go: string) => ["SIM", id, "sym", "enables", go, "REF:1", "IEA", "", "F", "", "", "protein", "taxon:9606", "20260101", "SIM"].join("\t");
const uniprotEntry = (name: string, acs: string[], dr: string[]) =>
  [`ID   ${name}             Reviewed;         500 AA.`, `AC   ${acs.join("; ")};`, ...dr.map((d) => `DR   ${d}`), "SQ   SEQUENCE   3 AA;", "     MKV", "//"].join("\n");

async function read(files: { xrefs?: string; uniprot?: string; domains?: string; gaf?: string; missing?: boolean }) {
  const dir = tempDir();
  const problems = new Problems();
  const inputs = {
    xrefs: files.xrefs !== undefined ? [tempFile("xrefs.tsv", files.xrefs)] : files.missing ? [join(dir, "absent.tsv")] : undefined,
    uniprot: files.uniprot !== undefined ? [tempFile("uniprot.txt", files.uniprot)] : undefined,
    domains: files.domains !== undefined ? tempFile("domains.tsv", files.domains) : undefined,
    goAnnotations: files.gaf !== undefined ? [tempFile("go.gaf", files.gaf)] : undefined,
  };
  const table = await readAnnotations(proteins(), inputs, problems, { folder: dir, scratch: { folder: join(dir, "scratch"), memoryBytes: 64 * 2 ** 20, threads: 1 } });
  const rows = [0, 1, 2, 3].map((i) => table.rowAt(i));
  table.close();
  return { rows, problems: problems.list.map((p) => p.message) };
}

describe("annotations name their proteins", () => {
  it("by FASTA id, canonical id, alias, or a cross-reference read earlier that names one protein", async () => {
    const { rows, problems } = await read({
      xrefs: ["protein_id\tsource\txref", "p1\tRefSeq\tNP_1", "p3\tUniProtKB/TrEMBL\tA0A003", " NP_1 \tGene Name\tGENE1", "p4\tRefSeq\tNP_SHARED", "p3\tRefSeq\tNP_SHARED", "p4\tUniProtKB/TrEMBL\tP4_HUMAN"].join("\n"),
      // Found by an accession the cross-references gave p3; its DR lines name p3 for what follows.
      // The second found by its entry name alone, which the cross-references gave p4.
      uniprot: [uniprotEntry("TRE_HUMAN", ["A0A003"], ["Pfam; PF00001; 7tm_1; 1."]), uniprotEntry("P4_HUMAN", ["Q99999"], ["RefSeq; NP_P4; -."])].join("\n"),
      domains: ["protein_id\tsource\tdomain_id\tname\tstart\tend", "PF00001\tPfam\tPF00002\tsecond\t1\t10", "KIN_HUMAN\tPfam\tPF00003\tthird\t2\t20"].join("\n"),
      gaf: [gafLine("Q00002", "GO:0000001"), gafLine("NP_1", "GO:0000002"), gafLine("GENE1", "GO:0000003"), gafLine("NP_SHARED", "GO:0000004"), gafLine("TRE_HUMAN", "GO:0000005")].join("\n"),
    });
    // A cross-reference named by another read before it (NP_1 names p1).
    expect(rows[0].xrefs).toEqual([["RefSeq", "NP_1"], ["Gene Name", "GENE1"]]);
    // By canonical id (Q00002), by entry name alias (KIN_HUMAN).
    expect(rows[1].go.map((g) => g[0])).toEqual(["GO:0000001"]);
    expect(rows[1].domains.map((d) => d[1])).toEqual(["PF00003"]);
    // Learned from the cross-references (an id padded with spaces, as the readers trim it), then from the UniProt entry's DR line and its entry name.
    expect(rows[2].xrefs).toContainEqual(["Pfam", "PF00001"]);
    expect(rows[2].domains.map((d) => d[1])).toEqual(["PF00002"]);
    expect(rows[0].go.map((g) => g[0])).toEqual(["GO:0000002", "GO:0000003"]);
    expect(rows[2].go.map((g) => g[0])).toEqual(["GO:0000005"]);
    expect(rows[3].xrefs).toContainEqual(["RefSeq", "NP_P4"]);
    // NP_SHARED names p3 and p4: neither.
    expect(rows[3].go).toEqual([]);
    expect(problems).toEqual(["unknown protein NP_SHARED"]);
  });

  it("not by a cross-reference read only after it", async () => {
    const { rows, problems } = await read({
      xrefs: ["p1\tRefSeq\tNP_1", "LATE_1\tGene Name\tGENE9"].join("\n"),
      uniprot: uniprotEntry("LATE_HUMAN", ["LATE_1"], []),
    });
    expect(rows[0].xrefs).toEqual([["RefSeq", "NP_1"]]);
    expect(problems).toEqual(["unknown protein LATE_1"]);
  });

  it("by an id whose answer changed since the line before asked for it", async () => {
    // Files name a protein in runs of lines, and the resolver keeps the last id's answer: an id
    // learnt again for another protein between two asks must be asked again. N4_HUMAN names p4
    // (from the cross-references), then the UniProt entry, found by A0A003 (p3's), gives it to
    // p3 as well, after it was the last id asked for: the GAF's first line then names no protein.
    const { rows, problems } = await read({
      xrefs: ["p4\tUniProtKB/TrEMBL\tN4_HUMAN", "p3\tUniProtKB/TrEMBL\tA0A003"].join("\n"),
      uniprot: uniprotEntry("N4_HUMAN", ["A0A003"], []),
      gaf: [gafLine("N4_HUMAN", "GO:0000001"), gafLine("A0A003", "GO:0000002")].join("\n"),
    });
    expect(rows[2].go.map((g) => g[0])).toEqual(["GO:0000002"]);
    expect(rows[3].go).toEqual([]);
    expect(problems).toEqual(["unknown protein N4_HUMAN"]);
  });

  it("by its FASTA id first, where a cross-reference names another protein by it too", async () => {
    const { rows, problems } = await read({
      // p3's cross-reference "p1" makes p1 ambiguous as a learnt id; as a FASTA id it is p1's.
      xrefs: ["p1\tRefSeq\tNP_1", "p3\tRefSeq\tp1"].join("\n"),
      gaf: [gafLine("p3", "GO:0000001"), gafLine("p1", "GO:0000002")].join("\n"),
    });
    expect(rows[0].go.map((g) => g[0])).toEqual(["GO:0000002"]);
    expect(rows[2].go.map((g) => g[0])).toEqual(["GO:0000001"]);
    expect(rows[2].xrefs).toEqual([["RefSeq", "p1"]]);
    expect(problems).toEqual([]);
  });

  it("in any order of the proteins, in runs of lines or not", async () => {
    const { rows, problems } = await read({
      xrefs: ["p4\tRefSeq\tNP_4", "p1\tRefSeq\tNP_1", "p1\tRefSeq\tNP_1B", "sp|Q00002|KIN_HUMAN\tRefSeq\tNP_2", "p3\tRefSeq\tNP_3", "p1\tRefSeq\tNP_1C", "p4\tRefSeq\tNP_4B"].join("\n"),
    });
    expect(rows.map((r) => r.xrefs.map((x) => x[1]))).toEqual([["NP_1", "NP_1B", "NP_1C"], ["NP_2"], ["NP_3"], ["NP_4", "NP_4B"]]);
    expect(problems).toEqual([]);
  });

  it("reports a file's problems in line order, the reader's and its rows' (read a chunk of lines at a time)", async () => {
    const { rows, problems } = await read({
      xrefs: ["pX\tRefSeq\tNP_X", "p1\tRefSeq", "pY\tRefSeq\tNP_Y", "p1\t\tNP_1", "p1\tRefSeq\tNP_1"].join("\n"),
    });
    expect(rows[0].xrefs).toEqual([["RefSeq", "NP_1"]]);
    expect(problems).toEqual(["unknown protein pX", "expected 3 tab-separated columns (protein_id, source, xref), found 2", "unknown protein pY", "empty source"]);
  });

  it("reports a file that cannot be read once, by its reader", async () => {
    const { problems } = await read({ missing: true });
    expect(problems).toEqual(["file not found"]);
  });
});
