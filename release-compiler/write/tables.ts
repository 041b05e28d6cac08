/**
 * Row tables and key indexes as chunk trees (packs.ts). Chunks are cut by bytes, not by a
 * count of rows: a chunk closes once its rows' packed sizes reach the table's target, so a
 * read costs about the same whatever the rows (a protein of 5 relations or of 5,000). A row
 * larger than the target is a chunk of its own.
 */
import type { KeyIndexLeaf, KeyIndexRef, TableRef, TableShard } from "../../release-format/format.js";
import type { TaskPool } from "../workers.js";
import { packChunk, type PackWriter, type TreeWriter } from "./packs.js";

/** Writes rows 0..count-1 in chunks of about `chunkBytes`; a row is built only when it is written. */
export function writeTable<Row>(
  packs: PackWriter,
  count: number,
  chunkBytes: number,
  rowAt: (row: number) => Row,
  sizeOf?: (row: Row) => number,
  chunkExtra?: (rows: Row[]) => object,
): TableRef<Row> {
  const table = tableWriter<Row>(packs, chunkBytes, sizeOf, chunkExtra);
  for (let r = 0; r < count; r++) table.push(rowAt(r));
  return table.finish();
}

/** A table written row by row as rows come (in row order): only the current chunk is held. */
interface TableWriter<Row> {
  push(row: Row): void;
  readonly rows: number;
  finish(): TableRef<Row>;
}

/**
 * `sizeOf` estimates a row's packed bytes where packing each row twice would cost (millions of
 * pairs); by default rows are measured. `chunkExtra` adds fields to a chunk from its rows (the
 * GO terms an annotations chunk cites).
 */
