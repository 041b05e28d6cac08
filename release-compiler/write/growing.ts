/**
 * Typed arrays that grow as they are written, and ascending numbers written into one as varint
 * gaps (the postings of the sequence index and of the cross-reference search): millions of
 * numbers a task, where an array of numbers costs eight bytes and more each.
 */
import { constants } from "node:buffer";
import { writeVarint } from "../../release-format/varint.js";

const MAX_LENGTH = constants.MAX_LENGTH;

/** A byte buffer that grows as it is written: `room(n)` before writing n bytes at `length`. */
export class GrowingBytes {
  values: Uint8Array;
  length = 0;

  constructor(initial = 64 * 1024) {
    this.values = new Uint8Array(initial);
  }

  room(bytes: number): void {
    if (this.length + bytes <= this.values.length) return;
    // Doubling, but not past what a Uint8Array holds while what is asked for fits.
    const grown = new Uint8Array(Math.max(Math.min(2 * this.values.length, MAX_LENGTH), this.length + bytes));
    grown.set(this.values.subarray(0, this.length));
    this.values = grown;
  }
}

/** A typed array of numbers that grows as they are pushed; `values` may be longer than `length`. */
class GrowingNumbers<A extends Int32Array | Float64Array> {
  values: A;
  length = 0;

  constructor(private readonly make: (length: number) => A) {
    this.values = make(1024);
  }

  push(value: number): void {
    if (this.length === this.values.length) this.reserve(this.length + 1);
    this.values[this.length++] = value;
  }

  /** Pushes each of `values`. */
  append(values: ArrayLike<number>): void {
    this.reserve(this.length + values.length);
    this.values.set(values, this.length);
    this.length += values.length;
  }

  /** Makes `values` at least `count` long (doubling), keeping the first `length`. */
  reserve(count: number): void {
    if (count <= this.values.length) return;
    const grown = this.make(Math.max(count, this.values.length * 2));
    grown.set(this.values.subarray(0, this.length));
    this.values = grown;
  }

  /** The numbers pushed, in an array as long as they (a copy: the growing one is dropped). */
  done(): A {
    return this.values.slice(0, this.length) as A;
  }
}

/** An Int32Array that grows as numbers are pushed. */
export class GrowingInts extends GrowingNumbers<Int32Array> {
  constructor() {
    super((n) => new Int32Array(n));
  }
}

/** A Float64Array that grows as numbers are pushed. */
export class GrowingFloats extends GrowingNumbers<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}

/** Appends ascending numbers as unsigned LEB128 varints of their gaps (the first from 0). */
export function appendGaps(out: GrowingBytes, ascending: ArrayLike<number>): void {
  out.room(5 * ascending.length);
  let last = 0;
  for (let i = 0; i < ascending.length; i++) {
    out.length = writeVarint(out.values, out.length, ascending[i] - last);
    last = ascending[i];
  }
}
