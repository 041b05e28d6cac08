/**
 * Records by entry number in a file of the derive task's folder, not in the heap: what grows
 * with the proteins and is read by entry, in order or one at a time, by the tasks that need it
 * (the sequences: sequence-file.ts; the annotations: annotation-file.ts). Entry e's record is
 * bytes `starts[e - 1] .. starts[e]` of the file; an entry may have an empty record.
 *
 * Hand-written rather than a key-value store: the keys are the entry numbers 1..N in order, so
 * an array of offsets is the whole index, and the OS page cache keeps what is read often.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { unpack } from "msgpackr";
import { bufferedWriter } from "../files.js";

/** Where the records are: entry e's are bytes `starts[e - 1] .. starts[e]` of the file `name`. */
export interface EntryFile {
  /** Its name in the folder it was written to (the derive task's). */
  name: string;
  /** count + 1 offsets (Float64: a release's sequences pass 4 GB at ~10 M proteins). */
  starts: Float64Array;
}

/** Bytes read at once when entries are read in order; and written at once. */
const WINDOW = 1 << 20;

/** Writes records to `folder/name` in entry order: `append` them, then `finish`. */
export function entryFileWriter(folder: string, name: string) {
  const fd = openSync(join(folder, name), "w");
  const starts = [0];
  let end = 0;
  const out = bufferedWriter(fd, WINDOW);
  return {
    /** The next entries' records, one after the other in `bytes`, `lengths` long. */
    append(bytes: Uint8Array, lengths: ArrayLike<number>): void {
      for (let k = 0; k < lengths.length; k++) starts.push((end += lengths[k]));
      out.write(bytes);
    },
    finish(): EntryFile {
      try {
        out.flush();
      } finally {
        closeSync(fd);
      }
      return { name, starts: Float64Array.from(starts) };
    },
    /** Closes the file unfinished (a failed read). */
    abandon: () => closeSync(fd),
  };
}

/**
 * Reads the records of `file`, written to `folder` (`what` they are, for messages); `close`
 * when done. A file whose size is not what `file` says is refused: its work folder is damaged.
 */
export function openEntryFile(file: EntryFile, folder: string, what: string) {
  const path = join(folder, file.name);
  const { starts } = file;
  const count = starts.length - 1;
  const fd = openSync(path, "r");
  const size = fstatSync(fd).size;
  if (size !== starts[count]) {
    closeSync(fd);
    throw new Error(`${path}: ${size} bytes where the derived release's ${what} take ${starts[count]}; its work folder is damaged (compile again without --work, or remove it)`);
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
      if (n === 0) throw new Error(`${path}: ends at byte ${from + read}, before the ${what} it holds`);
      read += n;
    }
    windowStart = from;
    windowEnd = from + bytes;
  };
  return {
    count,
    /** Entry `entry`'s record (1-based): a view of the reader's buffer, valid until the next call. */
    bytes(entry: number): Buffer {
      if (!(entry >= 1 && entry <= count)) throw new RangeError(`entry ${entry} is not among the ${what} (entries 1..${count})`);
      const start = starts[entry - 1];
      const end = starts[entry];
      if (start < windowStart || end > windowEnd) {
        // In order, read ahead a window; out of order, just this record.
        fill(start, entry === last + 1 ? Math.max(end - start, Math.min(WINDOW, size - start)) : end - start);
      }
      last = entry;
      return buffer.subarray(start - windowStart, end - windowStart);
    },
    close: () => closeSync(fd),
  };
}

/**
 * Reads records that are each one msgpack value (the exons, the annotations), an empty record
 * giving `empty()`; the file is opened at the first read, as a task may read none.
 */
export function openPackedFile<T>(file: EntryFile, folder: string, what: string, empty: () => T) {
  let records: ReturnType<typeof openEntryFile> | undefined;
  return {
    /** Entry `entry`'s value (1-based). */
    get(entry: number): T {
      const bytes = (records ??= openEntryFile(file, folder, what)).bytes(entry);
      return bytes.length ? (unpack(bytes) as T) : empty();
    },
    /** Closes the file, if a record was read (another read opens it again). */
    close() {
      records?.close();
      records = undefined;
    },
  };
}
