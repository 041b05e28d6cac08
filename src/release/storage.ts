/**
 * The one thing the worker asks of object storage (as PMTiles' `Source`): the bytes of an object
 * by key. The worker reads R2 through its binding (`r2Storage`); tests and the benchmark hand in
 * any other source (a folder, a store that fails) without pretending to be an `R2Bucket`.
 */
import { unavailable } from "../errors.js";

export interface ReleaseStorage {
  /** The object's bytes, or null when there is none; throws when the store cannot be reached. */
  get(key: string): Promise<Uint8Array | null>;
}

/** An R2 bucket binding as release storage. */
export function r2Storage(bucket: R2Bucket): ReleaseStorage {
  return {
    async get(key) {
      const object = await bucket.get(key);
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
  };
}

/** An object's bytes, or null; an unreachable store is logged and answered 503. */
export async function readObject(storage: ReleaseStorage, key: string, what = key): Promise<Uint8Array | null> {
  try {
    return await storage.get(key);
  } catch (error) {
    console.error(`${what}: storage unreachable`, error);
    throw unavailable("The release storage is unreachable; try again shortly.");
  }
}
