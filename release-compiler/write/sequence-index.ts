/**
 * The sequence search index: k-mer postings of every protein, in shards of consecutive k-mer
 * codes of about SEQUENCE_SHARD_BYTES. Built in two passes over the sequences (count, then
 * fill one flat array), so memory is one 32-bit number per posting, not a list per k-mer.
 */
import { KMER_ALPHABET, type KmerShard, type SequenceIndexRef } from "../../src/release/format.js";
import { forEachKmer, KMER_LENGTH } from "../../src/search/kmers.js";
import { varintLength, writeVarint } from "../../src/search/varint.js";
import type { BlobWriter } from "./blobs.js";

/** Target size of a shard: one read of a query k-mer. */
export const SEQUENCE_SHARD_BYTES = 64 * 1024;

export function writeSequenceIndex(blobs: BlobWriter, count: number, sequenceOf: (entry: number) => string): SequenceIndexRef {
  const codes = KMER_ALPHABET.length ** KMER_LENGTH;
  const counts = new Uint32Array(codes);
  const lastEntry = new Int32Array(codes);
  const visit = (fill: (code: number, entry: number) => void) => {
    lastEntry.fill(0);
    for (let entry = 1; entry <= count; entry++) {
      forEachKmer(sequenceOf(entry), (code) => {
        if (lastEntry[code] === entry) return; // once per entry
        lastEntry[code] = entry;
        fill(code, entry);
      });
    }
  };
  visit((code) => counts[code]++);
  const start = new Float64Array(codes + 1);
  for (let c = 0; c < codes; c++) start[c + 1] = start[c] + counts[c];
  const total = start[codes];
  const postings = new Int32Array(total);
  const next = Float64Array.from(start.subarray(0, codes));
  // Entries are visited in order, so each k-mer's postings come out sorted.
  visit((code, entry) => (postings[next[code]++] = entry));

  const shards: Array<[number, string]> = [];
  let shardCodes: number[] = [];
  let bytes = 0;
  const flush = () => {
    if (!shardCodes.length) return;
    shards.push([shardCodes[0], blobs.put(encodeShard(shardCodes, start, postings))]);
    shardCodes = [];
    bytes = 0;
  };
  for (let c = 0; c < codes; c++) {
    if (!counts[c]) continue;
    let size = 2;
    let previous = 0;
    for (let i = start[c]; i < start[c + 1]; i++) {
      size += varintLength(postings[i] - previous);
      previous = postings[i];
    }
    if (bytes + size > SEQUENCE_SHARD_BYTES && shardCodes.length) flush();
    shardCodes.push(c);
    bytes += size;
  }
  flush();
  return { k: KMER_LENGTH, postings: total, shards };
}

function encodeShard(codes: number[], start: Float64Array, postings: Int32Array): KmerShard {
  const encode = (values: Iterable<number>, size: number) => {
    const out = new Uint8Array(size);
    let at = 0;
    for (const v of values) at = writeVarint(out, at, v);
    return out.subarray(0, at);
  };
  const codeGaps = codes.map((c, i) => c - (i ? codes[i - 1] : codes[0]));
  const entryGaps: number[] = [];
  for (const c of codes) {
    let previous = 0;
    for (let i = start[c]; i < start[c + 1]; i++) {
      entryGaps.push(postings[i] - previous);
      previous = postings[i];
    }
  }
  return {
    firstCode: codes[0],
    codes: encode(codeGaps, codes.length * 4),
    counts: encode(codes.map((c) => start[c + 1] - start[c]), codes.length * 5),
    entries: encode(entryGaps, entryGaps.length * 5),
  };
}
