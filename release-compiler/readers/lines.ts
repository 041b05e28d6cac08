/**
 * Line streaming shared by every text reader: one line at a time (inputs can be large),
 * gunzipped on the fly when the file *content* is gzip (extensions lie), `\r` stripped.
 */
import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
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
  const gz = await isGzipFile(path);
  const raw = createReadStream(path);
  // pipeline (not .pipe) so that a read error of the file also errors the gunzip stream.
  const stream: Readable = gz ? pipeline(raw, createGunzip(), () => {}) : raw;
  stream.setEncoding("utf8");
  return stream;
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
 * Streams the lines of a text file, 1-based line numbers, without line terminators.
 * Without `problems`, I/O errors (missing file, corrupt gzip) are thrown; with it, they are
 * reported (line 0 when the file cannot be opened, else the line after the last good one)
 * and the iteration simply ends, so the caller goes on collecting problems. A NUL byte (a
 * binary file) is reported for the whole file (line 0) and ends the iteration too.
 * `end.unterminated` is set when the last line has no line terminator (a truncated file?).
 */
export async function* readLines(
  path: string,
  problems?: Problems,
  end?: { unterminated: boolean },
): AsyncGenerator<{ text: string; lineNo: number }> {
  let lineNo = 0;
  let input: Readable;
  try {
    input = await openText(path);
  } catch (err) {
    if (!problems) throw err;
    problems.report(fileLabel(path), 0, ioMessage(err));
    return;
  }
  const rl = createInterface({ input, crlfDelay: Infinity });
  let lastChunk = "";
  let binary = false;
  // Sees each chunk before its lines reach the loop below (readline queues them).
  input.on("data", (chunk: string) => {
    if (chunk.length > 0) lastChunk = chunk;
    if (chunk.includes("\0")) binary = true;
  });
  try {
    for await (const line of rl) {
      lineNo++;
      if (binary || line.includes("\0")) {
        if (!problems) throw new Error(`${fileLabel(path)}: ${BINARY_MESSAGE}`);
        problems.report(fileLabel(path), 0, BINARY_MESSAGE);
        return;
      }
      yield { text: line.endsWith("\r") ? line.slice(0, -1) : line, lineNo };
    }
    if (end) end.unterminated = lastChunk !== "" && !lastChunk.endsWith("\n") && !lastChunk.endsWith("\r");
  } catch (err) {
    if (!problems) throw err;
    problems.report(fileLabel(path), lineNo + 1, ioMessage(err));
  } finally {
    rl.close();
    input.destroy();
  }
}

/** A line that is empty or only whitespace. */
export function isBlank(text: string): boolean {
  return text.trim() === "";
}
