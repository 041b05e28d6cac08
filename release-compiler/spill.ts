/**
 * Disk spilling for data too big to hold whole: fixed-size binary records appended to one
 * of N bucket files, each bucket read back (and sorted by its reader) on its own. Records of
 * a bucket come back in the order they were appended. Files live in a scratch folder beside
 * the release being built, removed when the compile ends, failed or not.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** A scratch folder; `remove()` deletes it with everything in it. */
export interface ScratchFolder {
  readonly path: string;
  /** A new, empty sub-folder for one spill. */
  folder(name: string): string;
  remove(): void;
}

export function scratchFolder(path: string): ScratchFolder {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  let made = 0;
  return {
    path,
    folder(name) {
      const dir = join(path, `${++made}-${name}`);
      mkdirSync(dir);
      return dir;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Bytes buffered in memory across all buckets before buffers are written out. */
const BUFFER_BUDGET = 32 * 2 ** 20;
const MIN_BUFFER = 16 * 1024;

/**
 * Records of `recordBytes` bytes spilled into `buckets` files. `append(bucket)` returns the
 * buffer and offset to write one record at (the caller encodes it, e.g. with DataView or
 * Buffer methods); `read(bucket)` returns all of a bucket's records, `count(bucket)` how many.
 */
export class BucketSpill {
  private readonly buffers: Buffer[];
  private readonly used: Int32Array;
  private readonly counts: Float64Array;
  private readonly bufferRecords: number;
  private finished = false;

  constructor(
    private readonly dir: string,
    readonly buckets: number,
    readonly recordBytes: number,
  ) {
    const perBucket = Math.max(MIN_BUFFER, Math.floor(BUFFER_BUDGET / Math.max(1, buckets)));
    this.bufferRecords = Math.max(1, Math.floor(perBucket / recordBytes));
    this.buffers = new Array<Buffer>(buckets);
    this.used = new Int32Array(buckets);
    this.counts = new Float64Array(buckets);
  }

  /** Where to write the next record of `bucket`: `buffer` from byte `offset`, `recordBytes` long. */
  append(bucket: number): { buffer: Buffer; offset: number } {
    if (this.finished) throw new Error("BucketSpill: append after read");
    let buffer = this.buffers[bucket];
    if (!buffer) buffer = this.buffers[bucket] = Buffer.allocUnsafe(this.bufferRecords * this.recordBytes);
    else if (this.used[bucket] === this.bufferRecords) this.flush(bucket);
    const offset = this.used[bucket]++ * this.recordBytes;
    this.counts[bucket]++;
    return { buffer, offset };
  }

  count(bucket: number): number {
    return this.counts[bucket];
  }

  /** Every record of `bucket`, in append order; the bucket's file is deleted once read. */
  read(bucket: number): Buffer {
    if (!this.finished) {
      for (let b = 0; b < this.buckets; b++) this.flush(b);
      this.buffers.fill(undefined as never);
      this.finished = true;
    }
    if (this.counts[bucket] === 0) return Buffer.alloc(0);
    const file = this.file(bucket);
    const bytes = readFileSync(file);
    unlinkSync(file);
    return bytes;
  }

  private flush(bucket: number): void {
    const n = this.used[bucket];
    if (n === 0) return;
    appendFileSync(this.file(bucket), this.buffers[bucket].subarray(0, n * this.recordBytes));
    this.used[bucket] = 0;
  }

  private file(bucket: number): string {
    return join(this.dir, `${bucket}.bin`);
  }
}
