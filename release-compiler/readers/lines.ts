/**
 * Line streaming shared by every text reader: one line at a time (inputs can be large),
 * gunzipped on the fly when the file *content* is gzip (extensions lie), `\r` stripped.
 */
import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { pipeline, type Readable } from "node:stream";
import { createGunzip, gunzipSync } from "node:zlib";
import type { Problems } from "../problems.js";

/** The name a problem is reported under: the path as the caller gave it. */
export function fileLabel(path: string): string {
  return path;
}

/** True when the file starts with the gzip magic bytes 1f 8b. */
async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** A UTF-8 text stream of the file, decompressed when it is gzip. Throws when the file cannot be opened. */
export async function openText(path: string): Promise<Readable> {
  return (await openCounted(path)).stream;
}

/** openText's stream, and the bytes of the file read so far (before they are decompressed): what a bar over the file counts. */
async function openCounted(path: string): Promise<{ stream: Readable; bytesRead: () => number }> {
  const gz = await isGzipFile(path);
  const raw = createReadStream(path);
  // pipeline (not .pipe) so that a read error of the file also errors the gunzip stream.
  const stream: Readable = gz ? pipeline(raw, createGunzip(), () => {}) : raw;
  stream.setEncoding("utf8");
  return { stream, bytesRead: () => raw.bytesRead };
}

/** The whole file as text (gunzipped if needed): only for small inputs such as a Newick tree or the config. */
export async function readText(path: string): Promise<string> {
  const data = await readFile(path);
  const bytes = data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
  return bytes.toString("utf8");
}

/** A short description of an I/O error for a problem message. */
export function ioMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "ENOENT") return "file not found";
  if (e?.code === "EISDIR") return "is a folder, expected a file";
  if (e?.code === "EACCES") return "permission denied";
  if (e?.code === "Z_BUF_ERROR" || e?.code === "Z_DATA_ERROR") return `gzip data is truncated or corrupt (${e.message})`;
  return `cannot read file: ${e?.message ?? String(err)}`;
}

/** The problem (for the whole file) of text with NUL bytes: a binary file given where text is expected. */
export const BINARY_MESSAGE = "binary file (it contains NUL bytes), expected text";

/**
 * Streams the lines of a text file, 1-based line numbers, without line terminators (`\n`,
 * `\r\n`, or a lone `\r`, as Node's readline splits them; an empty last line is no line).
 * Without `problems`, I/O errors (missing file, corrupt gzip) are thrown; with it, they are
 * reported (line 0 when the file cannot be opened, else the line after the last good one)
 * and the iteration simply ends, so the caller goes on collecting problems. A NUL byte (a
 * binary file) is reported for the whole file (line 0), before any line of the chunk it is
 * in, and ends the iteration too. `end.unterminated` is set when the last line has no line
 * terminator (a truncated file?).
 *
 * One line at a time: readLineBatches gives the same lines a read chunk at a time, for readers
 * of large files.
 */
export async function* readLines(
  path: string,
  problems?: Problems,
  end?: { unterminated: boolean },
  /** Called after each chunk with the bytes of the file read so far (compressed, for a gzip file), for a progress bar. */
  read?: (bytes: number) => void,
): AsyncGenerator<{ text: string; lineNo: number }> {
  for await (const { lines, firstLineNo } of readLineBatches(path, problems, end, read)) {
    for (let i = 0; i < lines.length; i++) yield { text: lines[i], lineNo: firstLineNo + i };
  }
}

/** Lines in a row: `lines[i]` is line `firstLineNo + i` of its file. */
export interface LineBatch {
  lines: string[];
  firstLineNo: number;
}

/**
 * readLines' lines (the same, with the same problems reported), the lines of each chunk read
 * from the file together: a reader of millions of lines (a proteome, the cross-references)
 * spends more on an async generator's step a line than on its own parsing (4.7 M lines of
 * cross-references: 1.4 s a line at a time, 0.3 s a chunk at a time, measured on this machine).
 *
 * Lines are cut from each decoded chunk with indexOf here rather than by node:readline, whose
 * events and queue cost more than the readers' own parsing on a proteome of a million lines.
 */
