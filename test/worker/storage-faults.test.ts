/**
 * Storage faults inside workerd: a missing blob, a blob whose bytes do not match its hash, a
 * blob that is not msgpack, and a release that is not published. Each answers 503 with a clear
 * detail and `Cache-Control: no-store`, and requests that need other blobs keep working.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { blobKey, type Manifest } from "../../src/release/format.js";
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

async function expect503(url: string, detail: RegExp) {
  const res = await get(url);
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

  it("answers 503 for an unknown current release and 404 for an unknown named one", async () => {
    await env.RELEASES.delete("releases/current");
    const res = await get("http://orth.test/api/version/");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "No release is published yet." });
    expect((await get("http://orth.test/release/Nope/api/version/")).status).toBe(404);
  });
});
