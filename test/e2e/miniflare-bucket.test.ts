/**
 * The bucket tests and tools reach Miniflare's R2 through (release-compiler/local/miniflare-bucket.ts):
 * what publishing relies on (listing page after page, MD5 refusals, absent objects) and that it
 * leaves every other request to the service's worker.
 */
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketWorker, miniflareBucket, type MiniflareBucket } from "../../release-compiler/local/miniflare-bucket.js";
import { md5Hex } from "../../release-compiler/local/store.js";

let mf: Miniflare;
let bucket: MiniflareBucket;
beforeAll(() => {
  const service = "export default { async fetch(request, env) { const o = await env.RELEASES.get('a/b c'); return new Response(o ? await o.text() : 'none'); } }";
  mf = new Miniflare({ workers: [{ modules: true, script: service, r2Buckets: ["RELEASES"] }, bucketWorker("RELEASES")] });
  bucket = miniflareBucket(mf);
});
afterAll(() => mf?.dispose());

describe("Miniflare's R2 from Node", () => {
  it("writes, reads, lists and deletes a key with slashes and spaces, which the service's worker then sees", async () => {
    expect(await bucket.head("a/b c")).toBeNull();
    expect(await bucket.get("a/b c")).toBeNull();
    const written = await bucket.put("a/b c", "hello", { md5: md5Hex(new TextEncoder().encode("hello")) });
    expect(written).toEqual({ size: 5, etag: md5Hex(new TextEncoder().encode("hello")) });
    expect(await bucket.head("a/b c")).toEqual(written);
    expect(await (await bucket.get("a/b c"))!.text()).toBe("hello");
    const origin = (await mf.ready).origin;
    expect(await (await fetch(new URL("/api/anything", origin))).text()).toBe("hello");
    await bucket.delete("a/b c");
    expect(await bucket.head("a/b c")).toBeNull();
    expect(await (await fetch(new URL("/", origin))).text()).toBe("none");
  });

  it("stores an empty object, and a large one streamed through the worker, byte for byte", async () => {
    expect(await bucket.put("empty", new Uint8Array(0))).toEqual({ size: 0, etag: md5Hex(new Uint8Array(0)) });
    expect(new Uint8Array(await (await bucket.get("empty"))!.arrayBuffer())).toEqual(new Uint8Array(0));
    const large = new Uint8Array(20 * 2 ** 20).map((_, i) => (i * 2654435761) >>> 24);
    expect(await bucket.put("large", large, { md5: md5Hex(large) })).toEqual({ size: large.length, etag: md5Hex(large) });
    expect(md5Hex(new Uint8Array(await (await bucket.get("large"))!.arrayBuffer()))).toBe(md5Hex(large));
  });

  it("refuses bytes that do not match the MD5 sent with them, and stores nothing", async () => {
    await expect(bucket.put("refused", new Uint8Array([1, 2, 3]), { md5: "0".repeat(32) })).rejects.toThrow(/PUT \/object\/refused: .*MD5/i);
    expect(await bucket.head("refused")).toBeNull();
  });

  it("lists page after page, with a cursor, whatever the number of keys", async () => {
    const keys = Array.from({ length: 1_205 }, (_, i) => `many/${String(i).padStart(5, "0")}`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => bucket.put(k, k)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await bucket.list({ prefix: "many/", cursor });
      seen.push(...page.objects.map((o) => o.key));
      cursor = page.truncated ? page.cursor : undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(keys);
  });
});
