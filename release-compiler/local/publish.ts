/**
 * `npm run publish -- --release DIR [--state DIR]` puts a compiled release live;
 * `npm run rollback [-- --to NAME] [--state DIR]` puts the one before it back.
 *
 * Publishing uploads the blobs the bucket lacks and verifies each (hashed before upload, read
 * back and hashed after; a blob already there must have the right size, or it is replaced),
 * then the manifest (a release name, once published, always names the same manifest), and
 * only then switches the current-release pointer, in one write. A request reads the pointer
 * once and the manifest it names, whose blobs are all in place: it sees the old release or
 * the new one whole. Every published release stays servable by name under `/release/{name}/`.
 *
 * The bucket is wrangler dev's local R2 (the state `npm start` serves) through Miniflare.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { CURRENT_RELEASE_KEY, FORMAT_VERSION, blobKey, manifestBlobs, manifestKey, type Manifest } from "../../release-format/format.js";
import { folderFiles, uploadBlobs, type BucketLike, type ReleaseFiles } from "./r2-loader.js";

/** Releases that have been current, oldest first: rollback walks back along it. */
export const HISTORY_KEY = "releases/history.json";

/** A bucket publishing can read back from. */
export interface PublishBucket extends BucketLike {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> } | null>;
}

export class PublishError extends Error {}

export interface PublishResult {
  name: string;
  previous: string | null;
  blobs: number;
  uploaded: number;
  bytesUploaded: number;
}

const sha256 = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

async function readText(bucket: PublishBucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  return object ? object.text() : null;
}

async function readHistory(bucket: PublishBucket): Promise<string[]> {
  const text = await readText(bucket, HISTORY_KEY);
  if (text === null) return [];
  const history = JSON.parse(text) as { releases?: unknown };
  if (!Array.isArray(history.releases) || !history.releases.every((n) => typeof n === "string")) {
    throw new PublishError(`${HISTORY_KEY} in the bucket is not a list of release names`);
  }
  return history.releases as string[];
}

const writeHistory = (bucket: PublishBucket, releases: string[]) => bucket.put(HISTORY_KEY, `${JSON.stringify({ releases }, null, 1)}\n`);

export async function currentRelease(bucket: PublishBucket): Promise<string | null> {
  return (await readText(bucket, CURRENT_RELEASE_KEY))?.trim() || null;
}

/** Attempts of a storage operation before publishing gives up (transient faults are retried). */
const ATTEMPTS = 3;

async function withRetries<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof PublishError || attempt >= ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/**
 * The bucket with each operation retried on a transient fault; a read is read whole inside
 * its attempt, so a connection lost mid-body is retried too.
 */
function retrying(bucket: PublishBucket): PublishBucket {
  return {
    head: (key) => withRetries(() => bucket.head(key)),
    put: (key, value) => withRetries(() => bucket.put(key, value)),
    get: (key) =>
      withRetries(async () => {
        const object = await bucket.get(key);
        if (!object) return null;
        const bytes = await object.arrayBuffer();
        return { arrayBuffer: async () => bytes, text: async () => new TextDecoder().decode(bytes) };
      }),
  };
}