export async function* readLineBatches(
  path: string,
  problems?: Problems,
  end?: { unterminated: boolean },
  read?: (bytes: number) => void,
): AsyncGenerator<LineBatch> {
  let lineNo = 0;
  let input: Readable;
  let bytesRead: () => number;
  try {
    ({ stream: input, bytesRead } = await openCounted(path));
  } catch (err) {
    if (!problems) throw err;
    problems.report(fileLabel(path), 0, ioMessage(err));
    return;
  }
  let lastChunk = "";
  // The start of a line the chunks so far have not ended.
  let rest = "";
  // The last chunk ended with \r: a \n opening the next one belongs to it.
  let afterReturn = false;
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      if (chunk.length === 0) continue;
      lastChunk = chunk;
      if (chunk.includes("\0")) {
        if (!problems) throw new Error(`${fileLabel(path)}: ${BINARY_MESSAGE}`);
        problems.report(fileLabel(path), 0, BINARY_MESSAGE);
        return;
      }
      const lines = splitLines(chunk, afterReturn && chunk.charCodeAt(0) === 10 ? 1 : 0);
      afterReturn = chunk.charCodeAt(chunk.length - 1) === 13;
      if (lines.length === 1) {
        rest += lines[0];
        continue;
      }
      lines[0] = rest + lines[0];
      rest = lines.pop()!;
      const firstLineNo = lineNo + 1;
      lineNo += lines.length;
      yield { lines, firstLineNo };
      read?.(bytesRead());
    }
    if (rest.length > 0) yield { lines: [rest], firstLineNo: ++lineNo };
    if (end) end.unterminated = lastChunk !== "" && !lastChunk.endsWith("\n") && !lastChunk.endsWith("\r");
  } catch (err) {
    if (!problems) throw err;
    problems.report(fileLabel(path), lineNo + 1, ioMessage(err));
  } finally {
    input.destroy();
  }
}

/**
 * `text` from `from` cut at every line terminator: the pieces between them, the last one the
 * unterminated rest (empty when the text ends with a terminator).
 */
function splitLines(text: string, from: number): string[] {
  const pieces: string[] = [];
  let start = from;
  let newline = text.indexOf("\n", start);
  let ret = text.indexOf("\r", start);
  while (newline >= 0 || ret >= 0) {
    if (ret < 0 || (newline >= 0 && newline < ret)) {
      pieces.push(text.slice(start, newline));
      start = newline + 1;
    } else {
      pieces.push(text.slice(start, ret));
      start = text.charCodeAt(ret + 1) === 10 ? ret + 2 : ret + 1;
      ret = text.indexOf("\r", start);
    }
    if (newline >= 0 && newline < start) newline = text.indexOf("\n", start);
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** A line that is empty or only whitespace. */
export function isBlank(text: string): boolean {
  return text.trim() === "";
}

/**
 * A reader's rows a chunk of lines at a time (readLineBatches): `row` cuts a line into its row,
 * or gives none for a line that has none (a header, a blank line, a line it reported).
 */
export async function* rowBatches<Row>(
  path: string,
  problems: Problems,
  row: (text: string, lineNo: number) => Row | undefined,
  read?: (bytes: number) => void,
): AsyncGenerator<Row[]> {
  for await (const { lines, firstLineNo } of readLineBatches(path, problems, undefined, read)) {
    const rows: Row[] = [];
    for (let i = 0; i < lines.length; i++) {
      const cut = row(lines[i], firstLineNo + i);
      if (cut !== undefined) rows.push(cut);
    }
    yield rows;
  }
}

/**
 * Takes each row of a reader's batches (`…Batches`: the rows of a chunk of lines together) on
 * this thread, with no async step a row, and puts each batch's problems in line order once it is
 * taken (Problems.inLineOrder): the reader's, reported as it cut the batch, and `take`'s, reported
 * at its rows' lines, come in the order of reading the file a row at a time.
 */
export async function takeRows<Row>(batches: AsyncIterable<Row[]>, problems: Problems, take: (row: Row) => void): Promise<void> {
  let settled = problems.count;
  for await (const rows of batches) {
    for (const row of rows) take(row);
    problems.inLineOrder(settled);
    settled = problems.count;
  }
}
