/**
 * The one storage interface publishing and rollback run on: wrangler's local R2 (through
 * Miniflare, `r2Store`) and any S3-compatible store such as Cloudflare R2 (`s3Store` in
 * s3-store.ts) implement it, so the guarantees of a publish are written once (publish.ts).
 *
 * Both stores compute the MD5 of what they hold (the ETag of a single-part upload) and
 * refuse an upload whose bytes do not match the MD5 sent with it, so a listing tells a
 * damaged pack from a good one without reading it, and an upload is confirmed by the store.
 */
import { createHash } from "node:crypto";

/** An object as the store describes it. */
export interface StoredObject {
  size: number;
  /** MD5 of the bytes as the store computed it (hex), or null when its ETag is no plain MD5. */
  md5: string | null;
}

export interface ReleaseStore {
  /** Where the store is, for messages. */
  readonly where: string;
  /** Every object under `prefix`, listed once (page after page). */
  list(prefix: string): Promise<Map<string, StoredObject>>;
  /** An object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Writes an object; the store checks the bytes against `md5` (hex) and answers what it holds. */
  put(key: string, bytes: Uint8Array, md5: string): Promise<StoredObject>;
}

/**
 * A storage failure. `transient` ones (a lost connection, a timeout, a 5xx, throttling) are
 * worth another attempt; the others (refused credentials, a missing bucket) are not.
 */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface RetryOptions {
  /** Attempts of one operation before giving up (default 5). */
  attempts?: number;
  /** Wait before the second attempt; doubled each time, with jitter, up to 8 s (default 500 ms). */
  baseDelayMs?: number;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/** Anything but a `StoreError` marked permanent is retried: Miniflare's and fetch's own errors included. */
const retryable = (error: unknown): boolean => (error instanceof StoreError ? error.transient : !(error instanceof PermanentError));

/** An error no retry can mend (a release that does not verify, a refused name). */
export class PermanentError extends Error {}

export async function withRetries<T>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!retryable(error) || attempt >= attempts) {
        if (attempt > 1 && error instanceof StoreError && error.transient) {
          throw new StoreError(`${error.message} (${attempt} attempts)`, true);
        }
        throw error;
      }
      options.onRetry?.(error, attempt);
      const delay = Math.min(8000, base * 2 ** (attempt - 1));
      await new Promise((r) => setTimeout(r, delay / 2 + Math.random() * (delay / 2)));
    }
  }
}

/** The store with every operation retried on a transient fault (a read is read whole inside its attempt). */
export function retrying(store: ReleaseStore, options: RetryOptions = {}): ReleaseStore {
  return {
    where: store.where,
    list: (prefix) => withRetries(() => store.list(prefix), options),
    get: (key) => withRetries(() => store.get(key), options),
    put: (key, bytes, md5) => withRetries(() => store.put(key, bytes, md5), options),
  };
}

/** MD5 (hex) of bytes, as stores report it. */
export const md5Hex = (bytes: Uint8Array): string => createHash("md5").update(bytes).digest("hex");

/** The part of an R2 bucket (a Worker binding, or Miniflare's `getR2Bucket`) a store needs. */
export interface R2BucketLike {
  list(options: { prefix?: string; cursor?: string }): Promise<{ objects: Array<{ key: string; size: number; etag: string }>; truncated: boolean; cursor?: string }>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: Uint8Array, options?: { md5?: string }): Promise<{ size: number; etag: string } | null>;
}

const plainMd5 = (etag: string): string | null => {
  const hex = etag.replace(/"/g, "").toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : null;
};

/** An R2 bucket as a release store (R2's ETag is the MD5 of a single-part object). */
export function r2Store(bucket: R2BucketLike, where: string): ReleaseStore {
  return {
    where,
    async list(prefix) {
      const out = new Map<string, StoredObject>();
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, cursor });
        for (const o of page.objects) out.set(o.key, { size: o.size, md5: plainMd5(o.etag) });
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out;
    },
    async get(key) {
      const object = await bucket.get(key);
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
    async put(key, bytes, md5) {
      const written = await bucket.put(key, bytes, { md5 });
      if (!written) throw new StoreError(`${where}: ${key} was not written`, true);
      return { size: written.size, md5: plainMd5(written.etag) };
    },
  };
}
