/**
 * The one thing the worker asks of object storage (as PMTiles' `Source`): the bytes of an object
 * by key, or of a byte range of it. The worker reads R2 through its binding (`r2Storage`); tests
 * and the benchmark hand in any other source (a folder, a store that fails) without pretending
 * to be an `R2Bucket`.
 */
import { unavailable } from "../errors.js";

export interface ByteRange {
  offset: number;
  length: number;
}

export interface ReleaseStorage {
  /**
   * The object's bytes (those of `range` when given; fewer when the object ends before it), or
   * null when there is none; throws when the store cannot be reached.
   */
  get(key: string, range?: ByteRange): Promise<Uint8Array | null>;
}

/** An R2 bucket binding as release storage: a range is one ranged GET. */
export function r2Storage(bucket: R2Bucket): ReleaseStorage {
  return {
    async get(key, range) {
      const object = await bucket.get(key, range ? { range } : undefined);
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
  };
}

/**
 * Attempts at a read that throws, and the pause before each retry. R2 reached from a worker now
 * and then throws a transient error ("We encountered an internal error. Please try again."), and
 * a cold answer makes up to three reads in a row: one failed read should not cost the answer.
 * An absent object (null) or a chunk that does not match its hash is not retried: those are
 * what the store holds.
 */
export const READ_ATTEMPTS = 3;
const RETRY_PAUSES_MS = [10, 50];

/**
 * An object's bytes (or a range of them), or null. A read that throws is retried (READ_ATTEMPTS);
 * a store still unreachable after them is logged and answered 503.
 */
export async function readObject(storage: ReleaseStorage, key: string, range?: ByteRange, what = key): Promise<Uint8Array | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await storage.get(key, range);
    } catch (error) {
      if (attempt >= READ_ATTEMPTS) {
        console.error(`${what}: storage unreachable (${attempt} attempts)`, error);
        throw unavailable("The release storage is unreachable; try again shortly.");
      }
      console.warn(`${what}: read failed, attempt ${attempt} of ${READ_ATTEMPTS}; retrying`, error);
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[attempt - 1] ?? RETRY_PAUSES_MS[RETRY_PAUSES_MS.length - 1]));
    }
  }
}
