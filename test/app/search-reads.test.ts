/**
 * What a sequence search reads, in process on the simulated release: an exact search checks its
 * candidates against the sequences rows its answer's records read anyway, so it reads no chunk
 * of the peptides table, and no range twice; function annotation, which needs no sequence of its
 * matches, checks them against the lighter peptides table.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { folderStorage, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { walkTree } from "../../release-format/directory.js";
import { packKey, type ChunkRef, type DirectoryPage, type SequenceRow } from "../../release-format/format.js";
import { createApp } from "../../src/app.js";
import { createBlobCache } from "../../src/release/blob-cache.js";
import type { ReleaseStorage } from "../../src/release/storage.js";
import { TEST_BUILD } from "../build-dir.js";

const dir = resolve(TEST_BUILD, "sim");
const release = await openReleaseFolder(dir);
const { manifest } = release;

/** Storage over the release folder that records the byte ranges read of each key. */
function recordingStorage(): ReleaseStorage & { ranges: Array<[string, number, number]> } {
  const folder = folderStorage(dir);
  const ranges: Array<[string, number, number]> = [];
  return {
    ranges,
    get: async (key, range) => {
      const bytes = await folder.get(key, range);
      if (bytes && range) ranges.push([key, range.offset, range.offset + bytes.length]);
      return bytes;
    },
  };
}

/** A request through the worker's app on a fresh isolate cache: its status, body and the ranges it read. */
async function cold(path: string) {
  const storage = recordingStorage();
  const app = createApp({ storage: () => storage, blobCache: createBlobCache() });
  await app.request("/api/version/"); // the release opened: its header is not the search's read
  storage.ranges.length = 0;
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as any, ranges: storage.ranges };
}

/** Whether a read range holds any of these chunks. */
const reads = (ranges: Array<[string, number, number]>, chunks: ChunkRef[]) =>
  chunks.some(([pack, at, size]) => ranges.some(([key, from, to]) => key === packKey(pack) && from < at + size && at < to));

describe("sequence search reads", () => {
  it("checks an exact search's candidates against the sequences its records need: no peptides chunk, no range twice", async () => {
    const peptides: ChunkRef[] = [];
    await walkTree(manifest.tables.peptides.tree, (ref) => release.chunk<DirectoryPage>(ref), (ref) => void peptides.push(ref));
    expect(peptides.length).toBeGreaterThan(0);
    const entries = [1, Math.floor(manifest.counts.proteins / 2), manifest.counts.proteins];
    for (const entry of entries) {
      const { sequence } = await release.row<SequenceRow>(manifest.tables.sequences, entry - 1);
      const query = sequence.slice(10, 40);
      const exact = await cold(`/api/sequence/?search=exact&query=${query}`);
      expect(exact.status, query).toBe(200);
      expect(exact.body.targets.map((t: { entry_nr: number }) => t.entry_nr), query).toContain(entry);
      expect(reads(exact.ranges, peptides), `${query}: a peptides chunk read`).toBe(false);
      const keys = exact.ranges.map(([key, from, to]) => `${key} ${from} ${to}`);
      expect(new Set(keys).size, `${query}: a range read twice`).toBe(keys.length);
      // The control: function annotation reads the peptides table for the same query.
      const annotated = await cold(`/api/function/?query=${query}`);
      expect(annotated.status, query).toBe(200);
      expect(reads(annotated.ranges, peptides), `${query}: function annotation's peptides`).toBe(true);
    }
  });
});
