/**
 * Conformance walk: every GET endpoint of the interface reference, on the simulated release
 * and on primates-chr12, checked for the conventions of section A (status, headers, HEAD,
 * OPTIONS, 405, trailing-slash redirects, `format=api` on every URL of the body, pagination
 * edges) and for its error statuses (section A.4). Field values are checked against the
 * inputs and the truth in the endpoint families' own test files; here every response is
 * also validated against the published OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { checkResponse, loadSchema, type OpenApiDocument } from "../openapi-check.js";
import { getAllPages, getJson, serveRelease, type ServedRelease } from "./serve.js";

interface Endpoint {
  /** Path template of the OpenAPI document. */
  template: string;
  /** Path and query under /api, e.g. `/protein/12/orthologs/`. */
  path: string;
  paginated?: boolean;
}

/** One request of every endpoint, with ids taken from the release itself. */
async function endpointsOf(served: ServedRelease): Promise<Endpoint[]> {
  const { base, manifest } = served;
  const genome = manifest.genomes[0];
  const other = manifest.genomes[1];
  const proteins = await getJson(`${base}/genome/${genome.code}/proteins/?per_page=500`);
  const withHog = proteins.find((p: any) => p.orth_hog_id.includes(".")) ?? proteins.find((p: any) => p.orth_hog_id);
  const withGroup = proteins.find((p: any) => p.orth_group !== 0);
  const [hogRecord] = await getJson(`${base}/hog/${withHog.orth_hog_id}/`);
  const level = hogRecord.level;
  const e = withHog.entry_nr;
  const { sequence } = await getJson(`${base}/protein/${e}/`);
  return [
    { template: "/", path: "/" },
    { template: "/version/", path: "/version/" },
    { template: "/genome/", path: "/genome/", paginated: true },
    { template: "/genome/{genome_id}/", path: `/genome/${genome.code}/` },
    { template: "/genome/{genome_id}/", path: `/genome/${genome.taxonId}/` },
    { template: "/genome/{genome_id}/proteins/", path: `/genome/${genome.code}/proteins/`, paginated: true },
    { template: "/genome/{genome_id}/genes/", path: `/genome/${genome.code}/genes/`, paginated: true },
    { template: "/protein/{entry_id}/", path: `/protein/${e}/` },
    { template: "/protein/{entry_id}/", path: `/protein/${withHog.orthid}/` },
    { template: "/protein/{entry_id}/", path: `/protein/${encodeURIComponent(withHog.canonicalid)}/` },
    { template: "/protein/{entry_id}/orthologs/", path: `/protein/${e}/orthologs/` },
    { template: "/protein/{entry_id}/orthologs/", path: `/protein/${e}/orthologs/?rel_type=1:1` },
    { template: "/protein/{entry_id}/hog_derived_orthologs/", path: `/protein/${e}/hog_derived_orthologs/` },
    { template: "/protein/{entry_id}/gene_ontology/", path: `/protein/${e}/gene_ontology/` },
    { template: "/protein/{entry_id}/ontology/", path: `/protein/${e}/ontology/` },
    { template: "/protein/{entry_id}/domains/", path: `/protein/${e}/domains/` },
    { template: "/protein/{entry_id}/xref/", path: `/protein/${e}/xref/` },
    { template: "/protein/{entry_id}/isoforms/", path: `/protein/${e}/isoforms/` },
    { template: "/group/", path: "/group/", paginated: true },
    { template: "/group/{group_id}/", path: `/group/${withGroup.orth_group}/` },
    { template: "/group/{group_id}/", path: `/group/${withGroup.orthid}/` },
    { template: "/group/{group_id}/close_groups/", path: `/group/${withGroup.orth_group}/close_groups/`, paginated: true },
    { template: "/hog/", path: "/hog/", paginated: true },
    { template: "/hog/", path: `/hog/?level=${encodeURIComponent(level)}`, paginated: true },
    { template: "/hog/{hog_id}/", path: `/hog/${withHog.orth_hog_id}/` },
    { template: "/hog/{hog_id}/", path: `/hog/${withHog.orth_hog_id}/?level=${encodeURIComponent(level)}` },
    { template: "/hog/{hog_id}/", path: `/hog/${e}/?level=root` },
    { template: "/hog/{hog_id}/members/", path: `/hog/${withHog.orth_hog_id}/members/` },
    { template: "/hog/{hog_id}/members/", path: `/hog/${withHog.orth_hog_id}/members/?level=root` },
    { template: "/pairs/{genome_id1}/{genome_id2}/", path: `/pairs/${genome.code}/${other.code}/`, paginated: true },
    { template: "/pairs/{genome_id1}/{genome_id2}/", path: `/pairs/${genome.code}/${genome.code}/`, paginated: true },
    { template: "/pairs/{genome_id1}/{genome_id2}/minimal/", path: `/pairs/${genome.code}/${other.code}/minimal/` },
    { template: "/hog/{hog_id}/gene_ontology/", path: `/hog/${withHog.orth_hog_id}/gene_ontology/` },
    { template: "/hog/{hog_id}/similar_profile_hogs/", path: `/hog/${withHog.orth_hog_id}/similar_profile_hogs/?max_results=5` },
    { template: "/summary/shared_ancestry/{genome_id1}/{genome_id2}/", path: `/summary/shared_ancestry/${genome.code}/${other.code}/` },
    { template: "/sequence/", path: `/sequence/?query=${sequence.slice(0, 60)}` },
    { template: "/sequence/", path: `/sequence/?query=${sequence.slice(0, 60).replace(/[AL]/g, "W")}&search=approximate` },
    { template: "/function/", path: `/function/?query=${sequence}` },
    { template: "/xref/", path: `/xref/?search=${encodeURIComponent(withHog.canonicalid.slice(0, 6))}` },
    { template: "/taxonomy/", path: "/taxonomy/" },
    { template: "/taxonomy/{root_id}/", path: `/taxonomy/${encodeURIComponent(level)}/?type=newick` },
  ];
}

