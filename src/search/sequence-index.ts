/**
 * Queries of the sequence index: exact containment (k-mer postings intersected, then every
 * candidate checked against its sequence, so there are no false hits) and candidates for
 * approximate search (entries ranked by shared k-mers). Each query reads a bounded number
 * of chunks: its chosen k-mers' chunks and the peptides chunks of its candidates.
 */
import { badRequest } from "../errors.js";
import type { KmerShard, SequenceRow } from "../../release-format/format.js";
import type { Release } from "../release/release.js";
import { rowsOf } from "../release/summaries.js";
import { forEachKmer } from "../../release-format/kmers.js";

/** k-mers of a query whose postings an exact search intersects. */
const EXACT_KMERS = 8;
/** k-mers sampled along a query for approximate search (enough to find a 30%-diverged homolog). */
const APPROXIMATE_KMERS = 64;
/** A k-mer in more entries than this says little about homology; approximate search skips it. */
const COMMON_KMER = 20_000;
/** Candidates an exact search checks at most: a query this unspecific is refused. */
const MAX_EXACT_CANDIDATES = 2_000;
/** Candidates approximate search aligns (reference E.2). */
const APPROXIMATE_CANDIDATES = 50;

/**
 * The postings of one code in a shard, decoding only what leads to them: the code gaps up to
 * the code, the counts before it, and a skip over the earlier entries' varints (their bytes
 * are only counted, not decoded). A shard holds some 6,000 codes and 30,000 postings while a
 * query needs one code of it, so this is a single allocation-free scan of part of the shard
 * instead of decoding all of it (which dominated candidate selection).
 */
function shardPostings(shard: KmerShard, code: number): Int32Array {
  const codeBytes = shard.codes;
  let current = shard.firstCode;
  let index = 0; // codes before `code`
  let found = false;
  for (let i = 0, value = 0, shift = 1; i < codeBytes.length; i++) {
    const b = codeBytes[i];
    value += (b & 0x7f) * shift;
    if (b & 0x80) {
      shift *= 0x80;
      continue;
    }
    current += value;
    value = 0;
    shift = 1;
    if (current >= code) {
      found = current === code;
      break;
    }
    index++;
  }
  if (!found) return EMPTY_POSTINGS;
  // Postings of the codes before, and of this one.
  const countBytes = shard.counts;
  let skip = 0;
  let count = 0;
  for (let i = 0, k = 0, value = 0, shift = 1; i < countBytes.length; i++) {
    const b = countBytes[i];
    value += (b & 0x7f) * shift;
    if (b & 0x80) {
      shift *= 0x80;
      continue;
    }
    if (k === index) {
      count = value;
      break;
    }
    skip += value;
    value = 0;
    shift = 1;
    k++;
  }
  const entryBytes = shard.entries;
  let at = 0;
  // Every varint ends with a byte below 0x80: skip `skip` of them.
  for (let ended = 0; ended < skip && at < entryBytes.length; at++) if (entryBytes[at] < 0x80) ended++;
  const out = new Int32Array(count);
  let entry = 0;
  for (let n = 0, value = 0, shift = 1; n < count && at < entryBytes.length; at++) {
    const b = entryBytes[at];
    value += (b & 0x7f) * shift;
    if (b & 0x80) {
      shift *= 0x80;
      continue;
    }
    out[n++] = entry += value;
    value = 0;
    shift = 1;
  }
  return out;
}

const EMPTY_POSTINGS = new Int32Array(0);

/** Sorted entries holding a k-mer. */
async function postings(release: Release, code: number): Promise<Int32Array> {
  const found = await release.chunkAt<KmerShard, number>(release.manifest.sequenceIndex.tree, code);
  return found ? shardPostings(found.value, code) : EMPTY_POSTINGS;
}

/** The k-mer codes of a query, in order of position. */
function kmersOf(query: string): number[] {
  const codes: number[] = [];
  forEachKmer(query, (code) => codes.push(code));
  return codes;
}

/** At most `n` items spread evenly over a list, first and last included. */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]);
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out[n++] = a[i];
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/**
 * Entries whose sequence contains the query (or equals it with `fullLength`), by entry number.
 * A query without a k-mer of standard residues (only X, or shorter than k) finds nothing.
 *
 * The candidates are checked against the peptides table (sequences alone, ~400 bytes a
 * protein), or with `checkIn: "sequences"` against the sequences table (with the cDNA, ~1.6 kB),
 * for a caller that reads those rows of the matches next (the sequence search's records): the
 * candidates of eight intersected k-mers are almost all matches, so their chunks are then read
 * once, not once in each table (the serve benchmark's exact searches: ~20 fewer of ~48 reads).
 */
export async function exactMatches(release: Release, query: string, fullLength = false, checkIn: "peptides" | "sequences" = "peptides"): Promise<number[]> {
  const codes = [...new Set(spread(kmersOf(query), EXACT_KMERS))];
  if (!codes.length) return [];
  const lists = await Promise.all(codes.map((code) => postings(release, code)));
  lists.sort((a, b) => a.length - b.length);
  let candidates = lists[0];
  for (const list of lists.slice(1)) {
    if (!candidates.length) break;
    candidates = intersect(candidates, list);
  }
  if (candidates.length > MAX_EXACT_CANDIDATES) {
    throw badRequest(`The query sequence is found in more than ${MAX_EXACT_CANDIDATES} entries; use a longer query.`);
  }
  const { peptides, sequences: records } = release.manifest.tables;
  const sequences =
    checkIn === "peptides"
      ? await rowsOf<string>(release, peptides, candidates)
      : new Map([...(await rowsOf<SequenceRow>(release, records, candidates))].map(([entry, row]) => [entry, row.sequence]));
  return [...candidates].filter((e) => {
    const s = sequences.get(e)!;
    return fullLength ? s === query : s.includes(query);
  });
}

/**
 * Up to 50 entries sharing the most sampled k-mers with the query (ties by entry number),
 * with their sequences, for alignment.
 */
export async function approximateCandidates(release: Release, query: string): Promise<Array<{ entry: number; sequence: string }>> {
  const codes = [...new Set(spread(kmersOf(query), APPROXIMATE_KMERS))];
  const lists = await Promise.all(codes.map((code) => postings(release, code)));
  const shared = new Map<number, number>();
  for (const list of lists) {
    if (list.length > COMMON_KMER) continue;
    for (const entry of list) shared.set(entry, (shared.get(entry) ?? 0) + 1);
  }
  const best = [...shared]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, APPROXIMATE_CANDIDATES)
    .map(([entry]) => entry);
  const sequences = await rowsOf<string>(release, release.manifest.tables.peptides, best);
  return best.map((entry) => ({ entry, sequence: sequences.get(entry)! }));
}
