/**
 * Serve benchmark: a fixed, seeded request mix over every endpoint family, against the built
 * worker bundle on plain Miniflare (the packs of a simulated release in its R2 bucket) over
 * loopback, and against a floor: a one-line worker answering each request of the same mix
 * with its pre-rendered body, one R2 read each. Per family: requests/s, latency p50/p99,
 * storage reads (range reads of packs, X-Blob-Reads) and bytes per request, cold (a fresh
 * Miniflare instance: new isolate, empty isolate cache, empty Cache API) and warm (the same
 * instance, the mix repeated); and CPU per request, measured by running the same worker code
 * in-process in Node (workerd does not report CPU time) on the release folder as its storage.
 *
 * `tsx bench/serve.ts [--connections N]` runs it alone and prints the Markdown section.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { compileRelease } from "../release-compiler/compile.js";
import { LAYOUT } from "../release-compiler/write/layout.js";
import { bucketCovering, PAGE_ENTRIES, ROOT_ENTRIES } from "../release-format/directory.js";
import { simulateRelease } from "../release-compiler/simulate/simulate.js";
import {
  FORMAT_VERSION,
  chunkKey,
  packKey,
  type AnnotationRow,
  type FamilyRow,
  type GenomePairRow,
  type Manifest,
  type PairRow,
  type ProteinRow,
} from "../release-format/format.js";
import { lineage } from "../release-format/taxonomy.js";
import type { Env } from "../src/env.js";
import type { Hono } from "hono";
import { createApp } from "../src/app.js";
import type { AppEnv } from "../src/context.js";
import { folderStorage, openReleaseFolder, readManifestFile } from "../release-compiler/local/folder-storage.js";
import { createBlobCache, MAX_CACHED_BYTES } from "../src/release/blob-cache.js";
import type { Release } from "../src/release/release.js";
import type { ByteRange, ReleaseStorage } from "../src/release/storage.js";
import { chunkOf, chunksSpanned, distinctChunks, treeChunks } from "./release-size.js";
import {
  buildWorkerBundle,
  fetchEach,
  kib,
  mean,
  ms,
  openStorageServices,
  orthidOf,
  quantile,
  runLoad,
  seeded,
  segment,
  serveWorker,
  soapPart,
  soapRequest,
  type MixRequest,
  type Sample,
  type Served,
} from "./load.js";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, "build/bench");

/**
 * The simulated release: 25 genomes as in the search benchmark, with enough families that the
 * larger genomes hold over 5,000 proteins (a page of 5,000 exists): about 117,000 proteins.
 */
export const SERVE_RELEASE = { genomes: 25, families: 4000, seed: 5, name: "Bench.Serve.25x4000" };

export interface ServeBenchOptions {
  /** Concurrent keep-alive connections of the load generator (default 8). */
  connections?: number;
  /** Targets per endpoint family (default 4). */
  targets?: number;
  /** Fresh instances the cold pass runs on (default 3): more cold samples for p99. */
  coldRuns?: number;
  /** Warm load per family, in ms (default 800), and for the whole mix (default 8000). */
  familyMs?: number;
  mixMs?: number;
  /** Rounds of the in-process CPU measurement (default 3). */
  cpuRounds?: number;
  seed?: number;
}

/** What a family's storage reads are held to (the targets of the issue). */
type ReadClass = "record" | "list" | "none";

interface BenchRequest extends MixRequest {
  cls: ReadClass;
  /** List pages: data chunks the page's rows (and the rows they need) lie in. */
  spanned?: number;
}

// ---------------------------------------------------------------------------------------------
// The release

/** Builds the serve release unless one of these settings and this format is built already. */
export async function ensureServeRelease(log: (line: string) => void): Promise<string> {
  const dir = resolve(OUT, "serve");
  const stamp = resolve(dir, "serve-settings.json");
  // The layout too: chunk targets and directory fan-outs change the release without changing the format.
  const settings = JSON.stringify({ ...SERVE_RELEASE, format: FORMAT_VERSION, layout: { ...LAYOUT, PAGE_ENTRIES, ROOT_ENTRIES } });
  if (existsSync(resolve(dir, "manifest.json")) && existsSync(stamp) && readFileSync(stamp, "utf8") === settings) return dir;
  const input = resolve(OUT, "serve-input");
  log(`simulating ${SERVE_RELEASE.genomes} genomes × ${SERVE_RELEASE.families} families (first run, a few minutes)…`);
  await simulateRelease({ out: input, ...SERVE_RELEASE });
  log("compiling…");
  await compileRelease(resolve(input, "release.json"), dir);
  writeFileSync(stamp, settings);
  return dir;
}

/**
 * Release storage recording the byte ranges of packs read through it, so the mix's working set
 * is the bytes it actually reads (a pack is read by ranges, never whole).
 */
