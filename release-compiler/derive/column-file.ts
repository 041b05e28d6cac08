/**
 * Columns a protein that derive writes and only some later tasks read (the sequences' MD5s,
 * the loci), in files of the derive task's folder rather than in the derived release's heap:
 * appended genome by genome as derive reads them, loaded whole by a task that reads them
 * (a table whose rows name proteins in any order: the protein table, the groups' and families'
 * members). In derive they were 33 bytes a protein for the whole run (33 MiB at a million
 * proteins, 660 at 20 M), and in every task that loaded the proteins' other fields.
 *
 * Hand-written rather than a store of any kind: a column is a typed array's bytes, so the file
 * is the array and its length the whole index.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { bufferedWriter, readFully } from "../files.js";

const ARRAYS = { Uint8Array, Int8Array, Float64Array } as const;
type ColumnType = keyof typeof ARRAYS;
type ColumnArray<T extends ColumnType> = T extends "Uint8Array" ? Uint8Array : T extends "Int8Array" ? Int8Array : Float64Array;

/** A column in a file of derive's folder: `length` values of `type`, little-endian as this machine holds them. */
export interface ColumnFile<T extends ColumnType = ColumnType> {
  /** Its name in the folder it was written to (the derive task's). */
  name: string;
  type: T;
  length: number;
}

/** Writes a column to `folder/name`: `append` its values in order, then `finish`. */
export function columnFileWriter<T extends ColumnType>(folder: string, name: string, type: T) {
  const fd = openSync(join(folder, name), "w");
  const out = bufferedWriter(fd);
  let length = 0;
  return {
    append(values: ColumnArray<T>): void {
      // A Buffer is a Uint8Array too.
      if (!(values instanceof ARRAYS[type])) throw new TypeError(`${name} is a column of ${type}, not of ${values.constructor.name}`);
      out.write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      length += values.length;
    },
    finish(): ColumnFile<T> {
      try {
        out.flush();
      } finally {
        closeSync(fd);
      }
      return { name, type, length };
    },
    /** Closes the file unfinished (a failed read). */
    abandon: () => closeSync(fd),
  };
}

/** The column of `file`, written to `folder` (`what` it is, for messages), read whole. A file of another size is refused: its work folder is damaged. */
export function loadColumn<T extends ColumnType>(file: ColumnFile<T>, folder: string, what: string): ColumnArray<T> {
  const path = join(folder, file.name);
  const values = new ARRAYS[file.type](file.length) as ColumnArray<T>;
  const bytes = new Uint8Array(values.buffer);
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size !== bytes.length) throw new Error(`${path}: ${size} bytes where the derived release's ${what} take ${bytes.length}; its work folder is damaged (compile again without --work, or remove it)`);
    readFully(fd, bytes, 0, (end) => new Error(`${path}: ends at byte ${end}, before the ${what} it holds`));
  } finally {
    closeSync(fd);
  }
  return values;
}
