/**
 * The OpenAPI document at /api/schema/: valid OpenAPI 3.1, in step with the routes the app
 * registers (paths, and methods as `Allow` reports them), and describing what the service
 * really answers: a table of real requests on the simulated and primates-chr12 releases is
 * validated against the response schema of its operation (test/openapi-check.ts).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, registeredPaths } from "../../src/app.js";
import { checkResponse, loadSchema, responseErrors, templateOf, type OpenApiDocument } from "../openapi-check.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { getJson, serveRelease, type ServedRelease } from "./serve.js";

/** One real request and the status it must get; its operation is found from the path unless `template` names it. */
interface Request {
  path: string;
  status: number;
  method?: string;
  template?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Media type of the response body in the document (default `application/json`). */
  mediaType?: string;
}

/** Ids of a release, read from the manifest and a few answers. */
interface Samples {
  code: string;
  taxonId: number;
  other: string;
  entry: number;
  orthid: string;
  canonical: string;
  hog: string;
  level: string;
  /** The root of the taxonomy. */
  ancientLevel: string;
  /** The most ancient level the sample protein's family exists on. */
  familyLevel: string;
  group: number;
  fingerprint: string;
  chromosome: string;
  noGroup?: string;
  noHog?: string;
  hogPrefix: string;
  /** Whether the sample protein's genome is polyploid (it has homoeologs then). */
  polyploid: boolean;
  /** First entry of a polyploid genome, if the release has one. */
  polyploidEntry?: number;
  /** The sample protein's sequence. */
  sequence: string;
}

async function samplesOf({ base, manifest }: ServedRelease): Promise<Samples> {
  let noGroup: string | undefined;
  let noHog: string | undefined;
  let withHog: any;
  for (const g of manifest.genomes) {
    const proteins = await getJson(`${base}/genome/${g.code}/proteins/?per_page=5000`);
    withHog ??= proteins.find((p: any) => p.orth_hog_id.includes(".") && p.orth_group) ?? proteins.find((p: any) => p.orth_hog_id && p.orth_group);
    noGroup ??= proteins.find((p: any) => p.orth_group === 0)?.orthid;
    noHog ??= proteins.find((p: any) => p.orth_hog_id === "")?.orthid;
    if (withHog && noGroup && noHog) break;
  }
  const [record] = await getJson(`${base}/hog/${withHog.orth_hog_id}/`);
  const protein = await getJson(`${base}/protein/${withHog.entry_nr}/`);
  const genome = await getJson(`${base}/genome/${withHog.species.code}/`);
  const lineage: string[] = genome.lineage;
  // A fingerprint that names one group (small releases have a few shared ones).
  let fingerprint = "";
  for (let nr = 1; !fingerprint && nr <= manifest.counts.groups; nr++) {
    const { fingerprint: fp } = await getJson(`${base}/group/${nr}/`);
    if ((await fetch(`${base}/group/${fp}/`).then((r) => r.arrayBuffer().then(() => r.status))) === 200) fingerprint = fp;
  }
  return {
    code: withHog.species.code,
    taxonId: withHog.species.taxon_id,
    other: manifest.genomes.find((g) => g.code !== withHog.species.code)!.code,
    entry: withHog.entry_nr,
    orthid: withHog.orthid,
    canonical: withHog.canonicalid,
    hog: withHog.orth_hog_id,
    level: record.level,
    ancientLevel: lineage[lineage.length - 1],
    familyLevel: protein.hog_levels[protein.hog_levels.length - 1],
    group: withHog.orth_group,
    fingerprint,
    chromosome: withHog.chromosome,
    noGroup,
    noHog,
    hogPrefix: manifest.hogPrefix,
    polyploid: manifest.genomes.some((g) => g.code === withHog.species.code && g.subgenomes.length > 0),
    polyploidEntry: manifest.genomes.find((g) => g.subgenomes.length > 0)?.firstEntry,
    sequence: protein.sequence,
  };
}

const JSON_BODY = { "Content-Type": "application/json" };

