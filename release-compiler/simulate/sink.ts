/**
 * Buffered output file: text and byte arrays are copied into a 1 MiB buffer that is written to
 * disk whenever it fills, so that large outputs stream with constant memory and without
 * building big strings.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { writeFully } from "../files.js";

const CAPACITY = 1 << 20;

export class FileSink {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(CAPACITY);
  private used = 0;
  private closed = false;
  /** Bytes written so far (flushed or buffered). */
  bytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, "w");
  }

  /** Appends ASCII/Latin-1 text (the simulator writes no other characters). */
  write(text: string): void {
    const length = text.length;
    if (length > CAPACITY - this.used) {
      this.flush();
      if (length > CAPACITY) {
        writeFully(this.fd, Buffer.from(text, "latin1"));
        this.bytes += length;
        return;
      }
    }
    this.buffer.write(text, this.used, "latin1");
    this.used += length;
    this.bytes += length;
  }

  /** Appends bytes [start, end) of `data`. */
  writeBytes(data: Uint8Array, start = 0, end = data.length): void {
    const length = end - start;
    if (length > CAPACITY - this.used) {
      this.flush();
      if (length > CAPACITY) {
        writeFully(this.fd, data, start, end);
        this.bytes += length;
        return;
      }
    }
    this.buffer.set(data.subarray(start, end), this.used);
    this.used += length;
    this.bytes += length;
  }

  /** Appends `data` wrapped at `width` characters per line, each line ending in a newline. */
  writeWrapped(data: Uint8Array, width = 60): void {
    for (let i = 0; i < data.length; i += width) {
      this.writeBytes(data, i, Math.min(data.length, i + width));
      this.write("\n");
    }
  }

  flush(): void {
    if (this.used > 0) {
      writeFully(this.fd, this.buffer, 0, this.used);
      this.used = 0;
    }
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    closeSync(this.fd);
    this.closed = true;
  }
}
