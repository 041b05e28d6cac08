/**
 * Pairwise relations over HTTP: protein orthologs, pairs between and within genomes (JSON,
 * CSV, TSV, minimal), close groups, genes, and the HOG list, checked against the
 * simulator's truth and the real inputs.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";
import { parseTsv } from "./oracle.js";
import { getAllPages, getJson, serveRealReleases, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const MIRROR: Record<string, string> = { "1:1": "1:1", "1:n": "m:1", "m:1": "1:n", "m:n": "m:n" };

describe("relations of the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  /** Protein summaries by canonical id, and by entry number. */
  const byId = new Map<string, any>();
  const byEntry = new Map<number, any>();
  /** True orthologs: protein → partner → type seen from the protein. */
  const truth = new Map<string, Map<string, string>>();
  const truthRows = parseTsv(readFileSync(resolve(TEST_BUILD, "sim-input/truth/orthologs.tsv"), "utf8")).map((r) => [
    r.protein1,
    r.protein2,
    r.rel_type,
  ]);

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    for (const g of served.manifest.genomes) {
      for (const p of await getAllPages(`${base}/genome/${g.code}/proteins/?per_page=1000`)) {
        byId.set(p.canonicalid, p);
        byEntry.set(p.entry_nr, p);
      }
    }
    const add = (a: string, b: string, t: string) => {
      const m = truth.get(a) ?? new Map<string, string>();
      m.set(b, t);
      truth.set(a, m);
    };
    for (const [a, b, t] of truthRows) {
      add(a, b, t);
      add(b, a, MIRROR[t]);
    }
  });
  afterAll(() => served?.dispose());

  it("lists each protein's true orthologs with their types, by partner entry number", async () => {
    const sample = [...byId.values()].filter((_, i) => i % 37 === 0);
    expect(sample.length).toBeGreaterThan(30);
    for (const p of sample) {
      const orthologs = await getJson(`${base}/protein/${p.entry_nr}/orthologs/`);
      const expected = truth.get(p.canonicalid) ?? new Map();
      expect(new Map(orthologs.map((o: any) => [o.canonicalid, o.rel_type])), p.canonicalid).toEqual(expected);
      expect(orthologs.map((o: any) => o.entry_nr)).toEqual([...orthologs.map((o: any) => o.entry_nr)].sort((a, b) => a - b));
      for (const o of orthologs) {
        // The partner's summary is the one the genome list gives, plus the relation's fields.
        const { rel_type, distance, score, ...summary } = o;
        expect(summary).toEqual(byEntry.get(o.entry_nr));
        expect(distance).toBeNull(); // derived from HOGs: no distance or score
        expect(score).toBeNull();
      }
    }
  });

  it("filters orthologs by rel_type, and answers [] for any other rel_type", async () => {
    const p = [...byId.values()].find((x) => [...(truth.get(x.canonicalid) ?? new Map()).values()].some((t) => t !== "1:1"))!;
    const all = await getJson(`${base}/protein/${p.entry_nr}/orthologs/`);
    for (const type of ["1:1", "1:n", "m:1", "m:n"]) {
      const some = await getJson(`${base}/protein/${p.entry_nr}/orthologs/?rel_type=${encodeURIComponent(type)}`);
      expect(some).toEqual(all.filter((o: any) => o.rel_type === type));
    }
    expect(await getJson(`${base}/protein/${p.entry_nr}/orthologs/?rel_type=close%20paralog`)).toEqual([]);
    expect(await getJson(`${base}/protein/${p.entry_nr}/orthologs/?rel_type=bogus`)).toEqual([]);
  });

  it("pages through the pairs of two genomes: exactly the true orthologs, in entry order", async () => {
    const [g1, g2] = ["HUMAN", "MOUSE"];
    const res = await fetch(`${base}/pairs/${g1}/${g2}/?per_page=50`);
    const total = Number(res.headers.get("X-Total-Count"));
    const pairs = await getAllPages(`${base}/pairs/${g1}/${g2}/?per_page=50`);
    expect(pairs.length).toBe(total);
    const expected = truthRows
      .filter(([a, b]) => a.includes(g1) && b.includes(g2) || a.includes(g2) && b.includes(g1))
      .map(([a, b, t]) => (a.includes(g1) ? `${a} ${b} ${t}` : `${b} ${a} ${MIRROR[t]}`));
    expect(pairs.map((x) => `${x.entry_1.canonicalid} ${x.entry_2.canonicalid} ${x.rel_type}`).sort()).toEqual(expected.sort());
    const keys = pairs.map((x) => [x.entry_1.entry_nr, x.entry_2.entry_nr]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    for (const x of pairs) {
      expect(x.entry_1.species.code).toBe(g1);
      expect(x.entry_2.species.code).toBe(g2);
      expect(x.entry_1.xrefs).toBeNull();
      const g = x.entry_1.orth_group;
      expect(x.orth_group).toBe(g !== 0 && g === x.entry_2.orth_group ? g : "");
    }
    // The reverse direction holds the same pairs, mirrored.
    const reverse = await getAllPages(`${base}/pairs/${g2}/${g1}/?per_page=500`);
    expect(reverse.map((x) => `${x.entry_2.canonicalid} ${x.entry_1.canonicalid} ${MIRROR[x.rel_type]}`).sort()).toEqual(expected.sort());
  });

  it("relates the subgenomes of the polyploid genome: homoeologs exactly as the truth has them", async () => {
    const homoeologs = parseTsv(readFileSync(resolve(TEST_BUILD, "sim-input/truth/homoeologs.tsv"), "utf8"));
    expect(homoeologs.length).toBeGreaterThan(20);
    const wheat = served.manifest.genomes.find((g) => g.subgenomes.length)!;
    expect(wheat.subgenomes).toEqual(["A", "B", "D"]);
    // Within the genome's pairs, the homoeologs are the truth's, and rel_type selects them.
    const pairs = await getAllPages(`${base}/pairs/${wheat.code}/${wheat.code}/?rel_type=homeolog&per_page=1000`);
    const key = (a: string, b: string) => [a, b].sort().join(" ");
    expect(new Set(pairs.map((x) => key(x.entry_1.canonicalid, x.entry_2.canonicalid)))).toEqual(new Set(homoeologs.map((r) => key(r.protein1, r.protein2))));
    for (const x of pairs) expect(x.entry_1.chromosome.slice(-1)).not.toBe(x.entry_2.chromosome.slice(-1));
    // Per protein: the record links its homoeologs, which list the same partners.
    const partners = new Map<string, string[]>();
    for (const r of homoeologs) {
      partners.set(r.protein1, [...(partners.get(r.protein1) ?? []), r.protein2]);
      partners.set(r.protein2, [...(partners.get(r.protein2) ?? []), r.protein1]);
    }
    for (const [id, expected] of [...partners].filter((_, i) => i % 5 === 0)) {
      const record = await getJson(`${base}/protein/${id}/`);
      expect(record.homoeologs).toBe(`${base}/protein/${record.entry_nr}/homoeologs/`);
      const list = await getJson(record.homoeologs);
      expect(list.map((p: any) => p.canonicalid).sort()).toEqual(expected.sort());
      for (const p of list) expect(p).toEqual(byEntry.get(p.entry_nr));
    }
    // A diploid genome's proteins have no homoeologs.
    const diploid = [...byId.values()].find((p) => p.species.code !== wheat.code)!;
    expect((await getJson(`${base}/protein/${diploid.entry_nr}/`)).homoeologs).toBeNull();
    const res = await fetch(`${base}/protein/${diploid.entry_nr}/homoeologs/`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "query protein does not belong to a polyploid genome" });
  });

  it("filters pairs by rel_type, chr1 and chr2 before counting", async () => {
    const all = await getAllPages(`${base}/pairs/HUMAN/MOUSE/?per_page=1000`);
    const oneToOne = await fetch(`${base}/pairs/HUMAN/MOUSE/?rel_type=1:1&per_page=10`);
    expect(Number(oneToOne.headers.get("X-Total-Count"))).toBe(all.filter((x) => x.rel_type === "1:1").length);
    expect(oneToOne.headers.get("Link")).toContain("rel_type=1%3A1");
    const chr = all[0].entry_1.chromosome;
    const chr2 = all[0].entry_2.chromosome;
    const onChr = await getAllPages(`${base}/pairs/HUMAN/MOUSE/?chr1=${encodeURIComponent(chr)}&chr2=${encodeURIComponent(chr2)}&per_page=1000`);
    expect(onChr).toEqual(all.filter((x) => x.entry_1.chromosome === chr && x.entry_2.chromosome === chr2));
    expect(await getJson(`${base}/pairs/HUMAN/MOUSE/?chr1=nowhere`)).toEqual([]);
    expect(await getJson(`${base}/pairs/HUMAN/MOUSE/?rel_type=bogus`)).toEqual([]);
    expect(await getJson(`${base}/pairs/HUMAN/MOUSE/?rel_type=close%20paralog`)).toEqual([]);
  });

  it("lists close paralogs within one genome, each a true paralog pair", async () => {
    const paralogs = new Set(
      parseTsv(readFileSync(resolve(TEST_BUILD, "sim-input/truth/paralogs.tsv"), "utf8")).map((r) => `${r.protein1} ${r.protein2}`),
    );
    let seen = 0;
    for (const g of served.manifest.genomes) {
      for (const x of await getAllPages(`${base}/pairs/${g.code}/${g.code}/?per_page=1000`)) {
        expect(x.rel_type).toMatch(/^(close paralog|homeolog)$/);
        if (x.rel_type !== "close paralog") continue;
        const [a, b] = [x.entry_1.canonicalid, x.entry_2.canonicalid];
        expect(paralogs.has(`${a} ${b}`) || paralogs.has(`${b} ${a}`), `${a} ${b}`).toBe(true);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("serves pairs as CSV and TSV downloads and as a minimal list", async () => {
    const json = await getAllPages(`${base}/pairs/HUMAN/PANTR/?per_page=1000`);
    for (const format of ["csv", "tsv"] as const) {
      const res = await fetch(`${base}/pairs/HUMAN/PANTR/?format=${format}&xrefs=SourceID&per_page=1000`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe(format === "csv" ? "text/csv; charset=utf-8" : "text/tab-separated-values; charset=utf-8");
      expect(res.headers.get("Content-Disposition")).toMatch(new RegExp(`^attachment; filename=orth-Pairs_HUMAN-PANTR_\\d{4}-\\d\\d-\\d\\d_\\d{6}\\.${format}$`));
      expect(res.headers.get("X-Total-Count")).toBe(String(json.length));
      const sep = format === "csv" ? "," : "\t";
      const lines = (await res.text()).trimEnd().split("\r\n").map((l) => l.split(sep));
      expect(lines[0]).toEqual(["orthid_1", "SourceID_1", "orthid_2", "SourceID_2", "RelType", "OrthGroup"]);
      expect(lines.slice(1)).toEqual(
        json.map((x) => [x.entry_1.orthid, x.entry_1.canonicalid, x.entry_2.orthid, x.entry_2.canonicalid, x.rel_type, String(x.orth_group)]),
      );
    }
    const minimal = await getJson(`${base}/pairs/HUMAN/PANTR/minimal/`);
    expect(minimal).toEqual({ pairs: json.map((x) => [x.entry_1.entry_nr, x.entry_2.entry_nr]) });
    // csv and tsv exist only here.
    expect((await fetch(`${base}/genome/?format=csv`)).status).toBe(404);
  });

  it("adds the requested cross-reference ids to both sides", async () => {
    const [first] = await getJson(`${base}/pairs/HUMAN/PANTR/?xrefs=SourceID,UniProtKB/SwissProt&per_page=1`);
    expect(Object.keys(first.entry_1.xrefs)).toEqual(["SourceID", "UniProtKB/SwissProt"]);
    expect(first.entry_1.xrefs.SourceID).toBe(first.entry_1.canonicalid);
    const xrefs = await getJson(`${base}/protein/${first.entry_1.entry_nr}/xref/`).catch(() => undefined);
    if (xrefs) {
      const swissprot = xrefs.find((x: any) => x.source === "UniProtKB/SwissProt")?.xref ?? "";
      expect(first.entry_1.xrefs["UniProtKB/SwissProt"]).toBe(swissprot);
    }
  });

  it("ranks close groups by the ortholog pairs that point into them", async () => {
    const groups = await getAllPages(`${base}/group/?per_page=1000`);
    let withHits = 0;
    for (const { orth_group } of groups.filter((_, i) => i % 9 === 0)) {
      const group = await getJson(`${base}/group/${orth_group}/`);
      const hits = new Map<number, number>();
      for (const m of group.members) {
        for (const o of await getJson(`${base}/protein/${m.entry_nr}/orthologs/`)) {
          if (o.orth_group !== 0 && o.orth_group !== orth_group) hits.set(o.orth_group, (hits.get(o.orth_group) ?? 0) + 1);
        }
      }
      const expected = [...hits].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([g, h]) => ({ orth_group: g, group_url: `${base}/group/${g}/`, hits: h }));
      expect(await getAllPages(`${base}/group/${orth_group}/close_groups/?per_page=3`)).toEqual(expected);
      if (expected.length) withHits++;
    }
    expect(withHits).toBeGreaterThan(0);
  });

  it("answers close groups of a protein without a group with [] and no pagination headers", async () => {
    const loner = [...byId.values()].find((p) => p.orth_group === 0);
    expect(loner).toBeDefined();
    // By orthid: a bare number would name a group.
    const res = await fetch(`${base}/group/${loner.orthid}/close_groups/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(res.headers.get("X-Total-Count")).toBeNull();
  });

  it("pages through a genome's genes: its main isoforms only", async () => {
    for (const g of served.manifest.genomes) {
      const proteins = [...byEntry.values()].filter((p) => p.species.code === g.code);
      const genes = await getAllPages(`${base}/genome/${g.code}/genes/?per_page=37`);
      expect(genes).toEqual(proteins.filter((p) => p.is_main_isoform).sort((a, b) => a.entry_nr - b.entry_nr));
      expect(genes.length).toBeLessThanOrEqual(proteins.length);
    }
    expect(served.manifest.genomes.some((g) => g.nrGenes < g.nrEntries)).toBe(true);
  });

  it("lists every root HOG, and every HOG on a level with its size", async () => {
    const roots = await getAllPages(`${base}/hog/?per_page=100`);
    expect(roots.length).toBe(served.manifest.counts.families);
    expect(roots[0]).toMatchObject({ level: "root", roothog_id: 1 });
    expect(roots[0].levels_url).toBe(`${base}/hog/${roots[0].hog_id}/?level=root`);
    const level = "Hominidae";
    const onLevel = await getAllPages(`${base}/hog/?level=${level}&per_page=100`);
    expect(onLevel.length).toBeGreaterThan(10);
    for (const item of onLevel.filter((_, i) => i % 7 === 0)) {
      const members = await getJson(item.members_url);
      expect(members.hog_id).toBe(item.hog_id);
      expect(members.members.length).toBe(item.nr_genes);
      const [record] = await getJson(item.levels_url);
      expect(record.completeness_score).toBe(item.completeness_score);
    }
  });

  it("tells with compare_with whether a HOG was retained, duplicated or gained since a more ancient level", async () => {
    const items = await getAllPages(`${base}/hog/?level=Hominidae&compare_with=Euarchontoglires&per_page=500`);
    const events = new Set(items.map((i) => i.event));
    expect(events.has("retained")).toBe(true);
    for (const item of items.filter((_, i) => i % 5 === 0)) {
      const then = await fetch(`${base}/hog/${item.hog_id}/?level=Euarchontoglires`);
      const records: any[] = then.status === 200 ? await then.json() : [];
      const same = records.some((r: any) => r.hog_id === item.hog_id);
      const ancestor = records.some((r: any) => item.hog_id.startsWith(`${r.hog_id}.`));
      expect(item.event, item.hog_id).toBe(same ? "retained" : ancestor ? "duplicated" : "gained");
    }
    expect((await fetch(`${base}/hog/?compare_with=Euarchontoglires`)).status).toBe(400);
    expect((await fetch(`${base}/hog/?level=Euarchontoglires&compare_with=Hominidae`)).status).toBe(400);
    expect((await fetch(`${base}/hog/?level=Nowhere`)).status).toBe(404);
  });
});

warnWithoutSharedData("pairwise relations of bacteria3 and primates-chr12");
describe.skipIf(!hasSharedData)("relations of the real releases", () => {
  let primates: ServedRelease;
  let bacteria: ServedRelease;
  serveRealReleases((p, b) => {
    primates = p;
    bacteria = b;
  });

  it("serves bacteria3's orthologs exactly as its orthologs.tsv lists them", async () => {
    // Two UniProt-style ids a line (`sp|O67161|G3P_AQUAE`); the release's canonical id is the accession.
    const accession = (id: string) => id.split("|")[1];
    const lines = readFileSync(resolve(SHARED_DATA, "bacteria3/orthologs.tsv"), "utf8").trim().split("\n");
    const given = new Set(lines.map((l) => l.split("\t").map(accession).sort().join(" ")));
    const found = new Set<string>();
    const codes = bacteria.manifest.genomes.map((g) => g.code);
    for (const a of codes) {
      for (const b of codes) {
        if (a === b) continue;
        for (const x of await getAllPages(`${bacteria.base}/pairs/${a}/${b}/`)) found.add([x.entry_1.canonicalid, x.entry_2.canonicalid].sort().join(" "));
      }
    }
    expect(found).toEqual(given);
  });

  it("pairs HUMAN with PANTR in primates-chr12 as its HOGs imply", async () => {
    const pairs = await getAllPages(`${primates.base}/pairs/HUMAN/PANTR/?per_page=2000`);
    expect(pairs.length).toBeGreaterThan(500);
    for (const x of pairs.filter((_, i) => i % 50 === 0)) {
      const orthologs = await getJson(`${primates.base}/protein/${x.entry_1.entry_nr}/orthologs/`);
      expect(orthologs.find((o: any) => o.entry_nr === x.entry_2.entry_nr)?.rel_type).toBe(x.rel_type);
      // Orthologs share their root HOG.
      expect(x.entry_1.orth_hog_id.split(".")[0]).toBe(x.entry_2.orth_hog_id.split(".")[0]);
    }
  });
});
