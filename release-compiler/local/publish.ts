/**
 * `npm run publish -- --release DIR` puts a compiled release live;
 * `npm run rollback [-- --to NAME]` puts the one before it back.
 *
 * Publishing lists the store's packs once, uploads those it lacks or holds damaged (wrong size
 * or MD5), each hashed against its name before the upload and confirmed by the store's MD5
 * after, then the manifest (a release name, once published, always names the same manifest),
 * and only then switches the current-release pointer, in one write of that manifest. A request
 * reads the pointer once, and the manifest it carries names packs all in place: it sees the old
 * release or the new one whole. Every published release stays servable by name under
 * `/release/{name}/`. Storage operations are retried with backoff on transient faults; an
 * interrupted publish leaves the pointer alone and a rerun uploads only what is missing.
 *
 * The store (store.ts): wrangler dev's local R2 of the server on `--port` (default 8787) or
 * of the state folder `--state`, through Miniflare; or, with `--bucket` and `--endpoint`,
 * an S3-compatible bucket such as Cloudflare R2 (s3-store.ts).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CURRENT_RELEASE_KEY, FORMAT_VERSION, HASH_HEX_LENGTH, manifestKey, packKey, pointerBytes, readPointer, type ManifestFile } from "../../release-format/format.js";
import { releasePacks } from "./release-packs.js";
import { createProgress, type Progress, type Stage } from "../progress.js";
import { folderFiles, type ReleaseFiles } from "./r2-loader.js";
import { s3Store } from "./s3-store.js";
import { DEFAULT_PORT, openLocalState, stateFor } from "./state.js";
import { PermanentError, StoreError, md5Hex, retrying, type ReleaseStore, type RetryOptions } from "./store.js";

/** Releases that have been current, oldest first: rollback walks back along it. */
export const HISTORY_KEY = "releases/history.json";

export class PublishError extends PermanentError {}

export interface PublishResult {
  name: string;
  previous: string | null;
  packs: number;
  uploaded: number;
  bytesUploaded: number;
  /** Packs the store held with the wrong size or checksum, uploaded again. */
  replaced: number;
}

export interface PublishOptions {
  /** Each stage's summary line. */
  log?: (line: string) => void;
  /** Live progress (default: none, only the summary lines). */
  progress?: Progress;
  /** Packs checked and uploaded at once (default 8). */
  concurrency?: number;
  /** Attempts and backoff of each storage operation (store.ts). */
  retry?: RetryOptions;
}

const sha256 = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");
const decode = (bytes: Uint8Array | null): string | null => (bytes ? new TextDecoder().decode(bytes) : null);

const putText = (store: ReleaseStore, key: string, text: string): Promise<void> => putBytes(store, key, new TextEncoder().encode(text));

async function putBytes(store: ReleaseStore, key: string, bytes: Uint8Array): Promise<void> {
  const md5 = md5Hex(bytes);
  const stored = await store.put(key, bytes, md5);
  if (stored.md5 !== null && stored.md5 !== md5) throw new PublishError(`${key} did not store as sent; nothing was switched`);
}

async function readHistory(store: ReleaseStore): Promise<string[]> {
  const text = decode(await store.get(HISTORY_KEY));
  if (text === null) return [];
  const history = JSON.parse(text) as { releases?: unknown };
  if (!Array.isArray(history.releases) || !history.releases.every((n) => typeof n === "string")) {
    throw new PublishError(`${HISTORY_KEY} in the bucket is not a list of release names`);
  }
  return history.releases as string[];
}

const writeHistory = (store: ReleaseStore, releases: string[]) => putText(store, HISTORY_KEY, `${JSON.stringify({ releases }, null, 1)}\n`);

export async function currentRelease(store: ReleaseStore): Promise<string | null> {
  const bytes = await store.get(CURRENT_RELEASE_KEY);
  if (bytes === null) return null;
  const pointer = readPointer(bytes);
  if (!pointer) throw new PublishError(`${CURRENT_RELEASE_KEY} in the bucket holds neither a release's manifest nor a release name`);
  return pointer.name;
}

/**
 * Points `releases/current` at a published release: the pointer holds its manifest file and
 * header, so a fresh isolate opens it in one read (release-format/format.ts, CURRENT_RELEASE_KEY).
 * Both are read back from the store and the header checked against its hash: the pointer
 * carries what readers of the release's own keys would get.
 */
async function writePointer(store: ReleaseStore, name: string): Promise<void> {
  const manifestText = decode(await store.get(manifestKey(name)));
  if (manifestText === null) throw new PublishError(`release ${name} is not published`);
  const [pack, offset, length, hash] = (JSON.parse(manifestText) as ManifestFile).header;
  const header = (await store.get(packKey(pack)))?.subarray(offset, offset + length);
  if (!header || header.length !== length || sha256(header).slice(0, HASH_HEX_LENGTH) !== hash) throw new PublishError(`release ${name}: its header (pack ${pack}) is missing or damaged in the store; publish it again`);
  await putBytes(store, CURRENT_RELEASE_KEY, pointerBytes(manifestText, header));
}

