/**
 * Bounded soak (`npm run soak [-- --seconds N --connections N --control-seconds N --no-write]`,
 * default 5 minutes, 32 connections, then a 60-second memory control): the built worker bundle on plain Miniflare with the demo release in its R2,
 * loaded over loopback with a fixed mix of endpoints, failing ones included (unknown ids,
 * bad parameters, wrong methods, SOAP faults, bad bulk bodies). Before the load, one
 * sequential pass records each request's reference answer (status, body hash, key headers),
 * a subset checked against independent expectations; under load every answer must equal its
 * reference exactly. The workerd process's memory is sampled throughout, and afterwards that of
 * a trivial worker under the same load (workerd's own growth). The figures go into
 * BENCHMARKS.md as its `## Soak` section; the exit status is non-zero on any mismatch or
 * unexpected error.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ensureDemoRelease } from "../release-compiler/local/start.js";
import type { AnnotationRow, FamilyRow, GroupRow, PairRow, ProteinRow } from "../release-format/format.js";
import { openReleaseFolder, readManifestFile } from "../release-compiler/local/folder-storage.js";
import {
  buildWorkerBundle,
  fetchEach,
  machineLine,
  mean,
  ms,
  orthidOf,
  quantile,
  rssBytes,
  runLoad,
  seeded,
  segment,
  serveWorker,
  soapPart,
  soapRequest,
  type MixRequest,
} from "./load.js";

const ROOT = resolve(import.meta.dirname, "..");

/** Headers an answer must repeat exactly (besides status and body); timing and storage-cost headers vary. */
export const KEY_HEADERS = ["content-type", "x-total-count", "link", "allow", "location", "vary", "cache-control", "etag", "x-release"];

/** What a reference answer must satisfy, independently of the worker: an error message, or undefined. */
type Check = (status: number, body: Buffer, headers: IncomingHttpHeaders) => string | undefined;

export interface SoakRequest extends MixRequest {
  check?: Check;
}

export interface Reference {
  status: number;
  /** SHA-256 of the body, hex. */
  hash: string;
  size: number;
  headers: Record<string, string>;
}

export interface SoakOptions {
  /** The served worker: `http://127.0.0.1:PORT` (a fresh instance: the reference pass runs cold). */
  origin: string;
  /** The release it serves (the compiled folder): targets are drawn from its files. */
  releaseDir: string;
  seconds: number;
  connections: number;
  /** The workerd process, for memory samples (none taken without it). */
  pid?: number;
  /** Memory sample interval (default 5 s, or seconds/20 for short soaks). */
  sampleEveryMs?: number;
  seed?: number;
  /** Alters the recorded references before the load: a test proves the checker catches a wrong answer. */
  tamper?: (references: Reference[], requests: SoakRequest[]) => void;
  log?: (line: string) => void;
}

export interface MemoryFigures {
  /** `[seconds since the load started, RSS bytes, requests answered by then]`. */
  samples: Array<[number, number, number]>;
  start?: number;
  end?: number;
  max?: number;
  /** Mean RSS over the first window after warm-up and over the last window, and the windows' length (s). */
  firstMean?: number;
  lastMean?: number;
  window?: number;
  warmup?: number;
  /** Last window within 15% of the first; undefined without samples. */
  stable?: boolean;
  /** RSS growth after warm-up, MiB per 10,000 requests (least squares over the samples). */
  perTenThousand?: number;
  /** The same figure for a trivial worker (one small R2 read per request) on Miniflare under the same load (see memoryControl). */
  control?: { requests: number; seconds: number; perTenThousand?: number; start?: number; end?: number };
}

/** Samples a process's RSS every `everyMs` with the requests answered so far, until stopped. */
function watchMemory(pid: number | undefined, everyMs: number, answered: () => number) {
  const samples: Array<[number, number, number]> = [];
  const started = performance.now();
  const sample = () => {
    const rss = pid === undefined ? undefined : rssBytes(pid);
    if (rss !== undefined) samples.push([(performance.now() - started) / 1000, rss, answered()]);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return samples;
    },
  };
}

/** MiB of RSS growth per 10,000 requests over the samples after `warmup` seconds (least squares). */
function growthPerTenThousand(samples: Array<[number, number, number]>, warmup: number): number | undefined {
  const points = samples.filter(([t]) => t >= warmup).map(([, b, n]) => [n, b / 2 ** 20]);
  if (points.length < 3) return undefined;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? undefined : (points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx) * 10_000;
}

/** The control worker: one small R2 read per request, answered as is (the floor's shape). */
const CONTROL_WORKER = `export default {
  async fetch(request, env) {
    const object = await env.RELEASES.get("control");
    return new Response(object.body, { headers: { "Content-Type": "application/json" } });
  },
};`;

