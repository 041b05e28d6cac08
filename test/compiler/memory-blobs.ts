import type { BlobWriter } from "../../release-compiler/write/blobs.js";

/**
 * A blob writer that keeps the values it is given, named by their order number. `clone` keeps
 * a JSON copy (for writers that reuse their row objects); without it, values are kept as given
 * (typed arrays stay typed arrays).
 */
export function memoryBlobs({ clone = false } = {}): BlobWriter & { values: unknown[] } {
  const values: unknown[] = [];
  return {
    values,
    stats: { blobs: 0, bytes: 0, largest: 0 },
    put(value) {
      values.push(clone ? JSON.parse(JSON.stringify(value)) : value);
      return String(values.length - 1);
    },
  };
}
