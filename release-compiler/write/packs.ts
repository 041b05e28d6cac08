/**
 * Packs and chunk trees: where every table and index of a release is written.
 *
 * A chunk is one msgpack value (rows of a table, a leaf of an index, a directory page). Chunks
 * are appended to packs, files of up to PACK_BYTES named by the hash of their bytes, each
 * tree writing its own packs so tables written side by side (relations and pairs) never mix.
 * When a tree is finished, its chunks are listed in directory pages of `LAYOUT.pageEntries`, level
 * by level, until one page of at most `LAYOUT.rootEntries` is left: the root, which the header holds.
 * A page can only name a pack once that pack is closed (its name is its hash), so data packs
 * close before their pages are written and each level of pages closes its own pack. A slotted
 * tree (release-format/slots.ts) has no pages: its chunks are written run by run, each run as
 * equal slots holding a chunk and its Merkle path, and its root lists the runs.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Packr } from "msgpackr";
import { writeFully } from "../files.js";
import { LAYOUT } from "./layout.js";
import { merkleSteps, SLOT_LENGTH_BYTES } from "../../release-format/slots.js";
import { HASH_BYTES, HASH_HEX_LENGTH, packKey, type ChunkRef, type ChunkTree, type DirectoryPage } from "../../release-format/format.js";

/** Records keep repeated object shapes compact; each chunk carries its own record definitions. */
const packr = new Packr({ useRecords: true });

/** Numbers the temporary files of packs being written: unique in this process, whichever writer writes them. */
let temporary = 0;

/** A pack is closed once it reaches this size: one object to store, read by ranges. */
export const PACK_BYTES = 64 * 2 ** 20;

export const packChunk = (value: unknown): Uint8Array => packr.pack(value);

export interface PackStats {
  packs: number;
  chunks: number;
  /** Bytes of every pack. */
  bytes: number;
  largestChunk: number;
}

export interface PackWriter {
  /** A new tree, whose chunks are added in key order. */
  tree<Start extends number | string>(): TreeWriter<Start>;
  /**
   * A new slotted tree (release-format/slots.ts) of `chunks` chunks, added in order, the k-th
   * covering the keys from k × `stride`: its root lists runs of slots, at most `LAYOUT.slottedRootRuns`.
   */
  slottedTree(stride: number, chunks: number): ChunkWriter<number>;
  /** A new slotted tree written run by run (a hash index: `stride` 0, runs keyed by their first key). */
  slottedRuns<Start extends number | string>(stride: number): SlottedRunWriter<Start>;
  /** One chunk in a pack of its own (the release header). */
  single(value: unknown): ChunkRef;
  readonly stats: PackStats;
  /** Names of the packs this writer closed, in order (a pack another writer had written already included). */
  readonly written: string[];
}

export interface ChunkWriter<Start extends number | string> {
  /** Appends a chunk covering the keys from `start` (greater than the previous chunk's). */
  add(start: Start, value: unknown): void;
  /** `add` of a chunk packed already (packChunk), on a worker thread. */
  addPacked(start: Start, bytes: Uint8Array): void;
  /** Appends chunks another writer wrote (its `chunks()`), in closed packs, keys after this tree's. */
  addChunks(chunks: DirectoryPage<Start>): void;
  /**
   * Closes the tree's packs and returns its chunks as a page of level 0 (never written), for a
   * tree put together elsewhere (`addChunks`): a task writing part of a table.
   */
  chunks(): DirectoryPage<Start>;
  /** Closes the tree's packs, writes its pages and returns it. */
  finish(): ChunkTree<Start>;
}

/** A tree of directory pages, whose chunks' places are known as they are written. */
export interface TreeWriter<Start extends number | string> extends ChunkWriter<Start> {
  /** `add`, returning where the chunk lies. */
  add(start: Start, value: unknown): Placed;
  addPacked(start: Start, bytes: Uint8Array): Placed;
  /** The names of the packs this tree's chunks went to, in order (Placed `pack`): once it is finished. */
  packNames(): string[];
}

const sha = (bytes: Uint8Array): Buffer => createHash("sha256").update(bytes).digest().subarray(0, HASH_BYTES);

