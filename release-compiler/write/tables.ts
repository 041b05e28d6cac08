/**
 * Row tables and hash indexes as chunk trees (packs.ts). Chunks are cut by bytes, not by a
 * count of rows: a chunk closes once its rows' packed sizes reach the table's target, so a
 * read costs about the same whatever the rows (a protein of 5 relations or of 5,000). A row
 * larger than the target is a chunk of its own. The proteins and the hash indexes are slotted
 * trees instead (release-format/slots.ts): a fixed count of rows or one bucket a chunk.
 */
import type { HashIndexRef, KeyIndexLeaf, PlainShard, RowChunk, TableRef, TableShard } from "../../release-format/format.js";
import { packRows } from "../../release-format/rows.js";
import { bucketOf } from "../../release-format/slots.js";
import { rowChunkCovering } from "../../release-format/directory.js";
import { LAYOUT } from "./layout.js";
import { packChunk, type PackWriter } from "./packs.js";
import { stringOrder } from "./string-order.js";
import { keyReader, type Keys } from "../collections.js";

/** Writes rows 0..count-1 in chunks of about `chunkBytes`; a row is built only when it is written. */
export function writeTable<Row>(packs: PackWriter, count: number, chunkBytes: number, rowAt: (row: number) => Row, options: TableOptions<Row> = {}): TableRef<Row> {
  const table = tableWriter<Row>(packs, chunkBytes, options);
  for (let r = 0; r < count; r++) table.push(rowAt(r));
  return table.finish();
}

/** How a table's chunks are cut and written (tableWriter). */
export interface TableOptions<Row> {
  /**
   * A row's packed bytes, estimated where packing each row twice would cost (millions of
   * pairs); by default rows are measured.
   */
  sizeOf?: (row: Row) => number;
  /** Fields a chunk adds from its rows (the GO terms an annotations chunk cites). */
  chunkExtra?: (rows: Row[]) => object;
  /**
   * Rows packed apart (release-format/rows.ts), each decoded when it is read: for the tables
   * read for one row of many, whose rows are records (objects) without nested records (a
   * nested object's keys would be written once a row).
   */
  apart?: boolean;
}

/** A chunk with its rows packed apart, its other fields as they were. */
const packedApart = <Row extends object>({ firstRow, rows, ...extra }: PlainShard<Row>): TableShard<Row> => ({ firstRow, packed: packRows(rows), ...extra });

/**
 * Writes rows 0..count-1 as a slotted tree (release-format/slots.ts) of `rowsPerChunk` rows a
 * chunk: a row's chunk is found by arithmetic, with no directory page to read (the proteins,
 * which every protein's answer starts from). Their rows are packed apart (release-format/rows.ts),
 * read one by one: an answer wants one row of a chunk or a few.
 */
export function writeSlottedTable<Row extends object>(
  packs: PackWriter,
  count: number,
  rowsPerChunk: number,
  rowAt: (row: number) => Row,
  chunkExtra?: (rows: Row[]) => object,
): TableRef<Row> {
  const tree = packs.slottedTree(rowsPerChunk, Math.ceil(count / rowsPerChunk));
  for (let first = 0; first < count; first += rowsPerChunk) {
    const rows = Array.from({ length: Math.min(rowsPerChunk, count - first) }, (_, k) => rowAt(first + k));
    tree.add(first, packedApart({ firstRow: first, rows, ...chunkExtra?.(rows) }));
  }
  return { rows: count, tree: tree.finish() };
}

/** A table written row by row as rows come (in row order): only the current chunk is held. */
interface TableWriter<Row> {
  push(row: Row): void;
  readonly rows: number;
  finish(): TableRef<Row>;
}

/** Rows written in chunks of about `chunkBytes` as they are pushed (TableOptions: how). */
export function tableWriter<Row>(packs: PackWriter, chunkBytes: number, { sizeOf, chunkExtra, apart = false }: TableOptions<Row> = {}): TableWriter<Row> {
  const tree = packs.tree<number>();
  const write = (shard: PlainShard<Row>) => tree.add(shard.firstRow, apart ? packedApart(shard as PlainShard<Row & object>) : shard);
  const cutter = chunkCutter<Row>(write, chunkBytes, sizeOf, chunkExtra);
  return {
    push: (row) => cutter.push(row),
    get rows() {
      return cutter.rows;
    },
    finish() {
      cutter.flush();
      return { rows: cutter.rows, tree: tree.finish() };
    },
  };
}

