/**
 * The cross-references, GO annotations and domains of every protein, in a file of the derive
 * task's folder (entry-file.ts) rather than in the heap: at a million proteins they were 686 MiB
 * of derive's heap (cross-references 381, domains 180, GO 125), and each task that read them
 * held them all again.
 *
 * Annotation files name proteins in any order, so each annotation is appended as it is read to
 * a spill file in a scratch folder, and its place (entry, offset, length) to a table of a row
 * engine of its own (engine.ts, DuckDB). Once every file is read, the places come back sorted by
 * entry and by the order they were read in, a range of entries at a time, and each protein's
 * annotations are written as one record, its cross-references without repeats (RecordBytes, from
 * the spilled bytes as they are): the very rows the table held in memory gave.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pack, unpack } from "msgpackr";
import type { AnnotationRow } from "../../release-format/format.js";
import { openEngine, sortRanges, type RowTable } from "../engine.js";
import { bufferedWriter } from "../files.js";
import { entryFileWriter, openPackedFile, type EntryFile } from "./entry-file.js";

/** Its name in the derive task's folder. */
export const ANNOTATION_FILE = "annotations.bin";

export type GoAnnotation = AnnotationRow["go"][number];
export type Domain = AnnotationRow["domains"][number];

/** A protein's annotations as stored: cross-references flat (source, id, …), GO annotations, domains flat five by five. */
type StoredRecord = [string[], GoAnnotation[], Array<string | number>];

/** What a spilled annotation is, its first element. */
const XREF = 0;
const GO = 1;
const DOMAIN = 2;

const SPILL = "annotations.spill";
const TABLE = "annotation_places";

export interface AnnotationSpill {
  addXref(index: number, source: string, id: string): void;
  addGo(index: number, annotation: GoAnnotation): void;
  addDomain(index: number, domain: Domain): void;
  /**
   * Writes each protein's record to `folder`/ANNOTATION_FILE in entry order, handing `eachGo`
   * the GO annotations of each protein with annotations, in entry order; then removes the
   * scratch folder.
   */
  finish(folder: string, eachGo: (go: GoAnnotation[]) => void): Promise<EntryFile>;
  /** Removes the scratch folder unfinished (a failed read); again: nothing. */
  close(): void;
}

/** A spill for the annotations of `count` proteins in `scratch.folder` (which finish and close remove). */
export async function annotationSpill(count: number, scratch: { folder: string; memoryBytes: number; threads: number }): Promise<AnnotationSpill> {
  mkdirSync(scratch.folder, { recursive: true });
  const engine = await openEngine({ database: join(scratch.folder, "places.duckdb"), spill: join(scratch.folder, "spill"), memoryBytes: scratch.memoryBytes, threads: scratch.threads });
  let places: RowTable;
  try {
    places = await engine.table(TABLE, { entry: "int32", byte_start: "float64", byte_length: "int32" });
  } catch (error) {
    engine.close();
    throw error;
  }
  const spillPath = join(scratch.folder, SPILL);
  const fd = openSync(spillPath, "w+");
  const spill = bufferedWriter(fd);
  let end = 0;
  // Annotations per protein: what sortRanges cuts the entries by.
  const perEntry = new Int32Array(count);
  const add = (index: number, record: unknown[]) => {
    const bytes = pack(record);
    spill.write(bytes);
    places.append(index, end, bytes.length);
    end += bytes.length;
    perEntry[index]++;
  };
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
    places.close();
    engine.close();
    rmSync(scratch.folder, { recursive: true, force: true });
  };
  return {
    addXref: (index, source, id) => add(index, [XREF, source, id]),
    addGo: (index, annotation) => add(index, [GO, ...annotation]),
    addDomain: (index, domain) => add(index, [DOMAIN, ...domain]),
    async finish(folder, eachGo) {
      spill.flush();
      const spilled = spillReader(fd, spillPath);
      const out = entryFileWriter(folder, ANNOTATION_FILE);
      try {
        let next = 0;
        const record = new RecordBytes();
        // The empty records of entries before `index`, which have no annotations, then entry `index`'s.
        const write = (index: number) => {
          if (index > next) out.append(new Uint8Array(0), new Int32Array(index - next));
          eachGo(record.go);
          const bytes = record.packed();
          out.append(bytes, [bytes.length]);
          next = index + 1;
        };
        for (const range of sortRanges(perEntry, engine.rowsPerRange)) {
          let index = -1;
          for await (const { count: rows, columns } of places.sorted(["entry", "byte_start"], range)) {
            const [entries, at, lengths] = columns as [Int32Array, Float64Array, Int32Array];
            for (let r = 0; r < rows; r++) {
              if (entries[r] !== index) {
                if (index >= 0) write(index);
                index = entries[r];
                record.clear();
              }
              record.add(spilled(at[r], lengths[r]));
            }
          }
          if (index >= 0) write(index);
        }
        if (count > next) out.append(new Uint8Array(0), new Int32Array(count - next));
        return out.finish();
      } catch (error) {
        out.abandon();
        throw error;
      } finally {
        close();
      }
    },
    close,
  };
}

/**
 * A protein's record (StoredRecord) put together from its spilled annotations as msgpack bytes,
 * without decoding them: a spilled annotation is `pack([kind, ...fields])`, and the record is
 * `pack([xrefs flat, GO annotations, domains flat])`, so each annotation's fields go into the
 * record as the bytes they were packed to, under array headers written as msgpackr writes them.
 * The same bytes as decoding each annotation and packing the record, which at a million
 * proteins cost the annotation read 4.4–4.6 s more of derive's main thread, in the stage where
 * it is the one thread busy (68.2–74.4 s against 63.6–70.0, three rounds alternating); only the
 * GO annotations are decoded, for `eachGo`. A cross-reference is added unless the protein has
 * it already: the same (source, id) packs to the same bytes.
 */
