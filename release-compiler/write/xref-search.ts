/**
 * The cross-reference search index (`GET /api/xref/?search=`): a table of every searchable id
 * and a gram index over their lower-cased text. See "Cross-reference search" in
 * release-format/FORMAT.md.
 */
import {
  SEQ_MATCH_CODES,
  XREF_ORTHID_SOURCE,
  type AnnotationRow,
  type KeyIndexLeaf,
  type ProteinSummary,
  type XrefGram,
  type XrefSearchRef,
  type XrefSearchRow,
} from "../../release-format/format.js";
import { xrefsOf } from "../../release-format/xrefs.js";
import { BigArray } from "../collections.js";
import { canonicalIdOf, type ProteinTable } from "../derive/proteins.js";
import { appendGaps, GrowingBytes, GrowingInts } from "./growing.js";
import type { PackWriter } from "./packs.js";
import { stringOrder } from "./string-order.js";
import { writeTable } from "./tables.js";

export const XREF_SEARCH_LAYOUT = {
  /** A query with more hits answers 400; grams in more rows than this keep no postings. */
  maxHits: 20_000,
  /** Longest gram: a common gram is extended one character at a time up to this length. */
  maxGram: 6,
  /** Rows are ~20 bytes: a chunk holds ~800. */
  chunkBytes: 16 * 1024,
  /** A gram leaf is closed once its postings reach this many bytes. */
  leafBytes: 64 * 1024,
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Writes the search rows and the gram index. Searchable are the ids the protein's xref
 * endpoint lists (its cross-references and its canonical id, `SourceID`) and its orthid
 * (source `orthid`); for each (id, entry) only the source that sorts first is kept.
 */
export function writeXrefSearch(
  packs: PackWriter,
  p: ProteinTable,
  xrefsAt: (index: number) => AnnotationRow["xrefs"],
  speciesCodes: string[],
  layout = XREF_SEARCH_LAYOUT,
): XrefSearchRef {
  const { sources, table, text } = writeSearchRows(packs, p, xrefsAt, speciesCodes, layout);
  // The rows' strings are garbage by now, collected as the grams' tables (the task's largest) grow.
  const grams = gramPostingsOf(text, layout);
  return { maxHits: layout.maxHits, maxGram: layout.maxGram, sources, rows: table, grams: writeGramLeaves(packs, grams, layout.leafBytes) };
}

/**
 * The search rows written as their table, and their lower-cased text as symbols in the
 * table's order (gramText), which is all the grams need of them: the rows' ids and lower-cased
 * ids (~450 MB of heap at a million proteins) are not held while the grams are built.
 */
function writeSearchRows(packs: PackWriter, p: ProteinTable, xrefsAt: (index: number) => AnnotationRow["xrefs"], speciesCodes: string[], layout: typeof XREF_SEARCH_LAYOUT) {
  const rows = searchRows(p, xrefsAt, speciesCodes);
  // The sources in order; each row's, numbered as found, renumbered in that order.
  const sources = [...rows.sources].sort(compare);
  const sourceCode = Int32Array.from(rows.sources, (s) => sources.indexOf(s));
  const table = writeTable<XrefSearchRow>(
    packs,
    rows.order.length,
    layout.chunkBytes,
    (r) => {
      const at = rows.order[r];
      return [rows.id.at(at), sourceCode[rows.source[at]], rows.entry[at], rows.seqMatch[at]];
    },
    { sizeOf: (row) => row[0].length + 10 },
  );
  return { sources, table, text: gramText(rows.order.length, (r) => rows.lower.at(rows.order[r])) };
}

/**
 * Search rows as parallel columns in the order found (a protein's cross-reference ids, canonical
 * id and orthid: at 20 M proteins more than one array holds, so BigArrays and typed arrays); row r is at order[r].
 * A row's source is a number, its place in `sources` (a release has a few dozen): as a string
 * each, read afresh from the annotations' file, the sources held ~200 MB of the task's heap at
 * a million proteins.
 */
interface SearchRows {
  id: BigArray<string>;
  lower: BigArray<string>;
  sources: string[];
  source: Int32Array;
  entry: Int32Array;
  seqMatch: Int32Array;
  order: Int32Array;
}

/** One row per (id, entry), ordered by (lower-cased id, id, entry). */
function searchRows(p: ProteinTable, xrefsAt: (index: number) => AnnotationRow["xrefs"], speciesCodes: string[]): SearchRows {
  const id = new BigArray<string>();
  const lower = new BigArray<string>();
  const sources: string[] = [];
  const sourceNumber = new Map<string, number>();
  const source = new GrowingInts();
  const entries = new GrowingInts();
  const seqMatch = new GrowingInts();
  for (let i = 0; i < p.count; i++) {
    const entry = i + 1;
    const g = p.genome[i];
    const orthid = `${speciesCodes[g]}${String(entry - p.genomeFirstEntry[g] + 1).padStart(5, "0")}`;
    // The protein xref endpoint's list and seq_match rule; xrefsOf reads only the canonical id.
    const xrefs = xrefsOf({ canonicalId: canonicalIdOf(p, i) } as ProteinSummary, { xrefs: xrefsAt(i) });
    const seen = new Map<string, { source: string; seqMatch: number }>();
    const add = (xref: string, from: string, match: string) => {
      if (!xref) return;
      const known = seen.get(xref);
      if (known && compare(known.source, from) <= 0) return;
      seen.set(xref, { source: from, seqMatch: SEQ_MATCH_CODES.indexOf(match as never) });
    };
    for (const x of xrefs) add(x.id, x.source, x.seqMatch);
    add(orthid, XREF_ORTHID_SOURCE, "exact");
    for (const [xref, row] of seen) {
      id.push(xref);
      lower.push(xref.toLowerCase());
      let number = sourceNumber.get(row.source);
      if (number === undefined) sourceNumber.set(row.source, (number = sources.push(row.source) - 1));
      source.push(number);
      entries.push(entry);
      seqMatch.push(row.seqMatch);
    }
  }
  const entry = entries.values.subarray(0, entries.length);
  const order = stringOrder(lower, (a, b) => compare(id.at(a), id.at(b)) || entry[a] - entry[b]);
  return { id, lower, sources, source: source.values.subarray(0, source.length), entry, seqMatch: seqMatch.values.subarray(0, seqMatch.length), order };
}

/**
 * Every gram (millions in a large release: parallel columns, not an object each): its key, the
 * rows holding it, and its postings, the rows' numbers as varint gaps (growing.ts, appendGaps), at
 * [postingsFrom, postingsTo) of `postings` (from -1 for a common gram, which keeps its count alone).
 */
export interface Grams {
  keys: BigArray<string>;
  counts: GrowingInts;
  postingsFrom: GrowingInts;
  postingsTo: GrowingInts;
  postings: GrowingBytes;
}

/** Keys below 2^53, so a gram's key (its shorter gram's number and its last symbol) is exact as a double. */
const SYMBOL_FACTOR = 2 ** 21;

/**
 * Every gram with the rows holding it: all trigrams, and the (k+1)-grams that extend a
 * common k-gram (one in more than `maxHits` rows) at the same start, up to `maxGram`
 * characters. Common grams keep only their count. Grams are of code points.
 *
 * Written as numbers rather than strings: the rows' text becomes one array of symbols (a
 * number per distinct code point), a gram is numbered in its level's hash table by its
 * shorter gram's number and its last symbol, and each start keeps the number of its gram on
 * the level being collected, so a level walks the starts its shorter gram made common without
 * looking anything up again. A level is two passes over those starts: one counts each gram's
 * rows, the other places the rows of the grams not common in one array (each gram's rows a
 * slice of it). Slicing every gram into a string and counting it in a Map of millions of
 * strings took most of a million proteins' search index (~40 s, a quarter of it collecting
 * the garbage); this does the same with no allocation per start.
 */
export function gramPostings(rowCount: number, lowerAt: (row: number) => string, layout: { maxHits: number; maxGram: number }): Grams {
  return gramPostingsOf(gramText(rowCount, lowerAt), layout);
}

/** gramPostings over rows' text already turned into symbols (gramText). */
function gramPostingsOf({ symbols, rowStart, codePoints }: GramText, layout: { maxHits: number; maxGram: number }): Grams {
  const rowCount = rowStart.length - 1;
  const keyAt = (at: number, k: number) => String.fromCodePoint(...Array.from(symbols.subarray(at, at + k), (x) => codePoints[x]));
  // Bigrams: numbered so that trigrams can be keyed by a bigram's number and a symbol.
  const bigrams = new GramTable();
  /** Per start (symbol position): the number of its gram on the current level, -1 where none. */
  const gramOf = new Int32Array(symbols.length).fill(-1);
  const out: Grams = { keys: new BigArray(), counts: new GrowingInts(), postingsFrom: new GrowingInts(), postingsTo: new GrowingInts(), postings: new GrowingBytes() };
  // A level needs only the one before's grams of each start (gramOf) and which were common, so
  // its tables are the previous level's, emptied: new ones each level were allocated outside
  // V8's heap, and every 64 MB of that makes V8 collect the whole heap, freeing nothing (a
  // million proteins: 1.2 GB of search rows and annotations, ~0.5 s a collection).
  const level = new GramTable();
  const counts = new GrowingInts();
  const lastRow = new GrowingInts();
  const firstAt = new GrowingInts();
  const rows = new GrowingInts();
  let common: Uint8Array | undefined;
  for (let k = 3; k <= layout.maxGram; k++) {
    level.clear();
    counts.length = lastRow.length = firstAt.length = 0;
    // Pass 1: the gram of each start of this level, and each gram's rows counted once.
    for (let row = 0; row < rowCount; row++) {
      const end = rowStart[row + 1];
      for (let at = rowStart[row]; at < end; at++) {
        let shorter: number;
        if (k === 3) shorter = at + 2 < end ? bigrams.number(symbols[at] * SYMBOL_FACTOR + symbols[at + 1]) : -1;
        else shorter = at + k <= end && gramOf[at] >= 0 && common![gramOf[at]] ? gramOf[at] : -1;
        if (shorter < 0) {
          gramOf[at] = -1;
          continue;
        }
        const before = level.size;
        const gram = level.number(shorter * SYMBOL_FACTOR + symbols[at + k - 1]);
        if (gram === before) {
          counts.push(0);
          lastRow.push(-1);
          firstAt.push(at);
        }
        gramOf[at] = gram;
        if (lastRow.values[gram] === row) continue;
        lastRow.values[gram] = row;
        counts.values[gram]++;
      }
    }
    // Pass 2: the rows of each gram not common, in one array.
    const grams = level.size;
    const isCommon = new Uint8Array(grams);
    const begin = new Int32Array(grams + 1);
    for (let g = 0; g < grams; g++) {
      isCommon[g] = counts.values[g] > layout.maxHits ? 1 : 0;
      begin[g + 1] = begin[g] + (isCommon[g] ? 0 : counts.values[g]);
    }
    rows.reserve(begin[grams]);
    // Each gram's next place in `rows`, from its begin: at the end, its end and the next gram's begin.
    const cursor = begin.subarray(0, grams);
    lastRow.values.fill(-1);
    for (let row = 0; row < rowCount; row++) {
      const end = rowStart[row + 1];
      for (let at = rowStart[row]; at < end; at++) {
        const gram = gramOf[at];
        if (gram < 0 || isCommon[gram] || lastRow.values[gram] === row) continue;
        lastRow.values[gram] = row;
        rows.values[cursor[gram]++] = row;
      }
    }
    for (let g = 0; g < grams; g++) {
      out.keys.push(keyAt(firstAt.values[g], k));
      out.counts.push(counts.values[g]);
      out.postingsFrom.push(isCommon[g] ? -1 : out.postings.length);
      if (!isCommon[g]) appendGaps(out.postings, rows.values.subarray(g === 0 ? 0 : cursor[g - 1], cursor[g]));
      out.postingsTo.push(out.postings.length);
    }
    if (!isCommon.includes(1) || k === layout.maxGram) break;
    common = isCommon;
  }
  return out;
}

/** Rows' text as symbols, one per code point (numbered in order of appearance), row r at [rowStart[r], rowStart[r + 1]). */
type GramText = ReturnType<typeof gramText>;

/** The rows' text as symbols (GramText). */
function gramText(rowCount: number, lowerAt: (row: number) => string) {
  const symbolOfCodePoint = new Int32Array(0x110000).fill(-1);
  const codePoints: number[] = [];
  const rowStart = new Int32Array(rowCount + 1);
  // Sized once (a code point per UTF-16 unit at most), two bytes a symbol while the text has at
  // most 65,536 distinct characters (any real release's), four past that.
  let units = 0;
  for (let row = 0; row < rowCount; row++) units += lowerAt(row).length;
  let symbols: Uint16Array | Int32Array = new Uint16Array(units);
  let length = 0;
  for (let row = 0; row < rowCount; row++) {
    const text = lowerAt(row);
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      let symbol = symbolOfCodePoint[cp];
      if (symbol < 0) {
        symbol = symbolOfCodePoint[cp] = codePoints.push(cp) - 1;
        if (symbol === 0x10000) symbols = Int32Array.from(symbols);
      }
      symbols[length++] = symbol;
    }
    rowStart[row + 1] = length;
  }
  return { symbols: symbols.subarray(0, length), rowStart, codePoints };
}

