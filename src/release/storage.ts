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

/** An object's bytes (or a range of them), or null; an unreachable store is logged and answered 503. */
export async function readObject(storage: ReleaseStorage, key: string, range?: ByteRange, what = key): Promise<Uint8Array | null> {
  try {
    return await storage.get(key, range);
  } catch (error) {
    console.error(`${what}: storage unreachable`, error);
    throw unavailable("The release storage is unreachable; try again shortly.");
  }
}
