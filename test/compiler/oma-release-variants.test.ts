/**
 * Hand-made OMA release files in the variants real downloads come in (oma-file-formats.md):
 * the newer oma-species.txt with its column-name row, gzipped and plain files side by side, FASTA
 * headers with text after the OMA id, `n/a` fingerprints, an empty group column in the pairs,
 * convert.py's `n:1` alias, id maps without a header; and broken ones reported as `file:line`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { InputRejected } from "../../release-compiler/problems.js";
import type { FamilyRow, GroupRow, PairRow, ProteinRow, SequenceRow, TableRef } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { TEST_BUILD } from "../build-dir.js";

const WORK = join(TEST_BUILD, "oma-release-variants");

const SEQ = {
  AAAAA00001: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEK",
  AAAAA00002: "MSDNGPQSNQRSAPRITFGGPTDSTDNNQNGGRNGARPKQRRPQGLPNNTASW",
  BBBBB00001: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEQ",
  BBBBB00002: "MSDNGPQSNQRSAPRITFGGPTDSTDNNQNGGRNGARPKQRRPQGLPNNTASF",
  CCCCC00001: "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAER",
};

const FILES: Record<string, string> = {
  "oma-species.txt": [
    "# Mapping of OMA species codes to NCBI taxon IDs and scientific names.",
    "# Format: OMA_Code<tab>OMA_Taxon_ID<tab>NCBI_Taxon_ID<tab>GTDB_Accession<tab>Scientific_Name<tab>Source<tab>Release/Version",
    "OMA_Code\tOMA_Taxon_ID\tNCBI_Taxon_ID\tGTDB_Accession\tScientific_Name\tSource\tRelease",
    "AAAAA\t1001\t1001\tn/a\tSpecies alpha\tEnsembl\t110",
    "BBBBB\t1002\t1002\tn/a\tSpecies beta\tEnsembl\t110",
    "CCCCC\t1003\t1003\tn/a\tSpecies gamma\tRefSeq\tn/a",
  ].join("\n"),
  "speciestree.nwk": "((AAAAA,BBBBB)Pair,CCCCC)Root;\n",
  "oma-seqs.fa.gz": Object.entries(SEQ)
    .map(([id, seq]) => `>${id} | some old header text\n${seq.slice(0, 30)}\n${seq.slice(30)}\n`)
    .join(""),
  "oma-groups.txt": [
    "# Orthologous groups from OMA release of Test.Jan2026",
    "# This release has 2 groups covering 5 proteins from 3 species",
    "# Format: group number<tab>Fingerprint<tab>tab-separated list of OMA Entry IDs",
    "1\tKTAYIAK\tAAAAA00001\tBBBBB00001\tCCCCC00001",
    "2\tn/a\tAAAAA00002\tBBBBB00002",
  ].join("\n"),
  "oma-pairs.txt.gz": [
    "# Format: Protein 1<tab>Protein 2<tab>Orthology type<tab>OMA group (if any)",
    "# Every pair is listed only once, and in no particular order.",
    "AAAAA00001\tBBBBB00001\t1:1\t1",
    "AAAAA00001\tCCCCC00001\t1:1\t1",
    "BBBBB00001\tCCCCC00001\t1:1\t1",
    "AAAAA00002\tBBBBB00002\t1:1\t",
  ].join("\n"),
  "oma-hogs.orthoXML": `<?xml version="1.0" encoding="UTF-8"?>
<orthoXML xmlns="http://orthoXML.org/2011/" version="0.3" origin="OMA" originVersion="Test.Jan2026">
  <species name="Species alpha" NCBITaxId="1001"><database name="OMA" version="Test.Jan2026"><genes>
    <gene id="1" protId="AAAAA00001"/>
    <gene id="2" protId="AAAAA00002"/>
  </genes></database></species>
  <species name="Species beta" NCBITaxId="1002"><database name="OMA" version="Test.Jan2026"><genes>
    <gene id="3" protId="BBBBB00001"/>
    <gene id="4" protId="BBBBB00002"/>
  </genes></database></species>
  <species name="Species gamma" NCBITaxId="1003"><database name="OMA" version="Test.Jan2026"><genes>
    <gene id="5" protId="CCCCC00001"/>
  </genes></database></species>
  <groups>
    <orthologGroup id="HOG:B0000007">
      <property name="TaxRange" value="Root"/>
      <orthologGroup>
        <property name="TaxRange" value="Pair"/>
        <geneRef id="1"/>
        <geneRef id="3"/>
      </orthologGroup>
      <geneRef id="5"/>
    </orthologGroup>
    <orthologGroup id="HOG:B0000009">
      <property name="TaxRange" value="Pair"/>
      <geneRef id="2"/>
      <geneRef id="4"/>
    </orthologGroup>
  </groups>
</orthoXML>
`,
  "oma-uniprot.txt": "AAAAA00001\tP12345\nAAAAA00001\tALPHA_AAAAA\nCCCCC00001\tQ99999\n",
  // OMA's cDNA comes in several files ({eukaryotes,prokaryotes,viruses}.cdna.fa.gz).
  "eukaryotes.cdna.fa.gz": ">AAAAA00001\nATGAAA\n>AAAAA00002\nATGTCC\n>BBBBB00001\nATGAAG\n>BBBBB00002\nATGAGC\n",
  "prokaryotes.cdna.fa": ">CCCCC00001\nATGAAAACC\n",
};

const ANNOTATIONS = [
  "# Dump of protein annotations (taken from original genome source, except for",
  "# Format: OMA ID\tOriginal ID\tChromosome/Scaffold\tLocation\tMainIsoform\tDescription",
  "AAAAA00001\tALPHA1\tchr1\t100..160,200..300\tself\tKinase alpha",
  "AAAAA00002\tALPHA2\tchr2\tjoin(complement(900..950),complement(700..800))\tself\t",
  "BBBBB00001\tBETA1\tn/a\tn/a\tself\tKinase beta",
  "BBBBB00002\tBETA2\tscaffold_7\tcomplement(10..90)\tself\tProtease beta",
  "CCCCC00001\tGAMMA1\t\t\tself\t",
].join("\n");

/** Writes the files (with changes) into a folder and its config; returns the config path. */
function folder(name: string, change: Record<string, string | undefined> = {}): string {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "oma"), { recursive: true });
  for (const [file, content] of Object.entries({ ...FILES, ...change })) {
    if (content === undefined) continue;
    writeFileSync(join(dir, "oma", file), file.endsWith(".gz") ? gzipSync(content) : content);
  }
  writeFileSync(join(dir, "release.json"), JSON.stringify({ name: "Test.Jan2026", oma_release: "oma" }));
  return join(dir, "release.json");
}