/**
 * The memory control: a worker answering each request with a small R2 object, on its own
 * Miniflare instance under the same connections for `seconds`, its workerd RSS sampled the
 * same way. workerd's RSS on Miniflare grows under load even for such a worker (and for one
 * not touching R2 at all), so the soak's figure is read against this one.
 */
export async function memoryControl(seconds: number, connections: number): Promise<NonNullable<MemoryFigures["control"]>> {
  const served = await serveWorker({ script: CONTROL_WORKER });
  try {
    await (await served.mf.getR2Bucket("RELEASES")).put("control", new Uint8Array(Buffer.from(JSON.stringify({ control: "x".repeat(2000) }))));
    let answered = 0;
    const watch = watchMemory(served.pid, Math.min(5000, Math.max(500, (seconds * 1000) / 20)), () => answered);
    const result = await runLoad({
      origin: served.origin,
      requests: [{ family: "control", method: "GET", path: "/" }],
      connections,
      durationMs: seconds * 1000,
      onResponse: () => void answered++,
    });
    const samples = watch.stop();
    return {
      requests: result.samples.length,
      seconds: result.seconds,
      perTenThousand: growthPerTenThousand(samples, Math.min(30, seconds * 0.1)),
      start: samples[0]?.[1],
      end: samples[samples.length - 1]?.[1],
    };
  } finally {
    await served.dispose();
  }
}

export interface SoakResult {
  /** Distinct requests in the mix, and how many of them answer an error by design. */
  distinct: number;
  failing: number;
  /** Requests with a body their answer does not need (the worker drains it). */
  closing: number;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers differing from their reference (status, body or a key header). */
  mismatches: number;
  /** Requests failing below HTTP, and 5xx answers where the reference had none. */
  unexpectedErrors: number;
  connectionErrors: number;
  /** Requests sent again on a fresh connection after a reused one was found closed (load.ts). */
  retries: number;
  /** Reference answers failing their independent check (each a message). */
  referenceFailures: string[];
  /** The first few mismatches, described. */
  mismatchExamples: string[];
  byStatus: Record<string, number>;
  memory: MemoryFigures;
  ok: boolean;
}

const STABLE_GROWTH = 0.15;

// ---------------------------------------------------------------------------------------------
// Checks

const parse = (body: Buffer): any => {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
};
/** Status and JSON `detail`. */
const error =
  (status: number, detail: string | RegExp): Check =>
  (s, body) => {
    if (s !== status) return `status ${s}, expected ${status}`;
    const got = parse(body)?.detail;
    const ok = typeof detail === "string" ? got === detail : typeof got === "string" && detail.test(got);
    return ok ? undefined : `detail ${JSON.stringify(got)}, expected ${detail}`;
  };
const json =
  (test: (value: any, headers: IncomingHttpHeaders) => string | undefined): Check =>
  (s, body, headers) => {
    if (s !== 200) return `status ${s}, expected 200`;
    if (!/^application\/json/.test(String(headers["content-type"]))) return `Content-Type ${headers["content-type"]}`;
    const value = parse(body);
    return value === undefined ? "body is not JSON" : test(value, headers);
  };
