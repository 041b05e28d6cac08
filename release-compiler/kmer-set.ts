/**
 * The distinct k-mers of one sequence at a time (group fingerprints, the sequence index), in the
 * order they first occur, each with its index in that order: an open-addressing table of typed
 * arrays reused from sequence to sequence, each a new generation of stamps so nothing is
 * cleared between them. A Set a sequence costs several times as much in allocation and
 * collection, or a sort of its k-mers, and these loops see every k-mer of the release.
 */
export class DistinctKmers {
  /** The distinct codes of the current sequence, first occurrence first (`length` of them). */
  codes = new Int32Array(1024);
  length = 0;
  private keys = new Int32Array(2048);
  private index = new Int32Array(2048);
  private stamp = new Int32Array(2048);
  private generation = 0;

  /** Starts a sequence of at most `kmers` k-mers. */
  reset(kmers: number): void {
    if (kmers * 2 > this.keys.length) {
      let size = this.keys.length;
      while (size < kmers * 2) size *= 2;
      this.keys = new Int32Array(size);
      this.index = new Int32Array(size);
      this.stamp = new Int32Array(size);
      this.codes = new Int32Array(size / 2);
      this.generation = 0;
    }
    this.generation++;
    this.length = 0;
  }

  /** Adds a k-mer: false if the sequence had it already. */
  add(code: number): boolean {
    const slot = this.slotOf(code);
    if (this.stamp[slot] === this.generation) return false;
    this.stamp[slot] = this.generation;
    this.keys[slot] = code;
    this.index[slot] = this.length;
    this.codes[this.length++] = code;
    return true;
  }

  /** A k-mer's index among the sequence's distinct ones, or -1. */
  indexOf(code: number): number {
    const slot = this.slotOf(code);
    return this.stamp[slot] === this.generation ? this.index[slot] : -1;
  }

  private slotOf(code: number): number {
    const mask = this.keys.length - 1;
    let i = (Math.imul(code, 0x9e3779b1) >>> 0) & mask;
    while (this.stamp[i] === this.generation && this.keys[i] !== code) i = (i + 1) & mask;
    return i;
  }
}
