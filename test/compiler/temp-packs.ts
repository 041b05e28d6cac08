/**
 * A real pack writer into a fresh temporary folder, for tests of the table and index writers,
 * with a reader that gives back the chunks of a tree it wrote, in key order, each checked
 * against the hash its directory entry gives (as the worker reads them; a slot of a slotted
 * tree by its Merkle path, folded here apart from the worker's code, so either may catch the other).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Unpackr } from "msgpackr";
import { packWriter, type PackWriter } from "../../release-compiler/write/packs.js";
import { entryRef, runChunks, slotRef } from "../../release-format/directory.js";
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
  const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest().subarray(0, HASH_HEX_LENGTH / 2);
  const chunk = <T>([pack, offset, length, hash, slot]: ChunkRef): T => {
    let bytes = readFileSync(join(dir, packKey(pack))).subarray(offset, offset + length);
    if (bytes.length !== length) throw new Error(`pack ${pack}: chunk at ${offset} runs past the end`);
    let node: Buffer;
    if (slot) {
      // [length][chunk][path][zeros]: fold the path up the run's levels, the sibling left of an odd node.
      const [index, count] = slot;
      const end = 4 + bytes.readUInt32BE(0);
      let at = end;
      node = sha(bytes.subarray(4, end));
      for (let i = index, width = count; width > 1; i >>= 1, width = Math.ceil(width / 2)) {
        if (i % 2 === 0 && i + 1 >= width) continue;
        const sibling = bytes.subarray(at, (at += 16));
        node = sha(Buffer.concat(i % 2 ? [sibling, node] : [node, sibling]));
      }
      if (bytes.subarray(at).some((b) => b !== 0)) throw new Error(`pack ${pack}: slot at ${offset} has bytes after its path`);
      bytes = bytes.subarray(4, end);
    } else node = sha(bytes);
    if (node.toString("hex") !== hash) throw new Error(`pack ${pack}: chunk at ${offset} hashes to ${node.toString("hex")}, not ${hash}`);
    return unpackr.unpack(bytes) as T;
  };
  const chunks = <T, Start extends number | string>(tree: ChunkTree<Start>) => {
    const out: Array<{ start: Start; ref: ChunkRef; value: T }> = [];
    if (tree.slotted) {
      const { root, slotted } = tree;
      root.starts.forEach((start, i) => {
        for (let j = 0; j < runChunks(tree, i); j++) {
          const ref = slotRef(tree, i, j);
          // A hash index's buckets (stride 0) all start at their run's first key.
          out.push({ start: (slotted.stride ? (start as number) + j * slotted.stride : start) as Start, ref, value: chunk<T>(ref) });
        }
      });
      return out;
    }
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
    slottedTree: (stride, count) => writer.slottedTree(stride, count),
    slottedRuns: (stride) => writer.slottedRuns(stride),
    single: (value) => writer.single(value),
    get stats() {
      return writer.stats;
    },
    get written() {
      return writer.written;
    },
  };
}