class RecordBytes {
  /** Each cross-reference's packed source and id, each GO annotation's and domain's packed fields. */
  private xrefs: Uint8Array[] = [];
  private goFields: Uint8Array[] = [];
  private goCounts: number[] = [];
  private domains: Uint8Array[] = [];
  private domainFields = 0;
  go: GoAnnotation[] = [];

  clear(): void {
    this.xrefs = [];
    this.goFields = [];
    this.goCounts = [];
    this.domains = [];
    this.domainFields = 0;
    this.go = [];
  }

  /** A spilled annotation: an array of the kind and its fields. */
  add(bytes: Uint8Array): void {
    const [count, at] = arrayHeader(bytes);
    const kind = bytes[at];
    if (kind > DOMAIN) throw new Error(`a spilled annotation of kind ${kind}`);
    const fields = bytes.subarray(at + 1);
    if (kind === XREF) {
      // A protein has a few dozen cross-references at most: a scan is cheaper than a set per protein.
      if (!this.xrefs.some((known) => Buffer.compare(known, fields) === 0)) this.xrefs.push(fields);
    } else if (kind === GO) {
      this.goFields.push(fields);
      this.goCounts.push(count - 1);
      this.go.push((unpack(bytes) as unknown[]).slice(1) as GoAnnotation);
    } else {
      this.domains.push(fields);
      this.domainFields += count - 1;
    }
  }

  /** The record as `pack([xrefs, go, domains])` writes it. */
  packed(): Uint8Array {
    const parts: Uint8Array[] = [Uint8Array.of(0x93), arrayHeaderOf(this.xrefs.length * 2), ...this.xrefs, arrayHeaderOf(this.goFields.length)];
    this.goFields.forEach((fields, k) => parts.push(arrayHeaderOf(this.goCounts[k]), fields));
    parts.push(arrayHeaderOf(this.domainFields), ...this.domains);
    return Buffer.concat(parts);
  }
}

/** A msgpack array's length and where its first element starts. */
function arrayHeader(bytes: Uint8Array): [number, number] {
  const b = bytes[0];
  if ((b & 0xf0) === 0x90) return [b & 0x0f, 1];
  if (b === 0xdc) return [(bytes[1] << 8) | bytes[2], 3];
  if (b === 0xdd) return [new DataView(bytes.buffer, bytes.byteOffset).getUint32(1), 5];
  throw new Error(`a spilled annotation is not an array (first byte ${b})`);
}

/** A msgpack array header for `length` elements, as msgpackr writes it (packArray). */
function arrayHeaderOf(length: number): Uint8Array {
  if (length < 0x10) return Uint8Array.of(0x90 | length);
  if (length < 0x10000) return Uint8Array.of(0xdc, length >> 8, length & 0xff);
  const header = new Uint8Array(5);
  header[0] = 0xdd;
  new DataView(header.buffer).setUint32(1, length);
  return header;
}

/** Windows kept of the spill file: its annotations come back by entry, from as many places as there were files naming that entry. */
const WINDOWS = 8;
const WINDOW_BYTES = 1 << 18;

/**
 * Reads the spill's records by offset: most files name proteins in runs, so the records of a
 * range of entries lie in a few runs of the spill, one per file, each read a window at a time;
 * the window least recently used is replaced.
 */
function spillReader(fd: number, path: string) {
  const windows: Array<{ start: number; end: number; bytes: Buffer; used: number }> = [];
  let clock = 0;
  return (at: number, length: number): Buffer => {
    let window = windows.find((w) => at >= w.start && at + length <= w.end);
    if (!window) {
      const bytes = Buffer.allocUnsafe(Math.max(length, WINDOW_BYTES));
      let read = 0;
      for (let n; read < length; read += n) {
        n = readSync(fd, bytes, read, bytes.length - read, at + read);
        if (n === 0) throw new Error(`${path}: ends at byte ${at + read}, before the annotations it holds`);
      }
      window = { start: at, end: at + read, bytes, used: 0 };
      if (windows.length === WINDOWS) windows.splice(windows.indexOf(windows.reduce((a, b) => (a.used <= b.used ? a : b))), 1);
      windows.push(window);
    }
    window.used = ++clock;
    return window.bytes.subarray(at - window.start, at - window.start + length);
  };
}

/** Reads the annotations of `file`, written to `folder`, opening it at the first read; `close` when done. */
export function annotationReader(file: EntryFile, folder: string) {
  const records = openPackedFile<StoredRecord>(file, folder, "annotations", () => [[], [], []]);
  const recordAt = (index: number) => records.get(index + 1);
  return {
    rowAt(index: number): AnnotationRow {
      const [xrefs, go, d] = recordAt(index);
      const domains: Domain[] = [];
      for (let k = 0; k < d.length; k += 5) domains.push(d.slice(k, k + 5) as Domain);
      return { xrefs: pairsOf(xrefs), go, domains };
    },
    xrefsAt: (index: number): AnnotationRow["xrefs"] => pairsOf(recordAt(index)[0]),
    goAt: (index: number): AnnotationRow["go"] => recordAt(index)[1].slice(),
    close: records.close,
  };
}

function pairsOf(flat: string[]): AnnotationRow["xrefs"] {
  const xrefs: AnnotationRow["xrefs"] = [];
  for (let k = 0; k < flat.length; k += 2) xrefs.push([flat[k], flat[k + 1]]);
  return xrefs;
}
