import type { KeyIndexLeaf, KeyIndexRef, TableRef, TableShard } from "../../src/release/format.js";
import type { BlobWriter } from "./blobs.js";

/** Writes rows 0..count-1 in shards of `rowsPerShard`; a row is built only when its shard is written. */
export function writeTable<Row>(
  blobs: BlobWriter,
  count: number,
  rowsPerShard: number,
  rowAt: (row: number) => Row,
): TableRef<Row> {
  const shards: string[] = [];
  for (let first = 0; first < count; first += rowsPerShard) {
    const rows: Row[] = [];
    for (let r = first; r < Math.min(count, first + rowsPerShard); r++) rows.push(rowAt(r));
    const shard: TableShard<Row> = { firstRow: first, rows };
    shards.push(blobs.put(shard));
  }
  return { rows: count, rowsPerShard, shards };
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
