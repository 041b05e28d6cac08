/**
 * Chunks of rows of numbers (relations by protein, pairs by genome pair) encoded straight into
 * msgpack: the same bytes packChunk gives `{ firstRow, rows }`, without building the rows.
 *
 * Written by hand because these are the release's most numerous rows (866 M pair rows, each
 * also a relation, at 2,500 genomes): a JavaScript array for every relation, handed to msgpackr
 * and then collected, cost more than deciding what the rows are. The encoding follows msgpackr's
 * for numbers exactly (with records on: fixints below 0x40 only, integers beyond 32 bits and
 * fractions as float64), and test/compiler/number-rows.test.ts holds it to msgpackr's bytes.
 */
import type { TableShard } from "../../release-format/format.js";
import { GrowingBytes } from "./growing.js";
import { packChunk } from "./packs.js";

/** msgpack written number by number into a growing buffer. */
export class NumberWriter {
  readonly out = new GrowingBytes();
  private view = new DataView(this.out.values.buffer);

  /** An array header for `length` items (the items follow). */
  array(length: number): void {
    this.room(5);
    const out = this.out;
    if (length < 0x10) out.values[out.length++] = 0x90 | length;
    else if (length < 0x10000) {
      out.values[out.length++] = 0xdc;
      this.view.setUint16(out.length, length);
      out.length += 2;
    } else {
      out.values[out.length++] = 0xdd;
      this.view.setUint32(out.length, length);
      out.length += 4;
    }
  }

  /** A number as msgpackr writes it; NaN as nil (a missing distance or score). */
  numberOrNull(value: number): void {
    this.room(9);
    const out = this.out;
    const bytes = out.values;
    if (value >>> 0 === value) {
      // With records on, 0x40–0x7f name records: msgpackr writes those values as uint8.
      if (value < 0x40) bytes[out.length++] = value;
      else if (value < 0x100) {
        bytes[out.length++] = 0xcc;
        bytes[out.length++] = value;
      } else if (value < 0x10000) {
        bytes[out.length++] = 0xcd;
        this.view.setUint16(out.length, value);
        out.length += 2;
      } else {
        bytes[out.length++] = 0xce;
        this.view.setUint32(out.length, value);
        out.length += 4;
      }
    } else if (value >> 0 === value) {
      if (value >= -0x20) bytes[out.length++] = 0x100 + value;
      else if (value >= -0x80) {
        bytes[out.length++] = 0xd0;
        bytes[out.length++] = value + 0x100;
      } else if (value >= -0x8000) {
        bytes[out.length++] = 0xd1;
        this.view.setInt16(out.length, value);
        out.length += 2;
      } else {
        bytes[out.length++] = 0xd2;
        this.view.setInt32(out.length, value);
        out.length += 4;
      }
    } else if (Number.isNaN(value)) bytes[out.length++] = 0xc0;
    else {
      bytes[out.length++] = 0xcb;
      this.view.setFloat64(out.length, value);
      out.length += 8;
    }
  }

  private room(bytes: number): void {
    const before = this.out.values;
    this.out.room(bytes);
    if (this.out.values !== before) this.view = new DataView(this.out.values.buffer);
  }
}

/** The bytes of `{ firstRow, rows }` up to its rows, which packChunk writes last. */
function shardHead(firstRow: number): Uint8Array {
  const empty = packChunk({ firstRow, rows: [] } satisfies TableShard<unknown>);
  if (empty[empty.length - 1] !== 0x90) throw new Error("number rows: a shard's rows are not the last thing msgpackr writes");
  return empty.subarray(0, empty.length - 1);
}

/**
 * Rows cut into chunks as chunkCutter (tables.ts) cuts them, by an estimate of each row's size:
 * `row(estimate, write)` writes a row's items with `write` and closes a chunk once the estimates
 * reach `chunkBytes` (a row estimated at `chunkBytes` or more is a chunk of its own). Each chunk
 * goes to `add` as the bytes packChunk would give it.
 */
export function numberRowChunks(add: (firstRow: number, bytes: Uint8Array) => void, chunkBytes: number, firstRow: number) {
  const rows = new NumberWriter();
  const head = new NumberWriter();
  let count = 0;
  let bytes = 0;
  let next = firstRow;
  const flush = () => {
    if (count === 0) return;
    const start = shardHead(next - count);
    head.out.length = 0;
    head.array(count);
    const chunk = new Uint8Array(start.length + head.out.length + rows.out.length);
    chunk.set(start);
    chunk.set(head.out.values.subarray(0, head.out.length), start.length);
    chunk.set(rows.out.values.subarray(0, rows.out.length), start.length + head.out.length);
    add(next - count, chunk);
    rows.out.length = 0;
    count = 0;
    bytes = 0;
  };
  return {
    row(estimate: number, write: (out: NumberWriter) => void): void {
      if (estimate >= chunkBytes && count) flush();
      write(rows);
      count++;
      next++;
      bytes += estimate;
      if (bytes >= chunkBytes) flush();
    },
    flush,
  };
}
