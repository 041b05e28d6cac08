/**
 * What the compiler makes of inputs that leave gaps (issue 13): GO terms without an OBO file
 * (a warning, names from UniProt's DR GO lines), descriptions from UniProt DE lines, and
 * versioned RefSeq / Ensembl accessions looked up without their version.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readAnnotations } from "../../release-compiler/derive/annotations.js";
import { entryIdPairs } from "../../release-compiler/derive/entry-ids.js";
import { descriptionOf, type ProteinTable } from "../../release-compiler/derive/proteins.js";
import { described } from "./described.js";
import { IdIndex, StringColumn } from "../../release-compiler/packed-strings.js";
import { readUniProt } from "../../release-compiler/readers/uniprot.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { writeHashIndexOfPairs } from "../../release-compiler/write/tables.js";
import type { AnnotationRow, KeyIndexLeaf } from "../../release-format/format.js";
import { tempPacks } from "./temp-packs.js";
import { data, hasSharedData } from "./readers/data-path.js";
import { collect, Problems, tempDir, tempFile } from "./readers/tmp.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** Where readAnnotations writes its file, and its scratch folder. */
function annotationFiles() {
  const folder = tempDir();
  return { folder, scratch: { folder: join(folder, "scratch"), memoryBytes: 64 * 2 ** 20, threads: 1 } };
}

/** The protein table fields annotations and entry ids read: proteins P1…Pn with their FASTA descriptions. */
function proteins(descriptions: string[]): ProteinTable {
  const ids = descriptions.map((_, i) => `P${i + 1}`);
  return {
    count: ids.length,
    inputIds: IdIndex.of(ids),
    accessions: StringColumn.of(ids.map(() => "")),
    entryNames: StringColumn.of(ids.map(() => "")),
    ...described(descriptions),
    sequence: ids.map(() => "MKVLAAGIVALLLAAA"),
  } as unknown as ProteinTable;
}

/** A UniProt flat-file entry for accession `ac` with the given DE and DR lines. */
const uniprotEntry = (name: string, ac: string, reviewed: boolean, lines: string[]) => [
  `ID   ${name}              ${reviewed ? "Reviewed" : "Unreviewed"};        16 AA.`,
  `AC   ${ac};`,
  ...lines,
  "SQ   SEQUENCE   16 AA;  1700 MW;  0000000000000000 CRC64;",
  "     mkvlaagiva lllaaa",
  "//",
];

const gafLine = (protein: string, goId: string, aspect: string) =>
  ["SIMDB", protein, protein, "enables", goId, "GO_REF:0000033", "IBA", "", aspect, "", "", "protein", "taxon:9606", "20261101", "SIMDB"].join("\t");

const xrefs = (rows: string[][]) => tempFile("x.tsv", ["protein_id\tsource\txref", ...rows.map((r) => r.join("\t"))].join("\n"));

describe("UniProt DE lines", () => {
  it("give the entry's RecName, else its first SubName, without evidence; names of Includes parts are not the entry's", async () => {
    const file = tempFile(
      "de.dat",
      [
        ...uniprotEntry("FOLD_TEST", "Q00001", true, [
          "DE   RecName: Full=Bifunctional protein FolD {ECO:0000255|HAMAP-Rule:MF_01576};",
          "DE            EC=1.5.1.5 {ECO:0000255|HAMAP-Rule:MF_01576};",
          "DE   AltName: Full=Not the name;",
          "DE   Includes:",
          "DE     RecName: Full=Methylenetetrahydrofolate dehydrogenase {ECO:0000255|HAMAP-Rule:MF_01576};",
          "DE   Flags: Precursor;",
        ]),
        ...uniprotEntry("Q00002_TEST", "Q00002", false, [
          "DE   SubName: Full=Putative kinase {ECO:0000313|EMBL:ABC00001.1, ECO:0000256|RuleBase:RU000001};",
          "DE   SubName: Full=Second submitted name;",
        ]),
        ...uniprotEntry("PLAIN_TEST", "Q00003", true, ["DE   RecName: Full=Plain name;", "DE            Short=PN;"]),
        ...uniprotEntry("NONE_TEST", "Q00004", false, []),
      ].join("\n"),
    );
    const problems = new Problems();
    const entries = await collect(readUniProt(file, problems));
    expect(problems.list).toEqual([]);
    expect(entries.map((e) => e.description)).toEqual(["Bifunctional protein FolD", "Putative kinase", "Plain name", undefined]);
  });

  it.skipIf(!hasSharedData)("name every entry of bacteria3/swissprot-test.txt.gz", async () => {
    const entries = await collect(readUniProt(data("bacteria3/swissprot-test.txt.gz"), new Problems()));
    expect(entries.every((e) => e.description && !e.description.includes("{"))).toBe(true);
    const byName = new Map(entries.map((e) => [e.entryName, e.description]));
    expect(byName.get("ATPA_AQUAE")).toBe("ATP synthase subunit alpha");
    expect(byName.get("FOLD_AQUAE")).toBe("Bifunctional protein FolD");
  });
});

