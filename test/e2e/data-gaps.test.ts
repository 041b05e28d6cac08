/**
 * Gaps in the served data a new user tripped over (issue 13), through the served worker: GO
 * terms of a release compiled without an OBO file, descriptions from UniProt DE lines, and
 * versioned RefSeq / Ensembl accessions asked for without their version.
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";
import { getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the data-gap checks on bacteria3 and primates-chr12");

const get = (url: string) => fetch(url, { redirect: "manual" });

/** `DR   GO; GO:0005737; C:cytoplasm; …` lines of UniProt flat-file text: GO id → name (the first given). */
function drGoNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of text.matchAll(/^DR {3}GO; (GO:\d+); [CFP]:([^;]+);/gm)) if (!names.has(m[1])) names.set(m[1], m[2]);
  return names;
}

/** Accession → the entry's `DE   RecName: Full=` name, evidence dropped. */
function recNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of text.split(/^\/\/$/m)) {
    const accessions = [...entry.matchAll(/^AC {3}(.*)$/gm)].flatMap((m) => m[1].split(";").map((a) => a.trim()).filter(Boolean));
    const name = /^DE {3}RecName: Full=(.*?)(?: \{[^}]*\})?;$/m.exec(entry)?.[1];
    if (name) for (const a of accessions) names.set(a, name);
  }
  return names;
}

async function entryOf(base: string, id: string): Promise<number> {
  return (await getJson(`${base}/protein/${encodeURIComponent(id)}/`)).entry_nr;
}

async function notFound(base: string, id: string): Promise<string> {
  const res = await get(`${base}/protein/${encodeURIComponent(id)}/`);
  expect(res.status, id).toBe(404);
  return ((await res.json()) as { detail: string }).detail;
}

