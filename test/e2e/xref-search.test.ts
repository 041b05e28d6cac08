/**
 * Cross-reference search (reference C.6, `GET /api/xref/?search=`) against a brute-force scan
 * of the ids in the input files: FASTA ids, the xref TSV files and UniProt flat files of the
 * simulated release, and HUMAN.xrefs.tsv of primates-chr12. The compiled search table must be
 * that scan's table row for row; random substrings of input ids (random case) must answer what
 * the scan finds; and every answer stays within the documented blob-read bound (FORMAT.md,
 * "Cross-reference search"). A copy of the simulated release compiled with a limit of 300 hits
 * has common grams, so it covers the longer grams and the 400 of a query with too many hits.
 */
import { readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { XREF_SEARCH_LAYOUT } from "../../release-compiler/write/xref-search.js";
import { entryCovering, entryRef, walkTree } from "../../release-format/directory.js";
import { SEQ_MATCH_CODES, type ChunkRef, type ChunkTree, type DirectoryPage, type KeyIndexLeaf, type XrefGram, type XrefSearchRow } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { checkResponse, loadSchema, type OpenApiDocument } from "../openapi-check.js";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { parseFasta, parseTsv } from "./oracle.js";
import { serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the xref search tests on the real primates-chr12 release");

const SIM_INPUT = resolve(TEST_BUILD, "sim-input");
const UNIPROT_SOURCES = new Set(["UniProtKB/SwissProt", "UniProtKB/TrEMBL", "UniProtKB"]);
const UNIPROT_HEADER = /^(sp|tr)\|([^|]+)\|([^|]+)$/;

/** One searchable id of an entry, as the scan sees it. */
interface Searchable {
  id: string;
  lower: string;
  source: string;
  seqMatch: string;
  entry: number;
  code: string;
  orthid: string;
}

interface Inputs {
  speciesInfo: string;
  proteome: (code: string) => string;
  xrefs: string[];
  uniprot: string[];
}

/** UniProt flat file entries: entry name, reviewed, accessions, DR `[database, id]` (GO left out, as the compiler does). */
function parseUniProt(text: string) {
  const entries: Array<{ name: string; reviewed: boolean; accessions: string[]; refs: Array<[string, string]> }> = [];
  let e: (typeof entries)[number] | undefined;
  for (const line of text.split("\n")) {
    const code = line.slice(0, 2);
    const rest = line.slice(5);
    if (code === "ID") {
      const [name, status] = rest.trim().split(/\s+/);
      e = { name, reviewed: (status ?? "").startsWith("Reviewed"), accessions: [], refs: [] };
      entries.push(e);
    } else if (code === "AC" && e) e.accessions.push(...rest.split(";").map((a) => a.trim()).filter(Boolean));
    else if (code === "DR" && e) {
      const fields = rest.trim().replace(/\s\[[^\]]+\]$/, "").replace(/\.$/, "").split(";").map((f) => f.trim());
      if (fields[0] !== "GO") e.refs.push([fields[0], fields[1]]);
    }
  }
  return entries;
}

/**
 * Every searchable (id, entry) of a release from its input files: the canonical id (source
 * `SourceID`), the orthid (source `orthid`) and every cross-reference, one per (id, entry) with
 * the source that sorts first; sorted as the compiled table, by (lower-cased id, id, entry).
 */
function scanInputs(inputs: Inputs): { rows: Searchable[]; inputIds: string[] } {
  const inputIds: string[] = [];
  const entries: Array<{ canonical: string; code: string; orthid: string; xrefs: Array<[string, string]>; seen: Set<string> }> = [];
  const byInputId = new Map<string, number>();
  const byAlias = new Map<string, number | null>();
  const alias = (id: string, entry: number) => {
    const known = byAlias.get(id);
    byAlias.set(id, known === undefined || known === entry ? entry : null);
  };
  for (const row of parseTsv(readFileSync(inputs.speciesInfo, "utf8"))) {
    let i = 0;
    for (const id of parseFasta(readFileSync(inputs.proteome(row.Name), "utf8")).keys()) {
      const entry = entries.length + 1;
      const m = UNIPROT_HEADER.exec(id);
      entries.push({ canonical: m ? m[2] : id, code: row.Name, orthid: `${row.Name}${String(++i).padStart(5, "0")}`, xrefs: [], seen: new Set() });
      byInputId.set(id, entry);
      inputIds.push(id);
    }
  }
  entries.forEach((e, i) => alias(e.canonical, i + 1));
  const resolveId = (id: string) => byInputId.get(id) ?? byAlias.get(id) ?? undefined;
  const addXref = (entry: number, source: string, id: string) => {
    const e = entries[entry - 1];
    if (e.seen.has(`${source}\t${id}`)) return;
    e.seen.add(`${source}\t${id}`);
    e.xrefs.push([source, id]);
    alias(id, entry);
    inputIds.push(id);
  };
  for (const file of inputs.xrefs) {
    for (const row of parseTsv(readFileSync(file, "utf8"))) {
      const entry = resolveId(row.protein_id);
      if (entry !== undefined && row.source !== "Description") addXref(entry, row.source, row.xref);
    }
  }
  for (const file of inputs.uniprot) {
    for (const u of parseUniProt(readFileSync(file, "utf8"))) {
      const entry = [...u.accessions, u.name].map(resolveId).find((e) => e !== undefined);
      if (entry === undefined) continue;
      const db = u.reviewed ? "UniProtKB/SwissProt" : "UniProtKB/TrEMBL";
      for (const acc of u.accessions) addXref(entry, db, acc);
      addXref(entry, db, u.name);
      for (const [database, id] of u.refs) addXref(entry, database, id);
    }
  }

  const rows: Searchable[] = [];
  entries.forEach((e, i) => {
    const fromUniProtRecord = e.xrefs.some(([source, id]) => UNIPROT_SOURCES.has(source) && id === e.canonical);
    const ids = new Map<string, Searchable>();
    const add = (id: string, source: string, seqMatch: string) => {
      const known = ids.get(id);
      if (!known || source < known.source) ids.set(id, { id, lower: id.toLowerCase(), source, seqMatch, entry: i + 1, code: e.code, orthid: e.orthid });
    };
    add(e.canonical, "SourceID", "exact");
    add(e.orthid, "orthid", "exact");
    for (const [source, id] of e.xrefs) add(id, source, fromUniProtRecord && UNIPROT_SOURCES.has(source) ? "exact" : "unchecked");
    rows.push(...ids.values());
  });
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => cmp(a.lower, b.lower) || cmp(a.id, b.id) || a.entry - b.entry);
  return { rows, inputIds };
}

