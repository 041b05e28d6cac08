/**
 * Edge behaviour of the deployable bundle on Miniflare: answers cached with the release in the
 * key (Cache API), ETag and 304, Cache-Control, CORS and its preflight.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveRelease, type ServedRelease } from "./serve.js";

let served: ServedRelease;
beforeAll(async () => {
  served = await serveRelease("sim", {}, { edgeCache: true });
});
afterAll(() => served?.dispose());

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${served.base}${path}`, { method, headers });

describe("edge cache and entity tags", () => {
  it("answers a repeat from the edge cache, byte for byte, without reading the release", async () => {
    const first = await get("/protein/3/");
    const body = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(Number(first.headers.get("X-Blob-Reads"))).toBeGreaterThan(0);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(new RegExp(`^"${served.manifest.name.replace(/\./g, "\\.")}-[0-9a-f]{24}"$`));
    expect(first.headers.get("X-Release")).toBe(served.manifest.name);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=300");

    const again = await get("/protein/3/");
    expect(again.headers.get("X-Cache")).toBe("HIT");
    expect(again.headers.get("X-Blob-Reads")).toBe("0");
    expect(again.headers.get("ETag")).toBe(etag);
    expect(again.headers.get("Vary")).toBe("Accept");
    expect(again.headers.get("Content-Type")).toBe(first.headers.get("Content-Type"));
    expect(await again.text()).toBe(body);
  });

  it("answers If-None-Match with 304 when the tag matches (also weak, in a list, or *), else 200", async () => {
    const etag = (await get("/genome/")).headers.get("ETag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await get("/genome/", { "If-None-Match": inm });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("ETag")).toBe(etag);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    }
    const stale = await get("/genome/", { "If-None-Match": '"Other.Release-000000000000000000000000"' });
    expect(stale.status).toBe(200);
    expect((await stale.json()) as unknown[]).not.toHaveLength(0);
    // A HEAD revalidates the same way and a plain HEAD has the GET's headers.
    expect((await get("/genome/", { "If-None-Match": etag }, "HEAD")).status).toBe(304);
    const head = await get("/genome/", {}, "HEAD");
    expect(head.headers.get("ETag")).toBe(etag);
    expect(await head.text()).toBe("");
  });

  it("keeps variants apart: a browser's page, another interface version, another public origin", async () => {
    const json = await get("/genome/");
    const page = await get("/genome/", { Accept: "text/html" });
    const v10 = await get("/genome/", { Accept: "application/json; version=1.0" });
    const proxied = await get("/genome/", { "X-Forwarded-Host": "orth.example.org", "X-Forwarded-Proto": "https" });
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(json.headers.get("Content-Type")).toMatch(/^application\/json/);
    const tags = [json, page, v10, proxied].map((r) => r.headers.get("ETag"));
    expect(new Set(tags).size).toBe(4);
    // The proxied answer links to its own origin, from cache too.
    for (let i = 0; i < 2; i++) {
      const res = i === 0 ? proxied : await get("/genome/", { "X-Forwarded-Host": "orth.example.org", "X-Forwarded-Proto": "https" });
      const genomes = (await res.json()) as Array<{ genome_url?: string; url?: string }>;
      const text = JSON.stringify(genomes);
      expect(text).toContain("https://orth.example.org/api/");
      expect(text).not.toContain(served.origin);
    }
    expect((await get("/genome/", { Accept: "text/html" })).headers.get("X-Cache")).toBe("HIT");
  });

  it("marks a named release's answers immutable", async () => {
    const res = await fetch(`${served.origin}/release/${served.manifest.name}/api/genome/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    // Its links carry the release's prefix, so it is another answer with a tag of its own.
    expect(res.headers.get("ETag")).toMatch(new RegExp(`^"${served.manifest.name.replace(/\./g, "\\.")}-`));
    expect(res.headers.get("ETag")).not.toBe((await get("/genome/")).headers.get("ETag"));
  });

  it("never caches an error, and gives it no tag", async () => {
    for (const path of ["/protein/999999999/", "/genome/?page=x", "/nonsense/"]) {
      for (let i = 0; i < 2; i++) {
        const res = await get(path);
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        expect(res.headers.get("Cache-Control"), path).toBe("no-store");
        expect(res.headers.get("ETag"), path).toBeNull();
        expect(res.headers.get("X-Cache"), path).toBeNull();
        expect((await res.json()) as object).toHaveProperty("detail");
      }
    }
  });

  it("caches bulk retrieve and SOAP answers by their body, and never their errors", async () => {
    const post = (path: string, body: string, type = "application/json") =>
      fetch(`${served.origin}${path}`, { method: "POST", headers: { "Content-Type": type }, body });
    const bulk = JSON.stringify({ ids: ["1", "2", "5"] });
    const first = await post("/api/protein/bulk_retrieve/", bulk);
    const text = await first.text();
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const again = await post("/api/protein/bulk_retrieve/", bulk);
    expect(again.headers.get("X-Cache")).toBe("HIT");
    expect(await again.text()).toBe(text);
    // Another body, or the same body with a Content-Type the endpoint refuses, is another answer.
    const other = await post("/api/protein/bulk_retrieve/", JSON.stringify({ ids: ["1", "2", "6"] }));
    expect(other.headers.get("X-Cache")).toBe("MISS");
    expect(await other.text()).not.toBe(text);
    for (let i = 0; i < 2; i++) {
      const refused = await post("/api/protein/bulk_retrieve/", bulk, "text/plain");
      expect(refused.status).toBe(415);
      expect(refused.headers.get("X-Cache")).toBeNull();
      await refused.arrayBuffer();
    }
    const envelope = (id: string) =>
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:GetEntry xmlns:m="urn:ORTH"><EntryID>${id}</EntryID></m:GetEntry></s:Body></s:Envelope>`;
    const soap = [await post("/soap", envelope("4"), "text/xml"), await post("/soap", envelope("4"), "text/xml")];
    expect(soap.map((r) => r.headers.get("X-Cache"))).toEqual(["MISS", "HIT"]);
    expect(await soap[1].text()).toBe(await soap[0].text());
    // A fault (an unknown entry) is never cached.
    for (let i = 0; i < 2; i++) {
      const fault = await post("/soap", envelope("999999999"), "text/xml");
      expect(fault.status).toBe(500);
      expect(fault.headers.get("X-Cache")).toBeNull();
      await fault.arrayBuffer();
    }
    // A body over the cap is still refused as such.
    const huge = await post("/api/protein/bulk_retrieve/", `[${'"1",'.repeat(300_000)}"1"]`);
    expect(huge.status).toBe(413);
  });
});

describe("CORS", () => {
  it("lets any origin read answers, errors included, and exposes the paging and caching headers", async () => {
    for (const path of ["/version/", "/protein/999999999/"]) {
      const res = await get(path, { Origin: "https://notebook.example" });
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBe("*");
      const exposed = res.headers.get("Access-Control-Expose-Headers")!.split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(["Link", "X-Total-Count", "ETag", "X-Release"]));
      await res.arrayBuffer();
    }
    const cached = await get("/version/", { Origin: "https://notebook.example" });
    expect(cached.headers.get("X-Cache")).toBe("HIT");
    expect(cached.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const soap = await fetch(`${served.origin}/soap`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: "<not-soap/>" });
    expect(soap.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("answers a preflight with the methods the path allows", async () => {
    const preflight = (path: string, method: string) =>
      fetch(`${served.origin}${path}`, {
        method: "OPTIONS",
        headers: { Origin: "https://notebook.example", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "content-type" },
      });
    const read = await preflight("/api/protein/1/", "GET");
    expect(read.status).toBe(204);
    expect(read.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(read.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
    expect(read.headers.get("Access-Control-Allow-Headers")).toMatch(/Content-Type/);
    expect(Number(read.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
    const bulk = await preflight("/api/protein/bulk_retrieve/", "POST");
    expect(bulk.status).toBe(204);
    expect(bulk.headers.get("Access-Control-Allow-Methods")).toBe("POST, OPTIONS");
    const soap = await preflight("/soap", "POST");
    expect(soap.status).toBe(204);
    expect(soap.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    // A plain OPTIONS (no preflight) still describes the endpoint.
    const described = await fetch(`${served.base}/protein/1/`, { method: "OPTIONS" });
    expect(described.status).toBe(200);
    expect(((await described.json()) as { name: string }).name).toBeTruthy();
  });
});

describe("HTML pages", () => {
  it("carry the security headers, from the edge cache too: a CSP with no scripts, nosniff, no framing, no referrer", async () => {
    for (const path of ["/api/protein/2/", "/api/protein/2/", "/api/docs/", "/api/nonsense/"]) {
      const res = await fetch(`${served.origin}${path}`, { headers: { Accept: "text/html" } });
      expect(res.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      const csp = res.headers.get("Content-Security-Policy") ?? "";
      expect(csp, path).toMatch(/default-src 'none'/);
      expect(csp, path).not.toMatch(/script-src/);
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(res.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(res.headers.get("Referrer-Policy"), path).toBe("no-referrer");
      await res.arrayBuffer();
    }
  });
});
