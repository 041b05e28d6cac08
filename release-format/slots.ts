/**
 * Slotted trees and hash buckets: chunks found by arithmetic, with no directory page to read.
 *
 * A tree of directory pages costs a cold answer one page read per level below its root, and at
 * public scale the tables a single record starts from (the proteins, the id indexes) have one
 * such level. A slotted tree has none whatever its size: its root, in the header, lists runs of
 * chunks, each run a stretch of one pack cut into equal slots, chunk j of run i at `offsets[i] +
 * j × slots[i]`: one range read. A table's chunks hold a fixed number of rows (`stride`), so
 * chunk j of run i covers the rows from `starts[i] + j × stride`; a hash index's runs cover key
 * ranges from `starts[i]`, and chunk j of a run of n holds the keys k of its range with
 * `bucketOf(k, n)` = j.
 *
 * A slot is `[chunk length: u32 big-endian][chunk][its Merkle path][zeros]`. The root entry's
 * hash is the Merkle root of its run's chunk hashes (a leaf: the chunk's hash; a node: the hash
 * of its two children's hashes, concatenated; a node without a sibling goes up unchanged), so a
 * slot is checked on its own: its chunk hashed, then folded with the path up to the root the
 * header vouches for. A run of one chunk has no path, and its root is the chunk's hash.
 */
/** Bytes of a slot's length prefix. */
export const SLOT_LENGTH_BYTES = 4;

/**
 * The chunk a slot holds, after its length prefix (not checked: the worker checks it against its
 * Merkle path; the compiler reads back its own output); undefined when the slot is too short.
 */
export function slotChunk(slot: Uint8Array): Uint8Array | undefined {
  if (slot.length < SLOT_LENGTH_BYTES) return undefined;
  const end = SLOT_LENGTH_BYTES + new DataView(slot.buffer, slot.byteOffset, slot.byteLength).getUint32(0);
  return end <= slot.length ? slot.subarray(SLOT_LENGTH_BYTES, end) : undefined;
}

/** One step of a leaf's Merkle path: the sibling at `level` (index `sibling` there), left or right of the node. */
export interface MerkleStep {
  level: number;
  sibling: number;
  siblingLeft: boolean;
}

/** The steps from leaf `index` of `count` up to the root: the siblings that exist, bottom up. */
export function merkleSteps(index: number, count: number): MerkleStep[] {
  const steps: MerkleStep[] = [];
  for (let level = 0, i = index, width = count; width > 1; level++, i >>= 1, width = Math.ceil(width / 2)) {
    if (i & 1) steps.push({ level, sibling: i - 1, siblingLeft: true });
    else if (i + 1 < width) steps.push({ level, sibling: i + 1, siblingLeft: false });
  }
  return steps;
}

/**
 * A key's bucket in a hash index of `buckets` buckets: FNV-1a over the key's UTF-16 code units.
 * The compiler and the worker must agree on it byte for byte: it is part of the format.
 */
export function bucketOf(key: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % buckets;
}
