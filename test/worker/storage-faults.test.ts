/**
 * Storage faults inside workerd: a missing blob, a blob whose bytes do not match its hash, a
 * blob cut short, an unreachable bucket, and a release that is not published. Each answers 503
 * (or a SOAP Server fault) with a clear detail and `Cache-Control: no-store`, is logged, is
 * never cached, and requests that need other blobs keep working.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.js";
import type { ReleaseStorage } from "../../src/release/storage.js";
import { blobKey, type Manifest } from "../../release-format/format.js";
import { get, getJson } from "./http.js";
import { useRelease } from "./releases.js";

let manifest: Manifest;
let base: string;

beforeAll(async () => {
  ({ manifest, base } = await useRelease("sim"));
});

/** The sequence shard holding an entry; protein records need it, protein lists do not. */
const sequenceShard = (entry: number) =>
  manifest.tables.sequences.shards[Math.floor((entry - 1) / manifest.tables.sequences.rowsPerShard)];

afterEach(() => vi.restoreAllMocks());

async function expect503(url: string, detail: RegExp) {
  const res = await get(url);
  expect(res.headers.get("ETag")).toBeNull();
  expect(res.headers.get("X-Cache")).toBeNull();
  expect(res.status).toBe(503);
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  expect(res.headers.get("Content-Type")).toBe("application/json");
  expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
}

describe("storage faults", () => {
  it("answers 503 for a missing blob, and recovers once it is back", async () => {
    const hash = sequenceShard(1);
    const original = await (await env.RELEASES.get(blobKey(hash)))!.arrayBuffer();
    await env.RELEASES.delete(blobKey(hash));
    await expect503(`${base}/protein/1/`, new RegExp(`missing \\(blob ${hash}\\)`));
    // The protein list needs no sequence shard and still works.
    const list = await get(`${base}/genome/${manifest.genomes[0].code}/proteins/`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBe(Math.min(100, manifest.genomes[0].nrEntries));
    await env.RELEASES.put(blobKey(hash), original);
    expect((await getJson(`${base}/protein/1/`)).entry_nr).toBe(1);
  });

  it("answers 503 for a blob whose content does not match its hash", async () => {
    const last = manifest.counts.proteins;
    const hash = sequenceShard(last);
    const original = new Uint8Array(await (await env.RELEASES.get(blobKey(hash)))!.arrayBuffer());
    const tampered = original.slice();
    tampered[tampered.length - 1] ^= 0xff;
    await env.RELEASES.put(blobKey(hash), tampered);
    await expect503(`${base}/protein/${last}/`, new RegExp(`corrupt \\(blob ${hash}\\)`));
    await env.RELEASES.put(blobKey(hash), original);
    expect((await getJson(`${base}/protein/${last}/`)).entry_nr).toBe(last);
  });

  it("answers 503 for a blob cut short, logs it, and does not cache the failure", async () => {
    const entry = manifest.genomes[1].firstEntry;
    const hash = sequenceShard(entry);
    const original = new Uint8Array(await (await env.RELEASES.get(blobKey(hash)))!.arrayBuffer());
    await env.RELEASES.put(blobKey(hash), original.slice(0, Math.floor(original.length / 2)));
    const logged = vi.spyOn(console, "error");
    await expect503(`${base}/protein/${entry}/`, new RegExp(`corrupt \\(blob ${hash}\\)`));
    expect(logged.mock.calls.map((call) => String(call[0]))).toContain(`blob ${hash}: content does not match its hash`);
    await env.RELEASES.put(blobKey(hash), original);
    const res = await get(`${base}/protein/${entry}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Cache")).toBe("MISS");
  });

  it("answers 503 (REST) and a Server fault (SOAP) when the bucket is unreachable, and logs it", async () => {
    const unreachable: ReleaseStorage = {
      get: async () => {
        throw new Error("connection reset by peer");
      },
    };
    const logged = vi.spyOn(console, "error");
    // The worker's own app on a store that cannot be reached.
    const app = createApp({ storage: () => unreachable });
    const call = async (request: Request) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(request, env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    // A protein whose shards no earlier request read, so the isolate cache cannot answer it.
    const entry = Math.floor(manifest.counts.proteins / 2) + 7;
    const rest = await call(new Request(`${base}/protein/${entry}/`));
    expect(rest.status).toBe(503);
    expect(rest.headers.get("Cache-Control")).toBe("no-store");
    expect(await rest.json()).toEqual({ detail: "The release storage is unreachable; try again shortly." });
    const soap = await call(
      new Request(`${base.replace(/\/api$/, "")}/soap`, {
        method: "POST",
        headers: { "Content-Type": "text/xml" },
        body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:GetEntry xmlns:m="urn:ORTH"><EntryID>${entry}</EntryID></m:GetEntry></s:Body></s:Envelope>`,
      }),
    );
    expect(soap.status).toBe(500);
    const fault = await soap.text();
    expect(fault).toContain("<faultcode>soap:Server</faultcode>");
    expect(fault).toContain("unreachable");
    expect(logged.mock.calls.some((c) => /storage unreachable/.test(String(c[0])))).toBe(true);
    // The real bucket still answers the same request.
    expect((await getJson(`${base}/protein/${entry}/`)).entry_nr).toBe(entry);
  });

  it("answers 503 for an unknown current release and 404 for an unknown named one", async () => {
    await env.RELEASES.delete("releases/current");
    const res = await get("http://orth.test/api/version/");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "No release is published yet." });
    expect((await get("http://orth.test/release/Nope/api/version/")).status).toBe(404);
  });
});