/** Requests of every endpoint the app serves now, successes, edge cases and errors. */
function requestsOf(s: Samples): Request[] {
  const e = s.entry;
  const level = encodeURIComponent(s.level);
  const rows: Request[] = [
    // Service
    { path: "/", status: 200 },
    { path: "/?format=api", status: 200 },
    { path: "/version/", status: 200 },
    { path: "/version/?format=api", status: 200 },
    { path: "/version/", status: 200, headers: { Accept: "application/json; version=1.6" } },
    { path: "/schema/", status: 200 },
    { path: "/schema/", status: 200, headers: { Accept: "application/vnd.oai.openapi+json" }, mediaType: "application/vnd.oai.openapi+json" },
    { path: "/docs/", status: 200, mediaType: "text/html" },
    // Genomes
    { path: "/genome/", status: 200 },
    { path: "/genome/?per_page=2&page=2&format=api", status: 200 },
    { path: `/genome/${s.code}/`, status: 200 },
    { path: `/genome/${s.taxonId}/?format=api`, status: 200 },
    { path: `/genome/${s.code}/proteins/?per_page=7`, status: 200 },
    { path: `/genome/${s.code}/proteins/?per_page=3&page=2&format=api`, status: 200 },
    { path: `/genome/${s.code}/genes/?per_page=7`, status: 200 },
    // Proteins
    { path: `/protein/${e}/`, status: 200 },
    { path: `/protein/${s.orthid}/?format=api`, status: 200 },
    { path: `/protein/${encodeURIComponent(s.canonical)}/`, status: 200 },
    { path: `/protein/${e}/orthologs/`, status: 200 },
    { path: `/protein/${e}/orthologs/?rel_type=1:1&format=api`, status: 200 },
    { path: `/protein/${e}/orthologs/?rel_type=bogus`, status: 200 },
    { path: `/protein/${e}/hog_derived_orthologs/`, status: 200 },
    { path: `/protein/${e}/gene_ontology/`, status: 200 },
    { path: `/protein/${e}/ontology/`, status: 200 },
    { path: `/protein/${e}/domains/`, status: 200 },
    { path: `/protein/${e}/isoforms/?format=api`, status: 200 },
    { path: `/protein/${e}/xref/`, status: 200 },
    { path: `/protein/${e}/xref/?filter=MAINDB`, status: 200 },
    { path: `/protein/${e}/xref/?filter=bogus`, status: 400 },
    { path: `/protein/${e}/homoeologs/`, status: s.polyploid ? 200 : 404 },
    // Bulk retrieve: both body forms, both version shapes, its errors
    { path: "/protein/bulk_retrieve/", method: "POST", status: 200, headers: JSON_BODY, body: JSON.stringify({ ids: [s.orthid, e, "NOPE"] }) },
    { path: "/protein/bulk_retrieve/", method: "POST", status: 200, headers: JSON_BODY, body: JSON.stringify([s.orthid, "NOPE"]) },
    {
      path: "/protein/bulk_retrieve/?format=api",
      method: "POST",
      status: 200,
      headers: { ...JSON_BODY, Accept: "application/json; version=1.6" },
      body: JSON.stringify({ ids: [s.orthid, "NOPE", e] }),
      mediaType: "application/json; version=1.6",
    },
    { path: "/protein/bulk_retrieve/", method: "POST", status: 400, headers: JSON_BODY, body: JSON.stringify({ ids: Array(1001).fill(1) }) },
    { path: "/protein/bulk_retrieve/", method: "POST", status: 400, headers: JSON_BODY, body: "{not json" },
    { path: "/protein/bulk_retrieve/", method: "POST", status: 404, headers: JSON_BODY, body: JSON.stringify({ id: [1] }) },
    { path: "/protein/bulk_retrieve/", method: "POST", status: 415, headers: { "Content-Type": "text/plain" }, body: "1" },
    { path: "/protein/bulk_retrieve/", method: "GET", status: 405 },
    // Groups
    { path: "/group/?per_page=5", status: 200 },
    { path: "/group/?per_page=5&page=2&format=api", status: 200 },
    { path: `/group/${s.group}/`, status: 200 },
    { path: `/group/${s.fingerprint}/?format=api`, status: 200 },
    { path: `/group/${s.orthid}/`, status: 200 },
    { path: `/group/${s.group}/close_groups/`, status: 200 },
    // HOGs
    { path: "/hog/?per_page=5", status: 200 },
    { path: `/hog/?level=${level}&per_page=5&format=api`, status: 200 },
    { path: `/hog/?level=${level}&compare_with=${encodeURIComponent(s.ancientLevel)}&per_page=5`, status: 200 },
    { path: `/hog/${s.hog}/`, status: 200 },
    { path: `/hog/${s.hog}/?level=${level}&format=api`, status: 200 },
    { path: `/hog/${s.orthid}/?level=root`, status: 200 },
    { path: `/hog/${s.hog}/members/`, status: 200 },
    { path: `/hog/${s.hog}/members/?level=root&format=api`, status: 200 },
    { path: `/hog/${s.hog}/members/?level=${encodeURIComponent(s.familyLevel)}`, status: 200 },
    { path: `/hog/${s.hog}/members/?level=${encodeURIComponent(s.level)}`, status: 200 },
    { path: `/hog/${s.hog}/gene_ontology/`, status: 200 },
    { path: `/hog/${s.hog}/gene_ontology/?level=${level}&format=api`, status: 200 },
    { path: `/hog/${s.hog}/similar_profile_hogs/`, status: 200 },
    { path: `/hog/${s.hog}/similar_profile_hogs/?max_results=3&format=api`, status: 200 },
    { path: `/hog/${s.hog}/similar_profile_hogs/?max_results=51`, status: 400 },
    // No gene trees in these releases (test/e2e/orthofinder.test.ts checks the 200 on an OrthoFinder release).
    { path: `/hog/${s.hog}/gene_tree/`, status: 404 },
    { path: `/hog/${s.hog}/orthoxml/`, status: 200, mediaType: "application/xml" },
    { path: `/hog/${s.hog}/orthoxml/augmented/`, status: 200, mediaType: "application/xml" },
    { path: `/../orth/hog/${s.hog}/orthoxml/`, template: "/orth/hog/{hog_id}/orthoxml/", status: 200, mediaType: "application/xml" },
    { path: `/hog/${s.hog}/svg/`, status: 200, mediaType: "image/svg+xml" },
    { path: `/hog/${s.hog}/svg/?level=${level}`, status: 200, mediaType: "image/svg+xml" },
    { path: `/hog/${s.orthid}/svg/?level=root`, status: 200, mediaType: "image/svg+xml" },
    { path: `/hog/${s.hog}/svg/?level=Nowhere`, status: 404 },
    // Pairs
    { path: `/pairs/${s.code}/${s.other}/?per_page=5`, status: 200 },
    { path: `/pairs/${s.code}/${s.other}/?per_page=5&rel_type=1:1&xrefs=SourceID&format=api`, status: 200 },
    { path: `/pairs/${s.code}/${s.other}/?chr1=${encodeURIComponent(s.chromosome)}&per_page=5`, status: 200 },
    { path: `/pairs/${s.code}/${s.code}/?per_page=5`, status: 200 },
    { path: `/pairs/${s.code}/${s.other}/?per_page=5&format=csv`, status: 200, mediaType: "text/csv" },
    { path: `/pairs/${s.code}/${s.other}/?per_page=5&format=tsv`, status: 200, mediaType: "text/tab-separated-values" },
    { path: `/pairs/${s.code}/${s.other}/minimal/`, status: 200 },
    // Xref search (its 400 list body needs a release with more hits than the limit: test/e2e/xref-search.test.ts)
    { path: `/xref/?search=${encodeURIComponent(s.canonical)}`, status: 200 },
    { path: `/xref/?search=${encodeURIComponent(s.orthid.slice(2, 8).toLowerCase())}&format=api`, status: 200 },
    { path: "/xref/?search=S", status: 200 },
    { path: "/xref/", status: 200 },
    { path: "/xref/?search=NO-SUCH-ID", status: 200 },
    // Taxonomy
    { path: "/taxonomy/", status: 200 },
    { path: "/taxonomy/?type=newick", status: 200 },
    { path: "/taxonomy/?type=phyloxml", status: 200 },
    { path: `/taxonomy/${level}/?format=api`, status: 200 },
    { path: `/taxonomy/${s.code}/?type=nhx`, status: 200 },
    { path: "/taxonomy/?type=bogus", status: 400 },
    { path: "/taxonomy/Nowhere/", status: 404 },
    { path: `/summary/shared_ancestry/${s.code}/${s.other}/`, status: 200 },
    { path: `/summary/shared_ancestry/${s.code}/${s.other}/?type=vps&format=api`, status: 200 },
    // Errors of every kind on read endpoints
    { path: "/genome/?page=abc", status: 400 },
    { path: "/group/?per_page=0", status: 400 },
    { path: "/genome/?page=999", status: 404 },
    { path: "/protein/NOT_AN_ID/", status: 404 },
    { path: `/protein/${e}/?format=xml`, status: 404 },
    { path: "/genome/NOPE1/", status: 404 },
    { path: "/group/0/", status: 404 },
    { path: "/hog/HOG:bad/", status: 404 },
    { path: `/hog/${s.hog}/?level=Nowhere`, status: 404 },
    { path: `/hog/HOG:${s.hogPrefix === "Q" ? "R" : "Q"}0000001/`, status: 410 },
    { path: `/hog/HOG:${s.hogPrefix === "Q" ? "R" : "Q"}0000001/members/`, status: 410 },
    { path: `/hog/HOG:${s.hogPrefix === "Q" ? "R" : "Q"}0000001/svg/`, status: 410 },
    { path: `/protein/${e}/`, method: "DELETE", status: 405 },
    { path: "/genome/", method: "POST", status: 405 },
    { path: "/version/", status: 406, headers: { Accept: "application/json; version=2.0" } },
    { path: `/genome/${s.code}/proteins/`, status: 406, headers: { Accept: "application/json; version=0.9" } },
    // HEAD: the headers of GET, required ones included, and no body
    { path: "/genome/?per_page=2", method: "HEAD", status: 200 },
    // Sequence search and function annotation: the sample's own sequence, a slice, a mutant
    { path: `/sequence/?query=${s.sequence}`, status: 200 },
    { path: `/sequence/?query=${s.sequence.slice(3, 40)}&search=exact&format=api`, status: 200 },
    { path: `/sequence/?query=${s.sequence}&search=exact&full_length=true`, status: 200 },
    { path: `/sequence/?query=${s.sequence.slice(0, 80).replace(/[AL]/g, "W")}&search=approximate`, status: 200 },
    { path: "/sequence/?query=MVHL", status: 400 },
    { path: "/sequence/?query=MVHLTPEEKSAVT&search=bogus", status: 400 },
    { path: `/function/?query=${s.sequence}`, status: 200 },
    { path: "/function/?query=MVHL", status: 400 },
  ];
  if (s.polyploidEntry) rows.push({ path: `/protein/${s.polyploidEntry}/homoeologs/?format=api`, status: 200 });
  if (s.noGroup) {
    // A protein in no group: the group read is `{}`, close groups `[]` without pagination headers.
    rows.push({ path: `/group/${s.noGroup}/`, status: 200 }, { path: `/group/${s.noGroup}/close_groups/`, status: 200 });
  }
  if (s.noHog) {
    rows.push({ path: `/protein/${s.noHog}/`, status: 200 }, { path: `/hog/${s.noHog}/`, status: 404 });
  }
  return rows;
}

