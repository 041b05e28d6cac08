/**
 * The sequence search index: k-mer postings of every protein, in shards of consecutive k-mer
 * codes of about SEQUENCE_SHARD_BYTES.
 *
 * A release of a million proteins has ~4·10^8 postings (3.2 GB as code and entry), more than
 * the memory budget holds. They are not sorted out of core: a posting is derived from a
 * sequence, so finding it again is cheaper than storing it. The postings are counted per
 * k-mer code in one pass over the sequences (kept from it when they fit the budget); then
 * each further pass finds again the postings of one range of codes that fits, and places them
 * by a counting sort (a code's entries come in entry order, so they stay ascending). Finding k-mers runs on worker threads
 * (kmer-worker.ts), a task per KMER_TASK_ENTRIES proteins. Written by hand rather than on the
 * row engine: appending and sorting the postings there was the longest stage of a
 * 2,500-genome compile (183 s; BENCHMARKS.md, "At 2,500 genomes").
 */
import { KMER_ALPHABET, type KmerShard, type SequenceIndexRef } from "../../release-format/format.js";
import { forEachKmer, KMER_LENGTH } from "../../release-format/kmers.js";
import { writeVarint } from "../../release-format/varint.js";
import { sortRanges } from "../engine.js";
import { runTasksInOrder } from "../workers.js";
import { appendGaps, GrowingBytes } from "./growing.js";
import type { PackWriter, TreeWriter } from "./packs.js";

/** Target size of a shard: one read of a query k-mer. */
export const SEQUENCE_SHARD_BYTES = 64 * 1024;

/** Proteins whose k-mers one task finds. */
const KMER_TASK_ENTRIES = 4096;

/**
 * Bytes a posting holds: kept from the counting pass, its code and entry as they arrive and its
 * entry placed; found again in a pass over a range of codes, its entry placed alone (a task's
 * postings in flight are a few MB, whatever the release's size).
 */
const KEPT_BYTES_PER_POSTING = 12;
const RANGE_BYTES_PER_POSTING = 4;

/** A task: the sequences of entries firstEntry, firstEntry + 1, …, and the codes [from, to) wanted; `entries` false: the codes alone. */
export interface KmerTask {
  firstEntry: number;
  sequences: string[];
  from: number;
  to: number;
  entries: boolean;
}

/** The (code, entry) postings of a task's proteins in its code range, each code once per entry; `entries` empty when not asked for. */
export interface KmerPostings {
  codes: Int32Array;
  entries: Int32Array;
}

/** Codes of every k-mer of the alphabet. */
export const KMER_CODES = KMER_ALPHABET.length ** KMER_LENGTH;

/**
 * The k-mer finder of one thread. A task's postings come back sorted by code, each code's
 * entries ascending and each entry once: the main thread counts and places them walking its
 * per-code arrays forwards, instead of missing the cache at every posting (on a million
 * proteins it spent 30 of 46 s on those misses). Sorting is also what finds a k-mer repeated
 * within a protein (adjacent after it), so no table over every code is probed per k-mer here
 * either (which cost as much as the sort).
 */
export function kmerFinder(): (task: KmerTask) => KmerPostings {
  return ({ firstEntry, sequences, from, to, entries: withEntries }) => {
    const bound = sequences.reduce((n, s) => n + Math.max(0, s.length - KMER_LENGTH + 1), 0);
    const codes = new Int32Array(bound);
    const entries = new Int32Array(bound);
    let n = 0;
    sequences.forEach((sequence, i) => {
      const entry = firstEntry + i;
      forEachKmer(sequence, (code) => {
        if (code < from || code >= to) return; // outside the pass
        entries[n] = entry;
        codes[n++] = code;
      });
    });
    return byCode(codes.subarray(0, n), entries.subarray(0, n), withEntries);
  };
}

/** Bits of a code sorted in one radix pass: two passes cover every code. */
const RADIX_BITS = 11;
const RADIX_MASK = (1 << RADIX_BITS) - 1;
if (KMER_CODES > 2 ** (2 * RADIX_BITS)) throw new Error("k-mer codes need more radix passes");

/**
 * Postings in entry order, stably sorted by code (a least-significant-digit radix sort, two
 * passes) and each (code, entry) kept once, in arrays of their own.
 */
function byCode(codes: Int32Array, entries: Int32Array, withEntries: boolean): KmerPostings {
  const n = codes.length;
  let fromCodes: Int32Array = codes;
  let fromEntries: Int32Array = entries;
  let toCodes: Int32Array = new Int32Array(n);
  let toEntries: Int32Array = new Int32Array(n);
  const starts = new Uint32Array(RADIX_MASK + 2);
  for (const shift of [0, RADIX_BITS]) {
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[((fromCodes[i] >>> shift) & RADIX_MASK) + 1]++;
    for (let b = 1; b < starts.length; b++) starts[b] += starts[b - 1];
    for (let i = 0; i < n; i++) {
      const at = starts[(fromCodes[i] >>> shift) & RADIX_MASK]++;
      toCodes[at] = fromCodes[i];
      toEntries[at] = fromEntries[i];
    }
    [fromCodes, toCodes] = [toCodes, fromCodes];
    [fromEntries, toEntries] = [toEntries, fromEntries];
  }
  // A k-mer repeated within a protein: the same code and entry, adjacent now.
  let kept = 0;
  for (let i = 0; i < n; i++) {
    if (kept && fromCodes[i] === toCodes[kept - 1] && fromEntries[i] === toEntries[kept - 1]) continue;
    toCodes[kept] = fromCodes[i];
    toEntries[kept++] = fromEntries[i];
  }
  return { codes: toCodes.slice(0, kept), entries: withEntries ? toEntries.slice(0, kept) : new Int32Array(0) };
}

