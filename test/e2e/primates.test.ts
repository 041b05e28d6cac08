/**
 * The real primates-chr12 release served from workerd, checked against its input files:
 * sequences, md5, loci, lineages, identifiers, HOG members on every level, groups.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../release-format/format.js";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";
import { md5Hex, parseFasta, parseGffGenes, parseTsv } from "./oracle.js";
import { getAllPages, getJson, serveRelease, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the primates-chr12 end-to-end tests");
const DATA = resolve(SHARED_DATA, "primates-chr12");
const inputFile = (path: string) => readFileSync(path, "utf8");
const get = (url: string) => fetch(url, { redirect: "manual" });
const CODES = ["HUMAN", "PANTR", "PANPA", "GORGO", "PONAB", "NOMLE", "MACMU", "MACFA", "PAPAN", "CHLSB", "CALJA"];

/** An orthologGroup of the input: its HOG id as served, its level, and the protein ids below it. */
interface InputHog {
  id: string;
  level: string;
  proteins: string[];
}

/**
 * Reads the orthoXML independently with a plain tag scanner (a full DOM of the file would
 * weigh on the isolate the worker shares with the tests): every orthologGroup with the
 * protein ids beneath it.
 */
function inputHogs(xml: string): { roots: InputHog[]; all: InputHog[] } {
  const protOf = new Map<string, string>();
  for (const m of xml.matchAll(/<gene id="([^"]+)" protId="([^"]+)"/g)) protOf.set(m[1], m[2]);
  const all: InputHog[] = [];
  const roots: InputHog[] = [];
  const open: Array<{ hog?: InputHog; genes: string[] }> = [];
  let inGroups = false;
  for (const m of xml.matchAll(/<(\/?)(orthologGroup|paralogGroup|geneRef|property|groups)\b([^>]*)>/g)) {
    const [, close, tag, attrs] = m;
    if (tag === "groups") inGroups = !close;
    if (!inGroups) continue;
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
    if (tag === "geneRef") open[open.length - 1].genes.push(protOf.get(attr("id")!)!);
    else if (tag === "property" && attr("name") === "TaxRange" && open[open.length - 1].hog) open[open.length - 1].hog!.level = attr("value")!;
    else if (tag === "orthologGroup" || tag === "paralogGroup") {
      if (!close) {
        const hog = tag === "orthologGroup" ? { id: `HOG:E${attr("id")!.slice(4).replace(/_[^_]*$/, "")}`, level: "", proteins: [] } : undefined;
        if (hog) (open.length === 0 ? roots : all).push(hog);
        if (hog && open.length === 0) all.push(hog);
        open.push({ hog, genes: [] });
        if (attrs.endsWith("/")) open.pop();
      } else {
        const done = open.pop()!;
        if (done.hog) done.hog.proteins = done.genes.sort();
        if (open.length) open[open.length - 1].genes.push(...done.genes);
      }
    }
  }
  return { roots, all };
}

