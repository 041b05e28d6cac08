/**
 * A compiled release folder as the worker's release storage, for running the worker's app in
 * Node (in-process tests, the benchmark's CPU figures) without an R2 bucket.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { CURRENT_RELEASE_KEY, manifestKey, packKey, pointerBytes, type ManifestFile } from "../../release-format/format.js";
import { createBlobCache, type BlobCache } from "../../src/release/blob-cache.js";
import { openManifest, releaseView, type Release } from "../../src/release/release.js";
import type { ReleaseStorage } from "../../src/release/storage.js";

/** The manifest file of a compiled release folder. */
export const readManifestFile = (dir: string): ManifestFile => JSON.parse(readFileSync(resolve(dir, "manifest.json"), "utf8")) as ManifestFile;

/** The pointer a publish would write for a compiled release folder: its manifest file and header. */
export function folderPointer(dir: string): Uint8Array {
  const manifestText = readFileSync(resolve(dir, "manifest.json"), "utf8");
  const [pack, offset, length] = (JSON.parse(manifestText) as ManifestFile).header;
  return pointerBytes(manifestText, readFileSync(resolve(dir, packKey(pack))).subarray(offset, offset + length));
}

/**
 * Release storage over a compiled release folder: the current pointer as a publish writes it
 * (its manifest file and header), and ranges of packs read from their files as a store would serve them.
 */
export function folderStorage(dir: string): ReleaseStorage & { keysRead: Set<string> } {
  const { name } = readManifestFile(dir);
  const keysRead = new Set<string>();
  let pointer: Uint8Array | undefined;
  return {
    keysRead,
    async get(key, range) {
      keysRead.add(key);
      if (key === CURRENT_RELEASE_KEY) {
        pointer ??= folderPointer(dir);
        return range ? pointer.slice(range.offset, range.offset + range.length) : pointer.slice();
      }
      let path: string | undefined;
      if (key === manifestKey(name)) path = "manifest.json";
      else if (/^packs\/[0-9a-f]+\.pack$/.test(key)) path = key;
      if (!path) return null;
      let fd: number;
      try {
        fd = openSync(resolve(dir, path), "r");
      } catch {
        return null;
      }
      try {
        if (!range) return new Uint8Array(readFileSync(fd));
        const out = new Uint8Array(range.length);
        const n = readSync(fd, out, 0, range.length, range.offset);
        return out.subarray(0, n);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** A compiled release folder opened as the worker opens one (manifest, then header). */
export async function openReleaseFolder(dir: string, cache: BlobCache = createBlobCache()): Promise<Release> {
  const storage = folderStorage(dir);
  return releaseView(storage, cache, await openManifest(storage, readManifestFile(dir).name));
}
