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
import { kmerCodes, KMER_LENGTH } from "../../release-format/kmers.js";
import { writeVarint } from "../../release-format/varint.js";
import { sortRanges } from "../engine.js";
import { runTasksInOrder } from "../workers.js";
import { appendGaps, GrowingBytes } from "./growing.js";
import type { PackWriter, TreeWriter } from "./packs.js";

/** Target size of a shard: one read of a query k-mer. */
export const SEQUENCE_SHARD_BYTES = 64 * 1024;

/**
 * Proteins whose k-mers one task finds: a task's posting is one 32-bit number, its code (22
 * bits: KMER_CODES < 2^22) above its protein's place in the task (ENTRY_BITS), so a posting is
 * sorted, moved and sent as one number rather than two.
 */
const ENTRY_BITS = 10;
const KMER_TASK_ENTRIES = 1 << ENTRY_BITS;

/**
 * Bytes a posting holds: kept from the counting pass, as it arrives and its entry placed; found
 * again in a pass over a range of codes, its entry placed alone (a task's postings in flight are
 * a few MB, whatever the release's size).
 */
const KEPT_BYTES_PER_POSTING = 8;
const RANGE_BYTES_PER_POSTING = 4;

/**
 * A task: the sequences of entries firstEntry, firstEntry + 1, …, each distinct k-mer of each
 * protein counted if the pass counts (KmerPoolData); `postings`: the (code, entry) postings of
 * the codes [from, to) returned, else none.
 */
export interface KmerTask {
  firstEntry: number;
  sequences: string[];
  from: number;
  to: number;
  postings: boolean;
}

/**
 * The postings of a task's proteins in its code range, each code once per entry (empty when not
 * asked for): `(code − from) × KMER_TASK_ENTRIES + (entry − firstEntry)` each, ascending.
 */
export interface KmerPostings {
  packed: Uint32Array;
}

/** The code (counted from the task's `from`) and the place in its task of a packed posting (KmerPostings). */
export const postedCode = (posting: number): number => posting >>> ENTRY_BITS;
export const postedEntry = (posting: number): number => posting & (KMER_TASK_ENTRIES - 1);

/**
 * What the k-mer finders of a counting pass share: per-code counts of postings, one row of
 * KMER_CODES Uint32s for each finder (the calling thread's and each worker thread's: at most
 * `rows`), each taking the next free row (`next`, an Int32) when it first counts; the pass adds
 * the rows up after. Rows of their own rather than one row and Atomics.add, which cost ~40%
 * more to count (300,000 proteins on one thread: 2.6–3.0 s against 1.5–1.8 s). A row is 12.8 MB,
 * and a finder's table of last entries as much again: ~26 MB a thread, what sorting a task's
 * postings takes (their codes and entries, and sorted copies of both).
 */
export interface KmerPoolData {
  counts?: KmerCounts;
}
export interface KmerCounts {
  rows: number;
  shared: SharedArrayBuffer;
  next: SharedArrayBuffer;
}

/** Per-code counts for `finders` k-mer finders (KmerPoolData). */
export function kmerCounts(finders: number): KmerCounts {
  return { rows: finders, shared: new SharedArrayBuffer(4 * KMER_CODES * finders), next: new SharedArrayBuffer(4) };
}

/** The counts of every finder's row added up. */
export function addedCounts({ rows, shared }: KmerCounts): Uint32Array {
  const total = new Uint32Array(KMER_CODES);
  for (let r = 0; r < rows; r++) {
    const row = new Uint32Array(shared, 4 * KMER_CODES * r, KMER_CODES);
    for (let c = 0; c < KMER_CODES; c++) total[c] += row[c];
  }
  return total;
}

/** Codes of every k-mer of the alphabet. */
export const KMER_CODES = KMER_ALPHABET.length ** KMER_LENGTH;

/**
 * The k-mer finder of one thread.
 *
 * Counting: each distinct k-mer of a protein adds one to its code's count, in the finder's own
 * row of the pass's counts, a table over every code telling a k-mer repeated within the
 * protein (the code's last entry). Before, every task's codes went to the main thread sorted,
 * and it counted them: 300,000 proteins of the 1M release on one thread took 5.0–6.7 s that
 * way, 1.5–1.8 s this way; the task over the million, 35 s and 62 s of CPU → 28 s and 48 s,
 * the same chunks. The main thread no longer receives the 1.6 GB of codes, whose buffers made
 * V8 collect its whole heap every 64 MB.
 *
 * Postings: a task's come back sorted by code, each code's entries ascending and each entry
 * once: the main thread places them walking its per-code arrays forwards, instead of missing
 * the cache at every posting (on a million proteins it spent 30 of 46 s on those misses).
 * Sorting is also what finds a k-mer repeated within a protein (adjacent after it).
 */
