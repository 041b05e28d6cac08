/**
 * Row tables and key indexes as chunk trees (packs.ts). Chunks are cut by bytes, not by a
 * count of rows: a chunk closes once its rows' packed sizes reach the table's target, so a
 * read costs about the same whatever the rows (a protein of 5 relations or of 5,000). A row
 * larger than the target is a chunk of its own.
 */
import type { KeyIndexLeaf, KeyIndexRef, TableRef, TableShard } from "../../release-format/format.js";
import { packChunk, type PackWriter } from "./packs.js";

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
