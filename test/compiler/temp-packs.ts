/**
 * A real pack writer into a fresh temporary folder, for tests of the table and index writers,
 * with a reader that gives back the chunks of a tree it wrote, in key order, each checked
 * against the hash its directory entry gives (as the worker reads them).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Unpackr } from "msgpackr";
import { packWriter, type PackWriter } from "../../release-compiler/write/packs.js";
import { entryRef } from "../../release-format/directory.js";
import { HASH_HEX_LENGTH, packKey, type ChunkRef, type ChunkTree, type DirectoryPage } from "../../release-format/format.js";

const unpackr = new Unpackr({ useRecords: true });

export interface TempPacks extends PackWriter {
  /** The release folder the packs are written into (`packs/` inside). */
  dir: string;
  /** One chunk's value, its bytes checked against its hash. */
  chunk<T = unknown>(ref: ChunkRef): T;
  /** The data chunks of a finished tree (below its directory pages), in key order, with their first keys. */
  chunks<T = unknown, Start extends number | string = number | string>(tree: ChunkTree<Start>): Array<{ start: Start; ref: ChunkRef; value: T }>;
}

export function tempPacks(packBytes?: number): TempPacks {
  const dir = mkdtempSync(join(tmpdir(), "orth-packs-"));
  const writer = packWriter(dir, packBytes);
  const chunk = <T>([pack, offset, length, hash]: ChunkRef): T => {
    const bytes = readFileSync(join(dir, packKey(pack))).subarray(offset, offset + length);
    if (bytes.length !== length) throw new Error(`pack ${pack}: chunk at ${offset} runs past the end`);
    const actual = createHash("sha256").update(bytes).digest("hex").slice(0, HASH_HEX_LENGTH);
    if (actual !== hash) throw new Error(`pack ${pack}: chunk at ${offset} hashes to ${actual}, not ${hash}`);
    return unpackr.unpack(bytes) as T;
  };
  const chunks = <T, Start extends number | string>(tree: ChunkTree<Start>) => {
    const out: Array<{ start: Start; ref: ChunkRef; value: T }> = [];
    const walk = (page: DirectoryPage<Start>) => {
      for (let i = 0; i < page.starts.length; i++) {
        const ref = entryRef(page, i);
        if (page.level > 0) walk(chunk<DirectoryPage<Start>>(ref));
        else out.push({ start: page.starts[i], ref, value: chunk<T>(ref) });
      }
    };
    walk(tree.root);
    return out;
  };
  return {
    dir,
    chunk,
    chunks,
    tree<Start extends number | string>() {
      return writer.tree<Start>();
    },
    single: (value) => writer.single(value),
    get stats() {
      return writer.stats;
    },
    get written() {
      return writer.written;
    },
  };
}