export async function writeSequenceIndex(
  packs: PackWriter,
  count: number,
  sequenceOf: (entry: number) => string,
  memoryBytes: number,
  jobs: number,
  progress?: (entriesDone: number) => void,
): Promise<SequenceIndexRef> {
  // One pass over the sequences for the codes [from, to): each task's postings to `take`.
  const pass = (from: number, to: number, entries: boolean, take: (found: KmerPostings) => void) => {
    function* tasks(): Generator<KmerTask> {
      for (let first = 1; first <= count; first += KMER_TASK_ENTRIES) {
        const sequences = Array.from({ length: Math.min(KMER_TASK_ENTRIES, count - first + 1) }, (_, i) => sequenceOf(first + i));
        yield { firstEntry: first, sequences, from, to, entries };
      }
    }
    return runTasksInOrder(tasks(), take, { module: new URL("./kmer-worker.ts", import.meta.url), jobs });
  };

  // Counted in a first pass; a release whose postings fit the budget keeps them from it, the
  // others find each range's again in a pass of its own.
  let bound = 0;
  for (let e = 1; e <= count; e++) bound += Math.max(0, sequenceOf(e).length - KMER_LENGTH + 1);
  const kept: KmerPostings[] | undefined = bound * KEPT_BYTES_PER_POSTING <= memoryBytes ? [] : undefined;
  const perCode = new Uint32Array(KMER_CODES);
  let counted = 0;
  await pass(0, KMER_CODES, kept !== undefined, (found) => {
    for (const code of found.codes) perCode[code]++;
    kept?.push(found);
    counted = Math.min(count, counted + KMER_TASK_ENTRIES);
    progress?.(Math.floor(counted / 2));
  });
  const total = perCode.reduce((n, k) => n + k, 0);

  const shards = new ShardCutter(packs.tree<number>());
  let placed = 0;
  // Kept postings are placed as one range; the others a range of codes at a time, as many as the budget holds.
  const perRange = kept ? Math.max(1, total) : Math.max(1, Math.floor(memoryBytes / RANGE_BYTES_PER_POSTING));
  for (const { from, to } of sortRanges(perCode, perRange)) {
    // Where each code's entries start in this range's array, and a cursor per code as they come.
    const start = new Uint32Array(to - from + 1);
    for (let c = from; c < to; c++) start[c - from + 1] = start[c - from] + perCode[c];
    const cursor = start.slice(0, to - from);
    const entries = new Int32Array(start[to - from]);
    const place = (found: KmerPostings) => {
      for (let k = 0; k < found.codes.length; k++) entries[cursor[found.codes[k] - from]++] = found.entries[k];
    };
    if (kept) kept.forEach(place);
    else await pass(from, to, true, place);
    for (let c = from; c < to; c++) if (perCode[c]) shards.add(c, entries.subarray(start[c - from], start[c - from + 1]));
    placed += entries.length;
    // Progress: the first pass is half the work, placing the postings the other half.
    progress?.(Math.floor(count / 2 + (count / 2) * (placed / Math.max(1, total))));
  }
  shards.flush();
  return { k: KMER_LENGTH, postings: total, tree: shards.tree.finish() };
}

/**
 * Groups consecutive k-mers into shards: a shard is closed before the k-mer that would take
 * it past SEQUENCE_SHARD_BYTES. Writes the open shard's postings as varint gaps as they come
 * (a release has ~4·10^8 of them: no array of numbers in between).
 */
class ShardCutter {
  private codes: number[] = [];
  private counts: number[] = [];
  private gaps = new GrowingBytes(SEQUENCE_SHARD_BYTES);
  private bytes = 0;

  constructor(readonly tree: TreeWriter<number>) {}

  add(code: number, entries: Int32Array): void {
    // The gaps are written at once; in the rare case they close the shard, they move to the next.
    const begin = this.gaps.length;
    appendGaps(this.gaps, entries);
    const size = 2 + this.gaps.length - begin;
    if (this.bytes + size > SEQUENCE_SHARD_BYTES && this.codes.length) {
      const moved = this.gaps.values.slice(begin, this.gaps.length);
      this.gaps.length = begin;
      this.flush();
      this.gaps.room(moved.length);
      this.gaps.values.set(moved);
      this.gaps.length = moved.length;
    }
    this.codes.push(code);
    this.counts.push(entries.length);
    this.bytes += size;
  }

  flush(): void {
    const { codes } = this;
    if (!codes.length) return;
    const shard: KmerShard = {
      firstCode: codes[0],
      codes: encode(codes.map((c, i) => c - (i ? codes[i - 1] : codes[0])), codes.length * 4),
      counts: encode(this.counts, codes.length * 5),
      entries: this.gaps.values.slice(0, this.gaps.length),
    };
    this.tree.add(codes[0], shard);
    this.codes = [];
    this.counts = [];
    this.gaps.length = 0;
    this.bytes = 0;
  }
}

function encode(values: number[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const v of values) at = writeVarint(out, at, v);
  return out.subarray(0, at);
}