export function recordingStorage(storage: ReleaseStorage): ReleaseStorage & { bytesRead(except?: Set<string>): number } {
  const ranges = new Map<string, Array<[number, number]>>();
  return {
    async get(key: string, range?: ByteRange) {
      const bytes = await storage.get(key, range);
      if (bytes && key.startsWith("packs/")) {
        const at = range?.offset ?? 0;
        let list = ranges.get(key);
        if (!list) ranges.set(key, (list = []));
        list.push([at, at + bytes.length]);
      }
      return bytes;
    },
    /** Bytes read of every pack but `except` (keys), overlapping ranges counted once. */
    bytesRead(except = new Set<string>()) {
      let total = 0;
      for (const [key, list] of ranges) {
        if (except.has(key)) continue;
        let end = -1;
        for (const [from, to] of [...list].sort((a, b) => a[0] - b[0])) {
          if (to <= end) continue;
          total += to - Math.max(from, end);
          end = to;
        }
      }
      return total;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The mix

/**
 * The request mix: `targets` requests per endpoint family, targets drawn with a seeded
 * generator from the manifest and the release files (never from the worker, so the cold pass
 * stays cold), spread over the release so that families share few chunks.
 */
export async function serveMix(release: Release, manifest: Manifest, targets: number, seed: number): Promise<BenchRequest[]> {
  const rnd = seeded(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(list: T[]) => list[int(list.length)];
  const { genomes, tables, counts, taxonomy } = manifest;
  // The data chunks of the trees whose chunks a list page's bound counts.
  const chunks = {
    proteins: await treeChunks(release, tables.proteins.tree),
    sequences: await treeChunks(release, tables.sequences.tree),
    hogList: await treeChunks(release, tables.hogList.tree),
    pairs: await treeChunks(release, tables.pairs.tree),
    familyMembers: await treeChunks(release, tables.familyMembers.tree),
  };
  const big = genomes.filter((g) => g.nrEntries >= 5000);
  if (big.length === 0) throw new Error("the serve release has no genome of 5,000 proteins");
  const entry = () => 1 + int(counts.proteins);
  const protein = (e: number) => release.row<ProteinRow>(tables.proteins, e - 1);
  /** A protein with a HOG (most have one). */
  const inHog = async (): Promise<ProteinRow> => {
    for (;;) {
      const row = await protein(entry());
      if (row.hog) return row;
    }
  };
  const uniqueId = async (id: string, e: number) => {
    const hits = await release.lookup(manifest.indexes.entryIds, id);
    return !!hits && hits.length === 1 && hits[0] === e && !/^[0-9]{1,10}$/.test(id) && !/^[A-Z0-9]{5}[0-9]{5}$/.test(id);
  };
  const out: BenchRequest[] = [];
  const get = (family: string, cls: ReadClass, path: string, spanned?: number): void => void out.push({ family, cls, method: "GET", path, spanned });
  const times = async (n: number, make: () => Promise<unknown> | unknown) => {
    for (let i = 0; i < n; i++) await make();
  };

  // Proteins, by each kind of id.
  await times(targets, () => get("protein by entry number", "record", `/api/protein/${entry()}/`));
  await times(targets, () => get("protein by orthid", "record", `/api/protein/${orthidOf(manifest, entry())}/`));
  await times(targets, async () => {
    for (;;) {
      const row = await protein(entry());
      if (row.canonicalId && (await uniqueId(row.canonicalId, row.entry))) return void get("protein by canonical id", "record", `/api/protein/${encodeURIComponent(row.canonicalId)}/`);
    }
  });
  await times(targets, async () => {
    for (;;) {
      const e = entry();
      const annotations = await release.row<AnnotationRow>(tables.annotations, e - 1);
      const canonical = (await protein(e)).canonicalId;
      const candidates = annotations.xrefs.map(([, id]) => id).filter((id) => id !== canonical);
      const id = candidates.length ? pick(candidates) : undefined;
      if (id && (await uniqueId(id, e))) return void get("protein by cross-reference id", "record", `/api/protein/${encodeURIComponent(id)}/`);
    }
  });
  for (const [family, suffix] of [
    ["protein orthologs", "orthologs/"],
    ["protein HOG-derived orthologs", "hog_derived_orthologs/"],
    ["protein cross-references", "xref/"],
    ["protein domains", "domains/"],
    ["protein GO annotations", "gene_ontology/"],
    ["protein isoforms", "isoforms/"],
  ]) {
    await times(targets, () => get(family, "record", `/api/protein/${entry()}/${suffix}`));
  }
  // Bulk retrieve: 1000 ids of one genome (entry numbers, orthids and canonical ids mixed).
  await times(Math.max(1, Math.ceil(targets / 2)), async () => {
    const g = pick(genomes.filter((x) => x.nrEntries >= 1000));
    const chosen = new Set<number>();
    while (chosen.size < 1000) chosen.add(g.firstEntry + int(g.nrEntries));
    const entries = [...chosen];
    const ids: Array<string | number> = [];
    const leaves = new Set<string>();
    for (const [i, e] of entries.entries()) {
      if (i % 3 === 0) ids.push(e);
      else if (i % 3 === 1) ids.push(orthidOf(manifest, e));
      else {
        const row = await protein(e);
        if (row.canonicalId && (await uniqueId(row.canonicalId, e))) {
          ids.push(row.canonicalId);
          leaves.add(chunkKey(bucketCovering(manifest.indexes.entryIds.tree, row.canonicalId)!));
        } else ids.push(e);
      }
    }
    const rows = entries.map((e) => e - 1);
    out.push({
      family: "bulk retrieve, 1000 ids (POST)",
      cls: "list",
      method: "POST",
      path: "/api/protein/bulk_retrieve/",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ids }),
      spanned: distinctChunks(chunks.proteins, rows) + distinctChunks(chunks.sequences, rows) + leaves.size,
    });
  });

  // Genomes.
  get("genome list", "list", "/api/genome/", 0);
  await times(targets, () => get("genome detail", "record", `/api/genome/${pick(genomes).code}/`));
  await times(targets, () => {
    const g = pick(genomes);
    const page = 1 + int(Math.ceil(g.nrEntries / 100));
    const from = g.firstEntry - 1 + (page - 1) * 100;
    get("genome proteins, per_page 100", "list", `/api/genome/${g.code}/proteins/?page=${page}`, chunksSpanned(chunks.proteins, from, Math.min(from + 100, g.firstEntry - 1 + g.nrEntries)));
  });
  for (let i = 0; i < Math.min(targets, big.length); i++) {
    const g = big[(i * 3) % big.length];
    const from = g.firstEntry - 1;
    get("genome proteins, per_page 5000", "list", `/api/genome/${g.code}/proteins/?per_page=5000`, chunksSpanned(chunks.proteins, from, from + 5000));
  }
  await times(targets, async () => {
    const g = pick(genomes);
    const page = 1 + int(Math.ceil(g.nrGenes / 100));
    const detail = await release.genomeDetail(g);
    const genes = detail.geneRanges.flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, k) => lo + k)).slice((page - 1) * 100, page * 100);
    get("genome genes, per_page 100", "list", `/api/genome/${g.code}/genes/?page=${page}`, chunksSpanned(chunks.proteins, genes[0] - 1, genes[genes.length - 1]));
  });

  // Groups.
  await times(targets, () => get("group list", "list", `/api/group/?page=${1 + int(Math.ceil(counts.groups / 100))}`, 0));
  await times(targets, () => get("group record", "record", `/api/group/${1 + int(counts.groups)}/`));
  await times(targets, () => get("group close groups", "record", `/api/group/${1 + int(counts.groups)}/close_groups/`));

  // HOGs.
  const levels = manifest.hogLists.levels.map(([first, count], level) => ({ first, count, level })).filter((l) => l.count > 0);
  await times(targets, () => {
    const l = pick(levels.filter((x) => x.count >= 100));
    const page = 1 + int(Math.ceil(l.count / 100));
    const from = l.first + (page - 1) * 100;
    get(
      "HOG list, per_page 100",
      "list",
      `/api/hog/?level=${encodeURIComponent(taxonomy.names[l.level])}&page=${page}`,
      chunksSpanned(chunks.hogList, from, Math.min(from + 100, l.first + l.count)),
    );
  });
  const largestLevels = [...levels].sort((a, b) => b.count - a.count);
  for (let i = 0; i < Math.min(targets, largestLevels.length); i++) {
    const l = largestLevels[i];
    get(
      "HOG list, per_page 5000",
      "list",
      `/api/hog/?level=${encodeURIComponent(taxonomy.names[l.level])}&per_page=5000`,
      chunksSpanned(chunks.hogList, l.first, l.first + Math.min(5000, l.count)),
    );
  }
  await times(targets * 2, async () => {
    // No level, root, or a level of the protein's lineage its family spans.
    const row = await inHog();
    const g = manifest.genomes.find((x) => row.entry >= x.firstEntry && row.entry < x.firstEntry + x.nrEntries)!;
    const up = lineage(taxonomy, g.level);
    const choice = int(3);
    const level = choice === 0 ? "" : choice === 1 ? "?level=root" : `?level=${encodeURIComponent(taxonomy.names[up[int(Math.max(1, row.hogLevelCount))]])}`;
    get("HOG read at levels", "record", `/api/hog/${segment(row.hog)}/${level}`);
  });
  await times(targets, async () => get("HOG members", "record", `/api/hog/${segment((await inHog()).hog)}/members/`));
  // The families with the most members, whole (HOG members are not paginated); a wide family's
  // members are data chunks of their own (familyMembers), which the page spans.
  const families: Array<{ id: string; size: number; spanned: number }> = [];
  for await (const row of await release.rows<FamilyRow>(tables.families, 0, tables.families.rows)) {
    const spanned = row.members ? 0 : chunksSpanned(chunks.familyMembers, row.firstMember, row.firstMember + row.entries.length);
    families.push({ id: row.rootId, size: row.entries.length, spanned });
  }
  families.sort((a, b) => b.size - a.size);
  for (let i = 0; i < targets; i++) get("HOG members, largest families (level=root)", "list", `/api/hog/${segment(families[i].id)}/members/?level=root`, families[i].spanned);
  await times(targets, async () => get("HOG GO annotations", "record", `/api/hog/${segment(pick(families).id)}/gene_ontology/`));
  await times(targets, async () => get("HOG similar profiles", "record", `/api/hog/${segment(pick(families).id)}/similar_profile_hogs/`));
  await times(targets, async () => get("HOG orthoXML", "none", `/api/hog/${segment(pick(families).id)}/orthoxml/`));

  // Pairs: a page of 100 of two genomes' orthologs (the pairs' rows and both sides' protein rows).
  await times(targets, async () => {
    for (;;) {
      const [a, b] = [int(genomes.length), int(genomes.length)];
      if (a === b) continue;
      const [first, count] = await release.row<GenomePairRow>(tables.pairDirectory, a * genomes.length + b);
      if (count < 100) continue;
      const page = 1 + int(Math.ceil(count / 100));
      const from = first + (page - 1) * 100;
      const to = Math.min(from + 100, first + count);
      const rows: PairRow[] = [];
      for await (const r of await release.rows<PairRow>(tables.pairs, from, to)) rows.push(r);
      const proteinRows = [...new Set(rows.flatMap((r) => [r[0] - 1, r[1] - 1]))];
      return void get(
        "pairs page, per_page 100",
        "list",
        `/api/pairs/${genomes[a].code}/${genomes[b].code}/?page=${page}`,
        1 + chunksSpanned(chunks.pairs, from, to) + distinctChunks(chunks.proteins, proteinRows),
      );
    }
  });

  // Taxonomy, version, summaries.
  get("taxonomy", "record", "/api/taxonomy/");
  get("taxonomy", "record", "/api/taxonomy/?type=newick");
  await times(Math.max(1, targets - 2), () => get("taxonomy", "record", `/api/taxonomy/${pick(genomes).code}/`));
  get("version and API root", "record", "/api/version/");
  get("version and API root", "record", "/api/");
  await times(targets, () => {
    const [a, b] = [pick(genomes).code, pick(genomes).code];
    get("summary shared ancestry", "record", `/api/summary/shared_ancestry/${a}/${b}/`);
  });

  // Search (the search benchmark measures it in depth): exact sequence, cross-reference ids.
  await times(targets, async () => {
    const sequence = await release.row<string>(tables.peptides, entry() - 1);
    const at = int(Math.max(1, sequence.length - 30));
    get("sequence search, exact", "none", `/api/sequence/?search=exact&query=${sequence.slice(at, at + 30)}`);
  });
  await times(targets, async () => {
    for (;;) {
      const { xrefs } = await release.row<AnnotationRow>(tables.annotations, entry() - 1);
      const id = xrefs.length ? pick(xrefs)[1] : "";
      if (id.length < 8) continue;
      const at = int(id.length - 6);
      return void get("cross-reference search", "none", `/api/xref/?search=${encodeURIComponent(id.slice(at, at + 6))}`);
    }
  });

  // SOAP.
  const soap = (family: string, cls: ReadClass, operation: string, parts: string): void => void out.push({ ...soapRequest(family, operation, parts), cls });
  await times(targets, () => soap("SOAP GetEntry", "record", "GetEntry", soapPart.str("EntryID", orthidOf(manifest, entry()))));
  await times(targets, () => soap("SOAP ListOrthologs", "record", "ListOrthologs", soapPart.str("EntryID", orthidOf(manifest, entry()))));
  await times(targets, () => soap("SOAP GetOrthGroup", "record", "GetOrthGroup", soapPart.int("GroupNr", 1 + int(counts.groups))));
  await times(targets, async () => {
    const [a, b] = await release.row<PairRow>(tables.pairs, int(tables.pairs.rows));
    soap("SOAP TestOrthology", "record", "TestOrthology", soapPart.str("EntryID1", orthidOf(manifest, a)) + soapPart.str("EntryID2", orthidOf(manifest, b)));
  });
  await times(targets, () =>
    soap("SOAP MapIDs (20 ids)", "none", "MapIDs", soapPart.strings("InIDs", Array.from({ length: 20 }, () => orthidOf(manifest, entry()))) + soapPart.int("OutType", 1)),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Measuring

/**
 * A floor worker: each request answered with its pre-rendered body, one R2 read (key from
 * X-Mix-Key). `cached`: with an edge cache's duties, as our worker has them, each request looked
 * up in the Cache API first (keyed by its mix key, so POSTs too) and a miss stored after it is
 * answered; cold, every lookup misses, so what separates it from the plain floor is the Cache
 * API's cost.
 */
function floorWorker({ cached }: { cached: boolean }): string {
  const lookup = cached
    ? `
    const cacheKey = new Request("https://floor-cache.invalid/" + key);
    const hit = await caches.default.match(cacheKey);
    if (hit) return hit;`
    : "";
  const store = cached ? `
    if (response.status === 200) ctx.waitUntil(caches.default.put(cacheKey, response.clone()));` : "";
  return `export default {
  async fetch(request, env, ctx) {
    const key = request.headers.get("X-Mix-Key");
    if (request.body) await request.arrayBuffer(); // as the worker reads a POST body${lookup}
    const object = key === null ? null : await env.RELEASES.get("floor/" + key);
    if (object === null) return new Response("no pre-rendered answer", { status: 404 });
    const response = new Response(object.body, {
      status: Number(object.customMetadata.status),
      headers: { "Content-Type": object.httpMetadata.contentType || "application/octet-stream"${cached ? `, "Cache-Control": "public, max-age=300"` : ""} },
    });${store}
    return response;
  },
};`;
}

/** The floor (floorWorker). */
export const FLOOR_WORKER = floorWorker({ cached: false });
/** The cached floor (floorWorker): the floor plus the Cache API lookup and store our worker does. */
export const CACHED_FLOOR_WORKER = floorWorker({ cached: true });

const mixKey = (_: MixRequest, index: number) => ({ "X-Mix-Key": String(index) });

/** Fresh instances of each side on which the isolate's first request is timed alone. */
const FIRST_RUNS = 6;

interface FamilyFigures {
  cold: Sample[];
  warm: Sample[];
  warmRps: number;
  floorCold: Sample[];
  /** The cached floor's cold samples (CACHED_FLOOR_WORKER). */
  cachedFloorCold: Sample[];
  floorWarmRps: number;
  cpuCold: number[];
  cpuWarm: number[];
}

/** The mix once, family by family (each family's requests over all connections), on one instance. */
async function coldPass(origin: string, mix: BenchRequest[], byFamily: Map<string, number[]>, connections: number): Promise<Sample[]> {
  const out: Sample[] = [];
  for (const indexes of byFamily.values()) {
    const requests = indexes.map((i) => mix[i]);
    const { samples } = await runLoad({ origin, requests, connections, count: requests.length, headersOf: (_, k) => mixKey(mix[indexes[k]], indexes[k]) });
    out.push(...samples.map((s) => ({ ...s, index: indexes[s.index] })));
  }
  return out;
}

/** Each family's requests cycled for `durationMs` over all connections (after one pass unmeasured): requests/s. */
async function familyLoad(origin: string, mix: BenchRequest[], indexes: number[], connections: number, durationMs: number) {
  const requests = indexes.map((i) => mix[i]);
  const headersOf = (_: MixRequest, k: number) => mixKey(mix[indexes[k]], indexes[k]);
  await runLoad({ origin, requests, connections, count: requests.length, headersOf });
  const { samples, seconds } = await runLoad({ origin, requests, connections, durationMs, headersOf });
  return { samples: samples.map((s) => ({ ...s, index: indexes[s.index] })), rps: samples.length / seconds };
}

/** CPU ms of one request through the worker's fetch, in this process. */
async function cpuOf(worker: Hono<AppEnv>, request: MixRequest): Promise<{ ms: number; status: number }> {
  const waits: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException() {}, props: {} };
  const before = process.cpuUsage();
  const res = await worker.fetch(
    new Request(`http://bench.local${request.path}`, { method: request.method, headers: request.headers, body: request.body }),
    {} as Env,
    ctx as unknown as ExecutionContext,
  );
  await res.arrayBuffer();
  await Promise.all(waits);
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, status: res.status };
}