async function all<Row>(release: Release, table: TableRef<Row>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const row of await release.rows<Row>(table, 0, table.rows)) out.push(row);
  return out;
}

async function problemsOf(config: string): Promise<string[]> {
  try {
    await compileRelease(config, join(config, "..", "out"));
  } catch (error) {
    if (error instanceof InputRejected) return error.problems.list.map((p) => `${p.file.split("/").pop()}:${p.line}: ${p.message}`);
    throw error;
  }
  return [];
}

describe("hand-made OMA release files", () => {
  it("compile into a mirror with the files' ids, numbers, fingerprints and types", async () => {
    const config = folder("good");
    await compileRelease(config, join(WORK, "good", "out"));
    const r = await openReleaseFolder(join(WORK, "good", "out"));
    expect(r.manifest.hogPrefix).toBe("B");
    expect(r.manifest.genomes.map((g) => [g.code, g.taxonId, g.species, g.firstEntry])).toEqual([
      ["AAAAA", 1001, "Species alpha", 1],
      ["BBBBB", 1002, "Species beta", 3],
      ["CCCCC", 1003, "Species gamma", 5],
    ]);
    const proteins = await all<ProteinRow>(r, r.manifest.tables.proteins);
    expect(proteins.map((p) => [p.entry, p.canonicalId, p.group, p.hog])).toEqual([
      [1, "AAAAA00001", 1, "HOG:B0000007"],
      [2, "AAAAA00002", 2, "HOG:B0000009"],
      [3, "BBBBB00001", 1, "HOG:B0000007"],
      [4, "BBBBB00002", 2, "HOG:B0000009"],
      [5, "CCCCC00001", 1, "HOG:B0000007"],
    ]);
    const groups = await all<GroupRow>(r, r.manifest.tables.groups);
    expect(groups.map((g) => [g.nr, g.fingerprint, g.members.map((m) => m.entry)])).toEqual([
      [1, "KTAYIAK", [1, 3, 5]],
      [2, "n/a", [2, 4]],
    ]);
    const families = await all<FamilyRow>(r, r.manifest.tables.families);
    expect(families.map((f) => f.rootId)).toEqual(["HOG:B0000007", "HOG:B0000009"]);
    const pairs = await all<PairRow>(r, r.manifest.tables.pairs);
    expect(pairs.map(([a, b, type]) => [a, b, type])).toContainEqual([2, 4, 0]);
    expect(pairs.filter(([a, b]) => a < b)).toHaveLength(4);
    const annotations = await all(r, r.manifest.tables.annotations);
    expect(annotations[0].xrefs.map(([, id]) => id).sort()).toEqual(["ALPHA_AAAAA", "P12345"]);
    const sequences = await all<SequenceRow>(r, r.manifest.tables.sequences);
    expect(sequences.map((q) => q.cdna)).toEqual(["ATGAAA", "ATGTCC", "ATGAAG", "ATGAGC", "ATGAAAACC"]);
  });

  it("take the original ids, descriptions and loci of oma-protein-annotations.txt", async () => {
    const config = folder("annotations", { "oma-protein-annotations.txt.gz": ANNOTATIONS });
    await compileRelease(config, join(WORK, "annotations", "out"));
    const r = await openReleaseFolder(join(WORK, "annotations", "out"));
    const proteins = await all<ProteinRow>(r, r.manifest.tables.proteins);
    expect(proteins.map((p) => [p.entry, p.canonicalId, p.description, p.chromosome, p.locus, p.exons])).toEqual([
      [1, "ALPHA1", "Kinase alpha", "chr1", [100, 300, 1], [[100, 160], [200, 300]]],
      [2, "ALPHA2", "", "chr2", [700, 950, -1], [[700, 800], [900, 950]]],
      [3, "BETA1", "Kinase beta", "", [0, 0, 0], []],
      [4, "BETA2", "Protease beta", "scaffold_7", [10, 90, -1], [[10, 90]]],
      [5, "GAMMA1", "", "", [0, 0, 0], []],
    ]);
    expect(proteins.map((p) => p.hog)).toEqual(["HOG:B0000007", "HOG:B0000009", "HOG:B0000007", "HOG:B0000009", "HOG:B0000007"]);
  });

  it("take convert.py's type aliases and the older species header", async () => {
    const config = folder("aliases", {
      "oma-pairs.txt.gz": undefined,
      "oma-pairs.txt": "AAAAA00001\tBBBBB00001\t1:1\t1\nAAAAA00002\tBBBBB00002\tn:1\n",
      "oma-species.txt": FILES["oma-species.txt"].split("\n").filter((l) => !l.startsWith("OMA_Code")).join("\n"),
    });
    await compileRelease(config, join(WORK, "aliases", "out"));
    const r = await openReleaseFolder(join(WORK, "aliases", "out"));
    const pairs = await all<PairRow>(r, r.manifest.tables.pairs);
    expect(pairs.find(([a, b]) => a === 2 && b === 4)?.[2]).toBe(2); // m:1
  });

  it("report broken files as file:line", async () => {
    expect(await problemsOf(folder("gap", { "oma-groups.txt": "1\tn/a\tAAAAA00001\tBBBBB00001\n3\tn/a\tAAAAA00002\tBBBBB00002\n" }))).toContain(
      "oma-groups.txt:2: group 3 should be group 2: groups are numbered 1, 2, … in order",
    );
    expect(await problemsOf(folder("unknown", { "oma-uniprot.txt": "AAAAA00009\tP1\n" }))).toContain("oma-uniprot.txt:1: unknown OMA id AAAAA00009");
    expect(await problemsOf(folder("type", { "oma-pairs.txt.gz": "AAAAA00001\tBBBBB00001\tmany:many\t\n" }))).toContain(
      'oma-pairs.txt.gz:1: orthology type "many:many" is not one of 1:1, 1:n, m:1, m:n',
    );
    const refused = folder("refused");
    writeFileSync(refused, JSON.stringify({ name: "Test.Jan2026", oma_release: "oma", hogs: "oma/oma-hogs.orthoXML" }));
    expect(await problemsOf(refused)).toEqual([expect.stringContaining('"hogs" cannot be given with "oma_release"')]);
    expect(await problemsOf(folder("no-seqs", { "oma-seqs.fa.gz": undefined }))).toEqual([expect.stringMatching(/oma_release: oma-seqs\.fa \(or oma-seqs\.fa\.gz\) not found$/)]);
  });
});