describe("protein descriptions", () => {
  it("come from the first Description cross-reference, else the UniProt entry's name, else the FASTA header", async () => {
    const table = proteins(["fasta text 1", "fasta text 2", "fasta text 3", ""]);
    const uniprot = tempFile(
      "u.dat",
      [
        ...uniprotEntry("A_TEST", "Q00001", true, ["DE   RecName: Full=UniProt name 1;"]),
        ...uniprotEntry("B_TEST", "Q00002", true, ["DE   RecName: Full=UniProt name 2 {ECO:0000305};"]),
        ...uniprotEntry("D_TEST", "Q00004", false, ["DE   SubName: Full=Submitted name 4 {ECO:0000313|EMBL:X1.1};"]),
      ].join("\n"),
    );
    const problems = new Problems();
    await readAnnotations(
      table,
      {
        xrefs: [
          xrefs([
            ["P1", "Description", "Curated 1"],
            ["P1", "Description", "Curated again"],
            ["P1", "UniProtKB/SwissProt", "Q00001"],
            ["P2", "UniProtKB/SwissProt", "Q00002"],
            ["P4", "UniProtKB/TrEMBL", "Q00004"],
          ]),
        ],
        uniprot: [uniprot],
      },
      problems,
      annotationFiles(),
    );
    expect(problems.list).toEqual([]);
    expect(Array.from(table.description, (_, i) => descriptionOf(table, i))).toEqual(["Curated 1", "UniProt name 2", "fasta text 3", "Submitted name 4"]);
    // The texts replaced are gone: each kept once, in the order of their first proteins.
    expect([...table.descriptions]).toEqual(["", "Curated 1", "UniProt name 2", "fasta text 3", "Submitted name 4"]);
  });
});

describe("GO terms without an OBO file", () => {
  const inputs = () => ({
    configPath: "/release.json",
    goAnnotations: [tempFile("a.gaf", ["!gaf-version: 2.2", gafLine("P1", "GO:0005737", "C"), gafLine("P1", "GO:0005524", "F"), gafLine("P2", "GO:0009999", "P")].join("\n"))],
    // Names come from any entry's DR GO lines, proteins of the release or not.
    uniprot: [
      tempFile(
        "u.dat",
        [
          ...uniprotEntry("OTHER_TEST", "Q09999", true, ["DR   GO; GO:0005737; C:cytoplasm; IBA:GO_Central.", "DR   GO; GO:0005524; F:ATP binding; IEA:UniProtKB-KW."]),
        ].join("\n"),
      ),
    ],
  });

  it("are named from UniProt's DR GO lines, and the compiler warns naming go_ontology", async () => {
    const problems = new Problems();
    const annotations = await readAnnotations(proteins(["", ""]), inputs(), problems, annotationFiles());
    expect(problems.list).toEqual([]);
    expect(Object.fromEntries([...annotations.goTerms].map(([id, t]) => [id, t.name]))).toEqual({
      "GO:0005524": "ATP binding",
      "GO:0005737": "cytoplasm",
      "GO:0009999": "",
    });
    expect(problems.warnings).toEqual([
      { file: "/release.json", line: 0, message: expect.stringMatching(/^"go_annotations" without "go_ontology": 1 of 3 GO terms have no name/) },
    ]);
  });

  it("with an OBO file: its names win, and nothing is warned", async () => {
    const obo = tempFile(
      "go.obo",
      [
        "format-version: 1.2",
        "",
        ...[
          ["GO:0005737", "cytoplasm (OBO)", "cellular_component"],
          ["GO:0005524", "ATP binding (OBO)", "molecular_function"],
          ["GO:0009999", "a process", "biological_process"],
        ].flatMap(([id, name, namespace]) => ["[Term]", `id: ${id}`, `name: ${name}`, `namespace: ${namespace}`, ""]),
      ].join("\n"),
    );
    const problems = new Problems();
    const annotations = await readAnnotations(proteins(["", ""]), { ...inputs(), goOntology: obo }, problems, annotationFiles());
    expect(problems.list).toEqual([]);
    expect(problems.warnings).toEqual([]);
    expect([...annotations.goTerms.values()].map((t) => t.name)).toEqual(["ATP binding (OBO)", "cytoplasm (OBO)", "a process"]);
  });
});

