/**
 * Maps, sets and arrays past V8's limits on one of them, which a public release's compile
 * reaches well before its 20 million proteins:
 * - one Map or Set holds at most 2^24 (16,777,216) entries, and the next `set` throws "Map
 *   maximum size exceeded". The ids that resolve an annotation's protein (canonical ids,
 *   aliases and every cross-reference id read, ~4 a protein in the simulated releases) pass it
 *   at about four million proteins, the proteins' own ids at 16.7 million, the pairs of a pairs
 *   file or of OrthoFinder's orthologues at 16.7 million pairs;
 * - one array holds at most 2^27 elements, and a `push` past ~112 M (see BigArray) stops the
 *   process with a fatal error that nothing can catch.
 *
 * BigMap and BigSet keep their entries in segments of at most SEGMENT_SIZE, one after the
 * other, each an ordinary Map: a key is in one segment only, a new key goes to the last, and
 * iteration walks the segments in order, so the order is insertion order as with one Map (the
 * bytes of the release rest on it where a map is iterated). Below SEGMENT_SIZE there is one
 * segment and each call is one call on it; above it, a lookup tries the segments in turn
 * (three at 20 million keys). BigArray keeps its elements in segments of 2^bits. Written here
 * because neither the language nor the npm registry has an ordered map without the limit: the
 * row engine (engine.ts) is for rows sorted out of core, not for lookups one key at a time on
 * the hot path of reading the inputs.
 *
 * ORTH_EDGE_MAP_SEGMENT sets smaller segments, so that the tests compile a small release
 * through many of them and find the same bytes (test/compiler/compile.test.ts).
 */

/** Entries a segment holds: half V8's limit, which a Map counts with its deleted entries until it rehashes. */
export const SEGMENT_SIZE = segmentSizeOf(process.env.ORTH_EDGE_MAP_SEGMENT);

/** The segment size ORTH_EDGE_MAP_SEGMENT gives: 2^23 when it is not set. */
export function segmentSizeOf(value: string | undefined): number {
  if (value === undefined || value === "") return 2 ** 23;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 2 ** 23) throw new Error(`ORTH_EDGE_MAP_SEGMENT=${value}: expected a whole number from 1 to ${2 ** 23}`);
  return size;
}

/** What a BigMap becomes when posted to a worker thread (structured clone keeps no class): its segments. */
export interface BigMapData<K, V> {
  segments: Array<Map<K, V>>;
}

export class BigMap<K, V> implements ReadonlyMap<K, V> {
  private segments: Array<Map<K, V>> = [new Map()];

  constructor(entries?: Iterable<readonly [K, V]>, private readonly segmentSize = SEGMENT_SIZE) {
    if (entries) for (const [key, value] of entries) this.set(key, value);
  }

  /** A BigMap again from what was posted to this thread (BigMapData). */
  static from<K, V>(data: BigMapData<K, V>, segmentSize = SEGMENT_SIZE): BigMap<K, V> {
    const map = new BigMap<K, V>(undefined, segmentSize);
    map.segments = data.segments.length ? data.segments : [new Map()];
    return map;
  }

  /** What to post to a worker thread (BigMap.from takes it back). */
  data(): BigMapData<K, V> {
    return { segments: this.segments };
  }

  get size(): number {
    let size = 0;
    for (const segment of this.segments) size += segment.size;
    return size;
  }

  /** The segment holding `key`, if any. */
  private segmentOf(key: K): Map<K, V> | undefined {
    for (const segment of this.segments) if (segment.has(key)) return segment;
    return undefined;
  }

  get(key: K): V | undefined {
    if (this.segments.length === 1) return this.segments[0].get(key);
    for (const segment of this.segments) {
      const value = segment.get(key);
      if (value !== undefined || segment.has(key)) return value;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.segments.length === 1 ? this.segments[0].has(key) : this.segmentOf(key) !== undefined;
  }

  set(key: K, value: V): this {
    const segments = this.segments;
    // A key held by an earlier segment keeps its place there.
    for (let s = 0; s < segments.length - 1; s++) {
      if (segments[s].has(key)) {
        segments[s].set(key, value);
        return this;
      }
    }
    const last = segments[segments.length - 1];
    if (last.size < this.segmentSize || last.has(key)) last.set(key, value);
    else segments.push(new Map([[key, value]]));
    return this;
  }

  delete(key: K): boolean {
    return this.segmentOf(key)?.delete(key) ?? false;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const segment of this.segments) yield* segment;
  }

  *keys(): IterableIterator<K> {
    for (const segment of this.segments) yield* segment.keys();
  }

  *values(): IterableIterator<V> {
    for (const segment of this.segments) yield* segment.values();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  forEach(visit: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const segment of this.segments) for (const [key, value] of segment) visit(value, key, this);
  }
}

export class BigSet<K> implements Iterable<K> {
  private readonly map: BigMap<K, true>;

  constructor(keys?: Iterable<K>, segmentSize = SEGMENT_SIZE) {
    this.map = new BigMap<K, true>(undefined, segmentSize);
    if (keys) for (const key of keys) this.map.set(key, true);
  }

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  add(key: K): this {
    this.map.set(key, true);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  values(): IterableIterator<K> {
    return this.map.keys();
  }

  [Symbol.iterator](): IterableIterator<K> {
    return this.map.keys();
  }
}

/**
 * An array past V8's limit on one array: V8 holds an array's elements in one block of at most
 * 2^27 slots, and a `push` that grows one past it (from ~112 M elements, with the growth's
 * margin) stops the process with a fatal error, not an exception; an array allocated longer
 * than 2^25 falls back to a dictionary, ~100 times slower. The columns of ids that grow with the
 * proteins and their cross-references (the entry id index, the cross-reference search: ~5.6 a
 * protein in the simulated releases, 112 M at 20 M proteins) are BigArrays: segments of
 * 2^bits elements, element i at `segments[i >>> bits][i & mask]`.
 */
export class BigArray<T> implements Iterable<T> {
  readonly segments: T[][] = [[]];
  readonly mask: number;
  length = 0;

  /** Segments of 2^bits elements: 2^23 unless ORTH_EDGE_MAP_SEGMENT sets fewer (its highest power of two). */
  constructor(readonly bits = Math.floor(Math.log2(SEGMENT_SIZE))) {
    this.mask = 2 ** bits - 1;
  }

  push(value: T): void {
    let last = this.segments[this.segments.length - 1];
    if (last.length > this.mask) this.segments.push((last = []));
    last.push(value);
    this.length++;
  }

  at(index: number): T {
    return this.segments[index >>> this.bits][index & this.mask];
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const segment of this.segments) yield* segment;
  }
}

/** Keys read by index: an array (one block, at most ~112 M) or a BigArray. */
export type Keys = ArrayLike<string> | BigArray<string>;

/** `keys` as segments: element i at `segments[i >>> bits][i & mask]`; a plain array is one segment. */
export function segmentsOf(keys: Keys): { segments: ArrayLike<ArrayLike<string>>; bits: number; mask: number } {
  return keys instanceof BigArray ? keys : { segments: [keys], bits: 31, mask: 0x7fffffff };
}

/** Element `i` of `keys` (segmentsOf). */
export function keyReader(keys: Keys): (index: number) => string {
  const { segments, bits, mask } = segmentsOf(keys);
  return (index) => segments[index >>> bits][index & mask];
}
