/**
 * Downloads over HTTP, each checked against the input files or the paged endpoints it gathers:
 * a genome's proteins and cDNA against the input FASTA, a genome pair's relations against the
 * pairs endpoint's TSV, a HOG's FASTA against its members, a level's HOG table against the HOG
 * list and members, the release's orthoXML against the schema and the families. Every file is
 * valid gzip where it says so, named with the release, and streamed (no Content-Length); once
 * cached, one byte range of it is answered 206 from the edge cache.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { validateXML } from "xmllint-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema, responseErrors } from "../openapi-check.js";
import { hasSharedData, SHARED_DATA } from "../shared-data.js";
import { parseFasta } from "./oracle.js";
import { findAll, parseXml } from "./xml-oracle.js";
import { getAllPages, getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const INPUT = resolve(TEST_BUILD, "sim-input");

describe("downloads of the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  beforeAll(async () => {
    served = await serveRelease("sim", {}, { edgeCache: true });
    base = served.base;
  });
  afterAll(() => served?.dispose());

  /** A download: status 200, the release in its file name, the body (gunzipped for .gz). */
  async function download(path: string): Promise<string> {
    const res = await fetch(`${base}${path}`, { redirect: "manual" });
    expect(res.status, path).toBe(200);
    expect(res.headers.get("Content-Disposition"), path).toMatch(new RegExp(`^attachment; filename="${served.manifest.name.replace(/\./g, "\\.")}_`));
    // Served through the edge cache (Miniflare has one): the GET is stored, so ranges can follow.
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    const bytes = Buffer.from(await res.arrayBuffer());
    if (path.split("?")[0].endsWith(".gz")) {
      expect(res.headers.get("Content-Type")).toBe("application/gzip");
      return gunzipSync(bytes).toString("utf8");
    }
    return bytes.toString("utf8");
  }

  /** FASTA records of a download: header words and sequence. */
  const records = (text: string) =>
    text
      .split(/^>/m)
      .filter(Boolean)
      .map((r) => {
        const [header, ...lines] = r.trimEnd().split("\n");
        expect(lines.every((l) => l.length <= 60)).toBe(true);
        return { header, words: header.split(" "), sequence: lines.join("") };
      });

  it("lists the release-wide files, each of which downloads", async () => {
    const items = await getJson(`${base}/downloads/`);
    const names = items.map((i: any) => i.name);
    expect(names).toContain("hogs.orthoxml.gz");
    for (const g of served.manifest.genomes) expect(names).toEqual(expect.arrayContaining([`${g.code}.fa.gz`, `${g.code}.cdna.fa.gz`]));
    for (const item of items) expect(Object.keys(item).sort()).toEqual(["description", "format", "name", "url"]);
    // A sample of them, by their own URL.
    for (const item of items.filter((_: unknown, i: number) => i % 7 === 0)) {
      const res = await fetch(item.url);
      expect(res.status, item.url).toBe(200);
      gunzipSync(Buffer.from(await res.arrayBuffer()));
    }
  });

  it("gives every genome's proteins and cDNA as the input FASTA has them, headers naming orthid, canonical id, HOG and group", async () => {
    for (const g of served.manifest.genomes.slice(0, 4)) {
      const proteins = records(await download(`/downloads/genome/${g.code}.fa.gz`));
      const input = parseFasta(readFileSync(resolve(INPUT, "proteome", `${g.code}.fa`), "utf8"));
      expect(proteins.map((p) => p.words[1])).toEqual([...input.keys()]);
      expect(proteins.map((p) => p.sequence)).toEqual([...input.values()]);
      const listed = await getAllPages(`${base}/genome/${g.code}/proteins/?per_page=1000`);
      proteins.forEach((p, i) => {
        expect(p.words[0]).toBe(listed[i].orthid);
        expect(p.words[2]).toBe(`hog=${listed[i].orth_hog_id || "-"}`);
        expect(p.words[3]).toBe(`group=${listed[i].orth_group}`);
      });
      const cdna = records(await download(`/downloads/genome/${g.taxonId}.cdna.fa.gz`));
      const cdnaInput = parseFasta(readFileSync(resolve(INPUT, "cdna", `${g.code}.fa`), "utf8"));
      expect(new Map(cdna.map((p) => [p.words[1], p.sequence]))).toEqual(cdnaInput);
    }
  });

  it("gives every relation of a genome pair as the pairs endpoint's pages have them", async () => {
    const [g1, g2] = served.manifest.genomes;
    for (const [a, b] of [[g1, g2], [g1, g1]]) {
      const file = await download(`/downloads/pairs/${a.code}/${b.code}.tsv.gz`);
      const page = await (await fetch(`${base}/pairs/${a.code}/${b.code}/?format=tsv&per_page=1000000`)).text();
      expect(file).toBe(page);
      expect(file.split("\r\n").length).toBeGreaterThan(2);
    }
    const withXrefs = await download(`/downloads/pairs/${g1.code}/${g2.code}.tsv.gz?xrefs=SourceID`);
    expect(withXrefs).toBe(await (await fetch(`${base}/pairs/${g1.code}/${g2.code}/?format=tsv&per_page=1000000&xrefs=SourceID`)).text());
  });

  it("gives a HOG's members as FASTA, on its levels, proteins and cDNA", async () => {
    const hogs = (await getAllPages(`${base}/hog/?per_page=1000`)).filter((_: unknown, i: number) => i % 25 === 0).slice(0, 6);
    expect(hogs.length).toBeGreaterThan(2);
    for (const hog of hogs) {
      const members = (await getJson(`${base}/hog/${hog.hog_id}/members/?level=root`)).members;
      const fasta = records(await download(`/downloads/hog/${hog.hog_id}.fa?level=root`));
      expect(fasta.map((r) => r.words[0])).toEqual(members.map((m: any) => m.orthid));
      for (const [i, m] of members.slice(0, 3).entries()) {
        const record = await getJson(`${base}/protein/${m.entry_nr}/`);
        expect(fasta[i].sequence).toBe(record.sequence);
        const cdna = records(await download(`/downloads/hog/${hog.hog_id}.fa?level=root&seq=cdna`));
        expect(cdna[i].sequence).toBe(record.cdna);
      }
    }
  });

  it("gives a level's HOGs with their members, as the HOG list and members endpoints have them", async () => {
    const { taxonomy, genomes } = served.manifest;
    for (const level of [taxonomy.names[taxonomy.parents.indexOf(-1)], genomes[0].code]) {
      const lines = (await download(`/downloads/hogs/${encodeURIComponent(level)}.tsv.gz`)).trimEnd().split("\n").map((l) => l.split("\t"));
      expect(lines[0]).toEqual(["hog_id", "level", "roothog_id", "description", "completeness_score", "nr_members", "members_orthid", "members_canonicalid"]);
      const listed = await getAllPages(`${base}/hog/?level=${encodeURIComponent(level)}&per_page=1000`);
      expect(lines.slice(1).map((l) => l[0])).toEqual(listed.map((h: any) => h.hog_id));
      for (const line of lines.slice(1).filter((_, i) => i % 20 === 0)) {
        const members = (await getJson(`${base}/hog/${line[0]}/members/?level=${encodeURIComponent(level)}`)).members;
        expect(line[6].split(","), line[0]).toEqual(members.map((m: any) => m.orthid));
        expect(Number(line[5])).toBe(members.length);
      }
    }
  });

  it("gives the release's HOGs as one orthoXML document: every family, every gene in one", async () => {
    const xml = await download("/downloads/hogs.orthoxml.gz");
    const doc = parseXml(xml);
    // One top-level group per family (root HOG), every declared gene referenced exactly once.
    expect(findAll(doc, "groups")[0].children.length).toBe(served.manifest.counts.families);
    const genes = findAll(doc, "gene").map((g) => g.attrs.id);
    const refs = findAll(doc, "geneRef").map((r) => r.attrs.id);
    expect(refs.length).toBe(new Set(refs).size);
    expect(new Set(genes)).toEqual(new Set(refs));
    // The same groups as each family's own export.
    const roots = await getAllPages(`${base}/hog/?per_page=1000`);
    const one = await (await fetch(`${base}/hog/${roots[1].hog_id}/orthoxml/`)).text();
    const groupsOf = (text: string) => text.slice(text.indexOf("<groups>") + 8, text.indexOf("</groups>"));
    expect(groupsOf(xml)).toContain(groupsOf(one));
    if (hasSharedData) {
      const result = await validateXML({
        xml: [{ fileName: "hogs.orthoxml", contents: xml }],
        schema: [{ fileName: "orthoxml-0.5.xsd", contents: readFileSync(resolve(SHARED_DATA, "orthoxml-spec/orthoxml-0.5.xsd"), "utf8") }],
        maxMemoryPages: 8192,
      });
      expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
    }
  });

  it("keeps file names without a trailing slash, refuses unknown names, answers HEAD without a body", async () => {
    const g = served.manifest.genomes[0];
    expect((await fetch(`${base}/downloads/genome/${g.code}.fa.gz`, { redirect: "manual" })).status).toBe(200);
    for (const path of [`/downloads/genome/${g.code}.tsv.gz`, `/downloads/genome/${g.code}.fa`, "/downloads/genome/NOSUCH.fa.gz", `/downloads/pairs/${g.code}/NOSUCH.tsv.gz`, "/downloads/hogs/Nowhere.tsv.gz", `/downloads/hog/HOG:${served.manifest.hogPrefix}9999999.fa`]) {
      const res = await fetch(`${base}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as any).detail).toBeTruthy();
    }
    const head = await fetch(`${base}/downloads/genome/${g.code}.fa.gz`, { method: "HEAD" });
    expect([head.status, (await head.arrayBuffer()).byteLength]).toEqual([200, 0]);
  });

  it("answers one byte range of a cached file 206 from the edge cache, beyond the end 416, several ranges or a bad header whole", async () => {
    const [, , g1, g2] = served.manifest.genomes;
    // A file no other test fetches: not cached yet, so a range gets the whole file (200), stored.
    const url = `${base}/downloads/pairs/${g1.code}/${g2.code}.tsv.gz`;
    const first = await fetch(url, { headers: { Range: "bytes=0-99" } });
    expect([first.status, first.headers.get("X-Cache"), first.headers.get("Accept-Ranges"), first.headers.get("Content-Range")]).toEqual([200, "MISS", "bytes", null]);
    const whole = Buffer.from(await first.arrayBuffer());
    const size = whole.length;
    const text = gunzipSync(whole).toString("utf8");
    expect(size).toBeGreaterThan(400);
    // The copy is stored after the body is sent (waitUntil): wait for the hit.
    let cached: Response | undefined;
    for (let i = 0; i < 50 && cached?.headers.get("X-Cache") !== "HIT"; i++) {
      if (i) await new Promise((r) => setTimeout(r, 20));
      cached = await fetch(url, { method: "HEAD" });
    }
    expect(cached!.headers.get("X-Cache")).toBe("HIT");
    expect(cached!.headers.get("Accept-Ranges")).toBe("bytes");
    const same = ["Content-Type", "Content-Disposition", "ETag", "Cache-Control", "Vary", "X-Release"].map((h) => [h, cached!.headers.get(h)]);

    const ranged = async (range: string, extra: Record<string, string> = {}) => {
      const res = await fetch(url, { headers: { Range: range, ...extra } });
      return { res, body: Buffer.from(await res.arrayBuffer()) };
    };
    const mid = Math.floor(size / 2);
    const cases: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      [`bytes=100-${mid}`, 100, mid],
      [`bytes=${mid + 1}-`, mid + 1, size - 1],
      ["bytes=-100", size - 100, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    const doc = await loadSchema(base);
    const documented = (res: Response, body: Buffer) =>
      responseErrors(doc, "get", "/downloads/pairs/{genome_id1}/{file}", res.status, res.status === 416 ? JSON.parse(body.toString()) : body.toString("latin1"), {
        headers: res.headers,
        mediaType: res.status === 416 ? "application/json" : "application/gzip",
      });
    const parts: Buffer[] = [];
    for (const [range, start, end] of cases) {
      const { res, body } = await ranged(range);
      expect(documented(res, body), range).toEqual([]);
      expect(res.status, range).toBe(206);
      expect(res.headers.get("Content-Range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get("Content-Length"), range).toBe(String(end - start + 1));
      expect([res.headers.get("X-Cache"), res.headers.get("Accept-Ranges")]).toEqual(["HIT", "bytes"]);
      expect(same.map(([h]) => [h, res.headers.get(h!)]), range).toEqual(same);
      expect(body.equals(whole.subarray(start, end + 1)), range).toBe(true);
      parts.push(body);
    }
    // Consecutive ranges put back together are the file.
    expect(gunzipSync(Buffer.concat(parts.slice(0, 3))).toString("utf8")).toBe(text);

    // Beyond the end: 416 with the size.
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`]) {
      const { res, body } = await ranged(range);
      expect(res.status, range).toBe(416);
      expect(documented(res, body), range).toEqual([]);
      expect(res.headers.get("Content-Range")).toBe(`bytes */${size}`);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(JSON.parse(body.toString()).detail).toMatch(/not satisfiable/);
    }
    // Several ranges, a malformed header, another unit, an If-Range that is not the ETag: the whole file.
    for (const [range, extra] of [["bytes=0-1,5-6", {}], ["bytes=5-2", {}], ["bytes=abc", {}], ["lines=0-5", {}], ["bytes=0-9", { "If-Range": '"another"' }]] as const) {
      const { res, body } = await ranged(range, extra);
      expect([res.status, res.headers.get("Content-Range")], range).toEqual([200, null]);
      expect(body.equals(whole), range).toBe(true);
    }
    // If-Range naming the ETag lets the range apply; If-None-Match naming it comes first (304).
    const etag = cached!.headers.get("ETag")!;
    expect((await ranged("bytes=0-9", { "If-Range": etag })).res.status).toBe(206);
    expect((await ranged("bytes=0-9", { "If-None-Match": etag })).res.status).toBe(304);
    // HEAD ignores Range.
    const head = await fetch(url, { method: "HEAD", headers: { Range: "bytes=0-9" } });
    expect([head.status, head.headers.get("Content-Range")]).toEqual([200, null]);
  });

  it("ignores Range on answers other than download files", async () => {
    for (const path of ["/downloads/", "/version/"]) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}${path}`, { headers: { Range: "bytes=0-9" } });
        expect([res.status, res.headers.get("Content-Range"), res.headers.get("Accept-Ranges")], path).toEqual([200, null, null]);
        expect(((await res.text()).length)).toBeGreaterThan(10);
      }
    }
  });
});