export function tableWriter<Row>(
  packs: PackWriter,
  chunkBytes: number,
  sizeOf?: (row: Row) => number,
  chunkExtra?: (rows: Row[]) => object,
): TableWriter<Row> {
  const tree = packs.tree<number>();
  const cutter = chunkCutter<Row>((shard) => tree.add(shard.firstRow, shard), chunkBytes, sizeOf, chunkExtra);
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
 * Rows cut into chunks of about `chunkBytes`, each handed to `chunk` as it closes; rows are
 * numbered from `firstRow`. `flush` closes the open chunk: a part of a table written on its
 * own (one genome's relations, on a worker thread) ends its last chunk there.
 */
export function chunkCutter<Row>(
  chunk: (shard: TableShard<Row>) => void,
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

/** Chunks packed one after another in `bytes`: chunk i covers rows from `starts[i]` and ends at `ends[i]` in `bytes`. */
export interface PackedChunks {
  starts: number[];
  ends: number[];
  bytes: Uint8Array;
}

/** A chunkCutter's sink: chunks packed as they close, gathered into one buffer (posted back from a worker whole). */
export function packedChunks() {
  const parts: Uint8Array[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let length = 0;
  return {
    add: (shard: TableShard<unknown>) => {
      const bytes = packChunk(shard);
      // The packer reuses its buffer: keep a copy.
      parts.push(bytes.slice());
      starts.push(shard.firstRow);
      ends.push((length += bytes.length));
    },
    finish(): PackedChunks {
      const bytes = new Uint8Array(length);
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
      return { starts, ends, bytes };
    },
  };
}

/** Appends chunks packed elsewhere to a tree, in order. */
export function appendChunks(tree: TreeWriter<number>, chunks: PackedChunks): void {
  let at = 0;
  chunks.starts.forEach((start, i) => {
    tree.addPacked(start, chunks.bytes.subarray(at, chunks.ends[i]));
    at = chunks.ends[i];
  });
}

/** Rows one table task packs; a table written in tasks also ends a chunk at every TABLE_TASK_ROWS-th row. */
export const TABLE_TASK_ROWS = 8192;

/** How a row's bytes are counted toward its chunk: packed and measured, or a string's length. */
export type RowSize = "packed" | "text";

/** A table task: rows from `firstRow`, cut into chunks of about `chunkBytes`. */
export interface TableTask {
  firstRow: number;
  rows: unknown[];
  chunkBytes: number;
  size: RowSize;
}

/** A table task's chunks, packed (on a worker thread, table-worker.ts, or on this one). */
export function packTableTask({ firstRow, rows, chunkBytes, size }: TableTask): PackedChunks {
  const packed = packedChunks();
  const cutter = chunkCutter<unknown>(packed.add, chunkBytes, size === "text" ? (row) => (row as string).length + 3 : undefined, undefined, firstRow);
  for (const row of rows) cutter.push(row);
  cutter.flush();
  return packed.finish();
}

/**
 * writeTable with the packing done in tasks of TABLE_TASK_ROWS rows on `pool`'s worker threads
 * (without a pool, on this thread: the same bytes): this thread builds each task's rows and
 * appends the chunks that come back, in order. Packing (each row measured, then each chunk)
 * is most of writing a table.
 */
export async function writeTableInTasks<Row>(
  packs: PackWriter,
  count: number,
  chunkBytes: number,
  rowAt: (row: number) => Row,
  pool: { tasks: TaskPool<TableTask, PackedChunks>; jobs: number } | undefined,
  size: RowSize = "packed",
): Promise<TableRef<Row>> {
  const tree = packs.tree<number>();
  const inFlight: Array<Promise<PackedChunks>> = [];
  for (let first = 0; first < count; first += TABLE_TASK_ROWS) {
    const task: TableTask = { firstRow: first, rows: Array.from({ length: Math.min(TABLE_TASK_ROWS, count - first) }, (_, i) => rowAt(first + i)), chunkBytes, size };
    if (!pool) {
      appendChunks(tree, packTableTask(task));
      continue;
    }
    inFlight.push(pool.tasks.run(task));
    if (inFlight.length >= 2 * pool.jobs) appendChunks(tree, await inFlight.shift()!);
  }
  for (const chunks of inFlight) appendChunks(tree, await chunks);
  return { rows: count, tree: tree.finish() };
}

/** Leaves of a key index, cut by bytes: keys and values are added in key order. */
function leafWriter<Value>(packs: PackWriter, leafBytes: number, sizeOf: (key: string, value: Value) => number) {
  const tree = packs.tree<string>();
  let leaf: KeyIndexLeaf<Value> = { keys: [], values: [] };
  let bytes = 0;
  let keys = 0;
  const close = () => {
    if (!leaf.keys.length) return;
    tree.add(leaf.keys[0], leaf);
    leaf = { keys: [], values: [] };
    bytes = 0;
  };
  return {
    /** The open leaf (its last value may still grow, see writeKeyIndexOfPairs). */
    get leaf() {
      return leaf;
    },
    add(key: string, value: Value) {
      if (bytes >= leafBytes) close();
      leaf.keys.push(key);
      leaf.values.push(value);
      bytes += sizeOf(key, value);
      keys++;
    },
    finish(): KeyIndexRef<Value> {
      close();
      return { keys, tree: tree.finish() };
    },
  };
}

const packedSize = (key: string, value: unknown) => key.length + 1 + packChunk(value).length;

/** Writes a sorted key index in leaves of about `leafBytes`; keys are sorted here in JavaScript string order. */
export function writeKeyIndex<Value>(packs: PackWriter, entries: Map<string, Value>, leafBytes: number): KeyIndexRef<Value> {
  const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const leaves = leafWriter<Value>(packs, leafBytes, packedSize);
  for (const key of keys) leaves.add(key, entries.get(key)!);
  return leaves.finish();
}

/**
 * A key index from key → its distinct numbers, ascending, given as (key, number) pairs in
 * any order: the keys and values of writeKeyIndex of that map (its leaves are cut by an estimate
 * of each key's bytes, so they may end elsewhere), without holding millions of small lists
 * (entry ids of a large release).
 */
export function writeKeyIndexOfPairs(packs: PackWriter, keys: string[], numbers: ArrayLike<number>, leafBytes: number): KeyIndexRef<number[]> {
  const order = Int32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : numbers[a] - numbers[b]));
  // A key's size is counted when it is added with its first number; a further number adds ~5 bytes uncounted.
  const leaves = leafWriter<number[]>(packs, leafBytes, (key) => key.length + 7);
  for (let i = 0; i < order.length; i++) {
    const key = keys[order[i]];
    const n = numbers[order[i]];
    const { leaf } = leaves;
    const last = leaf.keys.length - 1;
    if (last >= 0 && leaf.keys[last] === key) {
      const list = leaf.values[last];
      if (list[list.length - 1] !== n) list.push(n);
      continue;
    }
    leaves.add(key, [n]);
  }
  return leaves.finish();
}