describe("entry ids of versioned accessions", () => {
  /** The entry-id index as a map, built from P1…Pn and their cross-references. */
  function entryIndex(xrefsOf: string[][]): Map<string, number[]> {
    const table = proteins(xrefsOf.map(() => ""));
    const annotations = { xrefsAt: (i: number): AnnotationRow["xrefs"] => xrefsOf[i].map((id) => ["X", id]) };
    const { keys, entries } = entryIdPairs(table, annotations);
    const packs = tempPacks();
    const ref = writeHashIndexOfPairs(packs, keys, entries, 4096);
    const index = new Map<string, number[]>();
    for (const { value: leaf } of packs.chunks<KeyIndexLeaf<number[]>, string>(ref.tree)) leaf.keys.forEach((k, i) => index.set(k, leaf.values[i]));
    return index;
  }

  it("hold RefSeq and Ensembl accessions without their version: unique, ambiguous, or yielding to an id given as such", () => {
    const index = entryIndex([
      ["NP_001004711.2", "ENSP00000354587.3", "NZ_CP012345.1"],
      ["XP_000000001.1", "P12345-2", "GENE.1"],
      ["XP_000000001.2", "NP_000000002"],
      ["NP_000000002.1", "NP_001004711.2", "ENSG00000120645.12"],
    ]);
    expect(index.get("NP_001004711")).toEqual([1, 4]);
    expect(index.get("ENSP00000354587")).toEqual([1]);
    expect(index.get("NZ_CP012345")).toEqual([1]);
    expect(index.get("ENSG00000120645")).toEqual([4]);
    // Two proteins share the accession: ambiguous, as any id naming several.
    expect(index.get("XP_000000001")).toEqual([2, 3]);
    // NP_000000002 is P3's own id: P4's NP_000000002.1 does not take it over.
    expect(index.get("NP_000000002")).toEqual([3]);
    expect(index.get("NP_000000002.1")).toEqual([4]);
    // An isoform is another protein; other dotted ids are no versions.
    expect(index.has("P12345")).toBe(false);
    expect(index.has("GENE")).toBe(false);
  });
});

describe("npm run compile without go_ontology", () => {
  it("compiles, and prints a warning line naming the config key", async () => {
    const input = join(mkdtempSync(join(tmpdir(), "orth-no-obo-")), "input");
    await simulateRelease({ out: input, genomes: 3, families: 20, seed: 5, name: "NoObo.Test" });
    const config = JSON.parse(readFileSync(join(input, "release.json"), "utf8"));
    delete config.go_ontology;
    writeFileSync(join(input, "release.json"), JSON.stringify(config, null, 2));
    const out = join(mkdtempSync(join(tmpdir(), "orth-no-obo-out-")), "release");
    const run = await promisify(execFile)(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), "--config", join(input, "release.json"), "--out", out], { cwd: ROOT });
    expect(run.stdout).toMatch(/compiled NoObo\.Test into/);
    expect(run.stderr.trim().split("\n")).toEqual([expect.stringMatching(/release\.json: warning: "go_annotations" without "go_ontology": \d+ of \d+ GO terms have no name/)]);
  });
});
