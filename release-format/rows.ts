/**
 * A table chunk's rows, as its reader sees them: either decoded with the chunk (`rows`, most
 * tables) or packed apart (`packed`), each row its own msgpack value, decoded when it is asked
 * for. The compiler packs apart the rows of the tables whose chunks are read for one row of many
 * (the proteins, their sequences and annotations, the families' GO terms: FORMAT.md, "Rows
 * packed apart"), so that decoding follows the rows an answer needs rather than the chunk they
 * sit in: a proteins chunk decoded whole costs ~50–90 µs (64 rows, ~11 kB), and a bulk retrieve
 * of 1,000 scattered ids reads ~800 of them.
 *
 * A packed row is the tuple of the chunk's `fields` in order (a field a row lacks is
 * `undefined`, and stays absent from the decoded row), packed without records: the field
 * names are written once a chunk rather than once a row, and no row depends on another's
 * record definitions. The chunk's hash covers these bytes as any other's.
 */
import { Packr, Unpackr } from "msgpackr";
import type { TableShard } from "./format.js";

/** Rows packed apart: row r is `bytes[ends[r - 1] ?? 0 .. ends[r])`, the tuple of `fields`. */
export interface PackedRows {
  fields: string[];
  ends: number[];
  bytes: Uint8Array;
}

/** Plain msgpack both ways: a tuple of values needs no records. */
const rowPackr = new Packr({ useRecords: false });
const rowUnpackr = new Unpackr({ useRecords: false });

/** `rows` packed apart, their fields in the order the first row to have each gives them. */
export function packRows(rows: object[]): PackedRows {
  const fields: string[] = [];
  const known = new Set<string>();
  for (const row of rows) {
    // A string's or an array's keys are its indexes: such rows decode natively, whole, and are not packed apart.
    if (row === null || typeof row !== "object" || Array.isArray(row)) throw new TypeError(`rows packed apart are records, not ${Array.isArray(row) ? "arrays" : typeof row}`);
    for (const key of Object.keys(row)) {
      if (!known.has(key)) {
        known.add(key);
        fields.push(key);
      }
    }
  }
  const packed = rows.map((row) => rowPackr.pack(fields.map((f) => (row as Record<string, unknown>)[f])));
  const bytes = new Uint8Array(packed.reduce((n, p) => n + p.length, 0));
  const ends: number[] = [];
  let at = 0;
  for (const p of packed) {
    bytes.set(p, at);
    ends.push((at += p.length));
  }
  return { fields, ends, bytes };
}

/** Rows in a chunk of a table. */
export const rowCount = (shard: TableShard<unknown>): number => ("packed" in shard ? shard.packed.ends.length : shard.rows.length);

/** Row r of a chunk (0 = its `firstRow`), decoded if it was packed apart; undefined past its rows. */
export function rowOf<Row>(shard: TableShard<Row>, r: number): Row | undefined {
  if (!("packed" in shard)) return shard.rows[r];
  return r >= 0 && r < shard.packed.ends.length ? rowRange(shard, r, r + 1)[0] : undefined;
}

/**
 * Rows [from, to) of a chunk (0 = its `firstRow`; clipped to its rows): a list's walk decodes
 * a run of packed rows in one call, not a call a row.
 */
export function rowRange<Row>(shard: TableShard<Row>, from: number, to: number): Row[] {
  from = Math.max(0, from);
  if (!("packed" in shard)) return shard.rows.slice(from, Math.max(from, to));
  const { fields, ends, bytes } = shard.packed;
  to = Math.min(ends.length, to);
  if (from >= to) return [];
  const tuples = rowUnpackr.unpackMultiple(bytes.subarray(from ? ends[from - 1] : 0, ends[to - 1])) as unknown[][];
  if (tuples.length !== to - from) throw new TypeError(`rows ${from}..${to - 1} are ${tuples.length} values`);
  return tuples.map((values, k) => {
    if (!Array.isArray(values) || values.length !== fields.length) throw new TypeError(`row ${from + k} is not a tuple of its chunk's ${fields.length} fields`);
    const row: Record<string, unknown> = {};
    for (let f = 0; f < fields.length; f++) if (values[f] !== undefined) row[fields[f]] = values[f];
    return row as Row;
  });
}
