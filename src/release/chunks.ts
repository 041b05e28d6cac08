/**
 * Reading chunks: byte ranges of packs, each checked against the hash its directory entry gives
 * and decoded. Neighbouring chunks of one pack are read in one range (a list walking a table),
 * then checked one by one.
 */
import { Unpackr } from "msgpackr";
import { packKey, type ChunkRef } from "../../release-format/format.js";
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
  return Promise.all(
    run.map(async ([, at, size, hash]) => {
      const chunk = bytes.subarray(at - offset, at - offset + size);
      if (chunk.length !== size || (await sha256Hex(chunk)).slice(0, hash.length) !== hash) {
        console.error(`pack ${pack} at ${at}: the chunk does not match its hash ${hash}`);
        throw unavailable(`Release data is corrupt (pack ${pack}, chunk ${hash}); try again shortly.`);
      }
      try {
        return unpackr.unpack(chunk);
      } catch (error) {
        console.error(`pack ${pack} at ${at}: undecodable`, error);
        throw unavailable(`Release data is corrupt (pack ${pack}, chunk ${hash}); try again shortly.`);
      }
    }),
  );
}

/** Hex SHA-256 of some bytes (a pack's name and a chunk's hash are its first HASH_HEX_LENGTH digits). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let s = "";
  for (const b of digest) s += b.toString(16).padStart(2, "0");
  return s;
}
