/**
 * The sequence search index: k-mer postings of every protein, in shards of consecutive k-mer
 * codes of about SEQUENCE_SHARD_BYTES. A release of a million proteins has ~4·10^8 postings,
 * too many to hold: every (code, entry) posting goes into a table of the row engine
 * (engine.ts), which gives them back sorted by code, then entry, out of core.
 */
import { KMER_ALPHABET, type KmerShard, type SequenceIndexRef } from "../../release-format/format.js";
import { forEachKmer, KMER_LENGTH } from "../../release-format/kmers.js";
import { varintLength, writeVarint } from "../../release-format/varint.js";
import { sortRanges, type Engine } from "../engine.js";
import { runTasksInOrder } from "../workers.js";
import type { PackWriter, TreeWriter } from "./packs.js";

/** Target size of a shard: one read of a query k-mer. */
export const SEQUENCE_SHARD_BYTES = 64 * 1024;

/** Proteins whose k-mers one task finds. */
const KMER_TASK_ENTRIES = 4096;

/** A task: the sequences of entries firstEntry, firstEntry + 1, … */
export interface KmerTask {
  firstEntry: number;
  sequences: string[];
}

/** Every (code, entry) posting of a task's proteins, each code once per entry. */
export interface KmerPostings {
  codes: Int32Array;
  entries: Int32Array;
}

/**
 * Finding the k-mers is spread over `jobs` worker threads (kmer-worker.ts) when there are
 * several, a task per KMER_TASK_ENTRIES proteins; the engine sorts the postings, so the
 * order they arrive in does not change the index.
 */
export async function writeSequenceIndex(
  packs: PackWriter,
  count: number,
  sequenceOf: (entry: number) => string,
  engine: Engine,
  jobs: number,
  progress?: (entriesDone: number) => void,
): Promise<SequenceIndexRef> {
  const postings = await engine.table("kmer_postings", { code: "int32", entry: "int32" });
  const perCode = new Uint32Array(KMER_CODES);
  let done = 0;
  const take = ({ codes, entries }: KmerPostings) => {
    for (const code of codes) perCode[code]++;
    postings.appendColumns([codes, entries], codes.length);
    done = Math.min(count, done + KMER_TASK_ENTRIES);
    progress?.(done);
  };
  function* tasks(): Generator<KmerTask> {
    for (let first = 1; first <= count; first += KMER_TASK_ENTRIES) {
      yield { firstEntry: first, sequences: Array.from({ length: Math.min(KMER_TASK_ENTRIES, count - first + 1) }, (_, i) => sequenceOf(first + i)) };
    }
  }
  await runTasksInOrder(tasks(), take, { module: new URL("./kmer-worker.ts", import.meta.url), jobs });
  const total = postings.rows;

  const shards = new ShardCutter(packs.tree<number>());
  let code = -1;
  let entries: number[] = [];
  for (const range of sortRanges(perCode, engine.rowsPerRange)) {
    for await (const batch of postings.sorted(["code", "entry"], range)) {
      const [codeColumn, entryColumn] = batch.columns;
      for (let r = 0; r < batch.count; r++) {
        if (codeColumn[r] !== code) {
          if (entries.length) shards.add(code, entries);
          code = codeColumn[r];
          entries = [];
        }
        entries.push(entryColumn[r]);
      }
    }
  }
  await postings.drop();
  if (entries.length) shards.add(code, entries);
  shards.flush();
  return { k: KMER_LENGTH, postings: total, tree: shards.tree.finish() };
}

/**
 * Groups consecutive k-mers into shards: a shard is closed before the k-mer that would take
 * it past SEQUENCE_SHARD_BYTES. Keeps the open shard's postings as gaps.
 */
class ShardCutter {
  private codes: number[] = [];
  private counts: number[] = [];
  private entryGaps: number[] = [];
  private bytes = 0;

  constructor(readonly tree: TreeWriter<number>) {}

  add(code: number, entries: number[]): void {
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

/** Codes of every k-mer of the alphabet. */
export const KMER_CODES = KMER_ALPHABET.length ** KMER_LENGTH;

/** A task's postings; `lastEntry` (KMER_CODES long, reused between tasks) holds the last entry each code was posted for. */
export function kmerPostings({ firstEntry, sequences }: KmerTask, lastEntry: Int32Array): KmerPostings {
  const bound = sequences.reduce((n, s) => n + Math.max(0, s.length - KMER_LENGTH + 1), 0);
  const codes = new Int32Array(bound);
  const entries = new Int32Array(bound);
  let n = 0;
  sequences.forEach((sequence, i) => {
    const entry = firstEntry + i;
    forEachKmer(sequence, (code) => {
      if (lastEntry[code] === entry) return; // once per entry
      lastEntry[code] = entry;
      codes[n] = code;
      entries[n++] = entry;
    });
  });
  return { codes: codes.slice(0, n), entries: entries.slice(0, n) };
}

function encode(values: number[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const v of values) at = writeVarint(out, at, v);
  return out.subarray(0, at);
}
