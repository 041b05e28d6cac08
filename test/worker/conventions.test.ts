/**
 * The interface conventions of the reference (A.1–A.5, B) on the simulated release:
 * headers, redirects, pagination, `format=api`, errors, version negotiation, origins.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../release-format/format.js";
import { get, getJson } from "./http.js";
import { useRelease } from "./releases.js";

let manifest: Manifest;
let base: string;

beforeAll(async () => {
  ({ manifest, base } = await useRelease("sim", true));
});

describe("headers on every response", () => {
  it("sends Allow, Vary and the JSON content type on success and on errors", async () => {
    for (const [path, status] of [
      ["/version/", 200],
      ["/protein/NOPE_NOT_AN_ID/", 404],
      ["/genome/?page=abc", 400],
    ] as const) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
      expect(res.headers.get("Vary")).toBe("Accept");
      expect(res.headers.get("Content-Type")).toBe("application/json");
      const body = (await res.json()) as Record<string, unknown>;
      if (status !== 200) expect(typeof body.detail).toBe("string");
    }
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const res = await get(`${base}/genome/?per_page=2`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe(String(manifest.counts.genomes));
    expect(res.headers.get("Link")).toContain('rel="next"');
    expect(await res.text()).toBe("");
  });

  it("answers OPTIONS with Allow and a description", async () => {
    const res = await get(`${base}/protein/1/`, { method: "OPTIONS" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    const body = (await res.json()) as { name: string; renders: string[] };
    expect(body.name).toBe("Protein Entry");
    expect(body.renders).toContain("application/json");
  });

  it("refuses other methods with 405 naming the method", async () => {
    const res = await get(`${base}/protein/1/`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(await res.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });
});

describe("paths", () => {
  it("redirects a path without its trailing slash, keeping the query", async () => {
    const res = await get(`${base}/genome?per_page=2`);
    expect(res.status).toBe(301);
    expect(res.headers.get("Location")).toBe(`/release/${manifest.name}/api/genome/?per_page=2`);
  });

  it("answers unknown routes and unknown formats with 404 Not found.", async () => {
    for (const path of ["/nothing-here/", "/protein/1/?format=xml", "/genome/?format=csv"]) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found." });
    }
  });

  it("serves the current release at /api/ and a named release under /release/{name}/", async () => {
    const current = await getJson("http://orth.test/api/version/");
    const named = await getJson(`${base}/version/`);
    expect(named).toEqual({ orth_version: manifest.name, api_version: "1.11", field_names: "orth" });
    expect(current).toEqual(named);
    const unknown = await get("http://orth.test/release/No.Such.Release/api/version/");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Unknown release: No.Such.Release" });
  });

  it("builds absolute links from the request origin, honouring a proxy's forwarded headers", async () => {
    const direct = await getJson(`http://localhost:8787/api/protein/1/`);
    expect(direct.entry_url).toBe("http://localhost:8787/api/protein/1/");
    const proxied = await getJson(`http://internal:8787/api/protein/1/`, {
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "orth.example.org" },
    });
    expect(proxied.entry_url).toBe("https://orth.example.org/api/protein/1/");
    expect(proxied.species.genome_url).toMatch(/^https:\/\/orth\.example\.org\/api\/genome\/[A-Z0-9]{5}\/$/);
  });
});

describe("hostile identifiers", () => {
  it("answers malformed, oversized and odd ids with a 404 whose detail stays short", async () => {
    const long = "A".repeat(20_000);
    for (const [path, detail] of [
      [`/protein/${long}/`, `requested id '${"A".repeat(100)}…' is unknown`],
      ["/protein/%ZZ/", "requested id '%ZZ' is unknown"],
      ["/protein/1.5/", "requested id '1.5' is unknown"],
      ["/protein/0/", "requested id '0' is unknown"],
      ["/hog/HOG:%00/", "Invalid hog id: HOG:\u0000"],
      ["/hog/%2e%2e%2f%2e%2e/", "requested id '../..' is unknown"],
      ["/genome/99999999999999999999/", "Unknown species: 99999999999999999999"],
      ["/group/-5/", "requested id '-5' is unknown"],
      ["//protein/1/", "Not found."],
    ]) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ detail });
    }
  });
});

describe("format=api", () => {
  it("suffixes every URL, nested ones included, and only URLs", async () => {
    const plain = await getJson(`${base}/protein/3/`);
    const api = await getJson(`${base}/protein/3/?format=api`);
    const check = (a: unknown, b: unknown): void => {
      if (typeof a === "string" && a.startsWith("http")) {
        expect(b).toBe(`${a}${a.includes("?") ? "&" : "?"}format=api`);
      } else if (a && typeof a === "object") {
        for (const key of Object.keys(a)) check((a as any)[key], (b as any)[key]);
      } else expect(b).toEqual(a);
    };
    check(plain, api);
    expect(api.species.genome_url).toMatch(/\/\?format=api$/);
  });

  it("uses & after an existing query", async () => {
    const hogId = (await getJson(`${base}/protein/1/`)).orth_hog_id;
    if (!hogId) return;
    const [record] = await getJson(`${base}/hog/${hogId}/?format=api`);
    expect(record.members_url).toMatch(/\/members\/\?level=[^&]+&format=api$/);
  });
});

describe("pagination", () => {
  it("pages the genome list with Link and X-Total-Count", async () => {
    const total = manifest.counts.genomes;
    const first = await get(`${base}/genome/?per_page=3`);
    expect(first.headers.get("X-Total-Count")).toBe(String(total));
    const last = Math.ceil(total / 3);
    expect(first.headers.get("Link")).toBe(
      `<${base}/genome/?per_page=3&page=2>; rel="next", <${base}/genome/?per_page=3&page=${last}>; rel="last"`,
    );
    const second = await get(`${base}/genome/?per_page=3&page=2&format=api`);
    const link = second.headers.get("Link")!;
    expect(link).toContain(`<${base}/genome/?per_page=3&format=api>; rel="first"`);
    expect(link).toContain(`<${base}/genome/?per_page=3&format=api>; rel="prev"`);
    expect(link).toContain(`<${base}/genome/?per_page=3&format=api&page=3>; rel="next"`);
    const end = await get(`${base}/genome/?per_page=3&page=${last}`);
    expect(end.headers.get("Link")).not.toContain('rel="next"');
    expect(end.headers.get("Link")).not.toContain('rel="last"');
    expect(((await end.json()) as unknown[]).length).toBe(total - 3 * (last - 1));
  });

  it("sends no Link when everything fits on one page", async () => {
    const res = await get(`${base}/genome/`);
    expect(res.headers.get("Link")).toBeNull();
    expect(res.headers.get("X-Total-Count")).toBe(String(manifest.counts.genomes));
  });

  it("refuses malformed page parameters with 400 and a page past the end with 404", async () => {
    for (const q of ["page=0", "page=-1", "page=abc", "page=1.5", "per_page=0", "per_page=x", "page=99999999999999999999"]) {
      const res = await get(`${base}/group/?${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Invalid (page|per_page)\.$/);
    }
    const past = await get(`${base}/group/?page=100000`);
    expect(past.status).toBe(404);
    expect(await past.json()).toEqual({ detail: "Invalid page." });
  });

  it("lists 100 groups a page by default, numbered in order", async () => {
    const res = await get(`${base}/group/?page=2`);
    const items = (await res.json()) as Array<{ orth_group: number; group_url: string }>;
    const expected = Math.min(100, manifest.counts.groups - 100);
    expect(items.length).toBe(expected);
    expect(items[0]).toEqual({ orth_group: 101, group_url: `${base}/group/101/` });
  });
});

describe("version negotiation", () => {
  it("accepts the known versions and refuses others with 406", async () => {
    const ok = await get(`${base}/version/`, { headers: { Accept: "application/json; version=1.6" } });
    expect(ok.status).toBe(200);
    const bad = await get(`${base}/version/`, { headers: { Accept: "application/json; version=2.0" } });
    expect(bad.status).toBe(406);
    expect(await bad.json()).toEqual({ detail: 'Invalid version in "Accept" header.' });
  });
});