/**
 * PENDING: endpoints the document describes that the app does not serve yet. Each row is a
 * request to move into `requestsOf` when its endpoint lands; the test below fails as soon as
 * one of these paths is registered, as the reminder.
 */
const PENDING: Request[] = [
  // None today: issue 5 (C.6) landed.
];

/**
 * KNOWN_GAPS: where the service does not yet answer what the contract (and so the document)
 * says, one error pattern per operation. They are let through by the check of real answers,
 * which fails once a gap no longer shows, so the entry gets removed with the fix.
 */
const KNOWN_GAPS: Array<{ template: string; error: RegExp; why: string }> = [
  // None today. An entry looks like:
  // { template: "/hog/", error: /^\/\d+ must have required property 'similar_profile_hogs'$/, why: "C.4 field not served yet" },
];

/** `{origin}{prefix}` of a path item: its own server, else the document's. */
function serverPath(doc: OpenApiDocument, template: string): string {
  const url = doc.paths[template].servers?.[0]?.url ?? doc.servers[0].url;
  return new URL(url).pathname.replace(/\/$/, "");
}

/** Hono's `/api/protein/:entry_id/` as the document writes it, `/api/protein/{entry_id}/`. */
const fromHono = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

const releases = ["sim", ...(hasSharedData ? ["primates"] : [])];
warnWithoutSharedData("the OpenAPI checks on primates-chr12");

