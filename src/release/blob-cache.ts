/**
 * Decoded chunks (directory pages and data, by hash) kept in an isolate between requests, least
 * recently used first out. Chunks are immutable, so an entry never goes stale. The bound is on the estimated heap of the decoded
 * values (up to ~15 times their encoded size, release/decoded-size.ts), well under the
 * isolate's 128 MB. Only finished values are kept, never a pending read: in workerd, I/O
 * started by one request cannot complete for another.
 */
export const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export interface BlobCache {
  get(hash: string): unknown | undefined;
  /** Keeps a decoded chunk of an estimated `bytes` of heap (one over a quarter of the bound is not kept). */
  put(hash: string, value: unknown, bytes: number): void;
  /** Estimated heap of the values held. */
  readonly bytes: number;
  /** Forgets every value (the benchmark measures cold requests this way). */
  clear(): void;
}

export function createBlobCache(maxBytes = MAX_CACHED_BYTES): BlobCache {
  const entries = new Map<string, { value: unknown; bytes: number }>();
  let held = 0;
  return {
    get(hash) {
      const hit = entries.get(hash);
      if (!hit) return undefined;
      // Map iteration order is insertion order: re-insert to mark it recently used.
      entries.delete(hash);
      entries.set(hash, hit);
      return hit.value;
    },
    put(hash, value, bytes) {
      if (bytes > maxBytes / 4 || entries.has(hash)) return;
      entries.set(hash, { value, bytes });
      held += bytes;
      for (const [key, entry] of entries) {
        if (held <= maxBytes) break;
        entries.delete(key);
        held -= entry.bytes;
      }
    },
    get bytes() {
      return held;
    },
    clear() {
      entries.clear();
      held = 0;
    },
  };
}
