import type { KeyIndexLeaf, KeyIndexRef, TableRef, TableShard } from "../../release-format/format.js";
import type { BlobWriter } from "./blobs.js";

/** Writes rows 0..count-1 in shards of `rowsPerShard`; a row is built only when its shard is written. */
export function writeTable<Row>(
  blobs: BlobWriter,
  count: number,
  rowsPerShard: number,
  rowAt: (row: number) => Row,
): TableRef<Row> {
  const table = tableWriter<Row>(blobs, rowsPerShard);
  for (let r = 0; r < count; r++) table.push(rowAt(r));
  return table.finish();
}

/** A table written row by row as rows come (in row order): only the current shard is held. */
interface TableWriter<Row> {
  push(row: Row): void;
  readonly rows: number;
  finish(): TableRef<Row>;
}

export function tableWriter<Row>(blobs: BlobWriter, rowsPerShard: number): TableWriter<Row> {
  const shards: string[] = [];
  let rows: Row[] = [];
  let count = 0;
  const flush = () => {
    const shard: TableShard<Row> = { firstRow: count - rows.length, rows };
    shards.push(blobs.put(shard));
    rows = [];
  };
  return {
    push(row) {
      rows.push(row);
      count++;
      if (rows.length === rowsPerShard) flush();
    },
    get rows() {
      return count;
    },
    finish() {
      if (rows.length) flush();
      return { rows: count, rowsPerShard, shards };
    },
  };
}

/** Writes a sorted key index in leaves of `keysPerLeaf`; keys are sorted here in JavaScript string order. */
export function writeKeyIndex<Value>(
  blobs: BlobWriter,
  entries: Map<string, Value>,
  keysPerLeaf: number,
): KeyIndexRef<Value> {
  const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const leaves: Array<[string, string]> = [];
  for (let i = 0; i < keys.length; i += keysPerLeaf) {
    const slice = keys.slice(i, i + keysPerLeaf);
    const leaf: KeyIndexLeaf<Value> = { keys: slice, values: slice.map((k) => entries.get(k)!) };
    leaves.push([slice[0], blobs.put(leaf)]);
  }
  return { keys: keys.length, leaves };
}

/**
 * A key index from key → its distinct numbers, ascending, given as (key, number) pairs in
 * any order: the same index as writeKeyIndex of that map, without holding millions of small
 * lists (entry ids of a large release).
 */
export function writeKeyIndexOfPairs(blobs: BlobWriter, keys: string[], numbers: ArrayLike<number>, keysPerLeaf: number): KeyIndexRef<number[]> {
  const order = Int32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : numbers[a] - numbers[b]));
  const leaves: Array<[string, string]> = [];
  let leaf: KeyIndexLeaf<number[]> = { keys: [], values: [] };
  let count = 0;
  for (let i = 0; i < order.length; i++) {
    const key = keys[order[i]];
    const n = numbers[order[i]];
    const last = leaf.keys.length - 1;
    if (last >= 0 && leaf.keys[last] === key) {
      const list = leaf.values[last];
      if (list[list.length - 1] !== n) list.push(n);
      continue;
    }
    if (leaf.keys.length === keysPerLeaf) {
      leaves.push([leaf.keys[0], blobs.put(leaf)]);
      leaf = { keys: [], values: [] };
    }
    leaf.keys.push(key);
    leaf.values.push([n]);
    count++;
  }
  if (leaf.keys.length) leaves.push([leaf.keys[0], blobs.put(leaf)]);
  return { keys: count, leaves };
}
