/**
 * Chunks beside a protein (format.ts, ProteinShard): each proteins chunk names the chunks of
 * the sequences, annotations, relations and families tables that hold its proteins' rows, as
 * small level-0 directory pages. A protein's answer reads its proteins chunk anyway; with these
 * it reaches its sequence, annotations, relations and family without the directory pages of
 * those tables, which at public scale are one or two levels deep each (FORMAT.md, "Chunks
 * beside a protein").
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { Unpackr } from "msgpackr";
import { entryCovering, walkTree } from "../../release-format/directory.js";
import { slotChunk } from "../../release-format/slots.js";
import { HASH_BYTES, packKey, type BesideTable, type ChunkRef, type ChunkTree, type DirectoryPage, type ProteinRow } from "../../release-format/format.js";

const unpackr = new Unpackr({ useRecords: true });

/** A chunk this compile wrote, read back from the packs of its work folder (its own output: not checked again). */
export function packedChunkReader(work: string): (ref: ChunkRef) => unknown {
  return ([pack, offset, length, , slot]) => {
    const fd = openSync(join(work, packKey(pack)), "r");
    try {
      const bytes = Buffer.alloc(length);
      if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`pack ${pack}: ${length} bytes at ${offset} are past its end`);
      return unpackr.unpack(slot ? slotChunk(bytes)! : bytes);
    } finally {
      closeSync(fd);
    }
  };
}

/** Every chunk of a tree as one level-0 page (its pages' entries concatenated, packs listed once). */
export async function chunkList(tree: ChunkTree<number>, read: (ref: ChunkRef) => unknown): Promise<DirectoryPage<number>> {
  const starts: number[] = [];
  const refs: ChunkRef[] = [];
  const leaves: DirectoryPage<number>[] = tree.depth === 1 ? [tree.root] : [];
  if (tree.depth > 1) {
    await walkTree(tree, async (ref) => {
      const page = read(ref) as DirectoryPage<number>;
      if (page.level === 0) leaves.push(page);
      return page;
    }, () => {});
  }
  for (const page of leaves) {
    for (let i = 0; i < page.starts.length; i++) {
      starts.push(page.starts[i]);
      refs.push([page.packs[page.pack[i]], page.offsets[i], page.lengths[i], ""]);
    }
  }
  // The hashes stay as bytes: copied from the pages, in order.
  const hashes = new Uint8Array(refs.length * HASH_BYTES);
  let at = 0;
  for (const page of leaves) {
    hashes.set(page.hashes.subarray(0, page.starts.length * HASH_BYTES), at);
    at += page.starts.length * HASH_BYTES;
  }
  return pageOfEntries(starts, refs, hashes, (i) => i);
}

/** A level-0 page of entries `at` (ascending) of `list`. */
function slice(list: DirectoryPage<number>, at: number[]): DirectoryPage<number> {
  const refs = at.map((i): ChunkRef => [list.packs[list.pack[i]], list.offsets[i], list.lengths[i], ""]);
  return pageOfEntries(at.map((i) => list.starts[i]), refs, list.hashes, (k) => at[k]);
}

function pageOfEntries(starts: number[], refs: ChunkRef[], hashes: Uint8Array, hashAt: (k: number) => number): DirectoryPage<number> {
  const packs: string[] = [];
  const index = new Map<string, number>();
  const pack = refs.map(([name]) => {
    let i = index.get(name);
    if (i === undefined) index.set(name, (i = packs.push(name) - 1));
    return i;
  });
  const out = new Uint8Array(refs.length * HASH_BYTES);
  refs.forEach((_, k) => out.set(hashes.subarray(hashAt(k) * HASH_BYTES, (hashAt(k) + 1) * HASH_BYTES), k * HASH_BYTES));
  return { level: 0, starts, packs, pack, offsets: refs.map((r) => r[1]), lengths: refs.map((r) => r[2]), hashes: out };
}

/** The entries of `list` covering rows `rows` (ascending, each covered). */
function covering(list: DirectoryPage<number>, rows: number[]): number[] {
  const at: number[] = [];
  for (const row of rows) {
    const i = entryCovering(list, row);
    if (i < 0) throw new Error(`row ${row} precedes every chunk of its table`);
    if (at[at.length - 1] !== i) at.push(i);
  }
  return at;
}

/** What a proteins chunk holds besides its rows: the chunks of the other tables they need. */
export function besideOf(lists: Record<BesideTable, DirectoryPage<number>>) {
  return (rows: ProteinRow[]): { beside: Record<BesideTable, DirectoryPage<number>> } => {
    const first = rows[0].entry - 1;
    const last = rows[rows.length - 1].entry - 1;
    // Entry-keyed tables: the run of chunks from the first row's to the last row's.
    const run = (list: DirectoryPage<number>) => {
      const [from, to] = [entryCovering(list, first), entryCovering(list, last)];
      return slice(list, Array.from({ length: to - from + 1 }, (_, k) => from + k));
    };
    const families = [...new Set(rows.filter((r) => r.family > 0).map((r) => r.family - 1))].sort((a, b) => a - b);
    return {
      beside: {
        sequences: run(lists.sequences),
        annotations: run(lists.annotations),
        relations: run(lists.relations),
        families: slice(lists.families, covering(lists.families, families)),
      },
    };
  };
}