/**
 * A table whose chunks rows elsewhere name directly (RowChunk), so that reading one costs no
 * directory page: the HOG cards, named by the HOG id index and, for a level query above an id's
 * own levels, by the cards of the ids extending them. Cut as chunkCutter cuts; a row is made
 * once the chunk it joins is decided, so it can name the chunks of the rows before it.
 */
export function rowChunkTableWriter<Row>(packs: PackWriter, chunkBytes: number) {
  const tree = packs.tree<number>();
  const chunks: RowChunk[] = [];
  let open: Row[] = [];
  let bytes = 0;
  let count = 0;
  const flush = () => {
    if (!open.length) return;
    const firstRow = count - open.length;
    const { pack, offset, length, hash } = tree.add(firstRow, { firstRow, rows: open });
    chunks.push([firstRow, pack, offset, length, hash]);
    open = [];
    bytes = 0;
  };
  /** The chunk of a row written before: undefined while it is in the open chunk (the chunk of the row being made). */
  const chunkOf = (row: number): RowChunk | undefined => {
    if (row < 0 || row >= count) throw new Error(`row ${row} is not written yet (${count} rows are)`);
    return row >= count - open.length ? undefined : rowChunkCovering(chunks, row);
  };
  return {
    /**
     * Adds the next row: `draft` decides which chunk it joins (a row of `chunkBytes` or more is
     * one of its own), then `make(chunkOf)` gives the row written, naming earlier rows' chunks.
     */
    push(draft: Row, make?: (chunkOf: (row: number) => RowChunk | undefined) => Row) {
      const size = packChunk(draft).length;
      if (size >= chunkBytes && open.length) flush();
      const row = make ? make(chunkOf) : draft;
      open.push(row);
      count++;
      bytes += make ? packChunk(row).length : size;
      if (bytes >= chunkBytes) flush();
    },
    /** Rows pushed so far: the next row's number. */
    get rows() {
      return count;
    },
    /** Ends the open chunk: the next row starts one (a family's members, named by its row, are chunks of their own). */
    flush,
    /** The chunks written so far, in order. */
    chunks: chunks as readonly RowChunk[],
    /** The chunk of any row, once the table is finished. */
    chunkOf: (row: number): RowChunk => {
      if (open.length) throw new Error("the table is not finished");
      return chunkOf(row)!;
    },
    /** Closes the table: its tree, and its packs in order, which RowChunks name. */
    finish(): TableRef<Row> {
      flush();
      return { rows: count, tree: tree.finish(), packs: tree.packNames() };
    },
  };
}

/**
 * Rows cut into chunks of about `chunkBytes`, each handed to `chunk` as it closes; rows are
 * numbered from `firstRow`. `flush` closes the open chunk: a part of a table written on its
 * own (one genome's relations, on a worker thread) ends its last chunk there.
 */
export function chunkCutter<Row>(
  chunk: (shard: PlainShard<Row>) => void,
  chunkBytes: number,
  sizeOf: (row: Row) => number = (row) => packChunk(row).length,
  chunkExtra?: (rows: Row[]) => object,
  firstRow = 0,
) {
  let rows: Row[] = [];
  let bytes = 0;
  let count = firstRow;
  const flush = () => {
    if (!rows.length) return;
    chunk({ firstRow: count - rows.length, rows, ...chunkExtra?.(rows) });
    rows = [];
    bytes = 0;
  };
  return {
    push(row: Row) {
      const size = sizeOf(row);
      // A row of the target's size or more is a chunk of its own: a read of its neighbours never carries it.
      if (size >= chunkBytes && rows.length) flush();
      rows.push(row);
      count++;
      bytes += size;
      if (bytes >= chunkBytes) flush();
    },
    /** Rows pushed so far, `firstRow` included: the next row's number. */
    get rows() {
      return count;
    },
    flush,
  };
}

/**
 * A hash index written key by key in sorted order (release-format/slots.ts): the keys are cut
 * into runs of about `totalBytes` / `LAYOUT.slottedRootRuns` bytes (at least a bucket's), and
 * each run into one bucket per `bucketBytes`, a key going to bucket `bucketOf(key, buckets of its
 * run)`. `bytes` is a key's estimated share; only the open run is held.
 */
