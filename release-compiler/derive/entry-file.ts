/**
 * Records by entry number in a file of the derive task's folder, not in the heap: what grows
 * with the proteins and is read by entry, in order or one at a time, by the tasks that need it
 * (the sequences: sequence-file.ts; the exons; the annotations: annotation-file.ts). Entry e's
 * record is bytes `starts[e - 1] .. starts[e]` of the file; an entry may have an empty record.
 * The offsets are in a file beside it (`name` + STARTS_SUFFIX: count + 1 Float64s, little-endian),
 * read a window at a time like the records: in the heap they were 8 bytes a protein in each of
 * derive's three files and in every task that opened one (24 MiB at a million proteins, 480 at 20 M).
 *
 * Hand-written rather than a key-value store: the keys are the entry numbers 1..N in order, so
 * an array of offsets is the whole index, and the OS page cache keeps what is read often.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { unpack } from "msgpackr";
import { bufferedWriter, readFully } from "../files.js";

/** The offsets' file of records file `name`. */
export const STARTS_SUFFIX = ".starts";

/** Bytes of an offset (Float64: a release's sequences pass 4 GB at ~10 M proteins). */
const OFFSET_BYTES = 8;

/** Where the records are: the file `name` and its offsets' file, `count` entries, `bytes` bytes of records. */
export interface EntryFile {
  /** Its name in the folder it was written to (the derive task's). */
  name: string;
  count: number;
  bytes: number;
}

/** The files of records file `name`: it and its offsets. */
export const entryFileNames = (name: string): string[] => [name, name + STARTS_SUFFIX];

/** Bytes read at once when entries are read in order; and written at once. */
const WINDOW = 1 << 20;

/** Writes records to `folder/name` in entry order: `append` them, then `finish`. */
export function entryFileWriter(folder: string, name: string) {
  const fd = openSync(join(folder, name), "w");
  const startsFd = openSync(join(folder, name + STARTS_SUFFIX), "w");
  const out = bufferedWriter(fd, WINDOW);
  const startsOut = bufferedWriter(startsFd, WINDOW);
  const offset = Buffer.alloc(OFFSET_BYTES);
  let count = 0;
  let end = 0;
  const putStart = (at: number) => {
    offset.writeDoubleLE(at);
    startsOut.write(offset);
  };
  putStart(0);
  const close = () => {
    closeSync(fd);
    closeSync(startsFd);
  };
  return {
    /** The next entries' records, one after the other in `bytes`, `lengths` long. */
    append(bytes: Uint8Array, lengths: ArrayLike<number>): void {
      for (let k = 0; k < lengths.length; k++) putStart((end += lengths[k]));
      count += lengths.length;
      out.write(bytes);
    },
    finish(): EntryFile {
      try {
        out.flush();
        startsOut.flush();
      } finally {
        close();
      }
      return { name, count, bytes: end };
    },
    /** Closes the files unfinished (a failed read). */
    abandon: close,
  };
}

/**
 * A file of `size` bytes read through a window of WINDOW bytes: ahead when read in order, just
 * what is asked otherwise. A file of another size is refused: its work folder is damaged.
 */
function windowedFile(path: string, size: number, what: string) {
  const fd = openSync(path, "r");
  const found = fstatSync(fd).size;
  if (found !== size) {
    closeSync(fd);
    throw new Error(`${path}: ${found} bytes where the derived release's ${what} take ${size}; its work folder is damaged (compile again without --work, or remove it)`);
  }
  let buffer = Buffer.alloc(WINDOW);
  // Bytes of the file in `buffer`: [windowStart, windowEnd).
  let windowStart = 0;
  let windowEnd = 0;
  return {
    /** Bytes `start .. end` of the file, a view valid until the next call; `ahead`: fill the window past them. */
    bytes(start: number, end: number, ahead: boolean): Buffer {
      if (start < windowStart || end > windowEnd) {
        const want = ahead ? Math.max(end - start, Math.min(WINDOW, size - start)) : end - start;
        if (buffer.length < want) buffer = Buffer.alloc(want);
        readFully(fd, buffer.subarray(0, want), start, (at) => new Error(`${path}: ends at byte ${at}, before the ${what} it holds`));
        windowStart = start;
        windowEnd = start + want;
      }
      return buffer.subarray(start - windowStart, end - windowStart);
    },
    close: () => closeSync(fd),
  };
}

/**
 * Reads the records of `file`, written to `folder` (`what` they are, for messages); `close`
 * when done. A file whose size is not what `file` says is refused: its work folder is damaged.
 */
export function openEntryFile(file: EntryFile, folder: string, what: string) {
  const { count } = file;
  const [path, startsPath] = entryFileNames(file.name).map((name) => join(folder, name));
  const records = windowedFile(path, file.bytes, what);
  let starts: ReturnType<typeof windowedFile>;
  try {
    // Its size named as the records' is, so that a damaged folder reads the same whichever file it is.
    starts = windowedFile(startsPath, (count + 1) * OFFSET_BYTES, what);
  } catch (error) {
    records.close();
    throw error;
  }
  let last = -1;
  return {
    count,
    /** Entry `entry`'s record (1-based): a view of the reader's buffer, valid until the next call. */
    bytes(entry: number): Buffer {
      if (!(entry >= 1 && entry <= count)) throw new RangeError(`entry ${entry} is not among the ${what} (entries 1..${count})`);
      // In order, read ahead a window; out of order, just this record.
      const inOrder = entry === last + 1;
      const span = starts.bytes((entry - 1) * OFFSET_BYTES, (entry + 1) * OFFSET_BYTES, inOrder);
      const start = span.readDoubleLE(0);
      const end = span.readDoubleLE(OFFSET_BYTES);
      last = entry;
      return records.bytes(start, end, inOrder);
    },
    close() {
      records.close();
      starts.close();
    },
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
