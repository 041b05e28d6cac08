/**
 * A compiled release folder as the worker's release storage, for running the worker's app in
 * Node (in-process tests, the benchmark's CPU figures) without an R2 bucket.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CURRENT_RELEASE_KEY, manifestKey, type Manifest } from "../../release-format/format.js";
import type { ReleaseStorage } from "../../src/release/storage.js";

/**
 * Release storage over a compiled release folder : the current
 * pointer names the folder's release. Bytes are kept once read, so after a first pass a read
 * costs no file I/O; each read hands over a copy, as a storage read would.
 */
export function folderStorage(dir: string, manifest: Manifest): ReleaseStorage & { keysRead: Set<string> } {
  const files = new Map<string, Uint8Array>();
  const keysRead = new Set<string>();
  const bytesOf = (key: string): Uint8Array | null => {
    let bytes = files.get(key);
    if (!bytes) {
      let path: string | undefined;
      if (key === CURRENT_RELEASE_KEY) bytes = new TextEncoder().encode(manifest.name);
      else if (key === manifestKey(manifest.name)) path = "manifest.json";
      else if (/^blobs\/[0-9a-f]+\.msgpack$/.test(key)) path = key;
      if (path) {
        try {
          bytes = new Uint8Array(readFileSync(resolve(dir, path)));
        } catch {
          return null;
        }
      }
      if (!bytes) return null;
      files.set(key, bytes);
    }
    return bytes;
  };
  return {
    keysRead,
    async get(key) {
      keysRead.add(key);
      return bytesOf(key)?.slice() ?? null;
    },
  };
}