/**
 * The one write that puts a release live (its manifest and packs must be in place), recorded
 * in the history rollback walks back along. Returns the release that was current before.
 * `npm start` makes its release current this way too, so rollback agrees with it.
 */
export async function makeCurrent(storage: ReleaseStore, name: string, retry: RetryOptions = {}): Promise<string | null> {
  const store = retrying(storage, retry);
  const previous = await currentRelease(store);
  const history = await readHistory(store);
  await writePointer(store, name);
  if (history[history.length - 1] !== name) await writeHistory(store, [...history, name]);
  return previous;
}

/** Runs `task` on every item, `concurrency` at a time; the first failure stops new tasks and is thrown. */
async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure) throw failure.error;
}

/**
 * Publishes the release in `files` to `storage`: lists the store's packs once; uploads those
 * it lacks or holds damaged (wrong size or MD5), each hashed against its name before and
 * confirmed by the store after; then the manifest; then the pointer, in one write. A failure
 * anywhere before the pointer leaves the store serving what it served, and a rerun resumes.
 */
export async function publishRelease(storage: ReleaseStore, files: ReleaseFiles, options: PublishOptions = {}): Promise<PublishResult> {
  const log = options.log ?? (() => {});
  const progress = options.progress ?? createProgress(log, undefined);
  const concurrency = options.concurrency ?? 8;
  let stage: Stage | undefined;
  const store = retrying(storage, {
    ...options.retry,
    onRetry: (error, attempt) => {
      stage?.retried();
      options.retry?.onRetry?.(error, attempt);
    },
  });

  const manifestText = await files.text("manifest.json");
  let format: number;
  try {
    format = (JSON.parse(manifestText) as { format: number }).format;
  } catch {
    throw new PublishError("manifest.json is not JSON");
  }
  if (format !== FORMAT_VERSION) {
    const manifest = JSON.parse(manifestText) as { name: string; format: number };
    throw new PublishError(`release ${manifest.name} has format ${manifest.format}; the worker reads format ${FORMAT_VERSION}`);
  }
  const { manifest, packs: hashes } = await releasePacks(files);
  const published = decode(await store.get(manifestKey(manifest.name)));
  if (published !== null && published !== manifestText) {
    throw new PublishError(`a different release named ${manifest.name} is already published; a release name cannot be reused`);
  }

  // What the store holds, listed once.
  const listing = await store.list("packs/");

  // Which packs to upload: missing, or present with the wrong size or checksum.
  const toUpload: Array<{ hash: string; size: number }> = [];
  let replaced = 0;
  stage = progress.stage("check", { items: hashes.length, unit: "packs" });
  await pool(hashes, concurrency, async (hash) => {
    const present = listing.get(packKey(hash));
    const bytes = await files.bytes(packKey(hash));
    let good = false;
    if (present && present.size === bytes.length) {
      // A store whose ETag is no MD5 is read back instead.
      good = present.md5 !== null ? present.md5 === md5Hex(bytes) : sha256((await store.get(packKey(hash))) ?? "").startsWith(hash);
    }
    if (!good) {
      toUpload.push({ hash, size: bytes.length });
      if (present) replaced += 1;
    }
    stage!.advance(1, bytes.length);
  });
  const toSend = toUpload.reduce((sum, b) => sum + b.size, 0);
  stage.done(
    `${manifest.name}: ${hashes.length} packs, ${hashes.length - toUpload.length} already in ${store.where}` +
      `${replaced ? ` (${replaced} there damaged, to be replaced)` : ""}, ${toUpload.length} to upload (${(toSend / 1e6).toFixed(1)} MB)`,
  );

  let bytesUploaded = 0;
  stage = progress.stage("upload", { items: toUpload.length, bytes: toSend, unit: "packs" });
  await pool(toUpload, concurrency, async ({ hash }) => {
    const bytes = await files.bytes(packKey(hash));
    if (!sha256(bytes).startsWith(hash)) throw new PublishError(`${packKey(hash)} in the release folder does not match its name`);
    const md5 = md5Hex(bytes);
    const stored = await store.put(packKey(hash), bytes, md5);
    const confirmed = stored.md5 !== null ? stored.md5 === md5 && stored.size === bytes.length : sha256((await store.get(packKey(hash))) ?? "").startsWith(hash);
    if (!confirmed) throw new PublishError(`pack ${hash} did not store as sent; nothing was switched`);
    bytesUploaded += bytes.length;
    stage!.advance(1, bytes.length);
  });
  stage.done(`${manifest.name}: ${toUpload.length} of ${hashes.length} packs uploaded (${(bytesUploaded / 1e6).toFixed(1)} MB), all verified`);
  stage = undefined;

  if (published === null) {
    await putText(store, manifestKey(manifest.name), manifestText);
    if (decode(await store.get(manifestKey(manifest.name))) !== manifestText) throw new PublishError("the manifest did not read back as written");
  }
  const previous = await makeCurrent(store, manifest.name, { attempts: 1 });
  log(`${manifest.name} is current${previous && previous !== manifest.name ? ` (was ${previous})` : ""}`);
  return { name: manifest.name, previous, packs: hashes.length, uploaded: toUpload.length, bytesUploaded, replaced };
}

