/**
 * The proteins' sequences in a file of the derive task's folder (entry-file.ts), not in the
 * heap: at a million proteins they were 421 MiB of the derive task's 2.1 GB (the largest field
 * of the derived release), and at 20 M they would be 8 GB. They are written genome by genome as
 * the proteomes are read and read back by entry or in slices for a pass over them all. What the
 * tables that summarize proteins need of a sequence, its length, stays in the protein table.
 * Sequences are ASCII letters (and `*`; readers/fasta.ts refuses anything else), one byte each.
 */
import { entryFileWriter, openEntryFile, type EntryFile } from "./entry-file.js";

/** Its name in the derive task's folder. */
export const SEQUENCE_FILE = "sequences.bin";

/** Where the sequences are: entry e's bytes are `starts[e - 1] .. starts[e]` of the file. */
export type SequenceFile = EntryFile;

/** Entries per slice of a pass over every sequence (`slices`). */
const SLICE = 1 << 16;

/** Writes sequences to `folder/name` in entry order: `append` each genome's, then `finish`. */
export function sequenceFileWriter(folder: string, name = SEQUENCE_FILE) {
  const file = entryFileWriter(folder, name);
  return {
    append(sequences: readonly string[]): void {
      if (sequences.length) file.append(Buffer.from(sequences.join(""), "latin1"), sequences.map((s) => s.length));
    },
    finish: (): SequenceFile => file.finish(),
  };
}

/** Reads the sequences of `file`, written to `folder`; `close` when done. */
export function openSequences(file: SequenceFile, folder: string) {
  const records = openEntryFile(file, folder, "sequences");
  const { count } = records;
  /** Entry `entry`'s sequence (1-based). */
  const get = (entry: number): string => records.bytes(entry).toString("latin1");
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
    close: records.close,
  };
}

export type SequenceReader = ReturnType<typeof openSequences>;
