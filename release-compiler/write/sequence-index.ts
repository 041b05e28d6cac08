/**
 * The sequence search index: k-mer postings of every protein, in shards of consecutive k-mer
 * codes of about SEQUENCE_SHARD_BYTES. A release of a million proteins has ~4·10^8 postings,
 * too many to hold: a first pass over the sequences counts each k-mer's postings and cuts the
 * code space into ranges of about POSTINGS_PER_BUCKET; a second pass spills every (code,
 * entry) posting to its range's bucket file; then each bucket is sorted by code on its own.
 */
import { KMER_ALPHABET, type KmerShard, type SequenceIndexRef } from "../../release-format/format.js";
import { forEachKmer, KMER_LENGTH } from "../../release-format/kmers.js";
import { varintLength, writeVarint } from "../../release-format/varint.js";
import { BucketSpill, type ScratchFolder } from "../spill.js";
import type { PackWriter, TreeWriter } from "./packs.js";

/** Target size of a shard: one read of a query k-mer. */
export const SEQUENCE_SHARD_BYTES = 64 * 1024;
/** Postings sorted in memory at once: a bucket costs 12 bytes a posting while it is sorted. */
const POSTINGS_PER_BUCKET = 8 * 2 ** 20;
/** A spilled posting: k-mer code and entry, int32 each. */
const POSTING_BYTES = 8;

export function writeSequenceIndex(
  packs: PackWriter,
  count: number,
  sequenceOf: (entry: number) => string,
  scratch: ScratchFolder,
  postingsPerBucket = POSTINGS_PER_BUCKET,
): SequenceIndexRef {
  const codes = KMER_ALPHABET.length ** KMER_LENGTH;
  const counts = new Uint32Array(codes);
  const lastEntry = new Int32Array(codes);
  const visit = (posting: (code: number, entry: number) => void) => {
    lastEntry.fill(0);
    for (let entry = 1; entry <= count; entry++) {
      forEachKmer(sequenceOf(entry), (code) => {
        if (lastEntry[code] === entry) return; // once per entry
        lastEntry[code] = entry;
        posting(code, entry);
      });
    }
  };
  visit((code) => counts[code]++);

  // Bucket b holds the codes [bucketStart[b], bucketStart[b + 1]).
  const bucketStart = [0];
  let total = 0;
  let inBucket = 0;
  for (let c = 0; c < codes; c++) {
    if (inBucket > 0 && inBucket + counts[c] > postingsPerBucket) {
      bucketStart.push(c);
      inBucket = 0;
    }
    inBucket += counts[c];
    total += counts[c];
  }
  bucketStart.push(codes);
  const bucketOf = new Uint16Array(codes);
  for (let b = 0; b + 1 < bucketStart.length; b++) bucketOf.fill(b, bucketStart[b], bucketStart[b + 1]);

  const spill = new BucketSpill(scratch.folder("kmer-postings"), bucketStart.length - 1, POSTING_BYTES);
  visit((code, entry) => {
    const { buffer, offset } = spill.append(bucketOf[code]);
    buffer.writeInt32LE(code, offset);
    buffer.writeInt32LE(entry, offset + 4);
  });

  const shards = new ShardCutter(packs.tree<number>());
  for (let b = 0; b < spill.buckets; b++) {
    const first = bucketStart[b];
    const width = bucketStart[b + 1] - first;
    const bytes = spill.read(b);
    // Counting sort by code; entries were spilled in entry order, so each code's come out sorted.
    const start = new Int32Array(width + 1);
    for (let c = 0; c < width; c++) start[c + 1] = start[c] + counts[first + c];
    const next = start.slice(0, width);
    const postings = new Int32Array(start[width]);
    for (let at = 0; at < bytes.length; at += POSTING_BYTES) {
      postings[next[bytes.readInt32LE(at) - first]++] = bytes.readInt32LE(at + 4);
    }
    for (let c = 0; c < width; c++) {
      if (start[c + 1] > start[c]) shards.add(first + c, postings.subarray(start[c], start[c + 1]));
    }
  }
  shards.flush();
  return { k: KMER_LENGTH, postings: total, tree: shards.tree.finish() };
}

/**
 * Groups consecutive k-mers into shards: a shard is closed before the k-mer that would take
 * it past SEQUENCE_SHARD_BYTES. Keeps the open shard's postings as gaps, so a shard can span
 * two buckets.
 */
class ShardCutter {
  private codes: number[] = [];
  private counts: number[] = [];
  private entryGaps: number[] = [];
  private bytes = 0;

  constructor(readonly tree: TreeWriter<number>) {}

  add(code: number, entries: Int32Array): void {
    let size = 2;
    let previous = 0;
    for (const e of entries) {
      size += varintLength(e - previous);
      previous = e;
    }
    if (this.bytes + size > SEQUENCE_SHARD_BYTES && this.codes.length) this.flush();
    this.codes.push(code);
    this.counts.push(entries.length);
    previous = 0;
    for (const e of entries) {
      this.entryGaps.push(e - previous);
      previous = e;
    }
    this.bytes += size;
  }

  flush(): void {
    const { codes } = this;
    if (!codes.length) return;
    const shard: KmerShard = {
      firstCode: codes[0],
      codes: encode(codes.map((c, i) => c - (i ? codes[i - 1] : codes[0])), codes.length * 4),
      counts: encode(this.counts, codes.length * 5),
      entries: encode(this.entryGaps, this.entryGaps.length * 5),
    };
    this.tree.add(codes[0], shard);
    this.codes = [];
    this.counts = [];
    this.entryGaps = [];
    this.bytes = 0;
  }
}

function encode(values: number[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const v of values) at = writeVarint(out, at, v);
  return out.subarray(0, at);
}