/**
 * Numbers keys (whole numbers below 2^53) in order of arrival: open addressing with linear
 * probing over typed arrays, half full at most. By hand because a Map keyed by numbers this
 * large boxes each one.
 */
class GramTable {
  size = 0;
  private keys = new Float64Array(1024).fill(-1);
  private numbers = new Int32Array(1024);

  /** Forgets every key, keeping the table's room. */
  clear(): void {
    this.keys.fill(-1);
    this.size = 0;
  }

  /** The key's number, a new one (this.size before the call) if it had none. */
  number(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = slotOf(key, mask); ; slot = (slot + 1) & mask) {
      const at = this.keys[slot];
      if (at === key) return this.numbers[slot];
      if (at === -1) {
        this.keys[slot] = key;
        this.numbers[slot] = this.size;
        if (++this.size * 2 > this.keys.length) this.grow();
        return this.size - 1;
      }
    }
  }

  private grow(): void {
    const { keys, numbers } = this;
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.numbers = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue;
      let slot = slotOf(keys[i], mask);
      while (this.keys[slot] !== -1) slot = (slot + 1) & mask;
      this.keys[slot] = keys[i];
      this.numbers[slot] = numbers[i];
    }
  }
}

/** A key's first slot: its high and low 32 bits mixed (murmur3's finalizer). */
function slotOf(key: number, mask: number): number {
  let h = (key >>> 0) ^ Math.imul(Math.floor(key / 2 ** 32), 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
}


/** Gram leaves in gram order, each closed once its postings reach `leafBytes`. */
function writeGramLeaves(packs: PackWriter, grams: Grams, leafBytes: number): XrefSearchRef["grams"] {
  const { keys, counts, postingsFrom, postingsTo, postings } = grams;
  const order = stringOrder(keys);
  const leaves = packs.tree<string>();
  let leaf: KeyIndexLeaf<XrefGram> = { keys: [], values: [] };
  let bytes = 0;
  const close = () => {
    if (!leaf.keys.length) return;
    leaves.add(leaf.keys[0], leaf);
    leaf = { keys: [], values: [] };
    bytes = 0;
  };
  for (const g of order) {
    const from = postingsFrom.values[g];
    const rows = from < 0 ? null : postings.values.subarray(from, postingsTo.values[g]);
    const key = keys.at(g);
    leaf.keys.push(key);
    leaf.values.push([counts.values[g], rows]);
    bytes += key.length + 4 + (rows?.length ?? 0);
    if (bytes >= leafBytes) close();
  }
  close();
  return { keys: keys.length, tree: leaves.finish() };
}
