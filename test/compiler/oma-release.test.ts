/**
 * OMA release files both ways: a compiled release written as OMA's bulk files
 * (release-compiler/oma-export/), then compiled back as a mirror (`oma_release`,
 * release-compiler/oma-import/), must answer the same, ids included: genomes, entry numbers
 * and OMA ids, canonical ids, sequences and cDNA, isoforms, groups with their numbers and
 * fingerprints, HOG families with their ids, levels and scores, pairwise relations, id maps,
 * loci, GO annotations. On the demo release table by table, then on the demo and on the real
 * primates-chr12 release answer by answer: the worker's own app over each folder, a sample of
 * requests over every endpoint family, status, headers of lists and body byte for byte.
 * What the OMA files do not carry is left out of the comparison:
 * - subgenomes (a polyploid's homoeologs are not derived again);
 * - domains (no OMA bulk file has them);
 * - which of the sources an OMA id map merges an id came from (oma-uniprot.txt: SwissProt or
 *   TrEMBL; oma-ensembl.txt: Ensembl gene, transcript or protein): the mirror names it by the map.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { exportOmaFiles, idMapOf } from "../../release-compiler/oma-export/export.js";
import { HOMEOLOG, type AnnotationRow, type FamilyRow, type GroupRow, type PairRow, type ProteinRow, type SequenceRow, type TableRef } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { answerSample, expectSameAnswers, type Answer } from "../answer-comparison.js";
import { TEST_BUILD } from "../build-dir.js";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";

const WORK = join(TEST_BUILD, "oma-release");

async function all<Row>(release: Release, table: TableRef<Row>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const row of await release.rows<Row>(table, 0, table.rows)) out.push(row);
  return out;
}

const text = (path: string) => (path.endsWith(".gz") ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString("utf8");

describe("OMA release files: the demo release → OMA files → a mirror", () => {
  const original = resolve(TEST_BUILD, "demo");
  const files = join(WORK, "demo-files");
  const mirror = join(WORK, "demo-mirror");
  let a: Release;
  let b: Release;

  beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    await exportOmaFiles(original, files);
    a = await openReleaseFolder(original);
    const config = join(WORK, "demo-mirror.release.json");
    // The ontology names the GO terms' aspects, which oma-go.txt does not give.
    const goOntology = resolve(TEST_BUILD, "demo-input", "annotations", "go.obo");
    writeFileSync(config, JSON.stringify({ name: a.manifest.name, date: a.manifest.date, oma_release: "demo-files", go_ontology: goOntology }));
    await compileRelease(config, mirror);
    b = await openReleaseFolder(mirror);
  }, 60_000);

  it("writes OMA's files with OMA's headers", () => {
    const groups = text(join(files, "oma-groups.txt.gz")).split("\n");
    expect(groups[0]).toBe(`# Orthologous groups from OMA release of ${a.manifest.name}`);
    expect(groups[2]).toBe("# Format: group number<tab>Fingerprint<tab>tab-separated list of OMA Entry IDs");
    expect(groups[3]).toMatch(/^1\t([A-Z]{7}|n\/a)(\t[A-Z0-9]+\d{5})+$/);
    const pairs = text(join(files, "oma-pairs.txt.gz")).split("\n");
    expect(pairs[0]).toBe("# Format: Protein 1<tab>Protein 2<tab>Orthology type<tab>OMA group (if any)");
    expect(pairs[2]).toMatch(/^[A-Z0-9]+\d{5}\t[A-Z0-9]+\d{5}\t(1:1|1:n|m:1|m:n)\t\d*$/);
    expect(pairs.some((l) => /\t(1:n|m:1|m:n)\t$/.test(l))).toBe(true);
    expect(text(join(files, "oma-seqs.fa.gz")).split("\n")[0]).toBe(">HUMAN00001");
    // A map that is not one of OMA's own names its source, which its file name cannot spell.
    expect(text(join(files, "oma-gene-name.txt.gz")).split("\n")[0]).toBe("# Format: OMA ID<tab>Gene Name ID");
    expect(text(join(files, "oma-hogs.orthoXML.gz"))).toContain('<gene id="1" protId="HUMAN00001"/>');
    expect(text(join(files, "oma-species.txt")).split("\n").filter((l) => l && !l.startsWith("#"))).toHaveLength(a.manifest.genomes.length);
  });

  it("keeps the release's name, HOG letter, counts, genomes and levels", () => {
    const { manifest: m1 } = a;
    const { manifest: m2 } = b;
    expect([m2.name, m2.hogPrefix, m2.date, m2.counts]).toEqual([m1.name, m1.hogPrefix, m1.date, m1.counts]);
    const genome = (g: (typeof m1.genomes)[number]) => [g.code, g.taxonId, g.species, g.firstEntry, g.nrEntries, g.level, g.nrGenes];
    expect(m2.genomes.map(genome)).toEqual(m1.genomes.map(genome));
    expect([m2.taxonomy.names, m2.taxonomy.parents, m2.taxonomy.genomes]).toEqual([m1.taxonomy.names, m1.taxonomy.parents, m1.taxonomy.genomes]);
  });

  it("keeps every protein: entry number, canonical id, sequence, cDNA, isoforms, group, HOG, description, locus", async () => {
    const protein = (p: ProteinRow) => [p.entry, p.canonicalId, p.md5, p.length, p.group, p.hog, p.isMain, p.family, p.rootHog, p.hogLevelCount, p.isoforms, p.description, p.chromosome, p.locus, p.exons];
    expect((await all(b, b.manifest.tables.proteins)).map(protein)).toEqual((await all(a, a.manifest.tables.proteins)).map(protein));
    expect(await all<SequenceRow>(b, b.manifest.tables.sequences)).toEqual(await all<SequenceRow>(a, a.manifest.tables.sequences));
  });

  it("keeps group numbers, fingerprints and members", async () => {
    const group = (g: GroupRow) => [g.nr, g.fingerprint, g.description, g.members.map((m) => m.entry), g.closeGroups];
    expect((await all(b, b.manifest.tables.groups)).map(group)).toEqual((await all(a, a.manifest.tables.groups)).map(group));
  });

  it("keeps every HOG family: ids, levels, duplications, scores, members", async () => {
    const family = (f: FamilyRow) => [f.family, f.rootId, f.rootHog, f.description, f.nodes, f.entries];
    expect((await all(b, b.manifest.tables.families)).map(family)).toEqual((await all(a, a.manifest.tables.families)).map(family));
  });

  it("keeps every pairwise relation and its type (but homoeologs: OMA's files name no subgenomes)", async () => {
    const pair = ([e1, e2, type]: PairRow) => [e1, e2, type];
    const originalPairs = await all(a, a.manifest.tables.pairs);
    expect(originalPairs.some(([, , type]) => type === HOMEOLOG)).toBe(true);
    expect((await all(b, b.manifest.tables.pairs)).map(pair)).toEqual(originalPairs.filter(([, , type]) => type !== HOMEOLOG).map(pair));
  });

  it("keeps every GO annotation (with the ontology for the aspects)", async () => {
    const go = (rows: AnnotationRow[]) => rows.map((r) => r.go);
    const original = go(await all(a, a.manifest.tables.annotations));
    expect(original.flat().length).toBeGreaterThan(0);
    expect(go(await all(b, b.manifest.tables.annotations))).toEqual(original);
  });

  it("keeps the id maps' ids as cross-references of the same proteins", async () => {
    const ids = (rows: AnnotationRow[], mapped: boolean) =>
      rows.map((r) => r.xrefs.filter(([source]) => !mapped || idMapOf(source) !== undefined).map(([, id]) => id).sort());
    expect(ids(await all(b, b.manifest.tables.annotations), false)).toEqual(ids(await all(a, a.manifest.tables.annotations), true));
  });

  it("answers as the original, answer by answer (polyploid's homoeologs and domains aside)", async () => {
    const probes = await answerSample(a, { proteins: 40, groups: 12, families: 8 }, true);
    expect(probes.length).toBeGreaterThan(3000);
    await expectSameAnswers(a.manifest.name, original, mirror, probes, asMirrored);
  }, 60_000);
});

/** The name the mirror gives a source's ids: that of the OMA id map holding them, where the map merges sources. */
const OMA_MAP_SOURCES: Record<string, string> = { uniprot: "UniProtKB", ensembl: "Ensembl", refseq: "RefSeq", entrez: "EntrezGene" };
const mirroredSource = (source: string) => OMA_MAP_SOURCES[idMapOf(source) ?? ""] ?? source;
const bySource = (x: { source: string; xref: string }, y: { source: string; xref: string }) =>
  x.source < y.source ? -1 : x.source > y.source ? 1 : x.xref < y.xref ? -1 : x.xref > y.xref ? 1 : 0;

