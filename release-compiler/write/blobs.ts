import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Packr } from "msgpackr";
import { BLOB_HASH_HEX_LENGTH } from "../../release-format/format.js";

/** Records keep repeated object shapes compact; each blob carries its own record definitions. */
const packr = new Packr({ useRecords: true });

export interface BlobWriter {
  /** Packs a value, writes it under the hash of its bytes (once), and returns the hash. */
  put(value: unknown): string;
  readonly stats: { blobs: number; bytes: number; largest: number };
}

export function blobWriter(releaseDir: string): BlobWriter {
  const dir = join(releaseDir, "blobs");
  mkdirSync(dir, { recursive: true });
  const written = new Set<string>();
  const stats = { blobs: 0, bytes: 0, largest: 0 };
  return {
    stats,
    put(value) {
      const bytes = packr.pack(value);
      const hash = createHash("sha256").update(bytes).digest("hex").slice(0, BLOB_HASH_HEX_LENGTH);
      if (!written.has(hash)) {
        written.add(hash);
        const file = join(dir, `${hash}.msgpack`);
        if (!existsSync(file)) writeFileSync(file, bytes);
        stats.blobs += 1;
        stats.bytes += bytes.length;
        stats.largest = Math.max(stats.largest, bytes.length);
      }
      return hash;
    },
  };
}
