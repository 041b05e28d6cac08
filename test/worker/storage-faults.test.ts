/**
 * Storage faults inside workerd: a missing pack, a chunk whose bytes do not match its hash, a
 * pack cut short, an unreachable bucket, and a release that is not published. Each answers 503
 * (or a SOAP Server fault) with a clear detail and `Cache-Control: no-store`, is logged, is
 * never cached, and requests that need other packs keep working.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.js";
import { createBlobCache } from "../../src/release/blob-cache.js";
import { releaseView } from "../../src/release/release.js";
import { r2Storage, type ReleaseStorage } from "../../src/release/storage.js";
import { packKey, type ChunkRef, type Manifest } from "../../release-format/format.js";
import { get, getJson } from "./http.js";
import { useRelease } from "./releases.js";

let manifest: Manifest;
let base: string;

beforeAll(async () => {
  ({ manifest, base } = await useRelease("sim"));
});

/**
 * The chunk of the sequences table holding an entry, `[pack, offset, length, hash]`; protein
 * records need it, protein lists do not. Found through a view of its own (its own cache), so
 * the worker's isolate cache is left as it was.
 */
const sequenceChunk = async (entry: number): Promise<ChunkRef> =>
  (await releaseView(r2Storage(env.RELEASES), createBlobCache(), manifest).locate(manifest.tables.sequences.tree, entry - 1))!.ref;

const packBytes = async (pack: string) => new Uint8Array(await (await env.RELEASES.get(packKey(pack)))!.arrayBuffer());

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
  it("answers 503 for a missing pack, and recovers once it is back", async () => {
    const [pack] = await sequenceChunk(1);
    const original = await packBytes(pack);
    await env.RELEASES.delete(packKey(pack));
    await expect503(`${base}/protein/1/`, new RegExp(`missing \\(pack ${pack}\\)`));
    // The protein list needs no sequence chunk and still works.
    const list = await get(`${base}/genome/${manifest.genomes[0].code}/proteins/`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBe(Math.min(100, manifest.genomes[0].nrEntries));
    await env.RELEASES.put(packKey(pack), original);
    expect((await getJson(`${base}/protein/1/`)).entry_nr).toBe(1);
  });

  it("answers 503 for a chunk whose content does not match its hash", async () => {
    const last = manifest.counts.proteins;
    const [pack, offset, length, hash] = await sequenceChunk(last);
    // Not the chunk an earlier test read (the isolate holds that one).
    expect(hash).not.toBe((await sequenceChunk(1))[3]);
    const original = await packBytes(pack);
    const tampered = original.slice();
    tampered[offset + length - 1] ^= 0xff;
    await env.RELEASES.put(packKey(pack), tampered);
    await expect503(`${base}/protein/${last}/`, new RegExp(`corrupt \\(pack ${pack}, chunk ${hash}\\)`));
    await env.RELEASES.put(packKey(pack), original);
    expect((await getJson(`${base}/protein/${last}/`)).entry_nr).toBe(last);
  });

  it("answers 503 for a pack cut short, logs it, and does not cache the failure", async () => {
    const entry = manifest.genomes[1].firstEntry;
    const [pack, offset, length, hash] = await sequenceChunk(entry);
    // Not a chunk an earlier test read (the isolate holds those).
    expect([(await sequenceChunk(1))[3], (await sequenceChunk(manifest.counts.proteins))[3]]).not.toContain(hash);
    const original = await packBytes(pack);
    // The pack ends halfway through the entry's chunk.
    await env.RELEASES.put(packKey(pack), original.slice(0, offset + Math.floor(length / 2)));
    const logged = vi.spyOn(console, "error");
    await expect503(`${base}/protein/${entry}/`, new RegExp(`corrupt \\(pack ${pack}, chunk ${hash}\\)`));
    expect(logged.mock.calls.map((call) => String(call[0]))).toContain(`pack ${pack} at ${offset}: the chunk does not match its hash ${hash}`);
    await env.RELEASES.put(packKey(pack), original);
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
    // A protein whose chunks no earlier request read, so the isolate cache cannot answer it.
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

  it("retries a read that throws: a bucket failing every first attempt still answers, the same bytes, and warns", async () => {
    const bucket = r2Storage(env.RELEASES);
    const failed = new Set<string>();
    const attempts: string[] = [];
    // Each key and range fails on its first read, as R2's transient "internal error" does.
    const flaky: ReleaseStorage = {
      get: async (key, range) => {
        const read = `${key}@${range?.offset ?? "-"}`;
        attempts.push(read);
        if (!failed.has(read)) {
          failed.add(read);
          throw new Error("We encountered an internal error. Please try again.");
        }
        return bucket.get(key, range);
      },
    };
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const entry = Math.floor(manifest.counts.proteins / 3) + 11;
    const ctx = createExecutionContext();
    const res = await createApp({ storage: () => flaky }).fetch(new Request(`${base}/protein/${entry}/`), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(JSON.parse(body).entry_nr).toBe(entry);
    expect(body).toBe(await (await createApp().fetch(new Request(`${base}/protein/${entry}/?same`), env, createExecutionContext())).text());
    // Every read was made twice: the failure, then the retry.
    expect(attempts.length).toBe(2 * failed.size);
    expect(warned.mock.calls.filter((c) => /read failed, attempt 1 of 3; retrying/.test(String(c[0])))).toHaveLength(failed.size);
  });

  it("answers 503 for an unknown current release and 404 for an unknown named one", async () => {
    await env.RELEASES.delete("releases/current");
    const res = await get("http://orth.test/api/version/");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "No release is published yet." });
    expect((await get("http://orth.test/release/Nope/api/version/")).status).toBe(404);
  });
});
