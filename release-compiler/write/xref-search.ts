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
import type { ProteinTable } from "../derive/proteins.js";
import type { PackWriter } from "./packs.js";
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

/** Code points: grams never split a surrogate pair. */
const chars = (s: string): string[] => Array.from(s);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Writes the search rows and the gram index. Searchable are the ids the protein's xref
 * endpoint lists (its cross-references and its canonical id, `SourceID`) and its orthid
 * (source `orthid`); for each (id, entry) only the source that sorts first is kept.
 */
export function writeXrefSearch(
  packs: PackWriter,
  p: ProteinTable,
  annotationAt: (index: number) => AnnotationRow,
  speciesCodes: string[],
  layout = XREF_SEARCH_LAYOUT,
): XrefSearchRef {
  const rows = searchRows(p, annotationAt, speciesCodes);
  const sources = [...new Set(rows.source)].sort(compare);
  const sourceCode = new Map(sources.map((s, i) => [s, i]));
  const table = writeTable<XrefSearchRow>(
    packs,
    rows.order.length,
    layout.chunkBytes,
    (r) => {
      const at = rows.order[r];
      return [rows.id[at], sourceCode.get(rows.source[at])!, rows.entry[at], rows.seqMatch[at]];
    },
    (row) => row[0].length + 10,
  );
  const grams = gramPostings(rows.order.length, (r) => rows.lower[rows.order[r]], layout);
  return { maxHits: layout.maxHits, maxGram: layout.maxGram, sources, rows: table, grams: writeGramLeaves(packs, grams, layout.leafBytes) };
}

/** Search rows as parallel columns in the order found (millions in a large release); row r is at order[r]. */
interface SearchRows {
  id: string[];
  lower: string[];
  source: string[];
  entry: number[];
  seqMatch: number[];
  order: Int32Array;
}

/** One row per (id, entry), ordered by (lower-cased id, id, entry). */
function searchRows(p: ProteinTable, annotationAt: (index: number) => AnnotationRow, speciesCodes: string[]): SearchRows {
  const id: string[] = [];
  const source: string[] = [];
  const entries: number[] = [];
  const seqMatch: number[] = [];
  for (let i = 0; i < p.count; i++) {
    const entry = i + 1;
    const g = p.genome[i];
    const orthid = `${speciesCodes[g]}${String(entry - p.genomeFirstEntry[g] + 1).padStart(5, "0")}`;
    // The protein xref endpoint's list and seq_match rule; xrefsOf reads only the canonical id.
    const xrefs = xrefsOf({ canonicalId: p.canonicalId[i] } as ProteinSummary, annotationAt(i));
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
      source.push(row.source);
      entries.push(entry);
      seqMatch.push(row.seqMatch);
    }
  }
  const lower = id.map((x) => x.toLowerCase());
  const order = Int32Array.from(id.keys()).sort((a, b) => compare(lower[a], lower[b]) || compare(id[a], id[b]) || entries[a] - entries[b]);
  return { id, lower, source, entry: entries, seqMatch, order };
}

interface GramBuild {
  /** Rows holding the gram (each once). */
  count: number;
  /** Their row numbers as encodePostings writes them; null once the gram is common. */
  postings: Uint8Array | null;
}

/** A gram's rows while its level is collected: ascending, dropped once there are more than maxHits. */
interface GramRows {
  count: number;
  last: number;
  rows: Int32Array | null;
}

/**
 * Every gram with the rows holding it: all trigrams, and the (k+1)-grams that extend a
 * common k-gram (one in more than `maxHits` rows) at the same start, up to `maxGram`
 * characters. Common grams keep only their count. Grams are of code points: a row whose id
 * has a character outside the BMP is split into code points, the others are sliced as is.
 * Each level walks every start of every row again rather than keep the starts to extend
 * (tens of millions in a large release): a start is extended when its k-gram is common,
 * which it can only be if every shorter gram there was.
 */
function gramPostings(rowCount: number, lowerAt: (row: number) => string, layout: { maxHits: number; maxGram: number }): Map<string, GramBuild> {
  const astral = new Map<number, string[]>();
  for (let row = 0; row < rowCount; row++) if (/[\uD800-\uDFFF]/.test(lowerAt(row))) astral.set(row, chars(lowerAt(row)));
  const length = (row: number) => astral.get(row)?.length ?? lowerAt(row).length;
  const gramAt = (row: number, s: number, k: number) => astral.get(row)?.slice(s, s + k).join("") ?? lowerAt(row).slice(s, s + k);

  const all = new Map<string, GramBuild>();
  /** The common grams one character shorter than this level's; undefined for trigrams (every start). */
  let commonBelow: Set<string> | undefined;
  for (let k = 3; k <= layout.maxGram; k++) {
    const level = new Map<string, GramRows>();
    for (let row = 0; row < rowCount; row++) {
      for (let s = 0; s + k <= length(row); s++) {
        if (commonBelow && !commonBelow.has(gramAt(row, s, k - 1))) continue;
        const gram = gramAt(row, s, k);
        let g = level.get(gram);
        if (!g) level.set(gram, (g = { count: 0, last: -1, rows: new Int32Array(4) }));
        if (g.last === row) continue; // each row once
        g.last = row;
        if (g.rows && g.count === layout.maxHits) g.rows = null; // common: only its count is kept
        else if (g.rows) {
          if (g.count === g.rows.length) g.rows = grow(g.rows);
          g.rows[g.count] = row;
        }
        g.count++;
      }
    }
    const common = new Set<string>();
    for (const [gram, g] of level) {
      if (g.count > layout.maxHits) common.add(gram);
      all.set(gram, { count: g.count, postings: g.rows ? encodePostings(g.rows.subarray(0, g.count)) : null });
    }
    if (!common.size || k === layout.maxGram) break;
    commonBelow = common;
  }
  return all;
}

function grow(rows: Int32Array): Int32Array {
  const bigger = new Int32Array(rows.length * 2);
  bigger.set(rows);
  return bigger;
}

/** Unsigned LEB128 varints of the gaps between ascending row numbers (the first from 0). */
function encodePostings(rows: Iterable<number>): Uint8Array {
  const out: number[] = [];
  let last = 0;
  for (const r of rows) {
    let gap = r - last;
    last = r;
    while (gap >= 0x80) {
      out.push((gap % 0x80) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    out.push(gap);
  }
  return Uint8Array.from(out);
}

/** Gram leaves in gram order, each closed once its postings reach `leafBytes`. */
function writeGramLeaves(packs: PackWriter, grams: Map<string, GramBuild>, leafBytes: number): XrefSearchRef["grams"] {
  const keys = [...grams.keys()].sort(compare);
  const leaves = packs.tree<string>();
  let leaf: KeyIndexLeaf<XrefGram> = { keys: [], values: [] };
  let bytes = 0;
  const close = () => {
    if (!leaf.keys.length) return;
    leaves.add(leaf.keys[0], leaf);
    leaf = { keys: [], values: [] };
    bytes = 0;
  };
  for (const key of keys) {
    const g = grams.get(key)!;
    const postings = g.postings;
    leaf.keys.push(key);
    leaf.values.push([g.count, postings]);
    bytes += key.length + 4 + (postings?.length ?? 0);
    if (bytes >= leafBytes) close();
  }
  close();
  return { keys: keys.length, tree: leaves.finish() };
}
