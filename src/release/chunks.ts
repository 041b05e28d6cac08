/**
 * Reading chunks: byte ranges of packs, each checked against the hash its directory entry gives
 * (a slot of a slotted tree: its Merkle path against its run's root) and decoded. Neighbouring
 * chunks of one pack are read in one range (a list walking a table), then checked one by one.
 */
import { Unpackr } from "msgpackr";
import { HASH_BYTES, packKey, type ChunkRef } from "../../release-format/format.js";
import { hex } from "../../release-format/directory.js";
import { merkleSteps, SLOT_LENGTH_BYTES, slotChunk } from "../../release-format/slots.js";
import { unavailable } from "../errors.js";
import { readObject, type ReleaseStorage } from "./storage.js";

const unpackr = new Unpackr({ useRecords: true });

/** What one request cost in storage: range reads made (cache misses) and their bytes. */
export interface ReadCounter {
  reads: number;
  bytes: number;
}

/** Chunks that follow each other in one pack, `[first.offset, last end)`: one read. */
export const adjacent = (a: ChunkRef, b: ChunkRef): boolean => a[0] === b[0] && a[1] + a[2] === b[1];

/** Reads a run of adjacent chunks (see `adjacent`) in one range, and decodes each after checking its hash. */
export async function fetchChunks(storage: ReleaseStorage, run: ChunkRef[], counter?: ReadCounter): Promise<unknown[]> {
  const [pack, offset] = run[0];
  const last = run[run.length - 1];
  const length = last[1] + last[2] - offset;
  const bytes = await readObject(storage, packKey(pack), { offset, length }, `pack ${pack}`);
  if (!bytes) {
    console.error(`pack ${pack}: missing`);
    throw unavailable(`Release data is missing (pack ${pack}); try again shortly.`);
  }
  if (counter) {
    counter.reads += 1;
    counter.bytes += bytes.length;
  }
  return Promise.all(run.map((ref) => checkedChunk(bytes.subarray(ref[1] - offset, ref[1] - offset + ref[2]), ref)));
}

/** A chunk's bytes (its range as read), checked against the hash its ref gives and decoded. */
export async function checkedChunk(range: Uint8Array, [pack, at, size, hash, slot]: ChunkRef): Promise<unknown> {
  const chunk = range.length === size ? (slot ? await checkedSlot(range, slot, hash) : (await sha256(range)) === hash && range) : undefined;
  if (!chunk) {
    console.error(`pack ${pack} at ${at}: the chunk does not match its hash ${hash}`);
    throw unavailable(`Release data is corrupt (pack ${pack}, chunk ${hash}); try again shortly.`);
  }
  try {
    return unpackr.unpack(chunk);
  } catch (error) {
    console.error(`pack ${pack} at ${at}: undecodable`, error);
    throw unavailable(`Release data is corrupt (pack ${pack}, chunk ${hash}); try again shortly.`);
  }
}

/**
 * The chunk in a slot of a slotted tree (release-format/slots.ts) if its Merkle path leads
 * from its hash to the run's root `root`; undefined otherwise.
 */
async function checkedSlot(slotBytes: Uint8Array, [index, count]: [number, number], root: string): Promise<Uint8Array | undefined> {
  const chunk = slotChunk(slotBytes);
  const steps = merkleSteps(index, count);
  const end = SLOT_LENGTH_BYTES + (chunk?.length ?? 0);
  if (!chunk || end + steps.length * HASH_BYTES > slotBytes.length) return undefined;
  let node = await sha256Bytes(chunk);
  for (let k = 0; k < steps.length; k++) {
    const sibling = slotBytes.subarray(end + k * HASH_BYTES, end + (k + 1) * HASH_BYTES);
    const pair = new Uint8Array(2 * HASH_BYTES);
    pair.set(steps[k].siblingLeft ? sibling : node, 0);
    pair.set(steps[k].siblingLeft ? node : sibling, HASH_BYTES);
    node = await sha256Bytes(pair);
  }
  return hex(node) === root ? chunk : undefined;
}

/** The first HASH_BYTES of the SHA-256 of some bytes. */
async function sha256Bytes(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).subarray(0, HASH_BYTES);
}

/** A chunk's hash: the first HASH_HEX_LENGTH hex digits of the SHA-256 of its bytes. */
const sha256 = async (bytes: Uint8Array): Promise<string> => hex(await sha256Bytes(bytes));

/** Hex SHA-256 of some bytes (a pack's name is its first HASH_HEX_LENGTH digits). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