/**
 * The original's answer as the mirror can give it, where it names what OMA's files cannot carry:
 * - OMA's own id maps merge sources (oma-uniprot.txt: SwissProt and TrEMBL; oma-ensembl.txt:
 *   Ensembl's gene, transcript and protein ids; oma-entrez.txt: NCBI Gene under any name), so
 *   the mirror names their ids UniProtKB, Ensembl, RefSeq, EntrezGene: a protein's
 *   cross-references are then in the order of those names (release-format/xrefs.ts), and an
 *   xref search names them so. Ids, proteins, order otherwise and every other source are compared.
 * - subgenomes: the mirror has no homoeologs, so a polyploid's protein has no `homoeologs` link.
 * Every other byte of every answer is the original's.
 */
function asMirrored(path: string, answer: Answer): Answer {
  if (answer.status !== 200 || !answer.type?.startsWith("application/json")) return answer;
  let text = answer.body.toString("utf8").replace(/"homoeologs":"[^"]*"/g, '"homoeologs":null');
  if (/^\/api\/protein\/[^/]+\/xref\/|^\/api\/xref\//.test(path)) {
    const xrefs = (JSON.parse(text) as Array<{ source: string; xref: string }>).map((x) => ({ ...x, source: mirroredSource(x.source) }));
    text = JSON.stringify(path.startsWith("/api/protein/") ? xrefs.sort(bySource) : xrefs);
  }
  return { ...answer, body: Buffer.from(text, "utf8") };
}