export async function serveBenchmark(log: (line: string) => void, options: ServeBenchOptions = {}): Promise<string> {
  const connections = options.connections ?? 8;
  const targets = options.targets ?? 4;
  const coldRuns = options.coldRuns ?? 3;
  const familyMs = options.familyMs ?? 800;
  const mixMs = options.mixMs ?? 8000;
  const cpuRounds = options.cpuRounds ?? 3;
  const seed = options.seed ?? 11;
  const started = performance.now();

  const releaseDir = await ensureServeRelease(log);
  log("bundling the worker…");
  const scriptPath = buildWorkerBundle(resolve(OUT, "serve-worker"));
  const r2Persist = resolve(OUT, "serve-r2");

  // The mix, from the release files through the worker's own release reader (in this process).
  const release = await openReleaseFolder(releaseDir);
  const { manifest } = release;
  const mix = await serveMix(release, manifest, targets, seed);
  const byFamily = new Map<string, number[]>();
  mix.forEach((r, i) => byFamily.set(r.family, [...(byFamily.get(r.family) ?? []), i]));
  log(`${mix.length} requests in ${byFamily.size} families`);

  // Load the release into the persisted bucket (once: packs there already are skipped), and
  // pre-render every answer of the mix for the floor.
  log("loading the release into Miniflare's R2 and pre-rendering the mix…");
  const rendered: Array<{ status: number; type: string; body: Buffer }> = [];
  {
    const served = await serveWorker({ scriptPath, releaseDir, r2Persist });
    try {
      await fetchEach(served.origin, mix, (i, status, body, headers) => {
        if (status !== 200) throw new Error(`${mix[i].method} ${mix[i].path.slice(0, 100)}: ${status} ${body.toString("utf8", 0, 200)}`);
        rendered[i] = { status, type: String(headers["content-type"] ?? ""), body };
      });
    } finally {
      await served.dispose();
    }
  }

  const figures = new Map<string, FamilyFigures>([...byFamily.keys()].map((f) => [f, { cold: [], warm: [], warmRps: 0, floorCold: [], cachedFloorCold: [], floorWarmRps: 0, cpuCold: [], cpuWarm: [] }]));
  const familyOf = (s: Sample) => figures.get(mix[s.index].family)!;

  // Ours and the floor side by side, alternating, so that both meet the same load of this
  // shared machine: per run a fresh instance of each and a cold pass on each (who goes first
  // alternates); on the last run's instances, each family warm on both, then the whole mix
  // in alternating slices.
  let mixSeconds = 0;
  let floorMixSeconds = 0;
  const mixWarm: Sample[] = [];
  const floorMixWarm: Sample[] = [];
  /** A floor on a fresh instance, the rendered answers of the mix (or of `only`) in its bucket. */
  const startFloor = async (script = FLOOR_WORKER, only?: number[]) => {
    const served = await serveWorker({ script });
    const floorBucket = await served.mf.getR2Bucket("RELEASES");
    for (const i of only ?? rendered.keys()) {
      const r = rendered[i];
      await floorBucket.put(`floor/${i}`, new Uint8Array(r.body), { httpMetadata: { contentType: r.type }, customMetadata: { status: String(r.status) } });
    }
    return served;
  };
  for (let run = 1; run <= coldRuns; run++) {
    log(`cold pass ${run}/${coldRuns} on fresh instances (ours, the floor and the cached floor)…`);
    const ours = await serveWorker({ scriptPath, r2Persist });
    let floor: Served | undefined;
    let cachedFloor: Served | undefined;
    try {
      floor = await startFloor();
      cachedFloor = await startFloor(CACHED_FLOOR_WORKER);
      // Every side's storage as the edge has it, running (the floors' buckets were opened loading their bodies).
      for (const served of [ours, floor, cachedFloor]) await openStorageServices(served);
      const sides = [
        async () => (await coldPass(ours.origin, mix, byFamily, connections)).forEach((s) => familyOf(s).cold.push(s)),
        async () => (await coldPass(floor!.origin, mix, byFamily, connections)).forEach((s) => familyOf(s).floorCold.push(s)),
        async () => (await coldPass(cachedFloor!.origin, mix, byFamily, connections)).forEach((s) => familyOf(s).cachedFloorCold.push(s)),
      ];
      // Who goes first rotates from run to run.
      for (let k = 0; k < sides.length; k++) await sides[(run + k) % sides.length]();
      if (run === coldRuns) {
        log("warm: each family, then the whole mix, on both…");
        for (const [family, indexes] of byFamily) {
          const f = figures.get(family)!;
          const oursFirst = indexes[0] % 2 === 0;
          if (!oursFirst) f.floorWarmRps = (await familyLoad(floor.origin, mix, indexes, connections, familyMs)).rps;
          const { samples, rps } = await familyLoad(ours.origin, mix, indexes, connections, familyMs);
          f.warm = samples;
          f.warmRps = rps;
          if (oursFirst) f.floorWarmRps = (await familyLoad(floor.origin, mix, indexes, connections, familyMs)).rps;
        }
        const slices = 4;
        for (let k = 0; k < slices; k++) {
          for (const side of k % 2 ? ["floor", "ours"] : ["ours", "floor"]) {
            const origin = side === "ours" ? ours.origin : floor.origin;
            const all = await runLoad({ origin, requests: mix, connections, durationMs: mixMs / slices, headersOf: mixKey });
            if (side === "ours") {
              mixWarm.push(...all.samples);
              mixSeconds += all.seconds;
            } else {
              floorMixWarm.push(...all.samples);
              floorMixSeconds += all.seconds;
            }
          }
        }
      }
    } finally {
      await ours.dispose();
      await floor?.dispose();
      await cachedFloor?.dispose();
    }
  }
  // The first request of a fresh isolate, alone: what opening the release and running our code
  // for the first time cost, which a cold pass's concurrent requests blur.
  log(`first requests on ${FIRST_RUNS} fresh instances of each (ours, the floor and the cached floor)…`);
  const first = mix.findIndex((r) => r.cls === "record");
  const firstMs: Record<"ours" | "floor" | "cachedFloor", number[]> = { ours: [], floor: [], cachedFloor: [] };
  for (let run = 0; run < FIRST_RUNS; run++) {
    const sides = ["ours", "floor", "cachedFloor"] as const;
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(run + k) % sides.length];
      const served = side === "ours" ? await serveWorker({ scriptPath, r2Persist }) : await startFloor(side === "floor" ? FLOOR_WORKER : CACHED_FLOOR_WORKER, [first]);
      try {
        await openStorageServices(served);
        const { method, path, headers, body } = mix[first];
        const started = performance.now();
        const res = await fetch(served.origin + path, { method, headers: { ...headers, ...mixKey(mix[first], first) }, body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`first request ${path}: ${res.status} (${side})`);
        firstMs[side].push(performance.now() - started);
      } finally {
        await served.dispose();
      }
    }
  }
  const firstP50 = (side: keyof typeof firstMs) => quantile(firstMs[side], 0.5);

  const mixRps = mixWarm.length / mixSeconds;
  const floorMixRps = floorMixWarm.length / floorMixSeconds;
  const floorErrors = [...figures.values()].flatMap((f) => f.floorCold).concat(floorMixWarm).filter((s) => s.status !== 200).length;

  // CPU: the same worker code in this process, one request at a time.
  log("CPU per request, in-process…");
  const blobCache = createBlobCache();
  const storage = recordingStorage(folderStorage(releaseDir));
  const worker = createApp({ storage: () => storage, blobCache });
  for (const request of mix) await cpuOf(worker, request); // JIT warm-up; the first pass records the ranges read
  // The mix's working set: the bytes of the pack ranges its requests read, each byte once (the
  // header, which the isolate keeps with the manifest rather than in its chunk cache, left out).
  const workingSet = storage.bytesRead(new Set([packKey(readManifestFile(releaseDir).header[0])]));
  for (let round = 0; round < cpuRounds; round++) {
    for (const request of mix) {
      blobCache.clear();
      const cold = await cpuOf(worker, request);
      const warm = await cpuOf(worker, request);
      if (cold.status !== 200 || warm.status !== 200) throw new Error(`in-process ${request.path.slice(0, 100)}: ${cold.status}/${warm.status}`);
      figures.get(request.family)!.cpuCold.push(cold.ms);
      figures.get(request.family)!.cpuWarm.push(warm.ms);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Report
  const allCold = [...figures.values()].flatMap((f) => f.cold);
  const allFloorCold = [...figures.values()].flatMap((f) => f.floorCold);
  const coldP99 = quantile(allCold.map((s) => s.ms), 0.99);
  const floorColdP99 = quantile(allFloorCold.map((s) => s.ms), 0.99);
  // The same over the single-record families alone (no long pages, bulk or search).
  const records = [...figures].filter(([family]) => mix[byFamily.get(family)![0]].cls === "record").map(([, f]) => f);
  const recordP99 = quantile(records.flatMap((f) => f.cold.map((s) => s.ms)), 0.99);
  const floorRecordP99 = quantile(records.flatMap((f) => f.floorCold.map((s) => s.ms)), 0.99);
  const cachedFloorColdP99 = quantile([...figures.values()].flatMap((f) => f.cachedFloorCold).map((s) => s.ms), 0.99);
  const cachedFloorRecordP99 = quantile(records.flatMap((f) => f.cachedFloorCold.map((s) => s.ms)), 0.99);
  const throughputRatio = mixRps / floorMixRps;
  const p99Ratio = coldP99 / floorColdP99;
  const lat = (samples: Sample[]) => `${ms(quantile(samples.map((s) => s.ms), 0.5))} / ${ms(quantile(samples.map((s) => s.ms), 0.99))}`;
  const errors = [...figures.values()].flatMap((f) => [...f.cold, ...f.warm]).concat(mixWarm).filter((s) => s.status !== 200);

  const rows1: string[] = [];
  const rows2: string[] = [];
  const failures: string[] = [];
  const counts = { record: [0, 0], list: [0, 0] };
  for (const [family, f] of figures) {
    const first = mix[byFamily.get(family)![0]];
    const maxCold = Math.max(...f.cold.map((s) => s.reads));
    const maxWarm = Math.max(...f.warm.map((s) => s.reads));
    let target = "–";
    if (first.cls !== "none") {
      // Each request within its own bound (a list page: 2 + the data chunks it spans).
      const over = f.cold.filter((s) => s.reads > (first.cls === "record" ? 3 : 2 + (mix[s.index].spanned ?? 0)));
      const ok = over.length === 0 && maxWarm === 0;
      counts[first.cls][0] += ok ? 1 : 0;
      counts[first.cls][1] += 1;
      const bound = first.cls === "record" ? "≤ 3" : `≤ 2 + ${[...new Set(byFamily.get(family)!.map((i) => mix[i].spanned))].join("/")}`;
      target = `${bound}, 0 warm: ${ok ? "met" : "**not met**"}`;
      if (!ok) {
        const worst = over.sort((a, b) => b.reads - a.reads)[0];
        failures.push(
          `${family}: ${over.length ? `cold up to ${worst.reads} reads (${mix[worst.index].path.slice(0, 80)}, bound ${first.cls === "record" ? 3 : 2 + (mix[worst.index].spanned ?? 0)})` : "cold within bound"}; warm up to ${maxWarm}`,
        );
      }
    }
    rows1.push(
      `| ${family} | ${byFamily.get(family)!.length} | ${f.warmRps.toFixed(0)} | ${(f.warmRps / f.floorWarmRps).toFixed(2)} | ${lat(f.cold)} | ${lat(f.floorCold)} | ${lat(f.cachedFloorCold)} | ${lat(f.warm)} |`,
    );
    rows2.push(
      `| ${family} | ${mean(f.cold.map((s) => s.reads)).toFixed(1)} (max ${maxCold}) | ${kib(mean(f.cold.map((s) => s.bytes)))} | ${mean(f.warm.map((s) => s.reads)).toFixed(2)} | ${kib(mean(f.cold.map((s) => s.size)))} | ${ms(quantile(f.cpuCold, 0.5))} / ${ms(quantile(f.cpuCold, 0.99))} | ${ms(quantile(f.cpuWarm, 0.5))} / ${ms(quantile(f.cpuWarm, 0.99))} | ${target} |`,
    );
  }
  const verdict = (ok: boolean) => (ok ? "**met**" : "**not met**");
  const seconds = (performance.now() - started) / 1000;
  log(`done in ${seconds.toFixed(0)} s`);
  return [
    `Release: \`npm run simulate -- --genomes ${SERVE_RELEASE.genomes} --families ${SERVE_RELEASE.families} --seed ${SERVE_RELEASE.seed}\`, compiled: ${manifest.counts.proteins.toLocaleString("en")} proteins in ${manifest.genomes.length} genomes (${manifest.genomes.filter((g) => g.nrEntries >= 5000).length} of them over 5,000), ${manifest.counts.groups.toLocaleString("en")} groups, ${manifest.counts.hogs.toLocaleString("en")} HOGs. The mix: ${mix.length} requests in ${byFamily.size} endpoint families, targets drawn with seed ${seed} from the release files. Load: ${connections} keep-alive connections on loopback (node:http), the load generator on the same 2 cores as workerd.`,
    "",
    `- **Cold**: ${coldRuns} fresh Miniflare instances (new isolate: empty isolate cache, empty Cache API; its R2 bucket and Cache API store opened from outside first, as the floor's bucket is by loading its bodies: Miniflare opens each at its first use, ~6–7 ms that the edge's running services do not cost; bench/load.ts \`openStorageServices\`), each running the mix once, family after family, each family's requests over all connections; a family may find chunks an earlier family read. **Warm**: the last instance, each family's requests cycled for ${familyMs / 1000} s after one unmeasured pass; then the whole mix cycled for ${mixMs / 1000} s in all.`,
    `- **Floor**: a one-line worker on Miniflare answering each request of the mix with its body pre-rendered by our worker, stored in R2 under one key per request (one R2 read each), measured the same way in the same run, side by side with ours: a fresh floor beside each fresh instance of ours, the two measured in turn (family by family, the whole mix in four alternating slices), so both meet the same load of this shared machine.`,
    `- **Cached floor** (cold passes only): the floor with the edge cache's duties our worker has, each request looked up in the Cache API (keyed by its mix key) and a miss stored after it is answered; cold, every lookup misses, so what separates it from the floor is what Miniflare's Cache API costs, and what separates ours from it is the release format and our code. Its fresh instance runs beside the other two, who goes first rotating.`,
    `- **CPU**: workerd does not report CPU time, so the same worker code (\`createApp\` of \`src/app.ts\`) runs in this Node process with the release folder as its storage, one request at a time, \`process.cpuUsage()\` around each (body read included), ${cpuRounds} rounds; cold = the isolate's chunk cache emptied before the request (manifest and header kept open), warm = the same request again at once. The mix reads ${kib(workingSet)} of packs (the byte ranges its requests read, each byte once, the header left out; the isolate cache holds ${kib(MAX_CACHED_BYTES)} of decoded chunks, up to ~15 times their encoded size).`,
    "",
    "**Ratios (machine-independent):**",
    "",
    `- Warm throughput, whole mix: ours ${mixRps.toFixed(0)} req/s, floor ${floorMixRps.toFixed(0)} req/s: **${throughputRatio.toFixed(2)}× the floor** (target ≥ 0.7×): ${verdict(throughputRatio >= 0.7)}.`,
    `- Cold latency p99, whole mix: ours ${ms(coldP99)} ms, floor ${ms(floorColdP99)} ms: **${p99Ratio.toFixed(2)}× the floor** (target ≤ 2×): ${verdict(p99Ratio <= 2)}.`,
    `- Cold latency p99 of the single-record families alone: ours ${ms(recordP99)} ms, floor ${ms(floorRecordP99)} ms: ${(recordP99 / floorRecordP99).toFixed(2)}× the floor.`,
    `- First request of a fresh isolate, alone (${mix[first].family}, storage opened first; medians of ${FIRST_RUNS} instances each): ours ${ms(firstP50("ours"))} ms, floor ${ms(firstP50("floor"))} ms, cached floor ${ms(firstP50("cachedFloor"))} ms: ${(firstP50("ours") / firstP50("floor")).toFixed(2)}× the floor, ${(firstP50("ours") / firstP50("cachedFloor")).toFixed(2)}× the cached floor.`,
    `- Against the cached floor (not the target's measure; how much of the gap is the Cache API in Miniflare): cold p99 ${ms(cachedFloorColdP99)} ms, ours ${(coldP99 / cachedFloorColdP99).toFixed(2)}× it; single records ${ms(cachedFloorRecordP99)} ms, ours ${(recordP99 / cachedFloorRecordP99).toFixed(2)}× it.`,
    `- Storage reads (range reads of packs, directory pages included): single-record families within ≤ 3 reads cold and 0 warm: ${counts.record[0]} of ${counts.record[1]}; list pages within ≤ 2 + data chunks spanned cold and 0 warm: ${counts.list[0]} of ${counts.list[1]}.${failures.length ? ` Not met: ${failures.join("; ")}.` : ""}`,
    `- Warm mix latency p50 / p99: ours ${lat(mixWarm)} ms, floor ${lat(floorMixWarm)} ms; storage reads per request in the warm mix: ${mean(mixWarm.map((s) => s.reads)).toFixed(2)} (${kib(mean(mixWarm.map((s) => s.bytes)))}), the mix reading ${kib(workingSet)} of packs against an isolate cache of ${kib(MAX_CACHED_BYTES)} decoded; GET answers come from the edge cache, POST answers (bulk, SOAP) too when their body repeats. Non-200 answers: ${errors.length} (ours), ${floorErrors} (floor).`,
    "",
    "| endpoint family | requests | warm req/s | × floor | cold p50 / p99 ms | floor cold p50 / p99 ms | cached floor cold p50 / p99 ms | warm p50 / p99 ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows1,
    "",
    "| endpoint family | storage reads / request, cold | bytes read / request, cold | storage reads / request, warm | response size | CPU p50 / p99 ms, cold | CPU p50 / p99 ms, warm | read target |",
    "|---|---|---|---|---|---|---|---|",
    ...rows2,
    "",
    `The serve benchmark took ${seconds.toFixed(0)} s.`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { connections: { type: "string" }, targets: { type: "string" } }, strict: true });
  serveBenchmark((line) => console.log(`[serve] ${line}`), {
    connections: values.connections ? Number(values.connections) : undefined,
    targets: values.targets ? Number(values.targets) : undefined,
  })
    .then((text) => console.log(`\n${text}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
