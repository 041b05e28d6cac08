/**
 * writeFully (release-compiler/files.ts): a write that takes fewer bytes than it is given, as
 * one does when the disk fills up part-way, is carried on from where it stopped, so a snapshot
 * or a pack is never left short without an error; a full disk throws.
 */
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeFully } from "../../release-compiler/files.js";
import { loadSnapshot, saveSnapshot } from "../../release-compiler/snapshot.js";
import { tempDir } from "./readers/tmp.js";

// Every write takes at most 7 bytes of what it is given.
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  const short = (fd: number, bytes: Uint8Array, offset = 0, length = bytes.length - offset) => fs.writeSync(fd, bytes, offset, Math.min(length, 7));
  const writeSync = short as unknown as typeof fs.writeSync;
  return { ...fs, writeSync, default: { ...fs, writeSync } };
});

describe("writeFully", () => {
  it("writes every byte however few each write takes", () => {
    const path = join(tempDir(), "bytes");
    const bytes = Buffer.from(Array.from({ length: 1_000 }, (_, i) => i % 251));
    const fd = openSync(path, "w");
    writeFully(fd, bytes);
    writeFully(fd, bytes, 10, 20);
    closeSync(fd);
    expect(readFileSync(path)).toEqual(Buffer.concat([bytes, bytes.subarray(10, 20)]));
  });

  it("so a task's snapshot is whole", () => {
    const path = join(tempDir(), "output.v8");
    const value = { ids: Array.from({ length: 1_000 }, (_, i) => `P${i}`), counts: new Int32Array([1, 2, 3]) };
    saveSnapshot(path, value);
    expect(loadSnapshot<typeof value>(path).ids).toEqual(value.ids);
  });

  it("throws on a full disk", () => {
    const fd = openSync("/dev/full", "w");
    try {
      expect(() => writeFully(fd, Buffer.alloc(100))).toThrow(/ENOSPC/);
    } finally {
      closeSync(fd);
    }
  });
});