function hashIndexWriter<Value>(packs: PackWriter, totalBytes: number, bucketBytes: number) {
  const runs = packs.slottedRuns<string>(0);
  const runBytes = Math.max(bucketBytes, Math.ceil(totalBytes / Math.max(1, LAYOUT.slottedRootRuns - 1)));
  let keys: string[] = [];
  let values: Value[] = [];
  let bytes = 0;
  let count = 0;
  let buckets = 0;
  const closeRun = () => {
    if (!keys.length) return;
    const n = Math.max(1, Math.ceil(bytes / bucketBytes));
    const leaves = Array.from({ length: n }, (): KeyIndexLeaf<Value> => ({ keys: [], values: [] }));
    keys.forEach((key, k) => {
      const leaf = leaves[bucketOf(key, n)];
      leaf.keys.push(key);
      leaf.values.push(values[k]);
    });
    runs.addRun(keys[0], leaves.map(packChunk));
    buckets += n;
    [keys, values, bytes] = [[], [], 0];
  };
  return {
    /** Adds a key after every key added before it. */
    add(key: string, value: Value, keyBytes: number) {
      keys.push(key);
      values.push(value);
      bytes += keyBytes;
      count += 1;
      if (bytes >= runBytes) closeRun();
    },
    finish(): HashIndexRef<Value> {
      closeRun();
      if (count === 0) runs.addRun("", [packChunk({ keys: [], values: [] })]);
      return { keys: count, buckets: Math.max(1, buckets), tree: runs.finish() };
    },
  };
}

const packedSize = (key: string, value: unknown) => key.length + 1 + packChunk(value).length;

/** Writes a hash index in buckets of about `bucketBytes` on average, keys in JavaScript string order. */
export function writeHashIndex<Value>(packs: PackWriter, entries: Iterable<readonly [string, Value]>, bucketBytes: number): HashIndexRef<Value> {
  // Parallel arrays, not a Map of sizes: a release's HOG ids may be more than a Map holds (collections.ts).
  const keys: string[] = [];
  const values: Value[] = [];
  const sizes: number[] = [];
  let total = 0;
  for (const [key, value] of entries) {
    const size = packedSize(key, value);
    keys.push(key);
    values.push(value);
    sizes.push(size);
    total += size;
  }
  const writer = hashIndexWriter<Value>(packs, total, bucketBytes);
  for (const k of stringOrder(keys)) writer.add(keys[k], values[k], sizes[k]);
  return writer.finish();
}

/**
 * A hash index from key → its distinct numbers, ascending, given as (key, number) pairs in any
 * order: writeHashIndex of that map (its runs cut by an estimate of each key's bytes, so they may
 * end elsewhere), without holding millions of small lists (entry ids of a large release). A key
 * keeps its `maxNumbers` smallest numbers.
 */
export function writeHashIndexOfPairs(packs: PackWriter, keys: Keys, numbers: ArrayLike<number>, bucketBytes: number, maxNumbers = Infinity): HashIndexRef<number[]> {
  const order = stringOrder(keys, (a, b) => numbers[a] - numbers[b]);
  const keyAt = keyReader(keys);
  // A key's bytes estimated once, with its first number (~5 bytes a further number, uncounted).
  const keyBytes = (key: string) => key.length + 7;
  // Where each key's pairs begin in key order, found once (neighbours' strings compared once, not twice).
  const begins = new Uint8Array(order.length);
  let total = 0;
  for (let i = 0; i < order.length; i++) {
    if (i > 0 && keyAt(order[i]) === keyAt(order[i - 1])) continue;
    begins[i] = 1;
    total += keyBytes(keyAt(order[i]));
  }
  const writer = hashIndexWriter<number[]>(packs, total, bucketBytes);
  for (let i = 0; i < order.length; ) {
    // A key's pairs follow each other, numbers ascending: its list whole before it is added.
    const key = keyAt(order[i]);
    const list: number[] = [];
    do {
      const n = numbers[order[i]];
      if (list[list.length - 1] !== n && list.length < maxNumbers) list.push(n);
      i++;
    } while (i < order.length && !begins[i]);
    writer.add(key, list, keyBytes(key));
  }
  return writer.finish();
}
