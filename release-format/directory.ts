/**
 * Chunk trees: how a table or index is found in its packs (the PMTiles idea: a root directory
 * read with the header, leaf directories read on demand, byte ranges into large objects).
 * The compiler builds the pages (release-compiler/write/packs.ts), the worker walks them
 * (src/release/release.ts); both use these helpers, so an entry means the same on both sides.
 */
import { bucketOf } from "./slots.js";
import { HASH_BYTES, type ChunkRef, type ChunkTree, type DirectoryPage, type Manifest, type ReleaseHeader, type RowChunk, type TableRef } from "./format.js";

/**
 * Entries of a directory page below the root: about 30 bytes an entry, so ~7.5 kB a page (a
 * cold read of a row pays one such page per level below the root, beside its 16 kB chunk).
 */
export const PAGE_ENTRIES = 256;
/**
 * Entries of a root page at most: roots live in the header, which every isolate reads once, so
 * they are bounded (~120 kB a tree); a tree of more chunks gets a level of pages. 4,096 keeps
 * every table of a release of ~100k proteins, and all but the sequences, at depth 1.
 */
export const ROOT_ENTRIES = 4096;

/**
 * Runs of a slotted tree's root at most (release-format/slots.ts): fewer than a paged root's
 * entries, because a slotted root is a whole tree's directory in the header. Runs of many slots
 * cost little: the proteins' chunks differ little in size (+3% of padding in runs of 16 at a
 * million proteins), and the Merkle path grows by 16 bytes a doubling.
 */
export const SLOTTED_ROOT_RUNS = 1024;

/** JavaScript order of numbers or strings (keys are compared as the compiler sorted them). */
const before = (a: number | string, b: number | string): boolean => a < b;

/** Index of the entry covering `key` (the last whose start is ≤ key); -1 when the key precedes them all. */
export function entryCovering<Start extends number | string>(page: DirectoryPage<Start>, key: Start): number {
  let lo = 0;
  let hi = page.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(key, page.starts[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/** The byte range and hash of entry `i` of a page. */
export function entryRef(page: DirectoryPage, i: number): ChunkRef {
  return [page.packs[page.pack[i]], page.offsets[i], page.lengths[i], hashHex(page.hashes, i * HASH_BYTES)];
}

/** The ChunkRef of a RowChunk of `table`; undefined where the table names no such pack. */
export function rowChunkRef(table: TableRef<unknown>, [, pack, offset, length, hash]: RowChunk): ChunkRef | undefined {
  const name = table.packs?.[pack];
  return name === undefined || hash.length !== HASH_BYTES ? undefined : [name, offset, length, hashHex(hash, 0)];
}

/** The index in `chunks` (ascending first rows) of the one holding `row`: the last starting at or before it; -1 before the first. */
export function rowChunkIndex(chunks: readonly RowChunk[], row: number): number {
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid][0] <= row) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The RowChunk of `chunks` holding `row` (rowChunkIndex); undefined before the first. */
export const rowChunkCovering = (chunks: readonly RowChunk[], row: number): RowChunk | undefined => chunks[rowChunkIndex(chunks, row)];

/** Chunks of run `i` of a slotted tree (release-format/slots.ts). */
export function runChunks(tree: ChunkTree, i: number): number {
  return tree.root.lengths[i] / tree.slotted!.slots[i];
}

/** The ref of chunk `j` of run `i` of a slotted tree: its slot, checked against the run's Merkle root. */
export function slotRef(tree: ChunkTree, i: number, j: number): ChunkRef {
  const { root, slotted } = tree;
  return [root.packs[root.pack[i]], root.offsets[i] + j * slotted!.slots[i], slotted!.slots[i], hashHex(root.hashes, i * HASH_BYTES), [j, runChunks(tree, i)]];
}

/**
 * The chunk of a slotted tree covering `key` (the last whose first key is ≤ key), found by
 * arithmetic in the root; undefined when the key precedes them all.
 */
export function slotCovering(tree: ChunkTree<number>, key: number): { start: number; ref: ChunkRef } | undefined {
  const i = entryCovering(tree.root, key);
  if (i < 0) return undefined;
  const { stride } = tree.slotted!;
  const j = Math.min(Math.floor((key - tree.root.starts[i]) / stride), runChunks(tree, i) - 1);
  return { start: tree.root.starts[i] + j * stride, ref: slotRef(tree, i, j) };
}

/**
 * The bucket of a hash index (stride 0) that would hold `key`: in the run whose key range covers
 * it, slot `bucketOf(key, its chunk count)`; undefined when the key precedes every run.
 */
export function bucketCovering(tree: ChunkTree<string>, key: string): ChunkRef | undefined {
  const i = entryCovering(tree.root, key);
  return i < 0 ? undefined : slotRef(tree, i, bucketOf(key, runChunks(tree, i)));
}

/** Two hex digits of each byte value: hashes are hexed on every chunk located, read and checked. */
const HEX_DIGITS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Bytes [from, to) as hex digits. */
export function hex(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let s = "";
  for (let k = from; k < to; k++) s += HEX_DIGITS[bytes[k]];
  return s;
}

const hashHex = (bytes: Uint8Array, at: number): string => hex(bytes, at, at + HASH_BYTES);

/** The trees of a release, by name (`tables.proteins`, `indexes.entryIds`, …), in a fixed order. */
export function releaseTrees(header: ReleaseHeader | Manifest): Array<[string, ChunkTree]> {
  const out: Array<[string, ChunkTree]> = [];
  // Optional tables and indexes (geneTrees, hogAliases) are absent, never undefined, when a release has none.
  for (const [name, table] of Object.entries(header.tables)) if (table) out.push([`tables.${name}`, table.tree]);
  for (const [name, index] of Object.entries(header.indexes)) if (index) out.push([`indexes.${name}`, index.tree]);
  out.push(["sequenceIndex", header.sequenceIndex.tree]);
  out.push(["xrefSearch.rows", header.xrefSearch.rows.tree]);
  out.push(["xrefSearch.grams", header.xrefSearch.grams.tree]);
  return out;
}

/**
 * Visits every page and chunk of a tree below its root, pages before the entries they list (a
 * slotted tree: each chunk of each run):
 * `visit(ref, isPage)`; `readPage` reads a page (checked) so its entries can be visited.
 */
export async function walkTree(
  tree: ChunkTree,
  readPage: (ref: ChunkRef) => Promise<DirectoryPage>,
  visit: (ref: ChunkRef, isPage: boolean) => void,
): Promise<void> {
  if (tree.slotted) {
    for (let i = 0; i < tree.root.starts.length; i++) for (let j = 0; j < runChunks(tree, i); j++) visit(slotRef(tree, i, j), false);
    return;
  }
  const walk = async (page: DirectoryPage): Promise<void> => {
    for (let i = 0; i < page.starts.length; i++) {
      const ref = entryRef(page, i);
      visit(ref, page.level > 0);
      if (page.level > 0) await walk(await readPage(ref));
    }
  };
  await walk(tree.root);
}
