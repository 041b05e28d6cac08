/**
 * Maps, sets and arrays past V8's limits on one of them, which a public release's compile
 * reaches well before its 20 million proteins:
 * - one Map or Set holds at most 2^24 (16,777,216) entries, and the next `set` throws "Map
 *   maximum size exceeded". The ids that resolve an annotation's protein (canonical ids,
 *   aliases and every cross-reference id read, ~4 a protein in the simulated releases) pass it
 *   at about four million proteins, the pairs of a pairs file or of OrthoFinder's orthologues
 *   at 16.7 million pairs (the proteins' own ids are in an IdIndex: packed-strings.ts);
 * - one array holds at most 2^27 elements, and a `push` past ~112 M (see BigArray) stops the
 *   process with a fatal error that nothing can catch.
 *
 * A BigMap is one Map until it holds SEGMENT_SIZE keys; then its keys are split by their hash
 * into 2, 4, 8, … Maps (each part split in two when one outgrows SEGMENT_SIZE), so a call is one
 * hash and one call on one Map at any size. A first version kept segments in insertion order
 * and tried them in turn: at 80 M keys (ten segments) a lookup cost 8 µs. The price of hashing
 * is the order: a BigMap iterates in insertion order while it is one Map, and part by part
 * after (the same order for the same keys set in the same order, so the same bytes; nothing
 * that writes the release iterates a map whose order would show). BigArray keeps its elements
 * in segments of 2^bits. Written here because neither the language nor the npm registry has a
 * map without the limit: the row engine (engine.ts) is for rows sorted out of core, not for
 * lookups one key at a time on the hot path of reading the inputs.
 *
 * ORTH_EDGE_MAP_SEGMENT sets smaller segments, so that the tests compile small releases
 * through many of them and find the same bytes (test/compiler/compile.test.ts).
 */

/** Keys one Map of a BigMap holds before it is split: half V8's limit, which a Map counts with its deleted entries until it rehashes. */
export const SEGMENT_SIZE = segmentSizeOf(process.env.ORTH_EDGE_MAP_SEGMENT);

/** The segment size ORTH_EDGE_MAP_SEGMENT gives: 2^23 when it is not set. */
export function segmentSizeOf(value: string | undefined): number {
  if (value === undefined || value === "") return 2 ** 23;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 2 ** 23) throw new Error(`ORTH_EDGE_MAP_SEGMENT=${value}: expected a whole number from 1 to ${2 ** 23}`);
  return size;
}

/** The keys a BigMap takes: what its hash reads. */
export type BigKey = string | number;

/** A key's 32-bit hash (FNV-1a over a string's code units; a number's two 32-bit halves mixed), which picks its part. */
export function hashOf(key: BigKey): number {
  let h: number;
  if (typeof key === "string") {
    h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  } else h = (key >>> 0) ^ Math.imul(Math.floor(key / 2 ** 32) | 0, 0x9e3779b1);
  return finishHash(h);
}

