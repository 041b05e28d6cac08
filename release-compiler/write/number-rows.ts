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
import type { PlainShard } from "../../release-format/format.js";
import { GrowingBytes } from "./growing.js";
import { packChunk } from "./packs.js";

/** The most bytes an array header or a number takes. */
export const HEADER_BYTES = 5;
export const NUMBER_BYTES = 9;

/**
 * msgpack written number by number into a buffer. A row reserves the most bytes it may take
 * first (`reserve`), so that each number is written with no check of its own; a write past the
 * reserve is caught when the row ends (numberRowChunks).
 */
export class NumberWriter extends GrowingBytes {
  /** A DataView of `values`' buffer (replaced when `values` grows). */
  view: DataView;

  constructor(initialBytes = 64 * 1024) {
    super(initialBytes);
    this.view = new DataView(this.values.buffer);
  }

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    const before = this.values;
    this.room(n);
    if (this.values !== before) this.view = new DataView(this.values.buffer);
  }

  /** An array header for `length` items (the items follow). */
  array(length: number): void {
    if (length < 0x10) this.values[this.length++] = 0x90 | length;
    else if (length < 0x10000) {
      this.values[this.length++] = 0xdc;
      this.view.setUint16(this.length, length);
      this.length += 2;
    } else {
      this.values[this.length++] = 0xdd;
      this.view.setUint32(this.length, length);
      this.length += 4;
    }
  }

  /** A number as msgpackr writes it; NaN as nil (a missing distance or score). */
  numberOrNull(value: number): void {
    this.length = writeNumber(this.values, this.view, this.length, value);
  }
}

/**
 * `value` as NumberWriter.numberOrNull writes it, into `bytes` (and `view`, a DataView of its
 * buffer) at `at`, within what a row reserved: returns where it ends. For the hottest loops,
 * which keep the place in a local variable rather than in the writer (a fifth of their time).
 */
export function writeNumber(bytes: Uint8Array, view: DataView, at: number, value: number): number {
  if (value >>> 0 === value) {
    // With records on, 0x40–0x7f name records: msgpackr writes those values as uint8.
    if (value < 0x40) bytes[at++] = value;
    else if (value < 0x100) {
      bytes[at++] = 0xcc;
      bytes[at++] = value;
    } else if (value < 0x10000) {
      bytes[at++] = 0xcd;
      view.setUint16(at, value);
      at += 2;
    } else {
      bytes[at++] = 0xce;
      view.setUint32(at, value);
      at += 4;
    }
  } else if (value >> 0 === value) {
    if (value >= -0x20) bytes[at++] = 0x100 + value;
    else if (value >= -0x80) {
      bytes[at++] = 0xd0;
      bytes[at++] = value + 0x100;
    } else if (value >= -0x8000) {
      bytes[at++] = 0xd1;
      view.setInt16(at, value);
      at += 2;
    } else {
      bytes[at++] = 0xd2;
      view.setInt32(at, value);
      at += 4;
    }
  } else if (value !== value) bytes[at++] = 0xc0; // NaN
  else {
    bytes[at++] = 0xcb;
    view.setFloat64(at, value);
    at += 8;
  }
  return at;
}

/** The bytes of `{ firstRow, rows }` up to its rows, which packChunk writes last. */
function shardHead(firstRow: number): Uint8Array {
  const empty = packChunk({ firstRow, rows: [] } satisfies PlainShard<unknown>);
  if (empty[empty.length - 1] !== 0x90) throw new Error("number rows: a shard's rows are not the last thing msgpackr writes");
  return empty.subarray(0, empty.length - 1);
}

/**
 * Rows cut into chunks as chunkCutter (tables.ts) cuts them, by an estimate of each row's size.
 * A row is `begin(estimate, most)`, which gives the writer its items go to, within `most` bytes
 * (reserved first: HEADER_BYTES an array, NUMBER_BYTES a number), then `end()`, which closes a
 * chunk once the estimates reach `chunkBytes` (a row estimated at `chunkBytes` or more is a
 * chunk of its own). Each chunk goes to `add` as the bytes packChunk would give it. (Two calls,
 * not a callback a row: a closure for each of millions of rows was a fifth of their time.)
 */
export class NumberRowChunks {
  private rows = new NumberWriter();
  // A chunk's rows header: a few bytes.
  private head = new NumberWriter(HEADER_BYTES);
  private count = 0;
  private bytes = 0;
  private next: number;
  // The open row's estimate, reserve, and where it began.
  private estimate = 0;
  private most = 0;
  private before = 0;

  constructor(
    private add: (firstRow: number, bytes: Uint8Array) => void,
    private chunkBytes: number,
    firstRow: number,
  ) {
    this.next = firstRow;
  }

  begin(estimate: number, most: number): NumberWriter {
    if (estimate >= this.chunkBytes && this.count) this.flush();
    this.rows.reserve(most);
    this.estimate = estimate;
    this.most = most;
    this.before = this.rows.length;
    return this.rows;
  }

  end(): void {
    const wrote = this.rows.length - this.before;
    if (wrote > this.most) throw new Error(`number rows: a row wrote ${wrote} bytes, more than the ${this.most} it reserved`);
    this.count++;
    this.next++;
    this.bytes += this.estimate;
    if (this.bytes >= this.chunkBytes) this.flush();
  }

  flush(): void {
    const { count, rows, head } = this;
    if (count === 0) return;
    const start = shardHead(this.next - count);
    head.length = 0;
    head.reserve(HEADER_BYTES);
    head.array(count);
    const chunk = new Uint8Array(start.length + head.length + rows.length);
    chunk.set(start);
    chunk.set(head.values.subarray(0, head.length), start.length);
    chunk.set(rows.values.subarray(0, rows.length), start.length + head.length);
    this.add(this.next - count, chunk);
    rows.length = 0;
    this.count = 0;
    this.bytes = 0;
  }
}
