/**
 * The isolate's chunk cache (src/release/blob-cache.ts), run in Node on a compiled release: bounded
 * by the estimated heap of decoded chunks, least recently used out first, and the estimate
 * (src/release/decoded-size.ts) close to what V8 really holds.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { unpack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { folderStorage } from "../../release-compiler/local/folder-storage.js";
import { releaseTrees, walkTree } from "../../release-format/directory.js";
import { chunkKey, packKey, type ChunkRef, type DirectoryPage } from "../../release-format/format.js";
import { slotChunk } from "../../release-format/slots.js";
import { createBlobCache, MAX_CACHED_BYTES } from "../../src/release/blob-cache.js";
import { decodedSize } from "../../src/release/decoded-size.js";
import { releaseView } from "../../src/release/release.js";
import { openedManifest } from "../release-folder.js";
import { TEST_BUILD } from "./serve.js";

const dir = resolve(TEST_BUILD, "sim");
const manifest = await openedManifest(dir);
/** The bytes of one chunk, from its pack file (a slot's chunk after its length prefix, release-format/slots.ts). */
const bytesOf = ([pack, offset, length, , slot]: ChunkRef) => {
  const bytes = readFileSync(resolve(dir, packKey(pack))).subarray(offset, offset + length);
  return slot ? slotChunk(bytes)! : bytes;
};

/** Every chunk of the release's trees (directory pages and data chunks), each hash once. */
async function releaseChunks(): Promise<ChunkRef[]> {
  const chunks = new Map<string, ChunkRef>();
  for (const [, tree] of releaseTrees(manifest)) {
    await walkTree(
      tree,
      async (ref) => unpack(bytesOf(ref)) as DirectoryPage,
      (ref) => void (chunks.has(chunkKey(ref)) || chunks.set(chunkKey(ref), ref)),
    );
  }
  return [...chunks.values()];
}

describe("the isolate's chunk cache", () => {
  it("holds decoded chunks within its bound, evicting the least recently used", async () => {
    const cache = createBlobCache();
    // Chunks are read through a release view: storage range reads on a miss, counted.
    const release = releaseView(folderStorage(dir), cache, manifest);
    const chunks = await releaseChunks();
    const estimated = chunks.reduce((sum, ref) => sum + decodedSize(unpack(bytesOf(ref))), 0);
    // The test release must overflow the cache several times for the test to mean anything;
    // read it over and over until it has.
    const rounds = Math.ceil((3 * MAX_CACHED_BYTES) / estimated);
    for (let r = 0; r < rounds; r++) {
      for (const ref of chunks) {
        await release.chunk(ref);
        expect(cache.bytes).toBeLessThanOrEqual(MAX_CACHED_BYTES);
      }
    }
    if (estimated > MAX_CACHED_BYTES) expect(release.reads.reads).toBeGreaterThan(chunks.length);
    else expect(release.reads.reads).toBe(chunks.length);
    // The most recently read chunk is held: reading it again reads nothing.
    const before = release.reads.reads;
    await release.chunk(chunks[chunks.length - 1]);
    expect(release.reads.reads).toBe(before);
    expect(cache.bytes).toBeLessThanOrEqual(MAX_CACHED_BYTES);
  });

  it("estimates a decoded chunk's heap from its values", async () => {
    expect(decodedSize("ACDEFGHIKL")).toBe(26);
    expect(decodedSize([1, 2, 3])).toBe(48 + 24);
    expect(decodedSize({ a: "xy", b: 1.5 })).toBe(48 + 8 + 18 + 8 + 16);
    expect(decodedSize(new Uint8Array(1000))).toBe(1064);
    // A long array is estimated from a sample: exact when its elements are alike.
    const rows = Array.from({ length: 1000 }, (_, i) => [i, "ACDEFGHIKLMNPQRSTVWY", null]);
    expect(decodedSize(rows)).toBe(48 + 8 * 1000 + 1000 * (48 + 24 + 36));
    // Records of a groups chunk take several times their encoded size; a proteins chunk, its rows
    // packed apart (release-format/rows.ts) and decoded when asked for, about its encoded size.
    const view = releaseView(folderStorage(dir), createBlobCache(), manifest);
    const groups = (await view.locate(manifest.tables.groups.tree, 0))!.ref;
    expect(decodedSize(unpack(bytesOf(groups))) / groups[2]).toBeGreaterThan(2);
    const proteins = (await view.locate(manifest.tables.proteins.tree, 0))!.ref;
    const ratio = decodedSize(unpack(bytesOf(proteins))) / proteins[2];
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(2);
  });
});
