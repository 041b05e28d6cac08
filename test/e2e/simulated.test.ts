/**
 * The simulated test release served over HTTP, checked against its input files and the
 * simulator's truth: cDNA, loci, isoforms, descriptions, cross-references, HOG ids and members.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { md5Hex, parseFasta, parseTsv } from "./oracle.js";
import { getAllPages, getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const INPUT = resolve(TEST_BUILD, "sim-input");
const read = (path: string) => readFileSync(resolve(INPUT, path), "utf8");

describe("the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  /** Every protein summary, by canonical id. */
  const byId = new Map<string, any>();
  let codes: string[];

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    codes = served.manifest.genomes.map((g) => g.code);
    for (const code of codes) for (const p of await getAllPages(`${base}/genome/${code}/proteins/?per_page=250`)) byId.set(p.canonicalid, p);
  });
  afterAll(() => served?.dispose());

  it("serves every protein in FASTA order with its md5, and its cDNA", async () => {
    for (const code of codes) {
      const proteins = [...parseFasta(read(`proteome/${code}.fa`))];
      const cdna = parseFasta(read(`cdna/${code}.fa`));
      proteins.forEach(([id, seq], i) => {
        const p = byId.get(id);
        expect(p.orthid).toBe(`${code}${String(i + 1).padStart(5, "0")}`);
        expect(p.sequence_md5).toBe(md5Hex(seq));
      });
      for (const [id, seq] of proteins.filter((_, i) => i % 25 === 0)) {
        const record = await getJson(`${base}/protein/${id}/`);
        expect(record.sequence).toBe(seq);
        expect(record.cdna).toBe(cdna.get(id));
      }
    }
  });

  it("places genes and alternative isoforms on their loci", () => {
    let checked = 0;
    for (const code of codes) {
      for (const line of read(`gff3/${code}.gff`).split("\n")) {
        const f = line.split("\t");
        if (f.length !== 9 || (f[2] !== "gene" && f[2] !== "mRNA")) continue;
        const id = /(?:^|;)ID=([^;]+)/.exec(f[8])![1];
        const p = byId.get(id);
        if (!p) continue;
        expect(p.chromosome).toBe(f[0]);
        expect(p.locus).toEqual({ start: Number(f[3]), end: Number(f[4]), strand: f[6] === "-" ? -1 : 1 });
        checked += 1;
      }
    }
    expect(checked).toBe(byId.size);
  });

  it("links the isoforms of a gene and marks the main one, which alone is in HOGs", async () => {
    let genes = 0;
    for (const code of codes) {
      let splice: string;
      try {
        splice = read(`splice/${code}.splice`);
      } catch {
        continue;
      }
      for (const line of splice.trim().split("\n")) {
        const [main, ...alternatives] = line.split("; ");
        genes += 1;
        const record = await getJson(`${base}/protein/${main}/`);
        expect(record.is_main_isoform).toBe(true);
        expect(record.alternative_isoforms_urls).toEqual(alternatives.map((a) => byId.get(a).entry_url));
        for (const a of alternatives) {
          expect(byId.get(a).is_main_isoform).toBe(false);
          expect(byId.get(a).orth_hog_id).toBe("");
          expect(byId.get(a).orth_group).toBe(0);
        }
      }
    }
    expect(genes).toBeGreaterThan(10);
  });

  it("resolves UniProt accessions and fills descriptions from the cross-references", async () => {
    const xrefs = parseTsv(read("annotations/xrefs.tsv"));
    const accessions = xrefs.filter((x) => x.source === "UniProtKB/SwissProt").slice(0, 40);
    expect(accessions.length).toBeGreaterThan(0);
    for (const x of accessions) {
      const record = await getJson(`${base}/protein/${x.xref}/`);
      expect(record.canonicalid).toBe(x.protein_id);
      const description = xrefs.find((d) => d.protein_id === x.protein_id && d.source === "Description");
      if (description) expect(record.description).toBe(description.xref);
    }
  });

  it("describes a group and a HOG by the description most of their members share", async () => {
    for (let nr = 1; nr <= served.manifest.counts.groups; nr += 17) {
      const group = await getJson(`${base}/group/${nr}/`);
      const descriptions = await Promise.all(group.members.map(async (m: any) => (await getJson(m.entry_url)).description));
      const counts = new Map<string, number>();
      for (const d of descriptions) if (d) counts.set(d, (counts.get(d) ?? 0) + 1);
      const top = Math.max(0, ...counts.values());
      expect(top === 0 ? group.description === "" : counts.get(group.description) === top, `group ${nr}`).toBe(true);
      const [hog] = await getJson(`${base}/hog/${group.members[0].orth_hog_id}/`);
      expect(typeof hog.description).toBe("string");
    }
  });

  it("serves each protein's true HOG, and the true members of every root HOG", async () => {
    const truth = parseTsv(read("truth/hogs.tsv"));
    const roots = new Map<string, string[]>();
    for (const t of truth) {
      expect(byId.get(t.protein).orth_hog_id, t.protein).toBe(t.hog_id.replace("HOG:", "HOG:S"));
      roots.set(t.root_hog, [...(roots.get(t.root_hog) ?? []), t.protein]);
    }
    for (const [root, members] of roots) {
      const served = await getJson(`${base}/hog/${root.replace("HOG:", "HOG:S")}/members/?level=root`);
      expect(served.members.map((m: any) => m.canonicalid).sort(), root).toEqual(members.sort());
    }
  });

  it("gives hog_levels from the species up to the family's deepest level", async () => {
    const truth = parseTsv(read("truth/hogs.tsv")).filter((_, i) => i % 40 === 0);
    for (const t of truth) {
      const record = await getJson(`${base}/protein/${t.protein}/`);
      const [rootHog] = await getJson(`${base}/hog/${t.root_hog.replace("HOG:", "HOG:S")}/`);
      const genome = await getJson(`${base}/genome/${record.species.code}/`);
      expect(record.hog_levels[0]).toBe(record.species.species);
      expect(record.hog_levels.at(-1)).toBe(rootHog.level);
      expect(genome.lineage.slice(0, record.hog_levels.length)).toEqual(record.hog_levels);
    }
  });
});
