/**
 * What a compiled release folder is made of, for the benchmarks that report sizes
 * (compile, scale, search, costs) and the serve mix's read bounds: its packs, manifest and
 * header, and per tree (table or index) its depth, data chunks and directory pages, found by
 * walking the trees from their roots in the header (release-format/directory.ts), reading the
 * pages as the worker reads them. The one place the benchmarks size a release.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { openReleaseFolder, readManifestFile } from "../release-compiler/local/folder-storage.js";
import { releaseTrees, runChunks, walkTree } from "../release-format/directory.js";
import { packKey, type ChunkRef, type ChunkTree, type DirectoryPage } from "../release-format/format.js";
import { SLOT_LENGTH_BYTES } from "../release-format/slots.js";
import type { Release } from "../src/release/release.js";

/** The chunks of one tree: its level-0 entries in key order, and the directory pages below the root. */
export interface TreeChunks<Start extends number | string = number | string> {
  depth: number;
  /** First key of each data chunk, in key order. */
  starts: Start[];
  /** Where each data chunk lies (parallel to `starts`). */
  refs: ChunkRef[];
  /** Directory pages below the root (the root itself is in the header). */
  pages: ChunkRef[];
}

/** Walks a tree, reading its directory pages through the release (checked, cached). */
export async function treeChunks<Start extends number | string>(release: Release, tree: ChunkTree<Start>): Promise<TreeChunks<Start>> {
  if (tree.slotted) {
    // A slotted tree's chunks cover `stride` keys each, run after run (release-format/slots.ts).
    const refs: ChunkRef[] = [];
    await walkTree(tree, async () => tree.root, (ref) => void refs.push(ref));
    const starts: number[] = [];
    tree.root.starts.forEach((start, i) => {
      // A hash index's buckets (stride 0) all start at their run's first key.
      for (let j = 0; j < runChunks(tree, i); j++) starts.push(tree.slotted!.stride ? (start as number) + j * tree.slotted!.stride : (start as number));
    });
    return { depth: 1, starts: starts as Start[], refs, pages: [] };
  }
  // walkTree reads pages depth first in key order, so the level-0 pages come in key order.
  const leaves: Array<DirectoryPage<Start>> = tree.root.level === 0 ? [tree.root] : [];
  const pages: ChunkRef[] = [];
  const refs: ChunkRef[] = [];
  await walkTree(
    tree,
    async (ref) => {
      const page = await release.chunk<DirectoryPage<Start>>(ref);
      if (page.level === 0) leaves.push(page);
      return page;
    },
    (ref, isPage) => void (isPage ? pages : refs).push(ref),
  );
  return { depth: tree.depth, starts: leaves.flatMap((page) => page.starts), refs, pages };
}

/** Index of the data chunk holding key `key` (the last whose first key is ≤ key; -1 before the first). */
export function chunkOf<Start extends number | string>(chunks: TreeChunks<Start>, key: Start): number {
  let lo = 0;
  let hi = chunks.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key < chunks.starts[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/** Data chunks rows [from, to) of a table lie in. */
export const chunksSpanned = (chunks: TreeChunks<number>, from: number, to: number): number =>
  to > from ? chunkOf(chunks, to - 1) - chunkOf(chunks, from) + 1 : 0;

/** Distinct data chunks some keys lie in. */
export const distinctChunks = <Start extends number | string>(chunks: TreeChunks<Start>, keys: Start[]): number => new Set(keys.map((k) => chunkOf(chunks, k))).size;

export interface TreeSize {
  /** `tables.proteins`, `indexes.entryIds`, `sequenceIndex`, `xrefSearch.rows`, … (releaseTrees). */
  name: string;
  depth: number;
  /** Entries of the root page (held in the header). */
  rootEntries: number;
  chunks: number;
  chunkBytes: number;
  pages: number;
  pageBytes: number;
  /** Entries of the pages below the root (for bytes per directory entry). */
  pageEntries: number;
  /** Data chunks and pages. */
  bytes: number;
  /** A slotted tree: its runs, the most slots in one, and the bytes of its chunks alone (their slots less length, Merkle path and padding). */
  slotted?: { runs: number; largestRun: number; contentBytes: number };
}

export interface ReleaseSize {
  name: string;
  /** Pack files in `packs/`. */
  packs: number;
  packBytes: number;
  manifestBytes: number;
  /** The header chunk (in a pack of its own). */
  headerBytes: number;
  /** What the release folder stores: packs and manifest. */
  bytes: number;
  /** Every chunk: data chunks, directory pages and the header. */
  chunks: number;
  largestChunk: number;
  /** Depth of the deepest tree. */
  maxDepth: number;
  trees: TreeSize[];
}

/** Sizes of a compiled release folder, its trees walked (pass `release` when one is open already). */
export async function releaseSize(dir: string, release?: Release): Promise<ReleaseSize> {
  const opened = release ?? (await openReleaseFolder(dir));
  const file = readManifestFile(dir);
  const packFiles = readdirSync(resolve(dir, "packs")).filter((f) => f.endsWith(".pack"));
  const packBytes = packFiles.reduce((n, f) => n + statSync(resolve(dir, "packs", f)).size, 0);
  const manifestBytes = statSync(resolve(dir, "manifest.json")).size;
  const trees: TreeSize[] = [];
  let largestChunk = file.header[2];
  for (const [name, tree] of releaseTrees(opened.manifest)) {
    const t = await treeChunks(opened, tree);
    const sum = (refs: ChunkRef[]) => refs.reduce((n, r) => n + r[2], 0);
    for (const r of t.refs) largestChunk = Math.max(largestChunk, r[2]);
    // Entries below the root: every data chunk and page but those the root lists.
    const pageEntries = t.refs.length + t.pages.length - tree.root.starts.length;
    const size = { chunkBytes: sum(t.refs), pageBytes: sum(t.pages) };
    const slotted = tree.slotted && {
      runs: tree.root.starts.length,
      largestRun: Math.max(...tree.root.starts.map((_, i) => runChunks(tree, i))),
      contentBytes: t.refs.reduce((n, ref) => n + slotContentBytes(dir, ref), 0),
    };
    trees.push({ name, depth: tree.depth, rootEntries: tree.root.starts.length, chunks: t.refs.length, pages: t.pages.length, pageEntries, ...size, bytes: size.chunkBytes + size.pageBytes, ...(slotted ? { slotted } : {}) });
  }
  return {
    name: file.name,
    packs: packFiles.length,
    packBytes,
    manifestBytes,
    headerBytes: file.header[2],
    bytes: packBytes + manifestBytes,
    chunks: 1 + trees.reduce((n, t) => n + t.chunks + t.pages, 0),
    largestChunk,
    maxDepth: Math.max(...trees.map((t) => t.depth)),
    trees,
  };
}

/** The length of the chunk in a slot (release-format/slots.ts), from the slot's prefix in its pack file. */
function slotContentBytes(dir: string, [pack, offset]: ChunkRef): number {
  const fd = openSync(resolve(dir, packKey(pack)), "r");
  try {
    const prefix = Buffer.alloc(SLOT_LENGTH_BYTES);
    readSync(fd, prefix, 0, SLOT_LENGTH_BYTES, offset);
    return prefix.readUInt32BE(0);
  } finally {
    closeSync(fd);
  }
}

/** A tree of a release by name (`tables.proteins`, …); undefined when the release has none (optional tables). */
export const treeNamed = (size: ReleaseSize, name: string): TreeSize | undefined => size.trees.find((t) => t.name === name);