/** murmur3's finalizer, unsigned: every bit of the hash (the top ones pick a BigMap's part) depends on every bit of `h`. */
export function finishHash(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** What a BigMap becomes when posted to a worker thread (structured clone keeps no class): its parts. */
export interface BigMapData<K, V> {
  parts: Array<Map<K, V>>;
  bits: number;
}

export class BigMap<K extends BigKey, V> implements ReadonlyMap<K, V> {
  /** 2^bits Maps; a key is in parts[hashOf(key) >>> (32 - bits)] (in parts[0] while bits is 0). */
  private parts: Array<Map<K, V>> = [new Map()];
  private bits = 0;

  constructor(entries?: Iterable<readonly [K, V]>, private readonly segmentSize = SEGMENT_SIZE) {
    if (entries) for (const [key, value] of entries) this.set(key, value);
  }

  /** A BigMap again from what was posted to this thread (BigMapData). */
  static from<K extends BigKey, V>(data: BigMapData<K, V>): BigMap<K, V> {
    const map = new BigMap<K, V>();
    map.parts = data.parts;
    map.bits = data.bits;
    return map;
  }

  /** What to post to a worker thread (BigMap.from takes it back). */
  data(): BigMapData<K, V> {
    return { parts: this.parts, bits: this.bits };
  }

  private partOf(key: K): Map<K, V> {
    return this.bits === 0 ? this.parts[0] : this.parts[hashOf(key) >>> (32 - this.bits)];
  }

  get size(): number {
    let size = 0;
    for (const part of this.parts) size += part.size;
    return size;
  }

  get(key: K): V | undefined {
    return this.partOf(key).get(key);
  }

  has(key: K): boolean {
    return this.partOf(key).has(key);
  }

  set(key: K, value: V): this {
    const part = this.partOf(key);
    part.set(key, value);
    if (part.size > this.segmentSize) this.split();
    return this;
  }

  /** Every part in two by the next bit of its keys' hashes: part i becomes parts 2i and 2i + 1. */
  private split(): void {
    if (this.bits === 32) throw new Error("BigMap: more keys than 2^32 parts hold");
    const bits = this.bits + 1;
    const parts: Array<Map<K, V>> = [];
    for (let i = 0; i < this.parts.length; i++) {
      const low = new Map<K, V>();
      const high = new Map<K, V>();
      for (const [key, value] of this.parts[i]) ((hashOf(key) >>> (32 - bits)) & 1 ? high : low).set(key, value);
      this.parts[i].clear(); // its memory free before the next part is copied
      parts.push(low, high);
    }
    this.parts = parts;
    this.bits = bits;
  }

  delete(key: K): boolean {
    return this.partOf(key).delete(key);
  }

  *entries(): IterableIterator<[K, V]> {
    for (const part of this.parts) yield* part;
  }

  *keys(): IterableIterator<K> {
    for (const part of this.parts) yield* part.keys();
  }

  *values(): IterableIterator<V> {
    for (const part of this.parts) yield* part.values();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  forEach(visit: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const part of this.parts) for (const [key, value] of part) visit(value, key, this);
  }
}

/**
 * A Bloom filter over string or number keys: `mayHave` is false for a key never added, and true
 * for one added (and falsely for ~1.4% of the others, filled to its room). Put in front of a
 * BigSet where most keys asked for are not in it: a lookup in a Map of a million keys costs ~0.5 µs on this
 * machine, most of it waiting on memory (a fresh slice of a line is compared slower still),
 * where the filter's two bits lie in an array of 16 bits a key, 2 MB at a million keys (~0.1 µs,
 * measured over 4 M misses). Written here because a filter this small is a hash and two bits.
 */
export class KeyFilter<K extends BigKey> {
  private readonly bits: Uint32Array;
  private readonly mask: number;

  /** Room for `expected` keys at 16 bits each (at least 2^10 bits, at most 2^32). */
  constructor(expected: number) {
    const size = 2 ** Math.min(32, Math.max(10, Math.ceil(Math.log2(Math.max(1, expected) * 16))));
    this.bits = new Uint32Array(size / 32);
    this.mask = size - 1;
  }

  /** A filter holding every key of `keys`, with room for `expected` keys (their count, or more for keys to come). */
  static of<K extends BigKey>(keys: Iterable<K>, expected: number): KeyFilter<K> {
    const filter = new KeyFilter<K>(expected);
    for (const key of keys) filter.add(key);
    return filter;
  }

  add(key: K): void {
    const h = hashOf(key);
    const a = this.first(h);
    const b = this.second(h);
    this.bits[a >>> 5] |= 1 << (a & 31);
    this.bits[b >>> 5] |= 1 << (b & 31);
  }

  mayHave(key: K): boolean {
    const h = hashOf(key);
    const a = this.first(h);
    if (!((this.bits[a >>> 5] >>> (a & 31)) & 1)) return false;
    const b = this.second(h);
    return ((this.bits[b >>> 5] >>> (b & 31)) & 1) === 1;
  }

  /** The two bits of a hash: its low bits, and the low bits of it mixed again (golden-ratio multiply, halves swapped). */
  private first(h: number): number {
    return (h & this.mask) >>> 0;
  }

  private second(h: number): number {
    const g = Math.imul(h, 0x9e3779b1);
    return (((g >>> 16) | (g << 16)) & this.mask) >>> 0;
  }
}

/** A Set past V8's limit: the keys of a BigMap (its order too). */
export class BigSet<K extends BigKey> implements Iterable<K> {
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
 * proteins and their cross-references (the entry id index's keys: 6.6 a protein in the
 * simulated 1M release, 133 M at 20 M proteins; the cross-reference search's rows) are BigArrays: segments of
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
