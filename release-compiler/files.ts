/**
 * Writing and reading a file's bytes in full. `writeSync` may write fewer bytes than it is given
 * (a disk that fills up part-way: the call after it fails with ENOSPC), and returns how many; a
 * caller that ignored the count left a snapshot or a pack cut short without an error. `readSync`
 * may read fewer too, and reads at most 2 GiB a call.
 */
import { readSync, writeSync } from "node:fs";

/** Fills `into` with the file's bytes from `position`; a file that ends first throws `short(the byte it ends at)`. */
export function readFully(fd: number, into: Uint8Array, position: number, short: (end: number) => Error): void {
  for (let read = 0; read < into.length; ) {
    const n = readSync(fd, into, read, Math.min(into.length - read, 1 << 30), position + read);
    if (n === 0) throw short(position + read);
    read += n;
  }
}

/** Writes all of `bytes` at the file's position; a full disk throws (ENOSPC). */
export function writeFully(fd: number, bytes: Uint8Array, from = 0, to = bytes.length): void {
  for (let at = from; at < to; ) at += writeSync(fd, bytes, at, to - at);
}

/** Appends small records to `fd` through a buffer of `size` bytes (one as large is written at once); `flush` writes what is buffered. */
export function bufferedWriter(fd: number, size = 1 << 20) {
  const pending = Buffer.allocUnsafe(size);
  let used = 0;
  const flush = () => {
    writeFully(fd, pending, 0, used);
    used = 0;
  };
  return {
    write(bytes: Uint8Array): void {
      if (used + bytes.length > size) flush();
      if (bytes.length >= size) writeFully(fd, bytes);
      else {
        pending.set(bytes, used);
        used += bytes.length;
      }
    },
    flush,
  };
}