describe("a release compiled without an OBO file and without Description cross-references", () => {
  const input = resolve(TEST_BUILD, "data-gaps-input");
  let served: ServedRelease;
  let base: string;
  let warnings: string[];
  /** Input rows `protein_id, source, xref` as the simulator wrote them, Description rows included. */
  let xrefRows: string[][];
  /** FASTA id → the header's text after the id. */
  const headerText = new Map<string, string>();
  /** Proteins given ids by the test: ambiguous, shadowed, TrEMBL-only. */
  const chosen: Record<"a" | "b" | "c" | "d" | "e", string> = { a: "", b: "", c: "", d: "", e: "" };

  beforeAll(async () => {
    await simulateRelease({ out: input, genomes: 4, families: 40, seed: 13, name: "DataGaps.Test" });
    const config = JSON.parse(readFileSync(resolve(input, "release.json"), "utf8"));
    delete config.go_ontology;
    writeFileSync(resolve(input, "release.json"), JSON.stringify(config, null, 2));

    for (const file of readdirSync(resolve(input, "proteome"))) {
      for (const m of readFileSync(resolve(input, "proteome", file), "utf8").matchAll(/^>(\S+)[ \t]*(.*)$/gm)) headerText.set(m[1], m[2].trim());
    }
    const xrefFile = resolve(input, "annotations/xrefs.tsv");
    xrefRows = readFileSync(xrefFile, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
    const inUniProt = new Set(xrefRows.filter(([, source]) => source === "UniProtKB/SwissProt").map(([p]) => p));
    const [a, b, c, d, e] = [...headerText.keys()].filter((p) => !inUniProt.has(p));
    Object.assign(chosen, { a, b, c, d, e });
    const added = [
      [a, "RefSeq", "NP_990000001.1"],
      [b, "RefSeq", "NP_990000001.2"],
      [c, "RefSeq", "NP_990000002"],
      [d, "RefSeq", "NP_990000002.1"],
      [e, "UniProtKB/TrEMBL", "Q9ZZZ9"],
      [e, "UniProtKB", "P99999-2"],
    ];
    const kept = xrefRows.filter(([, source]) => source !== "Description");
    writeFileSync(xrefFile, [["protein_id", "source", "xref"], ...kept, ...added].map((r) => r.join("\t")).join("\n") + "\n");
    appendFileSync(
      resolve(input, "annotations/uniprot.txt"),
      [
        "ID   Q9ZZZ9_HUMAN            Unreviewed;        16 AA.",
        "AC   Q9ZZZ9;",
        "DE   SubName: Full=Putative kinase {ECO:0000313|EMBL:ABC00001.1};",
        "SQ   SEQUENCE   16 AA;  1700 MW;  0000000000000000 CRC64;",
        "     mkvlaagiva lllaaa",
        "//",
        "",
      ].join("\n"),
    );
    warnings = (await compileRelease(resolve(input, "release.json"), resolve(TEST_BUILD, "data-gaps"))).warnings;
    served = await serveRelease("data-gaps");
    base = served.base;
  });
  afterAll(() => served?.dispose());

  it("warns at compile time, naming the missing config key", () => {
    expect(warnings).toEqual([expect.stringMatching(/release\.json: warning: "go_annotations" without "go_ontology": \d+ of \d+ GO terms have no name/)]);
  });

  it("serves GO terms with the names UniProt's DR GO lines give, where they give one", async () => {
    const names = drGoNames(readFileSync(resolve(input, "annotations/uniprot.txt"), "utf8"));
    const gaf = readFileSync(resolve(input, "annotations/go.gaf"), "utf8").split("\n").filter((l) => l && !l.startsWith("!"));
    const proteins = [...new Set(gaf.map((l) => l.split("\t")[1]))].slice(0, 40);
    let named = 0;
    for (const protein of proteins) {
      const items: Array<{ GO_term: string; name: string }> = await getJson(`${base}/protein/${protein}/gene_ontology/`);
      expect(items.length, protein).toBeGreaterThan(0);
      for (const item of items) {
        expect(item.name, `${protein} ${item.GO_term}`).toBe(names.get(item.GO_term) ?? "");
        if (item.name) named++;
      }
    }
    expect(named).toBeGreaterThan(0);
  });

  it("describes a protein by its UniProt entry's name (RecName, else SubName), else by its FASTA header", async () => {
    const names = recNames(readFileSync(resolve(input, "annotations/uniprot.txt"), "utf8"));
    // The simulator writes UniProt entries for some of the proteins with a Swiss-Prot accession.
    const swissProt = xrefRows.filter(([, source]) => source === "UniProtKB/SwissProt");
    const withEntry = swissProt.filter(([, , accession]) => names.has(accession)).slice(0, 20);
    const withoutEntry = swissProt.filter(([, , accession]) => !names.has(accession)).slice(0, 10);
    expect(withEntry.length).toBeGreaterThan(0);
    for (const [protein, , accession] of [...withEntry, ...withoutEntry]) {
      const record = await getJson(`${base}/protein/${protein}/`);
      expect(record.description, protein).toBe(names.get(accession) ?? headerText.get(protein));
    }
    expect((await getJson(`${base}/protein/${chosen.e}/`)).description).toBe("Putative kinase");
    expect((await getJson(`${base}/protein/${chosen.a}/`)).description).toBe(headerText.get(chosen.a));
  });

  it("resolves a versioned accession without its version when that names one protein", async () => {
    const refSeq = xrefRows.filter(([, source, id]) => source === "RefSeq" && /\.\d+$/.test(id)).slice(0, 20);
    expect(refSeq.length).toBeGreaterThan(0);
    for (const [protein, , id] of refSeq) {
      const entry = await entryOf(base, protein);
      expect(await entryOf(base, id)).toBe(entry);
      expect(await entryOf(base, id.replace(/\.\d+$/, "")), id).toBe(entry);
    }
    // Two proteins with versions of one accession: not unique, as any id naming several.
    expect(await entryOf(base, "NP_990000001.1")).toBe(await entryOf(base, chosen.a));
    expect(await entryOf(base, "NP_990000001.2")).toBe(await entryOf(base, chosen.b));
    expect(await notFound(base, "NP_990000001")).toMatch(/not unique/);
    // An id given as such keeps naming its protein.
    expect(await entryOf(base, "NP_990000002")).toBe(await entryOf(base, chosen.c));
    expect(await entryOf(base, "NP_990000002.1")).toBe(await entryOf(base, chosen.d));
    // A UniProt isoform is another protein: never shortened to its accession.
    expect(await entryOf(base, "P99999-2")).toBe(await entryOf(base, chosen.e));
    expect(await notFound(base, "P99999")).toMatch(/unknown/);
  });
});

describe("the demo release", () => {
  let served: ServedRelease;
  beforeAll(async () => {
    served = await serveRelease("demo");
  });
  afterAll(() => served?.dispose());

  it("resolves NP_001004711 as NP_001004711.2", async () => {
    const entry = await entryOf(served.base, "NP_001004711.2");
    expect(await entryOf(served.base, "NP_001004711")).toBe(entry);
    expect(await entryOf(served.base, "HUMAN00001")).toBe(entry);
  });
});

describe.skipIf(!hasSharedData)("real releases", () => {
  let bacteria: ServedRelease;
  let primates: ServedRelease;
  beforeAll(async () => {
    [bacteria, primates] = await Promise.all([serveRelease("bacteria3"), serveRelease("primates")]);
  });
  afterAll(() => Promise.all([bacteria?.dispose(), primates?.dispose()]));

  it("bacteria3 (UniProt files, a GAF, no OBO): descriptions from DE lines, GO names from DR GO lines", async () => {
    const text = (await import("node:zlib")).gunzipSync(readFileSync(resolve(SHARED_DATA, "bacteria3/swissprot-test.txt.gz"))).toString("utf8");
    const names = recNames(text);
    const goNames = drGoNames(text);
    const atpa = await getJson(`${bacteria.base}/protein/O66907/`);
    expect(atpa.description).toBe("ATP synthase subunit alpha");
    const proteins = await getJson(`${bacteria.base}/genome/AQUAE/proteins/`);
    for (const p of proteins) {
      const record = await getJson(`${bacteria.base}/protein/${p.entry_nr}/`);
      expect(record.description, p.canonicalid).toBe(names.get(p.canonicalid) ?? "");
      const go: Array<{ GO_term: string; name: string }> = await getJson(`${bacteria.base}/protein/${p.entry_nr}/gene_ontology/`);
      for (const item of go) expect(item.name, `${p.canonicalid} ${item.GO_term}`).toBe(goNames.get(item.GO_term) ?? "");
    }
    const go: Array<{ GO_term: string; name: string }> = await getJson(`${bacteria.base}/protein/O66907/gene_ontology/`);
    expect(go.find((t) => t.GO_term === "GO:0005524")?.name).toBe("ATP binding");
    // Groups and HOGs are described by their members.
    expect((await getJson(`${bacteria.base}/group/O66907/`)).description).toBe("ATP synthase subunit alpha");
    // DR RefSeq WP_010880405.1, without its version.
    expect(await entryOf(bacteria.base, "WP_010880405")).toBe(await entryOf(bacteria.base, "WP_010880405.1"));
  });

  it("primates-chr12: a versioned Ensembl canonical id resolves without its version", async () => {
    const entry = await entryOf(primates.base, "ENSG00000120645.12");
    expect(await entryOf(primates.base, "ENSG00000120645")).toBe(entry);
    expect(entry).toBe(1);
  });
});