describe.skipIf(!hasSharedData)("primates-chr12", () => {
  let served: ServedRelease;
  let manifest: Manifest;
  let base: string;
  const fasta = new Map<string, Map<string, string>>();

  beforeAll(async () => {
    served = await serveRelease("primates");
    ({ manifest, base } = served);
    for (const code of CODES) fasta.set(code, parseFasta(inputFile(`${DATA}/proteome/${code}.fa`)));
  });

  it("numbers genomes and entries as the inputs order them", async () => {
    const genomes = await getJson(`${base}/genome/`);
    expect(genomes.map((g: any) => g.code)).toEqual(CODES);
    const species = parseTsv(inputFile(`${DATA}/species_info.tsv`));
    expect(genomes.map((g: any) => [g.taxon_id, g.species])).toEqual(
      species.map((s) => [Number(s.NCBITaxonId), s.ScientificName]),
    );
    const total = CODES.reduce((n, c) => n + fasta.get(c)!.size, 0);
    expect(manifest.counts.proteins).toBe(total);
    expect(total).toBe(11143);
  });

  it("serves every HUMAN and CALJA protein with the input's id, sequence md5, length and locus", async () => {
    for (const code of ["HUMAN", "CALJA"]) {
      const genes = parseGffGenes(inputFile(`${DATA}/gff3/${code}.gff`));
      const proteins = await getAllPages(`${base}/genome/${code}/proteins/?per_page=700`);
      const input = [...fasta.get(code)!];
      expect(proteins.length).toBe(input.length);
      for (const [i, p] of proteins.entries()) {
        const [id, seq] = input[i];
        expect(p.canonicalid).toBe(id);
        expect(p.orthid).toBe(`${code}${String(i + 1).padStart(5, "0")}`);
        expect(p.sequence_length).toBe(seq.length);
        expect(p.sequence_md5).toBe(md5Hex(seq));
        const gene = genes.get(id)!;
        expect(p.chromosome).toBe(gene.chromosome);
        expect(p.locus).toEqual({ start: gene.start, end: gene.end, strand: gene.strand });
        expect(p.species.code).toBe(code);
      }
    }
  });

  it("serves full records whose sequence is the input's, by every id kind", async () => {
    const human = [...fasta.get("HUMAN")!];
    const first = (await getJson(`${base}/genome/HUMAN/`)) as any;
    for (let i = 0; i < human.length; i += 97) {
      const [id, seq] = human[i];
      const byNumber = await getJson(`${base}/protein/${i + 1}/`);
      expect(byNumber.sequence).toBe(seq);
      expect(byNumber.cdna).toBe("");
      const byOrthid = await getJson(`${base}/protein/HUMAN${String(i + 1).padStart(5, "0")}/`);
      const byCanonical = await getJson(`${base}/protein/${encodeURIComponent(id)}/`);
      expect(byOrthid).toEqual(byNumber);
      expect(byCanonical).toEqual(byNumber);
    }
    expect(first.lineage).toEqual(["Homo sapiens", "Homininae", "Hominidae", "Hominoidea", "Catarrhini", "Simiiformes"]);
    expect(first.nr_entries).toBe(human.length);
  });

  it("resolves cross-references, and answers 404 for ambiguous and unknown ids", async () => {
    const xrefs = parseTsv(inputFile(`${DATA}/annotations/HUMAN.xrefs.tsv`));
    const byXref = new Map<string, Set<string>>();
    for (const x of xrefs) {
      if (x.source === "Description") continue;
      byXref.set(x.xref, (byXref.get(x.xref) ?? new Set()).add(x.protein_id));
    }
    const unique = [...byXref].filter(([x, ids]) => ids.size === 1 && !/^[0-9]+$/.test(x));
    for (const [xref, ids] of unique.slice(0, 40)) {
      const p = await getJson(`${base}/protein/${encodeURIComponent(xref)}/`);
      expect(p.canonicalid).toBe([...ids][0]);
    }
    const ambiguous = [...byXref].find(([x, ids]) => ids.size > 1 && !/^[0-9]+$/.test(x));
    if (ambiguous) {
      const res = await get(`${base}/protein/${encodeURIComponent(ambiguous[0])}/`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: `requested id '${ambiguous[0]}' is not unique` });
    }
    const unknown = await get(`${base}/protein/ENSG99999999999/`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "requested id 'ENSG99999999999' is unknown" });
    for (const bad of ["0", String(manifest.counts.proteins + 1), "HUMAN00000", "HUMAN99999"]) {
      expect((await get(`${base}/protein/${bad}/`)).status, bad).toBe(404);
    }
  });

  it("lists the members of HOGs on every level of the orthoXML", async () => {
    const { roots, all } = inputHogs(inputFile(`${DATA}/FastOMA_HOGs.orthoxml`));
    expect(roots.length).toBe(1984);
    expect(manifest.counts.families).toBe(1984);
    // Every group of the first 120 families, and the root of every 10th family.
    const firstFamilies = new Set(roots.slice(0, 120).map((r) => r.id));
    const sample = all.filter((h) => firstFamilies.has(h.id.replace(/\..*$/, "")));
    for (const hog of sample) {
      const res = await getJson(`${base}/hog/${hog.id}/members/?level=${encodeURIComponent(hog.level)}`);
      expect(res.hog_id).toBe(hog.id);
      expect(res.level).toBe(hog.level);
      expect(res.members.map((m: any) => m.canonicalid).sort(), `${hog.id} at ${hog.level}`).toEqual(hog.proteins);
    }
    for (const root of roots.filter((_, i) => i % 10 === 0)) {
      const res = await getJson(`${base}/hog/${root.id}/members/?level=root`);
      expect(res.hog_id).toBe(root.id);
      expect(res.level).toBe(root.level);
      expect(res.members.map((m: any) => m.canonicalid).sort()).toEqual(root.proteins);
    }
  });

  it("reads HOGs with their levels, parents and children", async () => {
    // HOG:0000003 (Simiiformes) duplicates into .1a and .1b, each on Hominidae and below.
    const [root] = await getJson(`${base}/hog/HOG:E0000003/`);
    expect(root.level).toBe("Simiiformes");
    expect(root.roothog_id).toBe(3);
    expect(root.parent_hogs).toEqual([]);
    expect(root.children_hogs.map((c: any) => c.hog_id)).toEqual(["HOG:E0000003.1a", "HOG:E0000003.1b"]);
    const [sub] = await getJson(`${base}/hog/HOG:E0000003.1a/`);
    // The duplication follows Simiiformes: the copy stands on every level down to Hominidae.
    expect(sub.level).toBe("Catarrhini");
    expect(sub.alternative_levels).toEqual(["Hominoidea", "Hominidae", "Homininae", "Pan"]);
    expect(sub.parent_hogs.map((p: any) => p.hog_id)).toEqual(["HOG:E0000003"]);
    expect(sub.parent_hogs[0].levels_url).toBe(`${base}/hog/HOG:E0000003/`);
    const atHominidae = await getJson(`${base}/hog/HOG:E0000003/?level=Hominidae`);
    expect(atHominidae.map((h: any) => h.hog_id)).toEqual(["HOG:E0000003.1a", "HOG:E0000003.1b"]);
    // Members of a sub-HOG on a more ancient level are those of the ancestral HOG.
    const ancestral = await getJson(`${base}/hog/HOG:E0000003.1a/members/?level=Simiiformes`);
    expect(ancestral.hog_id).toBe("HOG:E0000003");
    const badLevel = await get(`${base}/hog/HOG:E0000003/?level=Mammalia`);
    expect(badLevel.status).toBe(404);
    expect(await badLevel.json()).toEqual({ detail: "Invalid or unknown level parameter for this HOG" });
    expect((await get(`${base}/hog/HOG:F0000003/`)).status).toBe(410);
    expect((await get(`${base}/hog/HOG:E0000003.x/`)).status).toBe(404);
  });

  it("derives single-copy groups inside HOGs and finds them by number, fingerprint and member", async () => {
    const count = manifest.counts.groups;
    expect(count).toBeGreaterThan(500);
    for (let nr = 1; nr <= count; nr += Math.ceil(count / 60)) {
      const group = await getJson(`${base}/group/${nr}/`);
      expect(group.group_nr).toBe(nr);
      const genomes = group.members.map((m: any) => m.species.code);
      expect(new Set(genomes).size).toBe(genomes.length);
      expect(new Set(group.members.map((m: any) => m.orth_hog_id.replace(/\..*$/, ""))).size).toBe(1);
      expect(group.members.every((m: any) => m.orth_group === nr)).toBe(true);
      expect(group.fingerprint).toMatch(/^([A-Z]{7}|n\/a)$/);
      if (group.fingerprint !== "n/a") {
        const byFingerprint = await get(`${base}/group/${group.fingerprint}/`);
        if (byFingerprint.status === 200) expect(((await byFingerprint.json()) as any).group_nr).toBe(nr);
      }
      const byMember = await getJson(`${base}/group/${group.members[0].orthid}/`);
      expect(byMember.group_nr).toBe(nr);
    }
  });
});
