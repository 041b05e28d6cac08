/**
 * The isolate's blob cache (src/release/blob-cache.ts), run in Node on a compiled release: bounded
 * by the estimated heap of decoded blobs, least recently used out first, and the estimate
 * (src/release/decoded-size.ts) close to what V8 really holds.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { unpack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { createBlobCache, MAX_CACHED_BYTES } from "../../src/release/blob-cache.js";
import { readBlob, type ReadCounter } from "../../src/release/blobs.js";
import type { ReleaseStorage } from "../../src/release/storage.js";
import { decodedSize } from "../../src/release/decoded-size.js";
import { manifestBlobs, type Manifest } from "../../release-format/format.js";
import { TEST_BUILD } from "./serve.js";

const dir = resolve(TEST_BUILD, "sim");
const manifest = JSON.parse(readFileSync(resolve(dir, "manifest.json"), "utf8")) as Manifest;
const file = (hash: string) => readFileSync(resolve(dir, "blobs", `${hash}.msgpack`));

/** Storage reading the release folder. */
const storage: ReleaseStorage = { get: async (key) => new Uint8Array(readFileSync(resolve(dir, key))) };

describe("the isolate's blob cache", () => {
  it("holds decoded blobs within its bound, evicting the least recently used", async () => {
    const cache = createBlobCache();
    const hashes = manifestBlobs(manifest);
    const estimated = hashes.reduce((sum, h) => sum + decodedSize(unpack(file(h))), 0);
    // The test release must overflow the cache several times for the test to mean anything;
    // read it over and over until it has.
    const rounds = Math.ceil((3 * MAX_CACHED_BYTES) / estimated);
    const counter: ReadCounter = { reads: 0, bytes: 0 };
    for (let r = 0; r < rounds; r++) {
      for (const hash of hashes) {
        await readBlob(storage, cache, hash, counter);
        expect(cache.bytes).toBeLessThanOrEqual(MAX_CACHED_BYTES);
      }
    }
    if (estimated > MAX_CACHED_BYTES) expect(counter.reads).toBeGreaterThan(hashes.length);
    else expect(counter.reads).toBe(hashes.length);
    // The most recently read blob is held: reading it again reads nothing.
    const before = counter.reads;
    await readBlob(storage, cache, hashes[hashes.length - 1], counter);
    expect(counter.reads).toBe(before);
    expect(cache.bytes).toBeLessThanOrEqual(MAX_CACHED_BYTES);
  });

  it("estimates a decoded blob's heap from its values", () => {
    expect(decodedSize("ACDEFGHIKL")).toBe(26);
    expect(decodedSize([1, 2, 3])).toBe(48 + 24);
    expect(decodedSize({ a: "xy", b: 1.5 })).toBe(48 + 8 + 18 + 8 + 16);
    expect(decodedSize(new Uint8Array(1000))).toBe(1064);
    // A long array is estimated from a sample: exact when its elements are alike.
    const rows = Array.from({ length: 1000 }, (_, i) => [i, "ACDEFGHIKLMNPQRSTVWY", null]);
    expect(decodedSize(rows)).toBe(48 + 8 * 1000 + 1000 * (48 + 24 + 36));
    // Records of a protein shard take several times their encoded size.
    const shard = unpack(file(manifest.tables.proteins.shards[0]));
    expect(decodedSize(shard) / file(manifest.tables.proteins.shards[0]).length).toBeGreaterThan(2);
  });
});