/** Switches the pointer back to the release that was current before this one, or to `to`. */
export async function rollbackRelease(storage: ReleaseStore, to?: string, retry: RetryOptions = {}): Promise<{ from: string | null; to: string }> {
  const store = retrying(storage, retry);
  const current = await currentRelease(store);
  const history = await readHistory(store);
  let target = to;
  let kept = history;
  if (target === undefined) {
    const at = current === null ? -1 : history.lastIndexOf(current);
    if (at < 1) throw new PublishError(current ? `no release was current before ${current}` : "no release is current");
    target = history[at - 1];
    kept = history.slice(0, at);
  } else {
    // Back to where `target` was current; one never current before goes on top.
    const at = history.lastIndexOf(target);
    kept = at >= 0 ? history.slice(0, at + 1) : [...history, target];
  }
  await writePointer(store, target);
  await writeHistory(store, kept);
  return { from: current, to: target };
}

const USAGE = `usage: npm run publish -- --release DIR [--port N | --state DIR]
       npm run publish -- --release DIR --bucket NAME --endpoint URL [--region R] [--concurrency N]
       npm run rollback [-- --to NAME] [--port N | --state DIR | --bucket NAME --endpoint URL [--region R]]
(the S3 store's credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and optional AWS_SESSION_TOKEN)`;

const OPTIONS = {
  release: { type: "string" },
  rollback: { type: "boolean" },
  to: { type: "string" },
  port: { type: "string" },
  state: { type: "string" },
  bucket: { type: "string" },
  endpoint: { type: "string" },
  region: { type: "string" },
  concurrency: { type: "string" },
} as const;

/** The store the options name: an S3-compatible bucket, or the local state of the server on a port. */
async function openStore(values: { port?: string; state?: string; bucket?: string; endpoint?: string; region?: string }): Promise<{ store: ReleaseStore; dispose(): Promise<void> }> {
  if (values.endpoint !== undefined) {
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
    if (!accessKeyId || !secretAccessKey) {
      throw new StoreError("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to the store's credentials (for R2: an API token's Access Key ID and Secret Access Key)", false);
    }
    const store = s3Store({ endpoint: values.endpoint, bucket: values.bucket!, region: values.region ?? "auto", accessKeyId, secretAccessKey, sessionToken: sessionToken || undefined });
    return { store, dispose: async () => {} };
  }
  return openLocalState(resolve(values.state ?? stateFor(values.port ?? DEFAULT_PORT)));
}

async function main(): Promise<number> {
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };
  try {
    ({ values } = parseArgs({ options: OPTIONS, strict: true }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const remote = values.endpoint !== undefined || values.bucket !== undefined;
  const misuse =
    (values.rollback ? values.release !== undefined || values.concurrency !== undefined : values.release === undefined || values.to !== undefined) ||
    (remote && (values.endpoint === undefined || values.bucket === undefined || values.port !== undefined || values.state !== undefined)) ||
    (!remote && values.region !== undefined) ||
    (values.port !== undefined && values.state !== undefined) ||
    (values.port !== undefined && !/^[0-9]{2,5}$/.test(values.port)) ||
    (values.concurrency !== undefined && !/^[1-9][0-9]?$/.test(values.concurrency));
  if (misuse) {
    console.error(USAGE);
    return 2;
  }
  const releaseDir = values.release ? resolve(values.release) : undefined;
  if (releaseDir && !existsSync(resolve(releaseDir, "manifest.json"))) {
    console.error(`${releaseDir} holds no compiled release (no manifest.json)`);
    return 1;
  }
  const what = values.rollback ? "rollback" : "publish";
  let opened: { store: ReleaseStore; dispose(): Promise<void> } | undefined;
  try {
    opened = await openStore(values);
    if (releaseDir) {
      const log = (line: string) => console.log(line);
      await publishRelease(opened.store, await folderFiles(releaseDir), {
        log,
        progress: createProgress(log, process.stderr),
        concurrency: values.concurrency ? Number(values.concurrency) : undefined,
      });
    } else {
      const { from, to } = await rollbackRelease(opened.store, values.to);
      console.log(`rolled back: ${to} is current (was ${from ?? "none"})`);
    }
    return 0;
  } catch (error) {
    if (error instanceof PublishError || error instanceof StoreError) {
      const untouched = error instanceof StoreError && error.transient ? "; the pointer was not switched, and a rerun resumes where this one stopped" : "";
      console.error(`\n${what} failed: ${error.message}${untouched}`);
      return 1;
    }
    throw error;
  } finally {
    await opened?.dispose();
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
