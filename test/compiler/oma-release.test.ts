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
import { folderStorage, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { exportOmaFiles, idMapOf } from "../../release-compiler/oma-export/export.js";
import { HOMEOLOG, SPECIATION, type AnnotationRow, type FamilyRow, type GroupRow, type PairRow, type ProteinRow, type SequenceRow, type TableRef } from "../../release-format/format.js";
import { createApp } from "../../src/app.js";
import { orthid } from "../../src/render/protein.js";
import type { Release } from "../../src/release/release.js";
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
    const family = (f: FamilyRow) => [f.family, f.rootId, f.rootHog, f.description, f.nodes, f.members.map((m) => m.entry)];
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
    const probes = await answerSample(a, { proteins: 40, groups: 12, families: 8 });
    expect(probes.length).toBeGreaterThan(3000);
    await expectSameAnswers(a.manifest.name, original, mirror, probes);
  }, 60_000);
});

/** One request of the answer-by-answer comparison: a GET of `path`, or a POST of `body` to it. */
interface Probe {
  path: string;
  body?: string;
}

/** Every `every`-th of 0 … n - 1, and the last. */
const sample = (n: number, every: number): number[] => [...new Set([...Array.from({ length: Math.ceil(n / every) }, (_, i) => i * every), n - 1])].filter((i) => i >= 0);

const q = encodeURIComponent;

/**
 * A deterministic sample of requests over every endpoint family, drawn from the original
 * release: the release and its genomes, every `proteins`-th protein (by entry number, OMA id and
 * canonical id, and each of its sub-resources), every `groups`-th group (by number and by
 * fingerprint), every `families`-th HOG family (its root and the HOGs of its levels), each
 * level's HOG list, pairs, shared ancestry and downloads between neighbouring genomes, xref,
 * sequence and function searches, bulk retrieval.
 */
