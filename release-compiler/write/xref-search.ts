/**
 * The cross-reference search index (`GET /api/xref/?search=`): a table of every searchable id
 * and a gram index over their lower-cased text. See "Cross-reference search" in
 * src/release/FORMAT.md.
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
} from "../../src/release/format.js";
import { xrefsOf } from "../../src/release/xrefs.js";
import type { ProteinTable } from "../derive/proteins.js";
import type { BlobWriter } from "./blobs.js";
import { writeTable } from "./tables.js";

export const XREF_SEARCH_LAYOUT = {
  /** A query with more hits answers 400; grams in more rows than this keep no postings. */
  maxHits: 20_000,
  /** Longest gram: a common gram is extended one character at a time up to this length. */
  maxGram: 6,
  /** Rows are ~20 bytes: a shard is ~40 kB. */
  rowsPerShard: 2048,
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
  blobs: BlobWriter,
  p: ProteinTable,
  annotations: AnnotationRow[],
  speciesCodes: string[],
  layout = XREF_SEARCH_LAYOUT,
): XrefSearchRef {
  const rows = searchRows(p, annotations, speciesCodes);
  const sources = [...new Set(rows.map((r) => r.source))].sort(compare);
  const sourceCode = new Map(sources.map((s, i) => [s, i]));
  const table = writeTable<XrefSearchRow>(blobs, rows.length, layout.rowsPerShard, (r) => {
    const row = rows[r];
    return [row.id, sourceCode.get(row.source)!, row.entry, row.seqMatch];
  });
  const grams = gramPostings(
    rows.map((r) => chars(r.lower)),
    layout,
  );
  return { maxHits: layout.maxHits, maxGram: layout.maxGram, sources, rows: table, grams: writeGramLeaves(blobs, grams, layout.leafBytes) };
}

interface SearchRow {
  id: string;
  lower: string;
  source: string;
  entry: number;
  seqMatch: number;
}

/** One row per (id, entry), sorted by (lower-cased id, id, entry). */
function searchRows(p: ProteinTable, annotations: AnnotationRow[], speciesCodes: string[]): SearchRow[] {
  const rows: SearchRow[] = [];
  for (let i = 0; i < p.count; i++) {
    const entry = i + 1;
    const g = p.genome[i];
    const orthid = `${speciesCodes[g]}${String(entry - p.genomeFirstEntry[g] + 1).padStart(5, "0")}`;
    // The protein xref endpoint's list and seq_match rule; xrefsOf reads only the canonical id.
    const xrefs = xrefsOf({ canonicalId: p.canonicalId[i] } as ProteinSummary, annotations[i]);
    const seen = new Map<string, SearchRow>();
    const add = (id: string, source: string, seqMatch: string) => {
      if (!id) return;
      const known = seen.get(id);
      if (known && compare(known.source, source) <= 0) return;
      seen.set(id, { id, lower: id.toLowerCase(), source, entry, seqMatch: SEQ_MATCH_CODES.indexOf(seqMatch as never) });
    };
    for (const x of xrefs) add(x.id, x.source, x.seqMatch);
    add(orthid, XREF_ORTHID_SOURCE, "exact");
    for (const row of seen.values()) rows.push(row);
  }
  return rows.sort((a, b) => compare(a.lower, b.lower) || compare(a.id, b.id) || a.entry - b.entry);
}

interface GramBuild {
  /** Rows holding the gram (each once). */
  count: number;
  /** Their row numbers, ascending; dropped (null) once the gram is common. */
  rows: number[] | null;
}

/**
 * Every gram with the rows holding it: all trigrams, and the (k+1)-grams that extend a
 * common k-gram (one in more than `maxHits` rows) at the same start, up to `maxGram`
 * characters. Common grams keep only their count.
 */
function gramPostings(ids: string[][], layout: { maxHits: number; maxGram: number }): Map<string, GramBuild> {
  const all = new Map<string, GramBuild>();
  // Starts still to extend, per row: at level 3 every start; later, those whose gram was common.
  let starts: Array<number[]> = ids.map((id) => Array.from({ length: Math.max(0, id.length - 2) }, (_, i) => i));
  for (let k = 3; k <= layout.maxGram; k++) {
    const level = new Map<string, GramBuild>();
    ids.forEach((id, row) => {
      for (const s of starts[row]) {
        if (s + k > id.length) continue;
        const gram = id.slice(s, s + k).join("");
        let g = level.get(gram);
        if (!g) level.set(gram, (g = { count: 0, rows: [] }));
        if (g.rows![g.rows!.length - 1] !== row) {
          g.rows!.push(row);
          g.count++;
        }
      }
    });
    let common = 0;
    for (const [gram, g] of level) {
      if (g.count > layout.maxHits) {
        g.rows = null;
        common++;
      }
      all.set(gram, g);
    }
    if (!common || k === layout.maxGram) break;
    starts = ids.map((id, row) =>
      starts[row].filter((s) => s + k < id.length && level.get(id.slice(s, s + k).join(""))!.rows === null),
    );
  }
  return all;
}

/** Unsigned LEB128 varints of the gaps between ascending row numbers (the first from 0). */
export function encodePostings(rows: number[]): Uint8Array {
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
function writeGramLeaves(blobs: BlobWriter, grams: Map<string, GramBuild>, leafBytes: number): XrefSearchRef["grams"] {
  const keys = [...grams.keys()].sort(compare);
  const leaves: Array<[string, string]> = [];
  let leaf: KeyIndexLeaf<XrefGram> = { keys: [], values: [] };
  let bytes = 0;
  const close = () => {
    if (!leaf.keys.length) return;
    leaves.push([leaf.keys[0], blobs.put(leaf)]);
    leaf = { keys: [], values: [] };
    bytes = 0;
  };
  for (const key of keys) {
    const g = grams.get(key)!;
    const postings = g.rows ? encodePostings(g.rows) : null;
    leaf.keys.push(key);
    leaf.values.push([g.count, postings]);
    bytes += key.length + 4 + (postings?.length ?? 0);
    if (bytes >= leafBytes) close();
  }
  close();
  return { keys: keys.length, leaves };
}
