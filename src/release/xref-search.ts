/**
 * Cross-reference search (`GET /api/xref/?search=`) over the release's gram index: a few gram
 * leaves narrow the query to candidate rows, whose ids are then read and checked. See
 * "Cross-reference search" in FORMAT.md for the index and the bound on its reads.
 */
import { SEQ_MATCH_CODES, chunkKey, type KeyIndexLeaf, type XrefGram, type XrefSearchRef, type XrefSearchRow } from "../../release-format/format.js";
import type { Release } from "./release.js";
import { upperBound } from "./sorted.js";
import type { SeqMatch } from "../../release-format/xrefs.js";

/** Queries shorter than this (in characters, i.e. code points) find nothing. */
const MIN_QUERY_LENGTH = 3;

interface XrefHit {
  id: string;
  source: string;
  seqMatch: SeqMatch;
  entry: number;
}

type XrefSearchResult = { tooMany: false; hits: XrefHit[] } | { tooMany: true; limit: number };

/** What the grams at one start of the query tell: none there, too common to list, these rows, or not known (leaf not read). */
type Probe =
  | { kind: "absent" }
  | { kind: "common"; whole: boolean }
  | { kind: "postings"; whole: boolean; count: number; postings: Uint8Array }
  | { kind: "unknown" };

/**
 * Ids holding `query` (case-insensitive), one hit per (id, entry), sorted by (id, entry); or
 * `tooMany` when more than `maxHits` rows hold it.
 *
 * Three probes (at the query's start, middle and end) each look up the shortest gram starting
 * there that is not common, one character longer at a time, reading the gram leaves they need.
 * Every other start of the query is then looked up in the leaves already read, for free. A gram
 * no id holds means no hit; a common gram that is the whole query means more hits than the
 * limit. Otherwise the postings found are intersected, rarest first, into candidates (never more
 * than `maxHits`: no gram with postings is in more rows), whose rows are read and checked. When
 * no start gives postings (only possible for a query longer than `maxGram` whose probes all end
 * on a common gram of `maxGram` characters) the query counts as too many.
 */
export async function searchXrefs(release: Release, query: string): Promise<XrefSearchResult> {
  const ref = release.manifest.xrefSearch;
  const needle = query.toLowerCase();
  const q = Array.from(needle);
  if (Array.from(query).length < MIN_QUERY_LENGTH || q.length < MIN_QUERY_LENGTH) return { tooMany: false, hits: [] };
  const tooMany = { tooMany: true as const, limit: ref.maxHits };

  const grams = gramReader(release, ref);
  const last = q.length - MIN_QUERY_LENGTH;
  const probeStarts = [...new Set([0, Math.floor(last / 2), last])];
  const probes = await Promise.all(probeStarts.map((s) => probe(grams, ref, q, s, true)));
  for (let s = 0; s <= last; s++) if (!probeStarts.includes(s)) probes.push(await probe(grams, ref, q, s, false));
  if (probes.some((p) => p.kind === "absent")) return { tooMany: false, hits: [] };
  if (probes.some((p) => p.kind === "common" && p.whole)) return tooMany;
  const lists = probes.filter((p): p is Extract<Probe, { kind: "postings" }> => p.kind === "postings");
  if (lists.length === 0) return tooMany;
  // A gram that is the whole query: its rows are exactly the hits.
  if (lists.some((p) => p.whole && p.count > ref.maxHits)) return tooMany;

  lists.sort((a, b) => a.count - b.count);
  let candidates = decodePostings(lists[0].postings);
  for (const p of lists.slice(1)) {
    if (candidates.length === 0) break;
    candidates = intersect(candidates, p.postings);
  }

  const rows = await readRows(release, ref.rows, candidates);
  const hits: XrefHit[] = [];
  for (const [id, source, entry, seqMatch] of rows) {
    if (id.toLowerCase().includes(needle)) hits.push({ id, source: ref.sources[source], seqMatch: SEQ_MATCH_CODES[seqMatch], entry });
  }
  if (hits.length > ref.maxHits) return tooMany;
  hits.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.entry - b.entry));
  return { tooMany: false, hits };
}

interface GramReader {
  /** The gram's entry (undefined: in no id), or "unknown" when its leaf is not read and `read` is false. */
  get(gram: string, read: boolean): Promise<XrefGram | undefined | "unknown">;
}

/** Gram lookups of one query: each leaf read once, and known for the later lookups. */
function gramReader(release: Release, ref: XrefSearchRef): GramReader {
  const leaves = new Map<string, Promise<KeyIndexLeaf<XrefGram>>>();
  return {
    async get(gram, read) {
      const at = await release.locate(ref.grams.tree, gram);
      if (!at) return undefined;
      let leaf = leaves.get(chunkKey(at.ref));
      if (!leaf) {
        if (!read) return "unknown";
        leaves.set(chunkKey(at.ref), (leaf = release.chunk<KeyIndexLeaf<XrefGram>>(at.ref)));
      }
      const { keys: grams, values } = await leaf;
      const i = upperBound(grams, gram) - 1;
      return i >= 0 && grams[i] === gram ? values[i] : undefined;
    },
  };
}

/** The shortest gram of the query at `start` that has postings, extending common grams up to `maxGram`. */
async function probe(grams: GramReader, ref: XrefSearchRef, q: string[], start: number, read: boolean): Promise<Probe> {
  const longest = Math.min(ref.maxGram, q.length - start);
  for (let k = MIN_QUERY_LENGTH; k <= longest; k++) {
    const gram = await grams.get(q.slice(start, start + k).join(""), read);
    if (gram === "unknown") return { kind: "unknown" };
    if (!gram) return { kind: "absent" };
    const whole = start === 0 && k === q.length;
    const [count, postings] = gram;
    if (postings) return { kind: "postings", whole, count, postings };
    if (k === longest) return { kind: "common", whole };
  }
  return { kind: "unknown" };
}

/** Row numbers of a postings list (LEB128 gaps). */
export function decodePostings(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let row = 0;
  let gap = 0;
  let scale = 1;
  for (const b of bytes) {
    gap += (b & 0x7f) * scale;
    if (b & 0x80) scale *= 0x80;
    else {
      row += gap;
      out.push(row);
      gap = 0;
      scale = 1;
    }
  }
  return out;
}

/** The rows of `sorted` that are also in the postings `bytes`. */
function intersect(sorted: number[], bytes: Uint8Array): number[] {
  const other = decodePostings(bytes);
  const out: number[] = [];
  let j = 0;
  for (const r of sorted) {
    while (j < other.length && other[j] < r) j++;
    if (j < other.length && other[j] === r) out.push(r);
  }
  return out;
}

/** Rows by number (ascending), reading each chunk they fall in once. */
async function readRows(release: Release, table: XrefSearchRef["rows"], rows: number[]): Promise<XrefSearchRow[]> {
  const found = await release.rowsAt(table, rows);
  return rows.map((r) => found.get(r)!);
}