async function answerSample(r: Release, every: { proteins: number; groups: number; families: number }): Promise<Probe[]> {
  const { manifest } = r;
  const { genomes, tables, counts, taxonomy } = manifest;
  // OMA's files name no subgenomes, so the mirror derives no homoeologs: what a polyploid
  // genome's homoeologs make of an answer is left out (below), the rest of it is compared.
  const polyploid = (code: string) => genomes.some((g) => g.code === code && g.subgenomes.length > 0);
  const get = (...paths: string[]) => paths.map((path) => ({ path }));
  const probes: Probe[] = get("/api/", "/api/version/", "/api/genome/", "/api/taxonomy/", "/api/downloads/", "/api/group/", "/api/group/?page=2&per_page=50", "/api/hog/", "/api/hog/?page=2&per_page=50");

  for (const g of genomes) {
    probes.push(
      ...get(
        `/api/genome/${g.code}/`,
        `/api/genome/${g.taxonId}/`,
        `/api/genome/${g.code}/proteins/?per_page=40`,
        `/api/genome/${g.code}/genes/?page=2&per_page=25`,
        `/api/taxonomy/${g.code}/`,
        `/api/downloads/genome/${g.code}.fa.gz`,
        `/api/downloads/genome/${g.code}.cdna.fa.gz`,
        `/api/hog/?level=${q(g.code)}&per_page=30`,
      ),
    );
  }
  // Each genome with itself (close paralogs), its neighbour and one three further on.
  for (const [i, g1] of genomes.entries()) {
    for (const step of [0, 1, 3]) {
      const g2 = genomes[(i + step) % genomes.length];
      if (g1 === g2 && polyploid(g1.code)) {
        // Within a polyploid genome: its close paralogs only (rel_type), not its homoeologs;
        // the unfiltered lists and the vps share (which counts homoeologs) are left out.
        const paralogs = `rel_type=${q("close paralog")}`;
        probes.push(...get(`/api/pairs/${g1.code}/${g2.code}/?per_page=60&${paralogs}`, `/api/pairs/${g1.code}/${g2.code}/?per_page=60&format=tsv&${paralogs}`, `/api/summary/shared_ancestry/${g1.code}/${g2.code}/`));
        continue;
      }
      probes.push(
        ...get(
          `/api/pairs/${g1.code}/${g2.code}/?per_page=60`,
          `/api/pairs/${g1.code}/${g2.code}/?page=2&per_page=60&format=tsv`,
          `/api/pairs/${g1.code}/${g2.code}/minimal/`,
          `/api/summary/shared_ancestry/${g1.code}/${g2.code}/`,
          `/api/summary/shared_ancestry/${g1.code}/${g2.code}/?type=vps`,
          `/api/downloads/pairs/${g1.code}/${g2.code}.tsv.gz`,
        ),
      );
    }
  }
  // Every level's HOG list (species' own levels above), and what happened since the root.
  const rootLevel = taxonomy.parents.indexOf(-1);
  for (const [level, name] of taxonomy.names.entries()) {
    if (genomes.some((g) => g.level === level)) continue;
    probes.push(...get(`/api/hog/?level=${q(name)}&per_page=50`, `/api/downloads/hogs/${q(name)}.tsv.gz`));
    if (level !== rootLevel) probes.push(...get(`/api/hog/?level=${q(name)}&per_page=50&compare_with=${q(taxonomy.names[rootLevel])}`));
  }

  const entries = sample(counts.proteins, every.proteins).map((i) => i + 1);
  const proteins = await r.rowsAt<ProteinRow>(tables.proteins, entries.map((e) => e - 1));
  const annotations = await r.rowsAt<AnnotationRow>(tables.annotations, entries.map((e) => e - 1));
  const sequences = await r.rowsAt<SequenceRow>(tables.sequences, entries.slice(0, 8).map((e) => e - 1));
  for (const e of entries) {
    const p = proteins.get(e - 1)!;
    const genome = r.genomeOfEntry(e);
    const id = orthid(genome, e);
    const annotation = annotations.get(e - 1)!;
    probes.push(
      ...get(`/api/protein/${e}/`, `/api/protein/${id}/`, `/api/protein/${q(p.canonicalId)}/`, `/api/xref/?search=${q(p.canonicalId)}`, `/api/xref/?search=${id}`),
      ...["orthologs/", "orthologs/?rel_type=1:1", "xref/", "xref/?filter=maindb", "gene_ontology/", "isoforms/", "hog_derived_orthologs/"].map((sub) => ({ path: `/api/protein/${e}/${sub}` })),
    );
    // A polyploid's protein lists its homoeologs, which the mirror does not have.
    if (!polyploid(genome.code)) probes.push(...get(`/api/protein/${e}/homoeologs/`));
    // OMA's files carry no domains (only OmaServer.h5 has them): compared where there are none.
    if (annotation.domains.length === 0) probes.push(...get(`/api/protein/${e}/domains/`));
    if (p.family) probes.push(...get(`/api/hog/${e}/orthoxml/`, `/orth/hog/${id}/orthoxml/`));
    for (const [, xref] of annotation.xrefs.slice(0, 2)) probes.push(...get(`/api/xref/?search=${q(xref)}`));
  }
  for (const e of entries.slice(0, 8)) {
    const { sequence } = sequences.get(e - 1)!;
    probes.push(...get(`/api/sequence/?query=${sequence.slice(5, 45)}&search=exact`, `/api/function/?query=${sequence.slice(0, 60)}`));
  }
  probes.push(...get(`/api/sequence/?query=${sequences.get(entries[1] - 1)!.sequence.slice(0, 120)}&search=approximate`));
  const ids = entries.slice(0, 20).map((e) => orthid(r.genomeOfEntry(e), e));
  probes.push(
    { path: "/api/protein/bulk_retrieve/", body: JSON.stringify({ ids }) },
    { path: "/api/protein/orthologs/bulk_retrieve/", body: JSON.stringify({ ids: ids.slice(0, 10) }) },
  );

  for (const i of sample(counts.groups, every.groups)) {
    const g = await r.row<GroupRow>(tables.groups, i);
    probes.push(...get(`/api/group/${g.nr}/`, `/api/group/${g.nr}/close_groups/`));
    if (g.fingerprint !== "n/a" && g.fingerprint) probes.push(...get(`/api/group/${g.fingerprint}/`));
  }

  for (const i of sample(counts.families, every.families)) {
    const f = await r.row<FamilyRow>(tables.families, i);
    const root = q(f.rootId);
    probes.push(
      ...get(
        `/api/hog/${root}/`,
        `/api/hog/${root}/?level=root`,
        `/api/hog/${root}/members/`,
        `/api/hog/${root}/gene_ontology/`,
        `/api/hog/${root}/similar_profile_hogs/`,
        `/api/hog/${root}/orthoxml/augmented/`,
        `/api/hog/${root}/svg/`,
        `/api/hog/${root}/gene_tree/`,
        `/api/downloads/hog/${root}.fa`,
      ),
    );
    // A few HOGs below the root, each on the levels it stands for.
    const below = f.nodes.filter((n) => n.kind === SPECIATION && n.parent >= 0);
    for (const n of sample(below.length, Math.max(1, Math.ceil(below.length / 3))).map((k) => below[k])) {
      if (!n) continue;
      for (const level of n.levels.slice(0, 2)) {
        const at = `level=${q(taxonomy.names[level])}`;
        probes.push(
          ...get(`/api/hog/${q(n.id)}/`, `/api/hog/${q(n.id)}/?${at}`, `/api/hog/${q(n.id)}/members/?${at}`, `/api/hog/${q(n.id)}/gene_ontology/?${at}`, `/api/downloads/hog/${q(n.id)}.fa?${at}&seq=cdna`),
        );
      }
    }
  }
  return probes;
}

