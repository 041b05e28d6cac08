import { Unpackr } from "msgpackr";
import { blobKey } from "../../release-format/format.js";
import { unavailable } from "../errors.js";
import type { BlobCache } from "./blob-cache.js";
import { decodedSize } from "./decoded-size.js";
import { readObject, type ReleaseStorage } from "./storage.js";

const unpackr = new Unpackr({ useRecords: true });

/** What one request cost in storage: blobs read from the bucket (cache misses) and their bytes. */
export interface ReadCounter {
  reads: number;
  bytes: number;
}

/** One blob, decoded: from the isolate's cache, else read, checked against its hash and decoded. */
export async function readBlob<T>(storage: ReleaseStorage, cache: BlobCache, hash: string, counter?: ReadCounter): Promise<T> {
  const hit = cache.get(hash);
  if (hit !== undefined) return hit as T;
  const value = await fetchBlob(storage, hash, counter);
  cache.put(hash, value, decodedSize(value));
  return value as T;
}

async function fetchBlob(storage: ReleaseStorage, hash: string, counter?: ReadCounter): Promise<unknown> {
  const bytes = await readObject(storage, blobKey(hash), `blob ${hash}`);
  if (!bytes) {
    console.error(`blob ${hash}: missing`);
    throw unavailable(`Release data is missing (blob ${hash}); try again shortly.`);
  }
  if (counter) {
    counter.reads += 1;
    counter.bytes += bytes.length;
  }
  if ((await sha256Hex(bytes)).slice(0, hash.length) !== hash) {
    console.error(`blob ${hash}: content does not match its hash`);
    throw unavailable(`Release data is corrupt (blob ${hash}); try again shortly.`);
  }
  try {
    return unpackr.unpack(bytes);
  } catch (error) {
    console.error(`blob ${hash}: undecodable`, error);
    throw unavailable(`Release data is corrupt (blob ${hash}); try again shortly.`);
  }
}

/** Hex SHA-256 of some bytes (a blob's name is its first BLOB_HASH_HEX_LENGTH digits). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let s = "";
  for (const b of digest) s += b.toString(16).padStart(2, "0");
  return s;
}
