import { Unpackr } from "msgpackr";
import { unavailable } from "../errors.js";
import { decodedSize } from "./decoded-size.js";
import { blobKey } from "../../release-format/format.js";

const unpackr = new Unpackr({ useRecords: true });

/**
 * Decoded blobs kept in the isolate, least recently used first out. Blobs are immutable, so an
 * entry never goes stale. The bound is on the estimated heap of the decoded values (up to ~15
 * times their encoded size), well under the isolate's 128 MB.
 */
export const MAX_CACHED_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, { value: unknown; bytes: number }>();
let cachedBytes = 0;

/** What one request cost in storage: blobs read from the bucket (cache misses) and their bytes. */
export interface ReadCounter {
  reads: number;
  bytes: number;
}

export function clearBlobCache(): void {
  cache.clear();
  cachedBytes = 0;
}

/**
 * Reads, verifies and decodes one blob. Only decoded values are shared between requests,
 * never a pending read: in workerd, I/O started by one request cannot complete for another,
 * so a request that awaited another's read would hang once that request ended.
 */
export async function readBlob<T>(bucket: R2Bucket, hash: string, counter?: ReadCounter): Promise<T> {
  const hit = cache.get(hash);
  if (hit) {
    // Refresh recency: Map iteration order is insertion order, so re-insert.
    cache.delete(hash);
    cache.set(hash, hit);
    return hit.value as T;
  }
  return (await fetchBlob(bucket, hash, counter)) as T;
}

async function fetchBlob(bucket: R2Bucket, hash: string, counter?: ReadCounter): Promise<unknown> {
  let object: R2ObjectBody | null;
  try {
    object = await bucket.get(blobKey(hash));
  } catch (error) {
    console.error(`blob ${hash}: storage unreachable`, error);
    throw unavailable("The release storage is unreachable; try again shortly.");
  }
  if (!object) {
    console.error(`blob ${hash}: missing`);
    throw unavailable(`Release data is missing (blob ${hash}); try again shortly.`);
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  if (counter) {
    counter.reads += 1;
    counter.bytes += bytes.length;
  }
  if ((await sha256Hex(bytes)).slice(0, hash.length) !== hash) {
    console.error(`blob ${hash}: content does not match its hash`);
    throw unavailable(`Release data is corrupt (blob ${hash}); try again shortly.`);
  }
  let value: unknown;
  try {
    value = unpackr.unpack(bytes);
  } catch (error) {
    console.error(`blob ${hash}: undecodable`, error);
    throw unavailable(`Release data is corrupt (blob ${hash}); try again shortly.`);
  }
  remember(hash, value, decodedSize(value));
  return value;
}

/** Estimated heap of the decoded blobs the isolate holds. */
export const cachedBlobBytes = (): number => cachedBytes;

function remember(hash: string, value: unknown, bytes: number): void {
  if (bytes > MAX_CACHED_BYTES / 4) return;
  cache.set(hash, { value, bytes });
  cachedBytes += bytes;
  for (const [key, entry] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(key);
    cachedBytes -= entry.bytes;
  }
}

/** Hex SHA-256 of some bytes (a blob's name is its first BLOB_HASH_HEX_LENGTH digits). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let s = "";
  for (const b of digest) s += b.toString(16).padStart(2, "0");
  return s;
}