interface Answer {
  status: number;
  type: string | null;
  total: string | null;
  link: string | null;
  body: Buffer;
}

type App = ReturnType<typeof createApp>;

/** The worker's own app over a compiled release folder, in process. */
const appOver = (dir: string): App => {
  const storage = folderStorage(dir);
  return createApp({ storage: () => storage });
};

async function answerOf(app: App, probe: Probe): Promise<Answer> {
  const init = probe.body === undefined ? undefined : { method: "POST", body: probe.body, headers: { "Content-Type": "application/json" } };
  const response = await app.request(`http://x${probe.path}`, init);
  const { headers } = response;
  return { status: response.status, type: headers.get("Content-Type"), total: headers.get("X-Total-Count"), link: headers.get("Link"), body: Buffer.from(await response.arrayBuffer()) };
}

/** The body as text (gunzipped), around its first difference from `other`. */
function around(body: Buffer, other: Buffer): string {
  const [x, y] = [body, other].map((b) => (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b).toString("utf8"));
  let at = 0;
  while (at < x.length && x[at] === y[at]) at++;
  return `…${x.slice(Math.max(0, at - 150), at + 250)}… (${x.length} characters, first difference at ${at})`;
}

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

/**
 * Asks both apps every probe, a few at a time; returns what differs (status, content type,
 * total count and page links, body byte for byte) from the original's answer as the mirror can
 * give it (asMirrored), with the differing part of each body, and how many answers were 200.
 */
async function compareAnswers(original: App, mirror: App, probes: Probe[]): Promise<{ differences: string[]; ok: number }> {
  const differences: string[] = [];
  let ok = 0;
  for (let i = 0; i < probes.length; i += 8) {
    await Promise.all(
      probes.slice(i, i + 8).map(async (probe) => {
        const [a, b] = await Promise.all([answerOf(original, probe).then((x) => asMirrored(probe.path, x)), answerOf(mirror, probe)]);
        if (a.status === 200) ok++;
        const head = (x: Answer) => [x.status, x.type, x.total, x.link].join(" | ");
        if (head(a) !== head(b)) differences.push(`${probe.path}: ${head(a)} ≠ ${head(b)}`);
        else if (!a.body.equals(b.body)) differences.push(`${probe.path}:\n  original ${around(a.body, b.body)}\n  mirror   ${around(b.body, a.body)}`);
      }),
    );
  }
  return { differences, ok };
}

/** The version both serve, then every probe: the same answers, nearly all of them 200s. */
async function expectSameAnswers(name: string, original: string, mirror: string, probes: Probe[]): Promise<void> {
  const [a, b] = [appOver(original), appOver(mirror)];
  for (const app of [a, b]) {
    const version = await app.request("http://x/api/version/");
    expect(((await version.json()) as { orth_version: string }).orth_version).toBe(name);
  }
  const { differences, ok } = await compareAnswers(a, b, probes);
  expect(differences.slice(0, 10), `${differences.length} of ${probes.length} answers differ`).toEqual([]);
  // 404s are compared too (no gene tree, a fingerprint several groups share, a diploid's homoeologs, …), but they must be few.
  expect(ok / probes.length).toBeGreaterThan(0.9);
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
    const probes = await answerSample(a, { proteins: 60, groups: 12, families: 12 });
    expect(probes.length).toBeGreaterThan(4000);
    await expectSameAnswers(a.manifest.name, original, mirror, probes);
  }, 60_000);
});