/** What the scan answers: too many, or the hits sorted by (xref, entry_nr). */
function scan(rows: Searchable[], query: string, maxHits: number): { tooMany: true } | { tooMany: false; hits: Searchable[] } {
  const needle = query.toLowerCase();
  if (Array.from(query).length < 3 || Array.from(needle).length < 3) return { tooMany: false, hits: [] };
  const hits = rows.filter((r) => r.lower.includes(needle));
  if (hits.length > maxHits) return { tooMany: true };
  return { tooMany: false, hits: hits.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.entry - b.entry)) };
}

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random substrings (3 to 14 characters) of random input ids, in random case. */
function randomQueries(ids: string[], n: number, seed: number): string[] {
  const rnd = random(seed);
  const pool = ids.filter((id) => Array.from(id).length >= 3);
  const out: string[] = [];
  while (out.length < n) {
    const id = Array.from(pool[Math.floor(rnd() * pool.length)]);
    const length = 3 + Math.floor(rnd() * (Math.min(14, id.length) - 2));
    const start = Math.floor(rnd() * (id.length - length + 1));
    out.push(id.slice(start, start + length).map((c) => (rnd() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join(""));
  }
  return out;
}

/**
 * The compiled search table and gram leaves, read from the release files as the worker reads
 * them (the release opened here, apart from the served one, to find the chunks of a lookup).
 */
async function compiledIndex(dir: string) {
  const release = await openReleaseFolder(dir);
  const ref = release.manifest.xrefSearch;
  const rows: XrefSearchRow[] = [];
  for await (const row of await release.rows(ref.rows, 0, ref.rows.rows)) rows.push(row);
  const leafRefs: ChunkRef[] = [];
  await walkTree(ref.grams.tree, (page) => release.chunk<DirectoryPage>(page), (chunk, isPage) => void (isPage || leafRefs.push(chunk)));
  const grams: Array<readonly [string, XrefGram]> = [];
  for (const leafRef of leafRefs) {
    const leaf = await release.chunk<KeyIndexLeaf<XrefGram>>(leafRef);
    grams.push(...leaf.keys.map((k, i) => [k, leaf.values[i]] as const));
  }
  expect(rows.length).toBe(ref.rows.rows);
  expect(grams.length).toBe(ref.grams.keys);
  return { ref, release, rows, grams: new Map(grams) };
}

/**
 * The chunks (by hash) a lookup of `key` in a tree reads: the directory pages below the root on
 * its way down, then the chunk covering the key.
 */
async function chunksOnPath<Start extends number | string>(release: Release, tree: ChunkTree<Start>, key: Start): Promise<string[]> {
  const out: string[] = [];
  let page = tree.root;
  for (;;) {
    const i = entryCovering(page, key);
    if (i < 0) return out;
    const ref = entryRef(page, i);
    out.push(ref[3]);
    if (page.level === 0) return out;
    page = await release.chunk<DirectoryPage<Start>>(ref);
  }
}

/**
 * The documented bound on the reads of a query: the gram leaves holding the grams its three
 * probes (at the start, middle and end of the query) may look up, 3 to `maxGram` characters
 * (and the directory pages on the way to any gram of the query, when the gram tree has pages);
 * plus the row chunks of the candidates (and their pages), which are among the rows holding
 * every gram with postings that the probes end on (all rows when none does). Each chunk counts
 * once: a chunk is read at most once per request, and adjacent ones may share a range read.
 */
async function readBound(index: CompiledIndex, rows: Searchable[], query: string): Promise<number> {
  const { ref, release, grams } = index;
  const q = Array.from(query.toLowerCase());
  if (q.length < 3 || Array.from(query).length < 3) return 0;
  const last = q.length - 3;
  const starts = [...new Set([0, Math.floor(last / 2), last])];
  const chunks = new Set<string>();
  const add = (hashes: string[]) => hashes.forEach((h) => chunks.add(h));
  if (ref.grams.tree.depth > 1) {
    // Every lookup walks the pages, also those of the starts between the probes.
    for (let s = 0; s <= last; s++) {
      for (let k = 3; k <= Math.min(ref.maxGram, q.length - s); k++) add((await chunksOnPath(release, ref.grams.tree, q.slice(s, s + k).join(""))).slice(0, -1));
    }
  }
  const found: string[] = [];
  for (const s of starts) {
    for (let k = 3; k <= Math.min(ref.maxGram, q.length - s); k++) {
      const gram = q.slice(s, s + k).join("");
      add(await chunksOnPath(release, ref.grams.tree, gram));
      const entry = grams.get(gram);
      if (!entry) break;
      if (entry[1] !== null) {
        found.push(gram);
        break;
      }
    }
  }
  for (let i = 0; i < rows.length; i++) {
    if (found.every((g) => rows[i].lower.includes(g))) add(await chunksOnPath(release, ref.rows.tree, i));
  }
  return chunks.size;
}

type CompiledIndex = Awaited<ReturnType<typeof compiledIndex>>;

/** The answer the interface expects for a scan's hits. */
function rendered(served: ServedRelease, hits: Searchable[]) {
  const genomes = new Map(served.manifest.genomes.map((g) => [g.code, g]));
  return hits.map((h) => {
    const g = genomes.get(h.code)!;
    return {
      xref: h.id,
      source: h.source,
      seq_match: h.seqMatch,
      entry_nr: h.entry,
      orthid: h.orthid,
      genome: { code: g.code, taxon_id: g.taxonId, species: g.species, genome_url: `${served.base}/genome/${g.code}/` },
    };
  });
}

interface Asked {
  status: number;
  body: any;
  reads: number;
}

async function ask(served: ServedRelease, query: string | undefined): Promise<Asked> {
  const url = query === undefined ? `${served.base}/xref/` : `${served.base}/xref/?search=${encodeURIComponent(query)}`;
  const res = await fetch(url, { redirect: "manual" });
  const text = await res.text();
  expect(res.headers.get("Content-Type"), url).toBe("application/json");
  return { status: res.status, body: JSON.parse(text), reads: Number(res.headers.get("X-Blob-Reads")) };
}

/**
 * Blob reads of a query on a cold isolate: the worker is restarted first (a fresh isolate with
 * an empty blob cache; the bucket keeps the release). The origin changes with the restart, so
 * these run last in a block.
 */
async function coldReads(served: ServedRelease, query: string): Promise<number> {
  await served.mf.setOptions({ modules: true, scriptPath: resolve(TEST_BUILD, "worker/index.js"), compatibilityDate: "2026-04-26", r2Buckets: ["RELEASES"] });
  const res = await fetch(`${(await served.mf.ready).origin}/api/xref/?search=${encodeURIComponent(query)}`);
  await res.arrayBuffer();
  expect(res.status, query).toBe(200);
  return Number(res.headers.get("X-Blob-Reads"));
}

/**
 * Checks queries against the scan: the same hits, or 400 with the list body when the scan finds
 * more than the limit; and each answer within the read bound. A 400 where the scan finds fewer
 * is the one documented approximation: a query longer than `maxGram` whose every probe ends on
 * a common gram of `maxGram` characters; those are returned.
 */
async function checkQueries(served: ServedRelease, rows: Searchable[], index: CompiledIndex, queries: string[]): Promise<string[]> {
  const { grams } = index;
  const { maxHits, maxGram } = served.manifest.xrefSearch;
  const approximated: string[] = [];
  for (const query of queries) {
    const expected = scan(rows, query, maxHits);
    const got = await ask(served, query);
    expect(got.reads, `${query}: blob reads`).toBeLessThanOrEqual(await readBound(index, rows, query));
    if (got.status === 400) {
      expect(got.body, query).toEqual([`Query too unspecific. Matches >${maxHits} elements`]);
      if (!expected.tooMany) {
        const q = Array.from(query.toLowerCase());
        const last = q.length - 3;
        const starts = [...new Set([0, Math.floor(last / 2), last])];
        expect(q.length, `${query}: 400, but the scan finds ${expected.hits.length}`).toBeGreaterThan(maxGram);
        for (const s of starts) {
          const tail = q.slice(s, s + maxGram).join("");
          expect(tail.length === maxGram && grams.get(tail)?.[1] === null, `${query}: 400, but the probe at ${s} has postings`).toBe(true);
        }
        approximated.push(query);
      }
      continue;
    }
    expect(got.status, query).toBe(200);
    expect(expected.tooMany, `${query}: the scan finds more than ${maxHits}`).toBe(false);
    if (!expected.tooMany) expect(got.body, query).toEqual(rendered(served, expected.hits));
  }
  return approximated;
}

describe("xref search on the simulated release", () => {
  let served: ServedRelease;
  let scanned: ReturnType<typeof scanInputs>;
  let index: CompiledIndex;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    served = await serveRelease("sim");
    scanned = scanInputs({
      speciesInfo: resolve(SIM_INPUT, "species_info.tsv"),
      proteome: (code) => resolve(SIM_INPUT, "proteome", `${code}.fa`),
      xrefs: [resolve(SIM_INPUT, "annotations/xrefs.tsv")],
      uniprot: [resolve(SIM_INPUT, "annotations/uniprot.txt")],
    });
    index = await compiledIndex(resolve(TEST_BUILD, "sim"));
    doc = await loadSchema(served.base);
  });
  afterAll(() => served?.dispose());

  it("compiles the search table the scan of the inputs gives, row for row", () => {
    const { ref, rows } = index;
    expect(ref.maxHits).toBe(20_000);
    expect(rows.map(([id, source, entry, seqMatch]) => [id, ref.sources[source], entry, SEQ_MATCH_CODES[seqMatch]])).toEqual(
      scanned.rows.map((r) => [r.id, r.source, r.entry, r.seqMatch]),
    );
  });

  it("reads little on a cold isolate for a specific id", async () => {
    // The first request of this release: nothing is cached yet.
    const id = scanned.rows[Math.floor(scanned.rows.length / 3)].id;
    const got = await ask(served, id);
    expect(got.status).toBe(200);
    expect(got.reads).toBeGreaterThan(0);
    expect(got.reads).toBeLessThanOrEqual(await readBound(index, scanned.rows, id));
    expect(got.reads).toBeLessThanOrEqual(6);
  });

  it("answers random substrings of input ids, in any case, as the scan does", async () => {
    const queries = randomQueries(scanned.inputIds, 250, 11);
    expect(await checkQueries(served, scanned.rows, index, queries)).toEqual([]);
  });

  it("answers broad queries in full, sorted by (xref, entry_nr), one item per (xref, entry_nr)", async () => {
    const queries = ["SIM", "sim", "_HUMAN", "np_00", "IPR", "pf0", "HUMAN", "000", "SIMF1", "orthid", "sourceid"];
    expect(await checkQueries(served, scanned.rows, index, queries)).toEqual([]);
    const all = (await ask(served, "SIM")).body;
    expect(all.length).toBeGreaterThan(1000);
    checkResponse(doc, "GET", "/xref/", 200, all);
    // Orthids and canonical ids are searchable under their own sources.
    const human = (await ask(served, "HUMAN00001")).body;
    expect(human).toContainEqual(expect.objectContaining({ xref: "HUMAN00001", source: "orthid", seq_match: "exact", entry_nr: 1 }));
    // An id that two sources of one entry name is listed once, under the source that sorts first.
    const keys = all.map((h: any) => `${h.xref}\t${h.entry_nr}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("lists each hit as the protein's own xref endpoint does", async () => {
    const hits = (await ask(served, "simf10")).body as any[];
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits.filter((_, i) => i % 7 === 0).slice(0, 12)) {
      const own = (await (await fetch(`${served.base}/protein/${h.entry_nr}/xref/`)).json()) as any[];
      const { genome, ...item } = h;
      if (h.source === "orthid") expect(item.xref).toBe(h.orthid);
      else expect(own).toContainEqual(item);
      expect(genome.code).toBe(h.orthid.slice(0, 5));
    }
  });

  it("answers [] for a missing or short search, and takes unicode and regex characters literally", async () => {
    for (const q of [undefined, "", "S", "SI", "a💥", "💥💥", "  "]) {
      const got = await ask(served, q);
      expect([got.status, got.body, got.reads], String(q)).toEqual([200, [], 0]);
    }
    const literal = ["1.1", "0.2", ".10", ".*", "...", "(.*)", "^SIM", "SIM$", "a|b", "[a-z]", "\\d+", "S.M", "%25", "+++", "ÄÖÜ", "İSIM", "sim💥", "😀😀😀", "simf%", " SIM"];
    expect(await checkQueries(served, scanned.rows, index, literal)).toEqual([]);
    // `.` is a character, not a wildcard: Gene3D ids hold `1.1`, but `S.M` matches nothing.
    expect((await ask(served, "1.1")).body.length).toBeGreaterThan(0);
    expect((await ask(served, "S.M")).body).toEqual([]);
  });

  it("follows the conventions: format=api, HEAD, OPTIONS, 405, the redirect to the slashed path", async () => {
    const api = (await (await fetch(`${served.base}/xref/?search=A3R9C7&format=api`)).json()) as any[];
    expect(api.length).toBeGreaterThan(0);
    for (const h of api) expect(h.genome.genome_url).toBe(`${served.base}/genome/${h.genome.code}/?format=api`);
    const head = await fetch(`${served.base}/xref/?search=SIM`, { method: "HEAD" });
    expect([head.status, await head.text(), head.headers.get("Content-Type"), head.headers.get("Allow")]).toEqual([200, "", "application/json", "GET, HEAD, OPTIONS"]);
    const options = await fetch(`${served.base}/xref/`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("Allow"), ((await options.json()) as { name: string }).name]).toEqual([200, "GET, HEAD, OPTIONS", "Xref Search"]);
    const post = await fetch(`${served.base}/xref/?search=SIM`, { method: "POST" });
    expect([post.status, await post.json()]).toEqual([405, { detail: 'Method "POST" not allowed.' }]);
    const bare = await fetch(`${served.base}/xref?search=SIM`, { redirect: "manual" });
    await bare.arrayBuffer();
    expect([bare.status, bare.headers.get("Location")]).toEqual([301, "/api/xref/?search=SIM"]);
  });

  it("stays within the bound on a cold isolate: a few reads for a whole id", async () => {
    for (const id of ["SIMHUMANP000001", "A3R9C7", "Y0000_HUMAN", "NP_001004711.2", "SIMF16A", "IPR002048", "HUMAN00042"]) {
      const reads = await coldReads(served, id);
      expect(reads, id).toBeGreaterThan(0);
      expect(reads, id).toBeLessThanOrEqual(Math.min(5, await readBound(index, scanned.rows, id)));
    }
    for (const q of ["SIM", "np_00", "0.2", "humanp0001"]) expect(await coldReads(served, q), q).toBeLessThanOrEqual(await readBound(index, scanned.rows, q));
  });
});

describe("xref search on a release compiled with a limit of 300 hits", () => {
  const LIMIT = 300;
  let served: ServedRelease;
  let scanned: ReturnType<typeof scanInputs>;
  let index: CompiledIndex;
  let doc: OpenApiDocument;
  const dir = resolve(TEST_BUILD, "xref-narrow");

  beforeAll(async () => {
    const saved = XREF_SEARCH_LAYOUT.maxHits;
    XREF_SEARCH_LAYOUT.maxHits = LIMIT;
    try {
      rmSync(dir, { recursive: true, force: true });
      await compileRelease(resolve(SIM_INPUT, "release.json"), dir);
    } finally {
      XREF_SEARCH_LAYOUT.maxHits = saved;
    }
    served = await serveRelease("xref-narrow");
    scanned = scanInputs({
      speciesInfo: resolve(SIM_INPUT, "species_info.tsv"),
      proteome: (code) => resolve(SIM_INPUT, "proteome", `${code}.fa`),
      xrefs: [resolve(SIM_INPUT, "annotations/xrefs.tsv")],
      uniprot: [resolve(SIM_INPUT, "annotations/uniprot.txt")],
    });
    index = await compiledIndex(dir);
    doc = await loadSchema(served.base);
  });
  afterAll(async () => {
    await served?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has common grams, extended up to maxGram, and no postings list longer than the limit", () => {
    const { ref, grams } = index;
    expect(ref.maxHits).toBe(LIMIT);
    const common = [...grams].filter(([, [, postings]]) => postings === null);
    expect(common.length).toBeGreaterThan(0);
    expect(common.every(([, [count]]) => count > LIMIT)).toBe(true);
    expect([...grams].filter(([, [, p]]) => p !== null).every(([, [count]]) => count <= LIMIT)).toBe(true);
    expect(Math.max(...[...grams.keys()].map((k) => Array.from(k).length))).toBe(ref.maxGram);
    // Every extension of a common gram: a common gram of fewer than maxGram characters has longer grams below it.
    for (const [gram] of common) if (Array.from(gram).length < ref.maxGram) expect([...grams.keys()].some((k) => k.length > gram.length && k.startsWith(gram)), gram).toBe(true);
  });

  it("answers 400 with the list body when more than the limit match, exactly as the scan counts", async () => {
    for (const q of ["SIM", "simf", "np_0", "IPR"]) {
      expect(scan(scanned.rows, q, LIMIT).tooMany, q).toBe(true);
      const got = await ask(served, q);
      expect(got, q).toEqual({ status: 400, body: [`Query too unspecific. Matches >${LIMIT} elements`], reads: expect.any(Number) });
      checkResponse(doc, "GET", "/xref/", 400, got.body);
    }
  });

  it("answers random substrings as the scan does, across common and rare grams", async () => {
    const queries = [...randomQueries(scanned.inputIds, 250, 23), "SIMHUMANP0001", "simhumanp000", "SIMF16", "simf16a", "np_0012", "HUMAN0012"];
    const approximated = await checkQueries(served, scanned.rows, index, queries);
    // The approximation stays rare: long queries made only of common 6-grams.
    expect(approximated.length).toBeLessThanOrEqual(3);
  });
});

describe.runIf(hasSharedData)("xref search on primates-chr12", () => {
  let served: ServedRelease;
  let scanned: ReturnType<typeof scanInputs>;
  let index: CompiledIndex;
  const dir = data("primates-chr12");

  beforeAll(async () => {
    served = await serveRelease("primates");
    scanned = scanInputs({
      speciesInfo: resolve(dir, "species_info.tsv"),
      proteome: (code) => resolve(dir, "proteome", `${code}.fa`),
      xrefs: [resolve(dir, "annotations/HUMAN.xrefs.tsv")],
      uniprot: [],
    });
    index = await compiledIndex(resolve(TEST_BUILD, "primates"));
  });
  afterAll(() => served?.dispose());

  it("compiles the search table the scan of the inputs gives", () => {
    const { ref, rows } = index;
    expect(rows.map(([id, source, entry, seqMatch]) => [id, ref.sources[source], entry, SEQ_MATCH_CODES[seqMatch]])).toEqual(
      scanned.rows.map((r) => [r.id, r.source, r.entry, r.seqMatch]),
    );
  });

  it("answers random substrings of input ids as the scan does", async () => {
    const queries = [...randomQueries(scanned.inputIds, 200, 5), "ENSG00000120645", "rad52", "NM_00", "ens", "000", "HUMAN00042"];
    expect(await checkQueries(served, scanned.rows, index, queries)).toEqual([]);
  });

  it("stays within the bound on a cold isolate: a few reads for a whole id", async () => {
    for (const id of ["ENSG00000120645", "ENSG00000120645.12", "RAD52", "B7Z2G8", "HUMAN00042", "ENSPTRG00000023122"]) {
      const reads = await coldReads(served, id);
      expect(reads, id).toBeGreaterThan(0);
      expect(reads, id).toBeLessThanOrEqual(Math.min(5, await readBound(index, scanned.rows, id)));
    }
    for (const q of ["ens", "0645", "G000001"]) expect(await coldReads(served, q), q).toBeLessThanOrEqual(await readBound(index, scanned.rows, q));
  });
});
