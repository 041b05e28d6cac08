/**
 * Row tables and hash indexes as chunk trees (packs.ts). Chunks are cut by bytes, not by a
 * count of rows: a chunk closes once its rows' packed sizes reach the table's target, so a
 * read costs about the same whatever the rows (a protein of 5 relations or of 5,000). A row
 * larger than the target is a chunk of its own. The proteins and the hash indexes are slotted
 * trees instead (release-format/slots.ts): a fixed count of rows or one bucket a chunk.
 */
import type { HashIndexRef, KeyIndexLeaf, TableRef, TableShard } from "../../release-format/format.js";
import { bucketOf } from "../../release-format/slots.js";
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

/**
 * Writes rows 0..count-1 as a slotted tree (release-format/slots.ts) of `rowsPerChunk` rows a
 * chunk: a row's chunk is found by arithmetic, with no directory page to read (the proteins,
 * which every protein's answer starts from).
 */
export function writeSlottedTable<Row>(
  packs: PackWriter,
  count: number,
  rowsPerChunk: number,
  rowAt: (row: number) => Row,
  chunkExtra?: (rows: Row[]) => object,
): TableRef<Row> {
  const tree = packs.slottedTree(rowsPerChunk, Math.ceil(count / rowsPerChunk));
  for (let first = 0; first < count; first += rowsPerChunk) {
    const rows = Array.from({ length: Math.min(rowsPerChunk, count - first) }, (_, k) => rowAt(first + k));
    tree.add(first, { firstRow: first, rows, ...chunkExtra?.(rows) });
  }
  return { rows: count, tree: tree.finish() };
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

const packedSize = (key: string, value: unknown) => key.length + 1 + packChunk(value).length;

/**
 * Buckets of a hash index written in order (release-format/slots.ts): `leaf(b)` is bucket b's
 * leaf, to which its keys are added in sorted order; buckets skipped are written empty.
 */
function bucketWriter<Value>(packs: PackWriter, buckets: number, keys: number) {
  const tree = packs.slottedTree(1, buckets);
  let open = 0;
  let leaf: KeyIndexLeaf<Value> = { keys: [], values: [] };
  const closeUpTo = (bucket: number) => {
    while (open < bucket) {
      tree.add(open++, leaf);
      leaf = { keys: [], values: [] };
    }
  };
  return {
    leaf(bucket: number): KeyIndexLeaf<Value> {
      closeUpTo(bucket);
      return leaf;
    },
    finish(): HashIndexRef<Value> {
      closeUpTo(buckets);
      return { keys, buckets, tree: tree.finish() };
    },
  };
}

/** Buckets for an index of about `bytes`: one per `bucketBytes` on average. */
const bucketCount = (bytes: number, bucketBytes: number) => Math.max(1, Math.ceil(bytes / bucketBytes));

/** Writes a hash index in buckets of about `bucketBytes` on average, each bucket's keys sorted in JavaScript string order. */
export function writeHashIndex<Value>(packs: PackWriter, entries: Map<string, Value>, bucketBytes: number): HashIndexRef<Value> {
  let bytes = 0;
  for (const [key, value] of entries) bytes += packedSize(key, value);
  const buckets = bucketCount(bytes, bucketBytes);
  const keys = [...entries.keys()].map((key) => ({ key, bucket: bucketOf(key, buckets) }));
  keys.sort((a, b) => a.bucket - b.bucket || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const writer = bucketWriter<Value>(packs, buckets, keys.length);
  for (const { key, bucket } of keys) {
    const leaf = writer.leaf(bucket);
    leaf.keys.push(key);
    leaf.values.push(entries.get(key)!);
  }
  return writer.finish();
}

/**
 * A hash index from key → its distinct numbers, ascending, given as (key, number) pairs in any
 * order: writeHashIndex of that map (its bucket count from an estimate of each key's bytes, so
 * it may differ), without holding millions of small lists (entry ids of a large release). A key
 * keeps its `maxNumbers` smallest numbers.
 */
export function writeHashIndexOfPairs(packs: PackWriter, keys: string[], numbers: ArrayLike<number>, bucketBytes: number, maxNumbers = Infinity): HashIndexRef<number[]> {
  const order = Int32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : numbers[a] - numbers[b]));
  // A key's bytes estimated once, with its first number (~5 bytes a further number, uncounted).
  let bytes = 0;
  let distinct = 0;
  for (let i = 0; i < order.length; i++) {
    if (i > 0 && keys[order[i]] === keys[order[i - 1]]) continue;
    bytes += keys[order[i]].length + 7;
    distinct += 1;
  }
  const buckets = bucketCount(bytes, bucketBytes);
  // A counting sort by bucket keeps the key order within each bucket.
  const bucket = new Int32Array(keys.length);
  const firstOf = new Int32Array(buckets + 1);
  for (let i = 0; i < keys.length; i++) firstOf[(bucket[i] = bucketOf(keys[i], buckets)) + 1] += 1;
  for (let b = 0; b < buckets; b++) firstOf[b + 1] += firstOf[b];
  const byBucket = new Int32Array(order.length);
  for (const i of order) byBucket[firstOf[bucket[i]]++] = i;
  const writer = bucketWriter<number[]>(packs, buckets, distinct);
  for (const i of byBucket) {
    const key = keys[i];
    const n = numbers[i];
    const leaf = writer.leaf(bucket[i]);
    const last = leaf.keys.length - 1;
    if (last >= 0 && leaf.keys[last] === key) {
      const list = leaf.values[last];
      if (list[list.length - 1] !== n && list.length < maxNumbers) list.push(n);
    } else {
      leaf.keys.push(key);
      leaf.values.push([n]);
    }
  }
  return writer.finish();
}
