/**
 * Strings a protein, held packed in typed arrays rather than as a string each: their UTF-8 bytes
 * one after the other and where each begins (StringColumn); and the proteins' FASTA ids, which
 * every input file names its proteins by, numbered 1, 2, 3, … in the order added and looked up
 * both ways (IdIndex: a StringColumn and an open-addressing hash table of the numbers, linear
 * probing, at most half full, with an 8-bit tag of each slot's hash, so that a probe compares an
 * id's bytes only where the tags agree).
 *
 * A string costs V8 a 16–24-byte header and an 8-byte slot of its array besides its characters,
 * and a Map ~60 bytes a key more. At a million proteins of 15-character ids an IdIndex holds
 * 28.5 MiB where a string array and a BigMap of them held 98 (the derived release read back,
 * build/tmp/fieldheap.mts), and a lookup costs less than a Map's (one slot of the table and the
 * id's bytes, where a Map reads its own table and the string it holds: ~0.5 µs a hit and ~0.2 a
 * miss against ~1.3 and ~0.75 for a BigMap, random order, build/tmp/idbench.mts). Neither has a
 * Map's limit of 2^24 keys or an array's of ~112 M elements. Written here because neither the
 * language nor the npm registry has strings held in typed arrays; the row engine (engine.ts) is
 * for rows sorted out of core, not for lookups one at a time while the inputs are read.
 *
 * The hash is FNV-1a over the UTF-8 bytes, so that the table is rebuilt from the bytes alone (as
 * it grows) and an ASCII id is hashed from its char codes without being encoded: there it is
 * the BigMap's own hash of a string (hashOf), whose code units are its bytes.
 */
import { finishHash, hashOf } from "./collections.js";
import { GrowingBytes } from "./write/growing.js";

/** Bytes a column's strings may take: its offsets are Uint32. */
const MOST_BYTES = 2 ** 32 - 1;

/** A StringColumn's arrays, exactly as long as they are used: what a snapshot keeps (snapshot.ts). */
export interface StringColumnParts {
  /** The strings' UTF-8 bytes, one after the other. */
  bytes: Uint8Array;
  /**
   * length + 1 offsets: string i is bytes starts[i] .. starts[i + 1]. Uint32: the bytes are one
   * Uint8Array, which holds less than 4 GiB (a column says so past that: MOST_BYTES).
   */
  starts: Uint32Array;
}

/** An IdIndex's arrays: its ids' column's, and its table's. */
export interface IdIndexParts extends StringColumnParts {
  /** 2^k slots, 0 where empty, else an id's number. */
  table: Int32Array;
  /** Each slot's tag: the top 8 bits of its id's hash (the slot is picked by the low bits). */
  tags: Uint8Array;
}

/** Strings by index 0, 1, 2, …, appended in order, packed. */
export class StringColumn implements Iterable<string> {
  /** The bytes; `bytes.values` past `bytes.length` is room. */
  private bytes: GrowingBytes;
  private starts: Uint32Array;
  length = 0;

  /** Room for `expected` strings of 16 bytes before any array grows (they grow as needed). */
  constructor(expected = 1024) {
    const room = Math.max(16, expected);
    this.bytes = new GrowingBytes(room * 16);
    this.starts = new Uint32Array(room + 1);
  }

  static of(strings: Iterable<string>): StringColumn {
    const column = new StringColumn();
    for (const s of strings) column.push(s);
    return column;
  }

  /** A column again from its parts: the arrays are taken, not copied. */
  static from(parts: StringColumnParts): StringColumn {
    if (parts.starts.length < 1 || parts.starts[parts.starts.length - 1] !== parts.bytes.length) throw new Error("StringColumn.from: parts that are no column");
    const column = new StringColumn(16);
    column.bytes.values = parts.bytes;
    column.bytes.length = parts.bytes.length;
    column.starts = parts.starts;
    column.length = parts.starts.length - 1;
    return column;
  }

  /** Its arrays, each as long as it is used (views, not copies). */
  parts(): StringColumnParts {
    return { bytes: this.bytes.values.subarray(0, this.bytes.length), starts: this.starts.subarray(0, this.length + 1) };
  }

  /** Appends `s` as string `length` (and returns that index). */
  push(s: string): number {
    const ascii = isAscii(s);
    const size = ascii ? s.length : Buffer.byteLength(s, "utf8");
    const out = this.bytes;
    if (out.length + size > MOST_BYTES) throw new Error(`StringColumn: more than ${MOST_BYTES} bytes of strings`);
    out.room(size);
    if (ascii) for (let i = 0; i < size; i++) out.values[out.length + i] = s.charCodeAt(i);
    else asBuffer(out.values).write(s, out.length, "utf8");
    if (this.length + 2 > this.starts.length) {
      const starts = new Uint32Array(Math.max(this.length + 2, this.starts.length * 2));
      starts.set(this.starts);
      this.starts = starts;
    }
    this.starts[this.length + 1] = out.length += size;
    return this.length++;
  }