/** Uploads, verifies, and switches the pointer to the release in `files`. */
export async function publishRelease(storage: PublishBucket, files: ReleaseFiles, log: (line: string) => void = () => {}): Promise<PublishResult> {
  const bucket = retrying(storage);
  const manifestText = await files.text("manifest.json");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    throw new PublishError("manifest.json is not JSON");
  }
  if (manifest.format !== FORMAT_VERSION) {
    throw new PublishError(`release ${manifest.name} has format ${manifest.format}; the worker reads format ${FORMAT_VERSION}`);
  }
  const published = await readText(bucket, manifestKey(manifest.name));
  if (published !== null && published !== manifestText) {
    throw new PublishError(`a different release named ${manifest.name} is already published; a release name cannot be reused`);
  }

  const hashes = manifestBlobs(manifest);
  const sizes = new Map<string, number>();
  const { uploaded, bytesUploaded } = await uploadBlobs(bucket, files, hashes, {
    // Content-addressed: a blob with the right name and size is the right blob, unless storage
    // damaged it, which the worker's own hash check catches on read (a 503, not wrong data).
    keep: async (hash, present) => present.size === (await files.bytes(`blobs/${hash}.msgpack`)).length,
    check: async (hash, bytes) => {
      if (!sha256(bytes).startsWith(hash)) throw new PublishError(`blobs/${hash}.msgpack in the release folder does not match its hash`);
      sizes.set(hash, bytes.length);
    },
    verify: async (hash) => {
      const back = await bucket.get(blobKey(hash));
      const bytes = back ? new Uint8Array(await back.arrayBuffer()) : null;
      if (!bytes || bytes.length !== sizes.get(hash) || !sha256(bytes).startsWith(hash)) {
        throw new PublishError(`blob ${hash} did not read back as written; nothing was switched`);
      }
    },
  });
  log(`${manifest.name}: ${uploaded} of ${hashes.length} blobs uploaded (${(bytesUploaded / 1e6).toFixed(1)} MB), all verified`);

  if (published === null) {
    await bucket.put(manifestKey(manifest.name), manifestText);
    if ((await readText(bucket, manifestKey(manifest.name))) !== manifestText) throw new PublishError("the manifest did not read back as written");
  }
  const previous = await currentRelease(bucket);
  const history = await readHistory(bucket);
  // The one write that puts the release live.
  await bucket.put(CURRENT_RELEASE_KEY, manifest.name);
  if (history[history.length - 1] !== manifest.name) await writeHistory(bucket, [...history, manifest.name]);
  log(`${manifest.name} is current${previous && previous !== manifest.name ? ` (was ${previous})` : ""}`);
  return { name: manifest.name, previous, blobs: hashes.length, uploaded, bytesUploaded };
}

/** Switches the pointer back to the release that was current before this one, or to `to`. */
export async function rollbackRelease(storage: PublishBucket, to?: string): Promise<{ from: string | null; to: string }> {
  const bucket = retrying(storage);
  const current = await currentRelease(bucket);
  const history = await readHistory(bucket);
  let target = to;
  let kept = history;
  if (target === undefined) {
    const at = current === null ? -1 : history.lastIndexOf(current);
    if (at < 1) throw new PublishError(current ? `no release was current before ${current}` : "no release is current");
    target = history[at - 1];
    kept = history.slice(0, at);
  } else {
    if ((await readText(bucket, manifestKey(target))) === null) throw new PublishError(`release ${target} is not published`);
    // Back to where `target` was current; one never current before goes on top.
    const at = history.lastIndexOf(target);
    kept = at >= 0 ? history.slice(0, at + 1) : [...history, target];
  }
  await bucket.put(CURRENT_RELEASE_KEY, target);
  await writeHistory(bucket, kept);
  return { from: current, to: target };
}

const DEFAULT_STATE = resolve(import.meta.dirname, "../../.wrangler/state");
const USAGE = "usage: npm run publish -- --release DIR [--state DIR]\n       npm run rollback [-- --to NAME] [--state DIR]";

async function main(): Promise<number> {
  let values: { release?: string; state?: string; rollback?: boolean; to?: string };
  try {
    ({ values } = parseArgs({
      options: { release: { type: "string" }, state: { type: "string" }, rollback: { type: "boolean" }, to: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.rollback ? values.release !== undefined : values.release === undefined || values.to !== undefined) {
    console.error(USAGE);
    return 2;
  }
  const releaseDir = values.release ? resolve(values.release) : undefined;
  if (releaseDir && !existsSync(resolve(releaseDir, "manifest.json"))) {
    console.error(`${releaseDir} holds no compiled release (no manifest.json)`);
    return 1;
  }
  const state = resolve(values.state ?? DEFAULT_STATE);
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 204 }); } }",
    r2Buckets: { RELEASES: "orth-releases" },
    r2Persist: resolve(state, "v3/r2"),
  });
  try {
    const bucket = (await mf.getR2Bucket("RELEASES")) as unknown as PublishBucket;
    if (releaseDir) {
      await publishRelease(bucket, await folderFiles(releaseDir), (line) => console.log(line));
    } else {
      const { from, to } = await rollbackRelease(bucket, values.to);
      console.log(`rolled back: ${to} is current (was ${from ?? "none"})`);
    }
    return 0;
  } catch (error) {
    if (error instanceof PublishError) {
      console.error(`${values.rollback ? "rollback" : "publish"} failed: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await mf.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