export function kmerFinder({ counts }: KmerPoolData): (task: KmerTask) => KmerPostings {
  let own: { row: Uint32Array; lastEntry: Int32Array } | undefined;
  let codes = new Int32Array(1024);
  /** The k-mer codes of a sequence, into `codes` (grown when short): how many. */
  const kmersOf = (sequence: string): number => {
    if (codes.length < sequence.length) codes = new Int32Array(2 * sequence.length);
    return kmerCodes(sequence, codes);
  };
  const countKmers = (firstEntry: number, sequences: string[], pass: KmerCounts) => {
    if (!own) {
      const r = Atomics.add(new Int32Array(pass.next), 0, 1);
      if (r >= pass.rows) throw new Error(`k-mer finder: more finders than the ${pass.rows} rows of counts`);
      own = { row: new Uint32Array(pass.shared, 4 * KMER_CODES * r, KMER_CODES), lastEntry: new Int32Array(KMER_CODES) };
    }
    for (let i = 0; i < sequences.length; i++) {
      const n = kmersOf(sequences[i]); // first: it may grow `codes`
      countDistinct(codes, n, firstEntry + i, own.lastEntry, own.row);
    }
  };
  return ({ firstEntry, sequences, from, to, postings }) => {
    if (counts) countKmers(firstEntry, sequences, counts);
    if (!postings) return { packed: new Uint32Array(0) };
    if (sequences.length > KMER_TASK_ENTRIES || to - from > 2 ** (32 - ENTRY_BITS)) throw new RangeError("k-mer finder: a task beyond what a packed posting holds");
    const bound = sequences.reduce((n, s) => n + Math.max(0, s.length - KMER_LENGTH + 1), 0);
    const found = new Uint32Array(bound);
    let n = 0;
    for (let i = 0; i < sequences.length; i++) {
      const k = kmersOf(sequences[i]);
      for (let j = 0; j < k; j++) {
        const code = codes[j];
        if (code >= from && code < to) found[n++] = (code - from) * KMER_TASK_ENTRIES + i;
      }
    }
    return { packed: byCode(found.subarray(0, n)) };
  };
}

/** Adds one to the count of each distinct code of `codes[0, n)`, a protein's (`entry`'s) k-mers; `lastEntry` tells a code seen already. */
function countDistinct(codes: Int32Array, n: number, entry: number, lastEntry: Int32Array, counts: Uint32Array): void {
  for (let k = 0; k < n; k++) {
    const code = codes[k];
    if (lastEntry[code] === entry) continue;
    lastEntry[code] = entry;
    counts[code]++;
  }
}

/** Bits of a code sorted in one radix pass: two passes cover every code. */
const RADIX_BITS = 11;
const RADIX_MASK = (1 << RADIX_BITS) - 1;
if (KMER_CODES > 2 ** (2 * RADIX_BITS) || 2 * RADIX_BITS + ENTRY_BITS > 32) throw new Error("k-mer codes need more radix passes");

/**
 * Packed postings in entry order, stably sorted by code (a least-significant-digit radix sort of
 * the code's bits, two passes) so ascending, and each kept once.
 */
function byCode(postings: Uint32Array): Uint32Array {
  const n = postings.length;
  let from: Uint32Array = postings;
  let to: Uint32Array = new Uint32Array(n);
  const starts = new Uint32Array(RADIX_MASK + 2);
  for (const shift of [ENTRY_BITS, ENTRY_BITS + RADIX_BITS]) {
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[((from[i] >>> shift) & RADIX_MASK) + 1]++;
    for (let b = 1; b < starts.length; b++) starts[b] += starts[b - 1];
    for (let i = 0; i < n; i++) to[starts[(from[i] >>> shift) & RADIX_MASK]++] = from[i];
    [from, to] = [to, from];
  }
  // A k-mer repeated within a protein: the same code and entry, adjacent now.
  let kept = 0;
  for (let i = 0; i < n; i++) if (kept === 0 || from[i] !== to[kept - 1]) to[kept++] = from[i];
  return to.slice(0, kept);
}

/** The sequences of entries 1, 2, … in order, a slice at a time (derive/sequence-file.ts), afresh at each call. */
export type SequenceSlices = () => Iterable<readonly string[]>;

