/**
 * Two compiled releases that must answer alike, compared answer by answer: the worker's own app
 * over each folder, a deterministic sample of requests over every endpoint family, status,
 * headers of lists and body byte for byte. Used by the OMA round trip (a release and its mirror
 * from OMA's files) and by the wide-family layout (a release and the same inputs compiled with
 * every family's members in their own table).
 */
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { folderStorage } from "../release-compiler/local/folder-storage.js";
import { SPECIATION, type AnnotationRow, type FamilyRow, type GroupRow, type ProteinRow, type SequenceRow } from "../release-format/format.js";
import { createApp } from "../src/app.js";
import { orthid } from "../src/render/protein.js";
import type { Release } from "../src/release/release.js";

/** Every how many proteins, groups and families the sample takes one. */
export interface SampleRates {
  proteins: number;
  groups: number;
  families: number;
}

/** What a browser asks for: a page for people. */
const HTML = "text/html,application/xhtml+xml";

/** The original's answer as the other release can give it (the OMA mirror's, asMirrored). */
export type Mirroring = (path: string, answer: Answer) => Answer;

/** One request of the answer-by-answer comparison: a GET of `path` (with `Accept: accept`), or a POST of `body` to it. */
export interface Probe {
  path: string;
  body?: string;
  accept?: string;
}

/** Every `every`-th of 0 … n - 1, and the last. */
export const sample = (n: number, every: number): number[] => [...new Set([...Array.from({ length: Math.ceil(n / every) }, (_, i) => i * every), n - 1])].filter((i) => i >= 0);

const q = encodeURIComponent;

/**
 * A deterministic sample of requests over every endpoint family, drawn from the original
 * release: the release and its genomes, every `proteins`-th protein (by entry number, OMA id and
 * canonical id, and each of its sub-resources), every `groups`-th group (by number and by
 * fingerprint), every `families`-th HOG family (its root and the HOGs of its levels), each
 * level's HOG list, pairs, shared ancestry and downloads between neighbouring genomes, xref,
 * sequence and function searches, bulk retrieval; pages for people of a few proteins and HOGs.
 * `omaFiles` leaves out what OMA's files do not carry (a polyploid's homoeologs, domains).
 */
export async function answerSample(r: Release, every: SampleRates, omaFiles = false): Promise<Probe[]> {
  const { manifest } = r;
  const { genomes, tables, counts, taxonomy } = manifest;
  // OMA's files name no subgenomes, so a mirror of them derives no homoeologs: what a polyploid
  // genome's homoeologs make of an answer is left out (below), the rest of it is compared.
  const polyploid = (code: string) => omaFiles && genomes.some((g) => g.code === code && g.subgenomes.length > 0);
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
    if (!omaFiles || annotation.domains.length === 0) probes.push(...get(`/api/protein/${e}/domains/`));
    if (p.family) probes.push(...get(`/api/hog/${e}/orthoxml/`, `/orth/hog/${id}/orthoxml/`, `/api/hog/${e}/`));
    for (const [, xref] of annotation.xrefs.slice(0, 2)) probes.push(...get(`/api/xref/?search=${q(xref)}`));
  }
  // Pages for people (not of a mirror of OMA's files: their protein cards show the sources it renames).
  if (!omaFiles) for (const e of entries.slice(0, 12)) probes.push({ path: `/api/protein/${e}/`, accept: HTML });
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
    if (!omaFiles) probes.push({ path: `/api/hog/${root}/?level=root`, accept: HTML }, { path: `/api/hog/${root}/members/`, accept: HTML });
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
      // Its level queries above it (the ancestral HOG there) and on its first member's species (its implied HOG or its descendants).
      const species = r.genomeOfEntry(f.entries[n.lo]).level;
      probes.push(...get(`/api/hog/${q(n.id)}/?level=root`, `/api/hog/${q(n.id)}/?level=${q(taxonomy.names[f.nodes[0].levels[0]])}`, `/api/hog/${q(n.id)}/?level=${q(taxonomy.names[species])}`));
    }
  }
  return probes;
}

export interface Answer {
  status: number;
  type: string | null;
  total: string | null;
  link: string | null;
  body: Buffer;
}

export type App = ReturnType<typeof createApp>;

/** The worker's own app over a compiled release folder, in process. */
export const appOver = (dir: string): App => {
  const storage = folderStorage(dir);
  return createApp({ storage: () => storage });
};

export async function answerOf(app: App, probe: Probe): Promise<Answer> {
  const init: RequestInit | undefined =
    probe.body !== undefined
      ? { method: "POST", body: probe.body, headers: { "Content-Type": "application/json" } }
      : probe.accept
        ? { headers: { Accept: probe.accept } }
        : undefined;
  const response = await app.request(`http://x${probe.path}`, init);
  const { headers } = response;
  return { status: response.status, type: headers.get("Content-Type"), total: headers.get("X-Total-Count"), link: headers.get("Link"), body: Buffer.from(await response.arrayBuffer()) };
}

/** The body as text (gunzipped), around its first difference from `other`. */
export function around(body: Buffer, other: Buffer): string {
  const [x, y] = [body, other].map((b) => (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b).toString("utf8"));
  let at = 0;
  while (at < x.length && x[at] === y[at]) at++;
  return `…${x.slice(Math.max(0, at - 150), at + 250)}… (${x.length} characters, first difference at ${at})`;
}

/**
 * Asks both apps every probe, a few at a time; returns what differs (status, content type,
 * total count and page links, body byte for byte) from the original's answer as the mirror can
 * give it (`asMirrored`, by default the answer itself), with the differing part of each body,
 * and how many answers were 200.
 */
export async function compareAnswers(original: App, mirror: App, probes: Probe[], asMirrored: Mirroring = (_, a) => a): Promise<{ differences: string[]; ok: number }> {
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
export async function expectSameAnswers(name: string, original: string, mirror: string, probes: Probe[], asMirrored?: Mirroring): Promise<void> {
  const [a, b] = [appOver(original), appOver(mirror)];
  for (const app of [a, b]) {
    const version = await app.request("http://x/api/version/");
    expect(((await version.json()) as { orth_version: string }).orth_version).toBe(name);
  }
  const { differences, ok } = await compareAnswers(a, b, probes, asMirrored);
  expect(differences.slice(0, 10), `${differences.length} of ${probes.length} answers differ`).toEqual([]);
  // 404s are compared too (no gene tree, a fingerprint several groups share, a diploid's homoeologs, …), but they must be few.
  expect(ok / probes.length).toBeGreaterThan(0.9);
}

