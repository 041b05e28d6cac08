/**
 * The proteins' sequences in a file of the derive task's folder, not in the heap: at a million
 * proteins they were 421 MiB of the derive task's 2.1 GB (the largest field of the derived
 * release), and at 20 M they would be 8 GB. They are written genome by genome as the proteomes
 * are read, each sequence's bytes after the last, and read back by entry (an exact read, or a
 * window when entries come in order) or in slices for a pass over them all. What the tables
 * that summarize proteins need of a sequence, its length, stays in the protein table.
 *
 * Hand-written rather than a key-value store: the keys are the entry numbers 1..N in order, so
 * an array of offsets is the whole index, and the OS page cache keeps what is read often.
 * Sequences are ASCII letters (and `*`; readers/fasta.ts refuses anything else), one byte each.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Its name in the derive task's folder. */
export const SEQUENCE_FILE = "sequences.bin";

/** Where the sequences are: entry e's bytes are `starts[e - 1] .. starts[e]` of the file. */
export interface SequenceFile {
  /** Its name in the folder it was written to (the derive task's). */
  name: string;
  /** count + 1 offsets (Float64: a release's sequences pass 4 GB at ~10 M proteins). */
  starts: Float64Array;
}

/** Entries per slice of a pass over every sequence (`slices`). */
const SLICE = 1 << 16;
/** Bytes read at once when entries are read in order: about 2,500 sequences. */
const WINDOW = 1 << 20;

/** Writes sequences to `folder/name` in entry order: `append` each genome's, then `finish`. */
export function sequenceFileWriter(folder: string, name = SEQUENCE_FILE) {
  const fd = openSync(join(folder, name), "w");
  const starts = [0];
  let end = 0;
  return {
    append(sequences: readonly string[]): void {
      if (!sequences.length) return;
      for (const s of sequences) starts.push((end += s.length));
      const bytes = Buffer.from(sequences.join(""), "latin1");
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    },
    finish(): SequenceFile {
      closeSync(fd);
      return { name, starts: Float64Array.from(starts) };
    },
  };
}

/** Reads the sequences of `file`, written to `folder`; `close` when done. */
export function openSequences(file: SequenceFile, folder: string) {
  const path = join(folder, file.name);
  const { starts } = file;
  const count = starts.length - 1;
  const fd = openSync(path, "r");
  const size = fstatSync(fd).size;
  if (size !== starts[count]) {
    closeSync(fd);
    throw new Error(`${path}: ${size} bytes where the derived release's sequences take ${starts[count]}; its work folder is damaged (compile again without --work, or remove it)`);
  }
  let buffer = Buffer.alloc(WINDOW);
  // Bytes of the file in `buffer`: [windowStart, windowEnd).
  let windowStart = 0;
  let windowEnd = 0;
  let last = -1;
  const fill = (from: number, bytes: number) => {
    if (buffer.length < bytes) buffer = Buffer.alloc(bytes);
    let read = 0;
    while (read < bytes) {
      const n = readSync(fd, buffer, read, bytes - read, from + read);
      if (n === 0) throw new Error(`${path}: ends at byte ${from + read}, before the sequences it holds`);
      read += n;
    }
    windowStart = from;
    windowEnd = from + bytes;
  };
  /** Entry `entry`'s sequence (1-based). */
  const get = (entry: number): string => {
    if (!(entry >= 1 && entry <= count)) throw new RangeError(`no sequence of entry ${entry} (entries 1..${count})`);
    const start = starts[entry - 1];
    const end = starts[entry];
    if (start < windowStart || end > windowEnd) {
      // In order, read ahead a window; out of order, just this sequence.
      fill(start, entry === last + 1 ? Math.max(end - start, Math.min(WINDOW, size - start)) : end - start);
    }
    last = entry;
    return buffer.toString("latin1", start - windowStart, end - windowStart);
  };
  return {
    count,
    get,
    /** Every sequence in entry order, in slices of 65,536 (a fresh pass each call). */
    *slices(): Generator<string[]> {
      for (let first = 1; first <= count; first += SLICE) {
        const slice: string[] = [];
        for (let e = first; e < Math.min(first + SLICE, count + 1); e++) slice.push(get(e));
        yield slice;
      }
    },
    close: () => closeSync(fd),
  };
}

export type SequenceReader = ReturnType<typeof openSequences>;