/** Every string in a JSON value that looks like a URL. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string" && /^https?:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

function conformance(name: string, serve: () => Promise<ServedRelease>) {
  describe(`conformance on ${name}`, () => {
    let served: ServedRelease;
    let base: string;
    let endpoints: Endpoint[];
    let schema: OpenApiDocument;

    beforeAll(async () => {
      served = await serve();
      base = served.base;
      endpoints = await endpointsOf(served);
      schema = await loadSchema(base);
    });
    afterAll(() => served?.dispose());

    it("answers every endpoint with 200 JSON, Allow and Vary, valid against the OpenAPI document", async () => {
      for (const { template, path } of endpoints) {
        const res = await fetch(`${base}${path}`, { redirect: "manual" });
        const text = await res.text();
        expect(res.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
        expect(res.headers.get("Content-Type"), path).toMatch(/^application\/json/);
        expect(res.headers.get("Allow"), path).toBe("GET, HEAD, OPTIONS");
        expect(res.headers.get("Vary"), path).toBe("Accept");
        const body = JSON.parse(text);
        checkResponse(schema, "get", template, 200, body, path);
        // Float fields are written as floats (`1.0`), even when whole.
        expect(text, path).not.toMatch(/"(distance|score|ic|alignment_score|completeness_score|jaccard_similarity|fraction)":-?\d+(?![.\deE])/);
        // Every URL is absolute on the request's origin and ends with a slash before its query.
        for (const url of urlsIn(body)) {
          expect(url.startsWith(`${base}/`), `${path}: ${url}`).toBe(true);
          expect(new URL(url).pathname.endsWith("/"), `${path}: ${url}`).toBe(true);
        }
      }
    });

    it("answers HEAD with GET's status and headers and no body", async () => {
      for (const { path } of endpoints) {
        const [get, head] = await Promise.all([fetch(`${base}${path}`), fetch(`${base}${path}`, { method: "HEAD" })]);
        await get.arrayBuffer();
        expect(head.status, path).toBe(get.status);
        for (const h of ["Content-Type", "Allow", "Vary", "Link", "X-Total-Count"]) expect(head.headers.get(h), `${path} ${h}`).toBe(get.headers.get(h));
        expect(await head.text(), path).toBe("");
      }
    });

    it("answers OPTIONS with Allow and a description, and other methods with 405", async () => {
      for (const { path } of endpoints) {
        const options = await fetch(`${base}${path}`, { method: "OPTIONS" });
        expect(options.status, path).toBe(200);
        expect(options.headers.get("Allow"), path).toBe("GET, HEAD, OPTIONS");
        const description: any = await options.json();
        expect(typeof description.name, path).toBe("string");
        expect(description.renders, path).toContain("application/json");
        for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
          const res = await fetch(`${base}${path}`, { method });
          expect(res.status, `${method} ${path}`).toBe(405);
          expect(res.headers.get("Allow"), path).toBe("GET, HEAD, OPTIONS");
          expect(await res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
        }
      }
    });

    it("redirects every path without its trailing slash, keeping the query", async () => {
      for (const { path } of endpoints) {
        const [p, q] = path.split("?");
        if (p === "/") continue;
        const res = await fetch(`${base}${p.slice(0, -1)}${q ? `?${q}` : ""}`, { redirect: "manual" });
        expect(res.status, path).toBe(301);
        expect(new URL(res.headers.get("Location")!, base).toString(), path).toBe(`${base}${path}`);
      }
    });

    it("adds format=api to every URL of every body in browsable mode, and refuses other formats", async () => {
      for (const { path, template } of endpoints) {
        const url = `${base}${path}${path.includes("?") ? "&" : "?"}format=api`;
        const body = await getJson(url);
        checkResponse(schema, "get", template, 200, body, url);
        for (const u of urlsIn(body)) expect(new URL(u).searchParams.get("format"), `${path}: ${u}`).toBe("api");
        const plain = await getJson(`${base}${path}`);
        expect(JSON.stringify(body).replace(/[?&]format=api/g, ""), path).toBe(JSON.stringify(plain));
        const xml = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}format=xml`);
        expect(xml.status, path).toBe(404);
        expect(await xml.json()).toEqual({ detail: "Not found." });
      }
    });

    it("pages every list with X-Total-Count and Link at every edge", async () => {
      for (const { path } of endpoints.filter((x) => x.paginated)) {
        const sep = path.includes("?") ? "&" : "?";
        const all = await getAllPages(`${base}${path}${sep}per_page=100000`);
        const total = all.length;
        const one = await fetch(`${base}${path}${sep}per_page=${Math.max(total, 1)}`);
        expect(one.headers.get("X-Total-Count"), path).toBe(String(total));
        expect(one.headers.get("Link"), path).toBeNull();
        await one.arrayBuffer();
        if (total >= 3) {
          const pageLinks = async (page: number) => {
            const res = await fetch(`${base}${path}${sep}per_page=1${page > 1 ? `&page=${page}` : ""}`);
            expect(res.status, `${path} page ${page}`).toBe(200);
            const items = await res.json();
            expect(items, path).toEqual([all[page - 1]]);
            const rels = Object.fromEntries(
              (res.headers.get("Link") ?? "").split(", ").filter(Boolean).map((l) => {
                const m = /^<([^>]+)>; rel="(\w+)"$/.exec(l)!;
                return [m[2], new URL(m[1])];
              }),
            );
            return rels;
          };
          const first = await pageLinks(1);
          expect(Object.keys(first).sort(), path).toEqual(["last", "next"]);
          expect(first.next.searchParams.get("page")).toBe("2");
          expect(first.last.searchParams.get("page")).toBe(String(total));
          expect(first.next.searchParams.get("per_page")).toBe("1");
          const middle = await pageLinks(2);
          expect(Object.keys(middle).sort(), path).toEqual(["first", "last", "next", "prev"]);
          expect(middle.first.searchParams.has("page")).toBe(false);
          expect(middle.prev.searchParams.has("page")).toBe(false);
          const last = await pageLinks(total);
          expect(Object.keys(last).sort(), path).toEqual(["first", "prev"]);
          // Other parameters survive in every link.
          for (const [k, v] of new URL(`${base}${path}`).searchParams) expect(last.first.searchParams.get(k), path).toBe(v);
        }
        const beyond = await fetch(`${base}${path}${sep}page=${total + 2}`);
        expect(beyond.status, path).toBe(404);
        expect(await beyond.json()).toEqual({ detail: "Invalid page." });
        for (const [param, value] of [["page", "0"], ["page", "abc"], ["per_page", "0"], ["per_page", "-5"], ["per_page", "1.5"]]) {
          const res = await fetch(`${base}${path}${sep}${param}=${value}`);
          expect(res.status, `${path} ${param}=${value}`).toBe(400);
          expect(await res.json()).toEqual({ detail: `Invalid ${param}.` });
        }
      }
    });

    it("answers unknown and malformed ids with their 4xx and detail", async () => {
      const hogPrefix = served.manifest.hogPrefix;
      const cases: Array<[string, number, string | RegExp]> = [
        ["/protein/NOT_AN_ID/", 404, "requested id 'NOT_AN_ID' is unknown"],
        ["/protein/0/", 404, "requested id '0' is unknown"],
        [`/protein/${served.manifest.counts.proteins + 1}/`, 404, /is unknown$/],
        ["/protein/NOT_AN_ID/orthologs/", 404, "requested id 'NOT_AN_ID' is unknown"],
        ["/protein/NOT_AN_ID/xref/", 404, "requested id 'NOT_AN_ID' is unknown"],
        ["/protein/1/xref/?filter=bogus", 400, "invalid argument for parameter filter: bogus"],
        ["/genome/NOPE1/", 404, "Unknown species: NOPE1"],
        ["/genome/NOPE1/proteins/", 404, "Unknown species: NOPE1"],
        ["/pairs/NOPE1/NOPE2/", 404, "Unknown species: NOPE1"],
        ["/group/0/", 404, "requested id '0' is unknown"],
        ["/group/NOT_AN_ID/close_groups/", 404, "requested id 'NOT_AN_ID' is unknown"],
        ["/hog/HOG:bad/", 404, "Invalid hog id: HOG:bad"],
        [`/hog/HOG:${hogPrefix}9999999/`, 404, /is unknown$/],
        [`/hog/HOG:${hogPrefix === "Q" ? "R" : "Q"}0000001/`, 410, /is no longer valid\.$/],
        ["/hog/HOG:X/members/?level=Nowhere", 404, /./],
        ["/hog/?level=Nowhere", 404, "Invalid or unknown level parameter: give a level name of the taxonomy or a species code."],
        ["/taxonomy/Nowhere/", 404, "root level 'Nowhere' not found"],
        ["/taxonomy/?type=bogus", 400, /^Invalid type='bogus'/],
        ["/genome/?per_page=abc", 400, "Invalid per_page."],
        ["/no/such/route/", 404, "Not found."],
      ];
      for (const [path, status, detail] of cases) {
        const res = await fetch(`${base}${path}`);
        const body: any = await res.json();
        expect(res.status, path).toBe(status);
        expect(res.headers.get("Content-Type"), path).toMatch(/^application\/json/);
        expect(res.headers.get("Allow"), path).toBe("GET, HEAD, OPTIONS");
        if (typeof detail === "string") expect(body.detail, path).toBe(detail);
        else expect(body.detail, path).toMatch(detail);
      }
      const version = await fetch(`${base}/version/`, { headers: { Accept: "application/json; version=2.0" } });
      expect(version.status).toBe(406);
      expect(await version.json()).toEqual({ detail: 'Invalid version in "Accept" header.' });
    });
  });
}

conformance("the simulated release", () => serveRelease("sim"));
warnWithoutSharedData("the conformance walk on primates-chr12");
if (hasSharedData) conformance("primates-chr12", () => serveRelease("primates"));
