import { CURRENT_RELEASE_KEY, manifestKey, packKey, pointerBytes } from "../../release-format/format.js";
import { releasePacks } from "./release-packs.js";

/** The part of an R2 bucket a loader needs (Miniflare's bucket or a Worker binding). */
export interface BucketLike {
  head(key: string): Promise<{ size: number } | null>;
  put(key: string, value: Uint8Array | string): Promise<unknown>;
}

/** Where a compiled release's files come from: a local folder, or a test fixture server. */
export interface ReleaseFiles {
  /** A file of the release folder by relative path (`manifest.json`, `packs/<name>.pack`). */
  text(path: string): Promise<string>;
  bytes(path: string): Promise<Uint8Array>;
}

export interface LoadResult {
  name: string;
  packs: number;
  uploaded: number;
  bytesUploaded: number;
}

/**
 * Uploads the packs a bucket does not hold yet, `concurrency` at a time. `check` runs on each
 * pack's bytes before it is uploaded and `verify` after (publishing hashes both ends); a pack
 * already present is kept unless `keep` says otherwise (publishing compares sizes).
 */
export async function uploadPacks(
  bucket: BucketLike,
  files: ReleaseFiles,
  hashes: string[],
  options: {
    concurrency?: number;
    keep?: (hash: string, present: { size: number }) => Promise<boolean>;
    check?: (hash: string, bytes: Uint8Array) => Promise<void>;
    verify?: (hash: string) => Promise<void>;
  } = {},
): Promise<{ uploaded: number; bytesUploaded: number }> {
  let uploaded = 0;
  let bytesUploaded = 0;
  let next = 0;
  const worker = async () => {
    while (next < hashes.length) {
      const hash = hashes[next++];
      const present = await bucket.head(packKey(hash));
      if (present && (!options.keep || (await options.keep(hash, present)))) continue;
      const bytes = await files.bytes(packKey(hash));
      await options.check?.(hash, bytes);
      await bucket.put(packKey(hash), bytes);
      await options.verify?.(hash);
      uploaded += 1;
      bytesUploaded += bytes.length;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return { uploaded, bytesUploaded };
}

/**
 * Loads a compiled release into a bucket: packs not yet present, then the manifest, then
 * (optionally) the current-release pointer, so a reader never sees a manifest whose packs
 * are missing. The quick path for tests and `npm start`; `npm run publish` also verifies.
 */
export async function loadRelease(
  bucket: BucketLike,
  files: ReleaseFiles,
  options: { makeCurrent: boolean; concurrency?: number },
): Promise<LoadResult> {
  const { manifestText, manifest, packs: hashes, headerBytes } = await releasePacks(files);
  const { uploaded, bytesUploaded } = await uploadPacks(bucket, files, hashes, { concurrency: options.concurrency });
  await bucket.put(manifestKey(manifest.name), manifestText);
  // The pointer carries the manifest and the header (release-format/format.ts, CURRENT_RELEASE_KEY).
  if (options.makeCurrent) await bucket.put(CURRENT_RELEASE_KEY, pointerBytes(manifestText, headerBytes));
  return { name: manifest.name, packs: hashes.length, uploaded, bytesUploaded };
}

/** The files of a compiled release folder on disk. */
export async function folderFiles(dir: string): Promise<ReleaseFiles> {
  const { readFile } = await import("node:fs/promises");
  const { join } = await import("node:path");
  return {
    text: (path) => readFile(join(dir, path), "utf8"),
    // Miniflare wants a plain Uint8Array, not a Buffer.
    bytes: async (path) => {
      const b = await readFile(join(dir, path));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
  };
}