warnWithoutSharedData("the OMA round trip on the primates-chr12 release");

describe.skipIf(!hasSharedData)("OMA release files: the primates-chr12 release → OMA files → a mirror", () => {
  const original = resolve(TEST_BUILD, "primates");
  const files = join(WORK, "primates-files");
  const mirror = join(WORK, "primates-mirror");
  let a: Release;

  beforeAll(async () => {
    for (const dir of [files, mirror]) rmSync(dir, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    await exportOmaFiles(original, files);
    a = await openReleaseFolder(original);
    const config = join(WORK, "primates-mirror.release.json");
    // The ontology the release was compiled with (test/fixtures/primates-chr12.release.json).
    const goOntology = data("primates-chr12", "annotations", "go-basic.obo");
    writeFileSync(config, JSON.stringify({ name: a.manifest.name, date: a.manifest.date, oma_release: "primates-files", go_ontology: goOntology }));
    await compileRelease(config, mirror);
  }, 60_000);

  it("answers as the original, answer by answer", async () => {
    const probes = await answerSample(a, { proteins: 60, groups: 12, families: 12 }, true);
    expect(probes.length).toBeGreaterThan(4000);
    await expectSameAnswers(a.manifest.name, original, mirror, probes, asMirrored);
  }, 60_000);
});