/** The k-mers of every protein, each repeat within a protein counted, from the proteins' lengths: a bound on the postings. */
export function kmerWindows(lengths: Iterable<number>): number {
  let windows = 0;
  for (const length of lengths) windows += Math.max(0, length - KMER_LENGTH + 1);
  return windows;
}

/** The working memory that places every posting of a release with this many k-mer windows in one range (kmerWindows). */
export const oneRangeBytes = (windows: number): number => windows * RANGE_BYTES_PER_POSTING;

/**
 * The index of `count` proteins' sequences, which have `windows` k-mer windows (kmerWindows, as
 * derive counted them). They are read afresh at each pass (`sequences`) rather than held: at a
 * million proteins they are 440 MB, half of what the task holds besides the postings it places.
 */
export async function writeSequenceIndex(
  packs: PackWriter,
  count: number,
  sequences: SequenceSlices,
  windows: number,
  memoryBytes: number,
  jobs: number,
  progress?: (entriesDone: number) => void,
): Promise<SequenceIndexRef> {
  // One pass over the sequences: each task's postings of the codes [from, to) to `take`, if
  // asked for, and every posting counted into `counts`, if given.
  const pass = (from: number, to: number, postings: boolean, take: (found: KmerPostings) => void, counts?: KmerCounts) => {
    function* tasks(): Generator<KmerTask> {
      let batch: string[] = [];
      let firstEntry = 1;
      for (const slice of sequences()) {
        for (const sequence of slice) {
          batch.push(sequence);
          if (batch.length < KMER_TASK_ENTRIES) continue;
          yield { firstEntry, sequences: batch, from, to, postings };
          firstEntry += batch.length;
          batch = [];
        }
      }
      if (batch.length) yield { firstEntry, sequences: batch, from, to, postings };
      if (firstEntry - 1 + batch.length !== count) throw new Error(`sequence index: ${firstEntry - 1 + batch.length} sequences for ${count} proteins`);
    }
    const workerData: KmerPoolData = { counts };
    return runTasksInOrder(tasks(), take, { module: new URL("./kmer-worker.ts", import.meta.url), jobs, workerData });
  };

  // Counted in a first pass; a release whose postings fit the budget keeps them from it, the
  // others find each range's again in a pass of its own.
  const kept: KmerPostings[] | undefined = windows * KEPT_BYTES_PER_POSTING <= memoryBytes ? [] : undefined;
  // A row of counts for this thread and each worker thread.
  const counts = kmerCounts(jobs + 1);
  let counted = 0;
  await pass(
    0,
    KMER_CODES,
    kept !== undefined,
    (found) => {
      kept?.push(found);
      counted = Math.min(count, counted + KMER_TASK_ENTRIES);
      progress?.(Math.floor(counted / 2));
    },
    counts,
  );
  const perCode = addedCounts(counts);
  const total = perCode.reduce((n, k) => n + k, 0);

  const shards = new ShardCutter(packs.tree<number>());
  let placed = 0;
  // Kept postings are placed as one range; the others a range of codes at a time, as many as the budget holds.
  const perRange = kept ? Math.max(1, total) : Math.max(1, Math.floor(memoryBytes / RANGE_BYTES_PER_POSTING));
  const ranges = sortRanges(perCode, perRange);
  // One array for every range's entries, as long as the longest: a new one a range stayed
  // resident beside the last until V8 collected it, whose heap of sequences rarely fills (at a
  // million proteins with 512 MB, four ranges, a peak of 2.3 GB rather than ~1.5).
  const longest = Math.max(0, ...ranges.map(({ from, to }) => perCode.subarray(from, to).reduce((n, k) => n + k, 0)));
  const placing = new Int32Array(longest);
  for (const { from, to } of ranges) {
    // Where each code's entries start in this range's array, and a cursor per code as they come.
    const start = new Uint32Array(to - from + 1);
    for (let c = from; c < to; c++) start[c - from + 1] = start[c - from] + perCode[c];
    const cursor = start.slice(0, to - from);
    const entries = placing.subarray(0, start[to - from]);
    // Tasks come in entry order, each a run of KMER_TASK_ENTRIES entries from the first.
    let firstEntry = 1;
    const place = ({ packed }: KmerPostings) => {
      for (let k = 0; k < packed.length; k++) entries[cursor[postedCode(packed[k])]++] = firstEntry + postedEntry(packed[k]);
      firstEntry += KMER_TASK_ENTRIES;
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