const equal = (what: string, got: unknown, expected: unknown) => (got === expected ? undefined : `${what} ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
/** A page of a paginated list: its length follows from X-Total-Count, page and per_page. */
const page = (pageNr: number, perPage: number, total?: number): Check =>
  json((list, headers) => {
    if (!Array.isArray(list)) return "not a list";
    const count = Number(headers["x-total-count"]);
    if (total !== undefined && count !== total) return `X-Total-Count ${count}, expected ${total}`;
    return equal("page length", list.length, Math.max(0, Math.min(perPage, count - (pageNr - 1) * perPage)));
  });
const soapOk =
  (operation: string, ...contains: string[]): Check =>
  (s, body, headers) => {
    const text = body.toString("utf8");
    if (s !== 200) return `status ${s}, expected 200`;
    if (!/^text\/xml/.test(String(headers["content-type"]))) return `Content-Type ${headers["content-type"]}`;
    if (!text.includes(`${operation}Response`)) return `no ${operation}Response element`;
    const missing = contains.find((c) => !text.includes(c));
    return missing === undefined ? undefined : `answer lacks ${missing}`;
  };
const soapFault =
  (code: string, text: string | RegExp): Check =>
  (s, body) => {
    const xml = body.toString("utf8");
    if (s !== 500) return `status ${s}, expected 500`;
    if (!xml.includes(`<faultcode>soap:${code}</faultcode>`)) return `no soap:${code} faultcode`;
    const faultstring = /<faultstring>([^<]*)<\/faultstring>/.exec(xml)?.[1] ?? "";
    return (typeof text === "string" ? faultstring.includes(text) : text.test(faultstring)) ? undefined : `faultstring ${JSON.stringify(faultstring)}`;
  };

// ---------------------------------------------------------------------------------------------
// The mix

/**
 * The soak's requests: every endpoint family with a few seeded targets, and the failures the
 * interface defines (reference A.4, D.5), many with an independent check of their answer.
 */
export async function soakMix(releaseDir: string, seed: number): Promise<SoakRequest[]> {
  const release = await openReleaseFolder(releaseDir);
  const manifest = release.manifest;
  const rnd = seeded(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(list: T[]) => list[int(list.length)];
  const { genomes, tables, counts, hogPrefix } = manifest;
  const entry = () => 1 + int(counts.proteins);
  const protein = (e: number) => release.row<ProteinRow>(tables.proteins, e - 1);
  const out: SoakRequest[] = [];
  const get = (path: string, check?: Check, headers?: Record<string, string>) => void out.push({ family: "GET", method: "GET", path, check, headers });
  const send = (method: string, path: string, body: string | undefined, headers: Record<string, string>, check?: Check) =>
    void out.push({ family: method, method, path, body, headers, check });
  const api = "/api";

  // Successes.
  get(`${api}/`, json((v) => (typeof v.protein === "string" ? undefined : "no protein list URL")));
  get(`${api}/version/`, json((v) => equal("orth_version", v.orth_version, manifest.name)));
  get(`${api}/genome/`, page(1, 100, genomes.length));
  for (let i = 0; i < 3; i++) {
    const g = pick(genomes);
    get(`${api}/genome/${g.code}/`, json((v) => equal("nr_entries", v.nr_entries, g.nrEntries)));
    const pageNr = 1 + int(Math.ceil(g.nrEntries / 100));
    get(`${api}/genome/${g.code}/proteins/?page=${pageNr}`, page(pageNr, 100, g.nrEntries));
  }
  const big = [...genomes].sort((a, b) => b.nrEntries - a.nrEntries)[0];
  get(`${api}/genome/${big.code}/proteins/?per_page=1000`, page(1, 1000, big.nrEntries));
  get(`${api}/genome/${big.taxonId}/genes/?page=2&per_page=50`, page(2, 50));
  for (let i = 0; i < 4; i++) {
    const e = entry();
    get(`${api}/protein/${e}/`, json((v) => equal("entry_nr", v.entry_nr, e)));
    const id = orthidOf(manifest, entry());
    get(`${api}/protein/${id}/`, json((v) => equal("orthid", v.orthid, id)));
  }
  for (let found = 0; found < 3; ) {
    const row = await protein(entry());
    const hits = row.canonicalId ? await release.lookup(manifest.indexes.entryIds, row.canonicalId) : undefined;
    if (hits?.length !== 1) continue;
    found++;
    get(`${api}/protein/${encodeURIComponent(row.canonicalId)}/`, json((v) => equal("canonicalid", v.canonicalid, row.canonicalId)));
  }
  for (let found = 0; found < 2; ) {
    const e = entry();
    const { xrefs } = await release.row<AnnotationRow>(tables.annotations, e - 1);
    const id = xrefs.length ? pick(xrefs)[1] : "";
    const hits = id && !/^[0-9]+$/.test(id) ? await release.lookup(manifest.indexes.entryIds, id) : undefined;
    if (hits?.length !== 1) continue;
    found++;
    get(`${api}/protein/${encodeURIComponent(id)}/`, json((v) => equal("entry_nr", v.entry_nr, e)));
  }
  for (const suffix of ["orthologs/", "orthologs/?rel_type=1:1", "hog_derived_orthologs/", "xref/", "xref/?filter=maindb", "domains/", "gene_ontology/", "isoforms/"]) {
    get(`${api}/protein/${entry()}/${suffix}`, json((v) => (Array.isArray(v) || typeof v === "object" ? undefined : "not JSON data")));
  }
  const polyploid = genomes.find((g) => g.subgenomes.length);
  if (polyploid) get(`${api}/protein/${polyploid.firstEntry + int(polyploid.nrEntries)}/homoeologs/`, json((v) => (Array.isArray(v) ? undefined : "not a list")));
  get(`${api}/protein/${orthidOf(manifest, genomes[0].firstEntry)}/`, undefined, { Accept: "application/json; version=1.6" });

  // A group whose fingerprint is its own (a fingerprint shared by several groups answers 404).
  let group: GroupRow;
  do group = await release.row<GroupRow>(tables.groups, int(counts.groups));
  while ((await release.lookup(manifest.indexes.fingerprints, group.fingerprint))?.length !== 1);
  const groupNr = group.nr;
  get(`${api}/group/?page=2`, page(2, 100, counts.groups));
  get(`${api}/group/${groupNr}/`, json((v) => equal("group_nr", v.group_nr, groupNr) ?? equal("members", v.members?.length, group.members.length)));
  get(`${api}/group/${group.fingerprint}/`, json((v) => equal("fingerprint", v.fingerprint, group.fingerprint)));
  get(`${api}/group/${1 + int(counts.groups)}/close_groups/`);

  const family = await release.row<FamilyRow>(tables.families, int(counts.families));
  // A HOG id stands for the first (most ancient) node carrying it.
  const sub = pick(family.nodes.filter((n, i) => n.id && family.nodes.findIndex((x) => x.id === n.id) === i));
  get(`${api}/hog/`, page(1, 100, counts.families));
  const level = manifest.taxonomy.names[family.nodes[0].levels[0]];
  get(`${api}/hog/?level=${encodeURIComponent(level)}&per_page=20`);
  get(`${api}/hog/${segment(family.rootId)}/`, json((v) => equal("hog_id", v[0]?.hog_id, family.rootId)));
  get(`${api}/hog/${segment(family.rootId)}/?level=root`);
  get(`${api}/hog/${segment(sub.id)}/members/`, json((v) => equal("members", v.members?.length, sub.hi - sub.lo)));
  get(`${api}/hog/${segment(sub.id)}/members/?level=root`, json((v) => equal("members", v.members?.length, family.entries.length)));
  get(`${api}/hog/${segment(family.rootId)}/gene_ontology/`);
  get(`${api}/hog/${segment(family.rootId)}/similar_profile_hogs/?max_results=5`);
  get(`${api}/hog/${segment(family.rootId)}/orthoxml/`);

  const [g1, g2] = [genomes[0], genomes[1]];
  get(`${api}/pairs/${g1.code}/${g2.code}/?per_page=50`, page(1, 50));
  get(`${api}/pairs/${g1.code}/${g2.code}/?page=2&per_page=50&rel_type=1:1`);
  get(`${api}/pairs/${g2.code}/${g1.code}/minimal/`);
  get(`${api}/taxonomy/`);
  get(`${api}/taxonomy/${g1.code}/?type=newick`);
  get(`${api}/summary/shared_ancestry/${g1.code}/${g2.code}/`);
  const xrefId = (await release.row<AnnotationRow>(tables.annotations, entry() - 1)).xrefs[0]?.[1] ?? "P0";
  get(`${api}/xref/?search=${encodeURIComponent(xrefId.slice(0, 6))}`);
  const sequence = await release.row<string>(tables.peptides, entry() - 1);
  get(`${api}/sequence/?search=exact&query=${sequence.slice(0, 30)}`);

  // Bulk retrieve: ids of every kind, one unknown.
  const bulkIds = [entry(), orthidOf(manifest, entry()), "NOPE_NOT_AN_ID", entry()].map(String);
  const bulk = { "Content-Type": "application/json" };
  send("POST", `${api}/protein/bulk_retrieve/`, JSON.stringify({ ids: bulkIds }), bulk, json((v) =>
    equal("query ids", JSON.stringify(v.map((x: any) => x.query_id)), JSON.stringify(bulkIds)) ?? equal("unknown id's target", v[2]?.target, null),
  ));
  send("POST", `${api}/protein/bulk_retrieve`, JSON.stringify(Array.from({ length: 60 }, () => entry())), bulk, json((v) => equal("records", v.length, 60)));
  send("POST", `${api}/protein/bulk_retrieve/`, JSON.stringify({ ids: bulkIds }), { ...bulk, Accept: "application/json; version=1.6" }, json((v) => equal("records", v.length, 3)));

  // SOAP, all eight operations.
  const soap = (operation: string, parts: string, check?: Check) => void out.push({ ...soapRequest("SOAP", operation, parts), check });
  const soapEntry = orthidOf(manifest, entry());
  soap("GetEntry", soapPart.str("EntryID", soapEntry), soapOk("GetEntry", soapEntry));
  soap("ListOrthologs", soapPart.str("EntryID", orthidOf(manifest, entry())), soapOk("ListOrthologs"));
  soap("GetOrthGroup", soapPart.int("GroupNr", groupNr), soapOk("GetOrthGroup", ...group.members.slice(0, 3).map((m) => orthidOf(manifest, m.entry))));
  // An ortholog pair (the pairs table also holds close paralogs and homoeologs).
  let pair: PairRow;
  do pair = await release.row<PairRow>(tables.pairs, int(tables.pairs.rows));
  while (pair[2] > 3);
  const [p1, p2] = pair;
  soap("TestOrthology", soapPart.str("EntryID1", orthidOf(manifest, p1)) + soapPart.str("EntryID2", orthidOf(manifest, p2)), soapOk("TestOrthology", "orthologs"));
  soap("IdentifySequence", soapPart.str("Sequence", sequence.slice(0, 40)), soapOk("IdentifySequence"));
  soap("GetMatrixInfo", "", soapOk("GetMatrixInfo", manifest.name));
  soap("ListIDTypes", "", soapOk("ListIDTypes", "orthid"));
  soap("MapIDs", soapPart.strings("InIDs", [soapEntry, "NOPE_NOT_AN_ID"]) + soapPart.int("OutType", 1), soapOk("MapIDs"));
  get("/soap?wsdl", (s, body) => (s === 200 && body.toString("utf8").includes("ORTHService") ? undefined : `status ${s}, or no ORTHService`));

  // HEAD, OPTIONS, redirect.
  out.push({ family: "HEAD", method: "HEAD", path: `${api}/genome/${g1.code}/proteins/`, check: (s, body) => (s === 200 && body.length === 0 ? undefined : `status ${s}, ${body.length} body bytes`) });
  out.push({ family: "OPTIONS", method: "OPTIONS", path: `${api}/protein/1/`, check: (s, _, h) => (s === 200 && h.allow === "GET, HEAD, OPTIONS" ? undefined : `status ${s}, Allow ${h.allow}`) });
  get(`${api}/version`, (s, _, h) => (s === 301 && String(h.location).endsWith("/api/version/") ? undefined : `status ${s}, Location ${h.location}`));

  // Failures by design.
  get(`${api}/protein/NOPE_NOT_AN_ID/`, error(404, "requested id 'NOPE_NOT_AN_ID' is unknown"));
  get(`${api}/protein/0/`, error(404, "requested id '0' is unknown"));
  get(`${api}/protein/${counts.proteins + 1}/`, error(404, `requested id '${counts.proteins + 1}' is unknown`));
  get(`${api}/protein/${g1.code}99999/orthologs/`, error(404, /unknown/));
  get(`${api}/genome/NOPE1/`, error(404, "Unknown species: NOPE1"));
  get(`${api}/genome/${g1.code}/proteins/?page=999999`, error(404, "Invalid page."));
  get(`${api}/genome/?page=0`, error(400, "Invalid page."));
  get(`${api}/genome/${g1.code}/proteins/?per_page=abc`, error(400, "Invalid per_page."));
  get(`${api}/group/0/`, error(404, /unknown/));
  get(`${api}/hog/HOG:${hogPrefix}9999999/`, error(404, /unknown/));
  get(`${api}/hog/HOG:${hogPrefix === "Q" ? "R" : "Q"}0000001/`, error(410, `ID HOG:${hogPrefix === "Q" ? "R" : "Q"}0000001 is no longer valid.`));
  get(`${api}/hog/HOG:not-an-id/`, error(404, "Invalid hog id: HOG:not-an-id"));
  get(`${api}/hog/${segment(family.rootId)}/?level=NotALevel`, error(404, "Invalid or unknown level parameter for this HOG"));
  get(`${api}/hog/${segment(family.rootId)}/similar_profile_hogs/?max_results=99`, error(400, "max_results must be positive value <= 50"));
  get(`${api}/protein/1/xref/?filter=bogus`, error(400, "invalid argument for parameter filter: bogus"));
  get(`${api}/sequence/?query=AC`, error(400, "too shot query sequence"));
  get(`${api}/sequence/?query=ACDEFGHIKLMN&search=bogus`, error(400, "search parameter invalid. Must be one of 'approximate', 'exact', 'mixed'."));
  get(`${api}/taxonomy/?type=bogus`, error(400, /^Invalid type='bogus'/));
  get(`${api}/protein/1/?format=xml`, error(404, "Not found."));
  get(`${api}/no/such/route/`, error(404, "Not found."));
  get(`${api}/protein/1/`, error(406, 'Invalid version in "Accept" header.'), { Accept: "application/json; version=9.9" });
  send("DELETE", `${api}/protein/1/`, undefined, {}, error(405, 'Method "DELETE" not allowed.'));
  send("POST", `${api}/genome/`, '{"x": 1}', { "Content-Type": "application/json" }, error(405, 'Method "POST" not allowed.'));
  send("PUT", `${api}/hog/${segment(family.rootId)}/`, "x", { "Content-Type": "text/plain" }, error(405, 'Method "PUT" not allowed.'));
  get(`${api}/protein/bulk_retrieve/`, error(405, 'Method "GET" not allowed.'));
  send("POST", `${api}/protein/bulk_retrieve/`, '{"ids": [1, 2', bulk, error(400, /^JSON parse error/));
  send("POST", `${api}/protein/bulk_retrieve/`, '{"idz": [1]}', bulk, error(404, "No results found"));
  send("POST", `${api}/protein/bulk_retrieve/`, JSON.stringify({ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }), bulk, error(400, "POST request exceeded max number of ids. Please limit to 1000"));
  send("POST", `${api}/protein/bulk_retrieve/`, '{"ids": [1]}', { "Content-Type": "text/plain" }, error(415, 'Unsupported media type "text/plain" in request.'));
  send("POST", `${api}/protein/bulk_retrieve/`, '{"ids": "P12345"}', bulk, error(400, /ids/));
  soap("GetEntry", soapPart.str("EntryID", "NOPE_NOT_AN_ID"), soapFault("Client", "Unknown entry id: NOPE_NOT_AN_ID"));
  soap("GetOrthGroup", soapPart.int("GroupNr", "seven"), soapFault("Client", /^Malformed request/));
  soap("GetOrthGroup", soapPart.int("GroupNr", counts.groups + 1), soapFault("Client", `Unknown group: ${counts.groups + 1}`));
  soap("NoSuchOperation", "", soapFault("Client", "Unknown operation: NoSuchOperation"));
  out.push({
    family: "SOAP",
    method: "POST",
    path: "/soap",
    headers: { "Content-Type": "text/xml; charset=utf-8" },
    body: "<soap:Envelope xmlns:soap=",
    check: soapFault("Client", /^Malformed request/),
  });
  out.push({
    family: "SOAP",
    method: "POST",
    path: "/soap",
    headers: { "Content-Type": "text/xml; charset=utf-8" },
    body: '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><ns:GetMatrixInfo xmlns:ns="urn:ORTH"/></env:Body></env:Envelope>',
    check: soapFault("VersionMismatch", "SOAP 1.1 envelope expected"),
  });
  send("DELETE", "/soap", undefined, {}, (s) => (s === 405 ? undefined : `status ${s}, expected 405`));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The soak

const sha256 = (body: Buffer) => createHash("sha256").update(body).digest("hex");
const keyHeaders = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of KEY_HEADERS) if (headers[name] !== undefined) out[name] = String(headers[name]);
  return out;
};
/** What differs between an answer and its reference ("" when nothing does). */
function difference(reference: Reference, status: number, body: Buffer, headers: IncomingHttpHeaders): string {
  if (status !== reference.status) return `status ${status}, reference ${reference.status}`;
  if (body.length !== reference.size || sha256(body) !== reference.hash) return `body of ${body.length} bytes differs from the reference's ${reference.size}`;
  const got = keyHeaders(headers);
  for (const name of KEY_HEADERS) {
    if (got[name] !== reference.headers[name]) return `${name}: ${JSON.stringify(got[name])}, reference ${JSON.stringify(reference.headers[name])}`;
  }
  return "";
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {});
  const requests = await soakMix(options.releaseDir, options.seed ?? 3);
  const failing = new Set<number>();

  // References: one sequential pass on the fresh instance, each checked where a check exists.
  const references: Reference[] = [];
  const referenceFailures: string[] = [];
  await fetchEach(options.origin, requests, (i, status, body, headers) => {
    references[i] = { status, hash: sha256(body), size: body.length, headers: keyHeaders(headers) };
    if (status >= 300) failing.add(i);
    const r = requests[i];
    const problem = r.check?.(status, body, headers) ?? (status >= 500 && r.path !== "/soap" ? `status ${status}` : undefined);
    if (problem) referenceFailures.push(`${r.method} ${r.path.slice(0, 100)}: ${problem}`);
  });
  log(`${requests.length} requests (${failing.size} answering an error by design), ${requests.filter((r) => r.check).length} references checked: ${referenceFailures.length} failed`);
  options.tamper?.(references, requests);

  // The load: the mix in a seeded order, cycled over all connections.
  const rnd = seeded((options.seed ?? 3) + 1);
  const order = requests.map((_, i) => i).sort(() => rnd() - 0.5);
  const shuffled = order.map((i) => requests[i]);
  // Requests with a body the answer does not need (a 405 or 415): the worker drains it, so
  // their keep-alive connections stay usable (src/index.ts).
  const closing = requests.filter((r, i) => r.body !== undefined && (references[i].status === 405 || references[i].status === 415)).length;
  let mismatches = 0;
  let unexpectedErrors = 0;
  const mismatchExamples: string[] = [];
  const byStatus: Record<string, number> = {};
  const memory: MemoryFigures = { samples: [] };
  const started = performance.now();
  let done = 0;
  const watch = watchMemory(options.pid, options.sampleEveryMs ?? Math.min(5000, Math.max(500, (options.seconds * 1000) / 20)), () => done);
  let lastLog = started;
  let result;
  try {
    result = await runLoad({
      origin: options.origin,
      requests: shuffled,
      connections: options.connections,
      durationMs: options.seconds * 1000,
      timeoutMs: 30_000,
      onResponse: (s, body, headers) => {
        const i = order[s.index];
        done++;
        byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
        if (s.status === 0) {
          unexpectedErrors++;
          if (mismatchExamples.length < 10) mismatchExamples.push(`${requests[i].method} ${requests[i].path.slice(0, 100)}: ${s.error}`);
          return;
        }
        const diff = difference(references[i], s.status, body, headers);
        if (diff) {
          mismatches++;
          if (s.status >= 500 && references[i].status < 500) unexpectedErrors++;
          if (mismatchExamples.length < 10) mismatchExamples.push(`${requests[i].method} ${requests[i].path.slice(0, 100)}: ${diff}`);
        }
        if (performance.now() - lastLog > 30_000) {
          lastLog = performance.now();
          log(`${((lastLog - started) / 1000).toFixed(0)} s: ${done} requests, ${mismatches} mismatches, ${unexpectedErrors} unexpected errors`);
        }
      },
    });
  } finally {
    memory.samples = watch.stop();
  }

  // Memory: the first window after warm-up against the last.
  const rss = memory.samples.map(([, b]) => b);
  if (rss.length) {
    memory.start = rss[0];
    memory.end = rss[rss.length - 1];
    memory.max = Math.max(...rss);
    memory.warmup = Math.min(30, options.seconds * 0.1);
    memory.window = Math.min(60, (options.seconds - memory.warmup) / 3);
    const within = (from: number, to: number) => memory.samples.filter(([t]) => t >= from && t <= to).map(([, b]) => b);
    const first = within(memory.warmup, memory.warmup + memory.window);
    const last = within(result.seconds - memory.window, Infinity);
    if (first.length && last.length) {
      memory.firstMean = mean(first);
      memory.lastMean = mean(last);
      memory.stable = memory.lastMean <= memory.firstMean * (1 + STABLE_GROWTH);
    }
    memory.perTenThousand = growthPerTenThousand(memory.samples, memory.warmup);
  }
  const latencies = result.samples.filter((s) => s.status !== 0).map((s) => s.ms);
  return {
    distinct: requests.length,
    failing: failing.size,
    closing,
    requests: result.samples.length,
    seconds: result.seconds,
    rps: result.samples.length / result.seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    mismatches,
    unexpectedErrors,
    connectionErrors: result.connectionErrors,
    retries: result.retries,
    referenceFailures,
    mismatchExamples,
    byStatus,
    memory,
    ok: mismatches === 0 && unexpectedErrors === 0 && referenceFailures.length === 0 && result.samples.length > 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

export function soakMarkdown(result: SoakResult, settings: { seconds: number; connections: number; release: string }): string {
  const m = result.memory;
  const mib = (b?: number) => (b === undefined ? "–" : `${(b / 2 ** 20).toFixed(0)} MiB`);
  const statuses = Object.entries(result.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([s, n]) => `${s}: ${n.toLocaleString("en")}`)
    .join(", ");
  // About ten samples, evenly spread: how the RSS went.
  const step = Math.max(1, Math.floor(m.samples.length / 10));
  const timeline = m.samples
    .filter((_, i) => i % step === 0 || i === m.samples.length - 1)
    .map(([t, b]) => `${t.toFixed(0)} s: ${(b / 2 ** 20).toFixed(0)}`)
    .join(", ");
  const growth = (v?: number) => (v === undefined ? "–" : `${v.toFixed(2)} MiB`);
  const c = m.control;
  let verdict = m.stable ? "stable" : "growing";
  if (!m.stable && c?.perTenThousand !== undefined && m.perTenThousand !== undefined) {
    verdict =
      m.perTenThousand <= Math.max(c.perTenThousand * 1.5, c.perTenThousand + 0.5)
        ? "growing, at the pace of workerd's own growth under this load (see the control): not the worker's"
        : "growing faster than workerd's own growth under this load (see the control)";
  }
  const memoryLine =
    m.stable === undefined
      ? "workerd memory: not sampled (its process was not found)."
      : [
          `workerd RSS: ${mib(m.start)} at the start of the load, ${mib(m.end)} at the end, ${mib(m.max)} at most (${m.samples.length} samples); mean ${mib(m.firstMean)} over the first ${m.window!.toFixed(0)} s after ${m.warmup!.toFixed(0)} s of warm-up, ${mib(m.lastMean)} over the last ${m.window!.toFixed(0)} s (${(((m.lastMean! - m.firstMean!) / m.firstMean!) * 100).toFixed(1)}%; stable means within +${STABLE_GROWTH * 100}%), ${growth(m.perTenThousand)} per 10,000 requests after warm-up. Verdict: **${verdict}**.`,
          `RSS in MiB over the load: ${timeline}.`,
          c
            ? `Control, same run: a worker answering each request with one small R2 object and nothing else, on its own Miniflare instance under the same ${settings.connections} connections for ${c.seconds.toFixed(0)} s (${c.requests.toLocaleString("en")} requests): workerd RSS ${mib(c.start)} → ${mib(c.end)}, ${growth(c.perTenThousand)} per 10,000 requests after warm-up. workerd on Miniflare grows under load whatever the worker, so only growth beyond the control's is the worker's.`
            : "",
        ]
          .filter(Boolean)
          .join("\n\n");
  const lines = [
    "## Soak",
    "",
    `Written by \`npm run soak -- --seconds ${settings.seconds} --connections ${settings.connections}\` on ${new Date().toISOString().slice(0, 10)}.`,
    "",
    machineLine(),
    "",
    `The ${settings.release} release; ${result.distinct} distinct requests over every endpoint family, ${result.failing} of them answering an error by design (unknown ids, bad parameters, wrong methods, SOAP faults, bad bulk bodies, a redirect). Each answer's reference (status, body SHA-256, ${KEY_HEADERS.join(", ")}) was recorded in one sequential pass before the load, the references of the checked requests held against independent expectations; under load, ${settings.connections} keep-alive connections cycled the mix in a fixed shuffled order for ${settings.seconds} s and every answer was compared with its reference.`,
    "",
    "| figure | value |",
    "|---|---|",
    `| requests | ${result.requests.toLocaleString("en")} in ${result.seconds.toFixed(0)} s |`,
    `| throughput | ${result.rps.toFixed(0)} req/s |`,
    `| latency p50 / p99 | ${ms(result.p50)} / ${ms(result.p99)} ms |`,
    `| mismatches (answer ≠ reference) | **${result.mismatches}** |`,
    `| unexpected errors | **${result.unexpectedErrors}** |`,
    `| connection errors | ${result.connectionErrors} |`,
    `| keep-alive connections found closed, request resent | ${result.retries} |`,
    `| reference answers failing their independent check | ${result.referenceFailures.length} |`,
    `| answers by status | ${statuses} |`,
    `| workerd RSS start / end / max | ${mib(m.start)} / ${mib(m.end)} / ${mib(m.max)} |`,
    "",
    memoryLine,
  ];
  lines.push(
    "",
    `Connection handling: ${result.closing} requests of the mix carry a body the answer does not need (a 405 or 415); the worker reads such a body to the end before answering, because workerd drops a keep-alive connection whose request body was left unread. They share the keep-alive connections with the rest; a request reset on a reused connection anyway would be sent again once on a new one (counted above as resent, so it should stay 0).`,
  );
  if (result.mismatchExamples.length) lines.push("", "First mismatches:", "", ...result.mismatchExamples.map((e) => `- ${e}`));
  if (result.referenceFailures.length) lines.push("", "Reference check failures:", "", ...result.referenceFailures.map((e) => `- ${e}`));
  lines.push("", `Verdict: **${result.ok ? "passed" : "FAILED"}**.`);
  return lines.join("\n");
}

/** Replaces the `## Soak` section of BENCHMARKS.md (or appends one), leaving the rest as it is. */
export function writeSoakSection(file: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = text.search(/^## Soak\s*$/m);
  let out: string;
  if (start < 0) out = `${text.replace(/\s*$/, "")}\n\n${section}\n`;
  else {
    const rest = text.slice(start + 1);
    const next = rest.search(/^## /m);
    out = `${text.slice(0, start)}${section}\n${next < 0 ? "" : `\n${rest.slice(next)}`}`;
  }
  writeFileSync(file, out);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: "string" }, connections: { type: "string" }, "control-seconds": { type: "string" }, "no-write": { type: "boolean" } },
    strict: true,
  });
  const seconds = Number(values.seconds ?? 300);
  const connections = Number(values.connections ?? 32);
  if (!(seconds > 0) || !(connections >= 1)) throw new Error("--seconds and --connections must be positive numbers");
  const log = (line: string) => console.log(`[soak] ${line}`);
  const releaseDir = await ensureDemoRelease();
  log("bundling the worker…");
  const scriptPath = buildWorkerBundle(resolve(ROOT, "build/bench/soak-worker"));
  const served = await serveWorker({ scriptPath, releaseDir });
  let result: SoakResult;
  try {
    log(`serving at ${served.origin} (workerd pid ${served.pid ?? "unknown"}); ${seconds} s with ${connections} connections…`);
    result = await soak({ origin: served.origin, releaseDir, seconds, connections, pid: served.pid, log });
  } finally {
    await served.dispose();
  }
  const controlSeconds = Number(values["control-seconds"] ?? Math.min(60, Math.ceil(seconds / 4)));
  if (controlSeconds > 0 && result.memory.samples.length) {
    log(`memory control: a trivial worker under the same load for ${controlSeconds} s…`);
    result.memory.control = await memoryControl(controlSeconds, connections);
  }
  const manifest = readManifestFile(releaseDir);
  const section = soakMarkdown(result, { seconds, connections, release: `demo (${manifest.name}, ${manifest.counts.proteins.toLocaleString("en")} proteins)` });
  console.log(`\n${section}\n`);
  if (!values["no-write"]) {
    writeSoakSection(resolve(ROOT, "BENCHMARKS.md"), section);
    log("BENCHMARKS.md: ## Soak written");
  }
  if (!result.ok) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