  /** String `i`. */
  at(i: number): string {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`string ${i} is not among the ${this.length}`);
    return this.starts[i + 1] === this.starts[i] ? "" : asBuffer(this.bytes.values).toString("utf8", this.starts[i], this.starts[i + 1]);
  }

  /** Whether string `i` is `s`, without making a string (false where i is out of range). */
  is(i: number, s: string): boolean {
    if (!(i >= 0 && i < this.length)) return false;
    const start = this.starts[i];
    if (this.starts[i + 1] - start !== s.length) return isAscii(s) ? false : this.hasBytes(i, Buffer.from(s, "utf8"));
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c > 0x7f) return this.hasBytes(i, Buffer.from(s, "utf8"));
      if (this.bytes.values[start + k] !== c) return false;
    }
    return true;
  }

  /** Whether string `i` is the UTF-8 `encoded`. */
  hasBytes(i: number, encoded: Uint8Array): boolean {
    const start = this.starts[i];
    if (this.starts[i + 1] - start !== encoded.length) return false;
    for (let k = 0; k < encoded.length; k++) if (this.bytes.values[start + k] !== encoded[k]) return false;
    return true;
  }

  /** String `i`'s hash (hashBytes). */
  hashAt(i: number): number {
    return hashBytes(this.bytes.values, this.starts[i], this.starts[i + 1]);
  }

  /** Strings `from` .. `to` − 1. */
  *range(from = 0, to = this.length): IterableIterator<string> {
    for (let i = from; i < to; i++) yield this.at(i);
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.range();
  }
}

const EMPTY = 0;
/** Ids a number can name: the table holds them as Int32. */
const MOST = 2 ** 31 - 1;

/** Ids numbered 1, 2, 3, … in the order added, found by number and by text. */
export class IdIndex implements Iterable<string> {
  /** Id n is ids.at(n − 1). */
  private ids: StringColumn;
  private table: Int32Array;
  private tags: Uint8Array;
  private mask: number;
  /** The tag of the id the last probe did not find. */
  private missTag = 0;

  /** Room for `expected` ids before any array grows (they grow as needed). */
  constructor(expected = 1024) {
    this.ids = new StringColumn(expected);
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, expected) * 2));
    this.table = new Int32Array(slots);
    this.tags = new Uint8Array(slots);
    this.mask = slots - 1;
  }

  /** The ids of `ids` numbered in order (an id given twice keeps its first number). */
  static of(ids: Iterable<string>): IdIndex {
    const index = new IdIndex();
    for (const id of ids) index.add(id);
    return index;
  }

  /** An index again from its parts (IdIndexParts): the arrays are taken, not copied. */
  static from(parts: IdIndexParts): IdIndex {
    const slots = parts.table.length;
    if (slots < 2 || slots & (slots - 1) || parts.tags.length !== slots) throw new Error("IdIndex.from: parts that are no index");
    const index = new IdIndex(16);
    index.ids = StringColumn.from(parts);
    index.table = parts.table;
    index.tags = parts.tags;
    index.mask = slots - 1;
    return index;
  }

  /** Its arrays, each as long as it is used (views, not copies). */
  parts(): IdIndexParts {
    return { ...this.ids.parts(), table: this.table, tags: this.tags };
  }

  get count(): number {
    return this.ids.length;
  }

  /** The number of `id`, or undefined. */
  numberOf(id: string): number | undefined {
    const slot = this.probe(id);
    return slot < 0 ? undefined : this.table[slot];
  }

  /**
   * `id`'s number: a new one, count + 1, unless `id` is here already (so a number ≤ the count
   * before the call tells an id added twice).
   */
  add(id: string): number {
    const slot = this.probe(id);
    if (slot >= 0) return this.table[slot];
    if (this.count === MOST) throw new Error(`IdIndex: more than ${MOST} ids`);
    const n = this.ids.push(id) + 1;
    if (n * 2 > this.table.length) this.rebuild(this.table.length * 2);
    else {
      // The free slot where the probe ended, with its hash's tag.
      this.table[-slot - 1] = n;
      this.tags[-slot - 1] = this.missTag;
    }
    return n;
  }

  /** Id `n`'s text (1-based). */
  idOf(n: number): string {
    if (!(n >= 1 && n <= this.count)) throw new RangeError(`id ${n} is not among the ${this.count}`);
    return this.ids.at(n - 1);
  }

  /** Whether id `n` is `id`, without making a string (false where n is out of range). */
  is(n: number, id: string): boolean {
    return this.ids.is(n - 1, id);
  }

  /** Ids `from` .. `to` − 1 (1-based), as strings. */
  range(from = 1, to = this.count + 1): IterableIterator<string> {
    return this.ids.range(from - 1, to - 1);
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.ids.range();
  }

  /** The slot of `id`; if it is not here, −1 − the free slot where it would go (its tag in missTag). */
  private probe(id: string): number {
    const ascii = isAscii(id);
    const encoded = ascii ? undefined : Buffer.from(id, "utf8");
    const h = ascii ? hashOf(id) : hashBytes(encoded!, 0, encoded!.length);
    const tag = tagOf(h);
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const n = this.table[slot];
      if (n === EMPTY) {
        this.missTag = tag;
        return -slot - 1;
      }
      if (this.tags[slot] === tag && (ascii ? this.ids.is(n - 1, id) : this.ids.hasBytes(n - 1, encoded!))) return slot;
    }
  }

  private rebuild(slots: number): void {
    this.table = new Int32Array(slots);
    this.tags = new Uint8Array(slots);
    this.mask = slots - 1;
    for (let n = 1; n <= this.count; n++) {
      const h = this.ids.hashAt(n - 1);
      let slot = h & this.mask;
      while (this.table[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.table[slot] = n;
      this.tags[slot] = tagOf(h);
    }
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** FNV-1a over UTF-8 bytes, finished as hashOf finishes a string's: for ASCII, hashOf of the string. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return finishHash(h);
}

/** A Buffer over the same memory, for its UTF-8 coding. */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

/** The top 8 bits: the slot is picked by the low bits, so the tag tells apart ids that meet in a slot. */
const tagOf = (h: number) => h >>> 24;