describe.each(releases)("the OpenAPI document on %s", (name) => {
  let served: ServedRelease;
  let base: string;
  let doc: OpenApiDocument;
  let samples: Samples;

  beforeAll(async () => {
    served = await serveRelease(name);
    base = served.base;
    doc = await loadSchema(base);
    samples = await samplesOf(served);
  });
  afterAll(() => served?.dispose());

  it("is a valid OpenAPI 3.1 document whose server is the request's own origin", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.servers).toEqual([{ url: base, description: expect.any(String) }]);

    const proxied = await getJson(`${base}/schema/`, { headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "orth.example.org" } });
    expect(proxied.servers[0].url).toBe("https://orth.example.org/api");
    const named = await getJson(`${served.origin}/release/${served.manifest.name}/api/schema/`);
    expect(named.servers[0].url).toBe(`${served.origin}/release/${served.manifest.name}/api`);
    expect(named.paths["/orth/hog/{hog_id}/orthoxml/"].servers[0].url).toBe(`${served.origin}/release/${served.manifest.name}`);
  });

  it("answers the OpenAPI media type, JSON clients, and browsers with the browsable page", async () => {
    const vnd = await fetch(`${base}/schema/`, { headers: { Accept: "application/vnd.oai.openapi+json" } });
    expect(vnd.status).toBe(200);
    expect(vnd.headers.get("Content-Type")).toBe("application/vnd.oai.openapi+json");
    expect(await vnd.json()).toEqual(doc);
    for (const accept of ["*/*", "application/json", "application/json, application/vnd.oai.openapi+json"]) {
      const res = await fetch(`${base}/schema/`, { headers: { Accept: accept } });
      expect(res.headers.get("Content-Type"), accept).toBe("application/json");
      await res.arrayBuffer();
    }
    const page = await fetch(`${base}/schema/`, { headers: { Accept: "text/html,*/*;q=0.8" } });
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("&quot;openapi&quot;</span>: <span class=\"s\">&quot;3.1.0&quot;</span>");
  });

  it("documents every route the app registers, with the methods it allows", async () => {
    const documented = new Map<string, string>();
    for (const template of Object.keys(doc.paths)) documented.set(`${serverPath(doc, template)}${template}`, template);
    // The SOAP endpoint and its WSDL are described by the WSDL, not by this document.
    const paths = new Set(registeredPaths(createApp()).map(fromHono).filter((p) => !p.startsWith("/soap")));
    // `/api/protein/bulk_retrieve` is also served without its slash (a redirect would lose the body).
    const registered = [...paths].filter((p) => p.endsWith("/") || !paths.has(`${p}/`));
    const undocumented = registered.filter((p) => !documented.has(p));
    expect(undocumented, "routes missing from the OpenAPI document").toEqual([]);

    const pendingTemplates = new Set(PENDING.map((r) => templateOf(doc, r.path.split("?")[0])));
    expect([...pendingTemplates].includes(undefined), "a PENDING row matches no path of the document").toBe(false);
    const nowServed = [...documented].filter(([full, t]) => pendingTemplates.has(t) && registered.includes(full)).map(([, t]) => t);
    expect(nowServed, "served now: move these rows from PENDING into requestsOf()").toEqual([]);
    const unserved = [...documented].filter(([full, t]) => !registered.includes(full) && !pendingTemplates.has(t)).map(([, t]) => t);
    expect(unserved, "documented but neither served nor PENDING").toEqual([]);

    // Methods: what OPTIONS reports in Allow (ids need not exist for OPTIONS) against the document's operations.
    for (const full of registered) {
      const template = documented.get(full)!;
      const res = await fetch(`${served.origin}${full.replace(/\{\w+\}/g, "1")}`, { method: "OPTIONS" });
      await res.arrayBuffer();
      const allowed = (res.headers.get("Allow") ?? "").split(",").map((m) => m.trim().toLowerCase());
      const operations = ["get", "post", "put", "patch", "delete"].filter((m) => doc.paths[template][m]);
      expect(operations, `${full}: Allow ${res.headers.get("Allow")}`).toEqual(allowed.filter((m) => m !== "head" && m !== "options"));
    }
  });

  it("describes what every endpoint really answers", async () => {
    const failures: string[] = [];
    const gapsSeen = new Set<(typeof KNOWN_GAPS)[number]>();
    for (const r of requestsOf(samples)) {
      const method = r.method ?? "GET";
      const [pathOnly] = r.path.split("?");
      const template = r.template ?? templateOf(doc, pathOnly);
      expect(template, `${r.path}: no path of the document`).toBeDefined();
      const url = new URL(`${base}${r.path}`).toString();
      const res = await fetch(url, { method, headers: r.headers, body: r.body, redirect: "manual" });
      const text = await res.text();
      if (res.status !== r.status) {
        failures.push(`${method} ${r.path}: status ${res.status}, expected ${r.status}: ${text.slice(0, 200)}`);
        continue;
      }
      const mediaType = r.mediaType ?? "application/json";
      const contentType = res.headers.get("Content-Type") ?? "";
      if (method !== "HEAD" && !contentType.startsWith(mediaType.split(";")[0])) failures.push(`${method} ${r.path}: Content-Type ${contentType}`);
      const body = method === "HEAD" ? undefined : /json/.test(mediaType) ? JSON.parse(text) : text;
      if (method === "HEAD") expect(text).toBe("");
      const errors = responseErrors(doc, method, template!, res.status, body, { mediaType, headers: res.headers }).filter((error) => {
        const gap = KNOWN_GAPS.find((g) => g.template === template && g.error.test(error));
        if (gap) gapsSeen.add(gap);
        return !gap;
      });
      if (errors.length) failures.push(`${method} ${r.path} → ${res.status}:\n    ${errors.slice(0, 8).join("\n    ")}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
    const closed = KNOWN_GAPS.filter((g) => !gapsSeen.has(g)).map((g) => `${g.template}: ${g.why}`);
    expect(closed, "fixed: remove these from KNOWN_GAPS").toEqual([]);
  });

  it("serves the edge cases the schemas single out", async () => {
    if (samples.noGroup) expect(await getJson(`${base}/group/${samples.noGroup}/`)).toEqual({});
    if (samples.noHog) {
      const record = await getJson(`${base}/protein/${samples.noHog}/`);
      expect(record.orth_hog_members).toBeNull();
      checkResponse(doc, "get", "/protein/{entry_id}/", 200, record);
    }
  });
});

describe("checkResponse", () => {
  let served: ServedRelease;
  let doc: OpenApiDocument;
  let record: any;

  beforeAll(async () => {
    served = await serveRelease("sim");
    doc = await loadSchema(served.base);
    record = await getJson(`${served.base}/protein/1/`);
  });
  afterAll(() => served?.dispose());

  const check = (template: string, status: number, body: unknown) => () => checkResponse(doc, "GET", template, status, body);

  it("accepts a real body and rejects it doctored: an extra field, a missing one, a wrong type", () => {
    expect(check("/protein/{entry_id}/", 200, record)).not.toThrow();
    expect(check("/protein/{entry_id}/", 200, { ...record, surprise: 1 })).toThrow(/additional properties \(surprise\)/);
    const { cdna: _, ...missing } = record;
    expect(check("/protein/{entry_id}/", 200, missing)).toThrow(/must have required property 'cdna'/);
    expect(check("/protein/{entry_id}/", 200, { ...record, entry_nr: "1" })).toThrow(/\/entry_nr must be integer/);
    expect(check("/protein/{entry_id}/", 200, { ...record, species: { ...record.species, genome_url: "not a url" } })).toThrow(
      /\/species\/genome_url must match format "uri"/,
    );
    expect(check("/protein/{entry_id}/", 200, { ...record, orth_group_url: null })).not.toThrow();
    expect(check("/protein/{entry_id}/", 200, { ...record, domains: null })).toThrow(/\/domains must be string/);
  });

  it("checks nested lists, the empty group and error bodies", () => {
    const members = [{ ...record, sequence: undefined }].map(({ roothog_id, hog_levels, sequence, cdna, description, domains, xref, orthologs, gene_ontology, homoeologs, orth_group_url, orth_hog_members, isoforms, alternative_isoforms_urls, ...ps }) => ps);
    const group = { group_nr: 1, fingerprint: "ABCDEFG", description: "", related_groups: "http://h/api/group/1/close_groups/", members };
    expect(check("/group/{group_id}/", 200, group)).not.toThrow();
    expect(check("/group/{group_id}/", 200, {})).not.toThrow();
    // Strand 0 is an unknown locus (or strand), all zeros; anything but 1, -1 and 0 is refused.
    const unknownLocus = { ...members[0], chromosome: "", locus: { start: 0, end: 0, strand: 0 } };
    expect(check("/group/{group_id}/", 200, { ...group, members: [unknownLocus] })).not.toThrow();
    expect(check("/group/{group_id}/", 200, { ...group, members: [{ ...members[0], locus: { ...members[0].locus, strand: 2 } }] })).toThrow(
      /members\/0\/locus\/strand must be equal to one of the allowed values/,
    );
    expect(check("/group/{group_id}/", 200, { ...group, members: [{ ...members[0], locus: { ...members[0].locus, start: -1 } }] })).toThrow(/locus\/start/);
    expect(check("/group/{group_id}/", 200, { group_nr: 1 })).toThrow();
    expect(check("/protein/{entry_id}/", 404, { detail: "requested id 'X' is unknown" })).not.toThrow();
    expect(check("/protein/{entry_id}/", 404, { detail: "x", hint: "y" })).toThrow(/additional properties \(hint\)/);
    expect(check("/protein/{entry_id}/", 404, ["x"])).toThrow(/must be object/);
    expect(check("/xref/", 400, ["Query too unspecific. Matches >20000 elements"])).not.toThrow();
    expect(check("/hog/{hog_id}/", 410, { detail: "ID HOG:Q0000001 is no longer valid.", replacement_ids: [{ hog_id: "HOG:E0000001", jaccard: 0.5 }] })).not.toThrow();
  });

  it("reports what the document does not describe, and missing required headers", () => {
    expect(responseErrors(doc, "GET", "/nowhere/", 200, {})).toEqual(["the document has no path /nowhere/"]);
    expect(responseErrors(doc, "GET", "/version/", 418, {})).toEqual(["GET /version/ documents no 418 response"]);
    expect(responseErrors(doc, "DELETE", "/version/", 405, { detail: 'Method "DELETE" not allowed.' })).toEqual([]);
    expect(responseErrors(doc, "GET", "/genome/", 200, undefined, { headers: new Headers({ Allow: "GET, HEAD, OPTIONS", Vary: "Accept" }) })).toEqual([
      "missing required header X-Total-Count",
    ]);
  });
});