/** A slotted tree written run by run: each run's chunks (packed) become its equal slots. */
export interface SlottedRunWriter<Start extends number | string> {
  /** Appends a run covering the keys from `start` (greater than the previous run's). */
  addRun(start: Start, chunks: Uint8Array[]): void;
  finish(): ChunkTree<Start>;
}

/** A chunk as written, until its pack has a name. */
interface Written {
  pack: PackFile;
  offset: number;
  length: number;
  hash: Buffer;
}

/** Where a chunk went before its pack has a name: its pack's place among its tree's packs (RowChunk). */
export interface Placed {
  pack: number;
  offset: number;
  length: number;
  hash: Buffer;
}

interface PackFile {
  name?: string;
}

export function packWriter(releaseDir: string, packBytes = PACK_BYTES): PackWriter {
  const dir = join(releaseDir, "packs");
  mkdirSync(dir, { recursive: true });
  const stats: PackStats = { packs: 0, chunks: 0, bytes: 0, largestChunk: 0 };
  const written: string[] = [];

  /** A sequence of packs, appended to one at a time. */
  const packStream = () => {
    let current: { file: PackFile; fd: number; path: string; size: number; hash: ReturnType<typeof createHash> } | undefined;
    /** Every pack of this stream, in order: a chunk's place names its pack by its index here. */
    const files: PackFile[] = [];
    const close = () => {
      if (!current) return;
      closeSync(current.fd);
      const name = current.hash.digest("hex").slice(0, HASH_HEX_LENGTH);
      const target = join(releaseDir, packKey(name));
      if (existsSync(target)) rmSync(current.path);
      else {
        renameSync(current.path, target);
        stats.packs += 1;
        stats.bytes += current.size;
      }
      current.file.name = name;
      written.push(name);
      current = undefined;
    };
    /** Appends one chunk, or the slots of a run (`chunks` of `chunkBytes` each) as one piece, in one pack. */
    const append = (bytes: Uint8Array, chunks = 1, chunkBytes = bytes.length, hash?: Buffer): Written => {
      if (current && current.size > 0 && current.size + bytes.length > packBytes) close();
      if (!current) {
        const path = join(dir, `.writing-${process.pid}-${temporary++}`);
        current = { file: {}, fd: openSync(path, "w"), path, size: 0, hash: createHash("sha256") };
        files.push(current.file);
      }
      writeFully(current.fd, bytes);
      current.hash.update(bytes);
      const written = { pack: current.file, offset: current.size, length: bytes.length, hash: hash ?? sha(bytes) };
      current.size += bytes.length;
      stats.chunks += chunks;
      stats.largestChunk = Math.max(stats.largestChunk, chunkBytes);
      return written;
    };
    /** The place of a chunk `append` wrote, its pack by index among this stream's. */
    const placed = (w: Written): Placed => ({ pack: files.indexOf(w.pack), offset: w.offset, length: w.length, hash: w.hash });
    const names = () => files.map((f) => f.name!);
    return { append, close, placed, names };
  };

  const pageOf = <Start extends number | string>(level: number, starts: Start[], entries: Written[]): DirectoryPage<Start> => {
    const packs: string[] = [];
    const packIndex = new Map<string, number>();
    const pack = entries.map((w) => {
      const name = w.pack.name!;
      let i = packIndex.get(name);
      if (i === undefined) packIndex.set(name, (i = packs.push(name) - 1));
      return i;
    });
    return {
      level,
      starts,
      packs,
      pack,
      offsets: entries.map((w) => w.offset),
      lengths: entries.map((w) => w.length),
      hashes: Buffer.concat(entries.map((w) => w.hash)),
    };
  };

  return {
    stats,
    written,
    tree<Start extends number | string>(): TreeWriter<Start> {
      const data = packStream();
      let starts: Start[] = [];
      let entries: Written[] = [];
      return {
        add(start, value) {
          return this.addPacked(start, packChunk(value));
        },
        addPacked(start, bytes) {
          const written = data.append(bytes);
          starts.push(start);
          entries.push(written);
          return data.placed(written);
        },
        packNames: data.names,
        addChunks(chunks) {
          const last = starts.at(-1);
          if (last !== undefined && chunks.starts.length && !(chunks.starts[0] > last)) throw new Error(`chunks added from ${chunks.starts[0]} after a chunk from ${last}`);
          chunks.starts.forEach((start, i) => {
            starts.push(start);
            const hash = Buffer.from(chunks.hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES));
            entries.push({ pack: { name: chunks.packs[chunks.pack[i]] }, offset: chunks.offsets[i], length: chunks.lengths[i], hash });
          });
        },
        chunks() {
          data.close();
          return pageOf(0, starts, entries);
        },
        finish() {
          data.close();
          let level = 0;
          while (entries.length > LAYOUT.rootEntries) {
            const pages = packStream();
            const upStarts: Start[] = [];
            const up: Written[] = [];
            const size = LAYOUT.pageEntries;
            for (let i = 0; i < entries.length; i += size) {
              upStarts.push(starts[i]);
              up.push(pages.append(packChunk(pageOf(level, starts.slice(i, i + size), entries.slice(i, i + size)))));
            }
            pages.close();
            [starts, entries, level] = [upStarts, up, level + 1];
          }
          return { depth: level + 1, root: pageOf(level, starts, entries) };
        },
      };
    },
    slottedRuns<Start extends number | string>(stride: number): SlottedRunWriter<Start> {
      const data = packStream();
      const starts: Start[] = [];
      const entries: Written[] = [];
      const slots: number[] = [];
      return {
        addRun(start, run) {
          if (!run.length) throw new Error("slotted tree: an empty run");
          // Merkle levels over the run's chunk hashes; a node without a sibling goes up unchanged.
          const levels: Buffer[][] = [run.map((bytes) => sha(bytes))];
          while (levels[levels.length - 1].length > 1) {
            const below = levels[levels.length - 1];
            const up: Buffer[] = [];
            for (let i = 0; i < below.length; i += 2) up.push(i + 1 < below.length ? sha(Buffer.concat([below[i], below[i + 1]])) : below[i]);
            levels.push(up);
          }
          const paths = run.map((_, j) => Buffer.concat(merkleSteps(j, run.length).map((step) => levels[step.level][step.sibling])));
          const slot = Math.max(...run.map((bytes, j) => SLOT_LENGTH_BYTES + bytes.length + paths[j].length));
          const out = Buffer.alloc(slot * run.length);
          run.forEach((bytes, j) => {
            out.writeUInt32BE(bytes.length, j * slot);
            out.set(bytes, j * slot + SLOT_LENGTH_BYTES);
            out.set(paths[j], j * slot + SLOT_LENGTH_BYTES + bytes.length);
          });
          const last = starts.at(-1);
          if (last !== undefined && !(start > last)) throw new Error(`slotted tree: a run from ${start} after a run from ${last}`);
          starts.push(start);
          entries.push(data.append(out, run.length, slot, levels[levels.length - 1][0]));
          slots.push(slot);
        },
        finish() {
          data.close();
          return { depth: 1, root: pageOf(0, starts, entries), slotted: { stride, slots } };
        },
      };
    },
    slottedTree(stride, chunks) {
      const runs = this.slottedRuns<number>(stride);
      const perRun = Math.max(1, Math.ceil(chunks / LAYOUT.slottedRootRuns));
      let run: Uint8Array[] = [];
      let added = 0;
      const closeRun = () => {
        if (run.length) runs.addRun((added - run.length) * stride, run);
        run = [];
      };
      const unsupported = () => {
        throw new Error("a slotted tree is written whole, by one writer");
      };
      return {
        add(start, value) {
          this.addPacked(start, packChunk(value));
        },
        addPacked(start, bytes) {
          if (start !== added * stride) throw new Error(`slotted tree: chunk ${added} starts at ${start}, not ${added * stride}`);
          if (added === chunks) throw new Error(`slotted tree: more than the ${chunks} chunks announced`);
          run.push(bytes);
          added += 1;
          if (run.length === perRun) closeRun();
        },
        addChunks: unsupported,
        chunks: unsupported,
        finish() {
          if (added !== chunks) throw new Error(`slotted tree: ${added} chunks written of the ${chunks} announced`);
          closeRun();
          return runs.finish();
        },
      };
    },
    single(value) {
      const stream = packStream();
      const w = stream.append(packChunk(value));
      stream.close();
      return [w.pack.name!, w.offset, w.length, w.hash.toString("hex")];
    },
  };
}
