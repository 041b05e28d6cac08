import { CURRENT_RELEASE_KEY, blobKey, manifestBlobs, manifestKey, type Manifest } from "../../release-format/format.js";

/** The part of an R2 bucket a loader needs (Miniflare's bucket or a Worker binding). */
export interface BucketLike {
  head(key: string): Promise<{ size: number } | null>;
  put(key: string, value: Uint8Array | string): Promise<unknown>;
}

/** Where a compiled release's files come from: a local folder, or a test fixture server. */
export interface ReleaseFiles {
  /** A file of the release folder by relative path (`manifest.json`, `blobs/<hash>.msgpack`). */
  text(path: string): Promise<string>;
  bytes(path: string): Promise<Uint8Array>;
}

export interface LoadResult {
  name: string;
  blobs: number;
  uploaded: number;
  bytesUploaded: number;
}

/**
 * Uploads the blobs a bucket does not hold yet, `concurrency` at a time. `check` runs on each
 * blob's bytes before it is uploaded and `verify` after (publishing hashes both ends); a blob
 * already present is kept unless `keep` says otherwise (publishing compares sizes).
 */
export async function uploadBlobs(
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
      const present = await bucket.head(blobKey(hash));
      if (present && (!options.keep || (await options.keep(hash, present)))) continue;
      const bytes = await files.bytes(`blobs/${hash}.msgpack`);
      await options.check?.(hash, bytes);
      await bucket.put(blobKey(hash), bytes);
      await options.verify?.(hash);
      uploaded += 1;
      bytesUploaded += bytes.length;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return { uploaded, bytesUploaded };
}

/**
 * Loads a compiled release into a bucket: blobs not yet present, then the manifest, then
 * (optionally) the current-release pointer, so a reader never sees a manifest whose blobs
 * are missing. The quick path for tests and `npm start`; `npm run publish` also verifies.
 */
export async function loadRelease(
  bucket: BucketLike,
  files: ReleaseFiles,
  options: { makeCurrent: boolean; concurrency?: number },
): Promise<LoadResult> {
  const manifestText = await files.text("manifest.json");
  const manifest = JSON.parse(manifestText) as Manifest;
  const hashes = manifestBlobs(manifest);
  const { uploaded, bytesUploaded } = await uploadBlobs(bucket, files, hashes, { concurrency: options.concurrency });
  await bucket.put(manifestKey(manifest.name), manifestText);
  if (options.makeCurrent) await bucket.put(CURRENT_RELEASE_KEY, manifest.name);
  return { name: manifest.name, blobs: hashes.length, uploaded, bytesUploaded };
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
