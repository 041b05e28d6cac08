/**
 * The proteins' sequences in a file of the derive task's folder (release-compiler/derive/sequence-file.ts):
 * what is appended genome by genome comes back by entry, in any order, and in slices; a file
 * that does not hold what the derived release says is refused with its path, never read short.
 */
import { rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STARTS_SUFFIX } from "../../release-compiler/derive/entry-file.js";
import { openSequences, SEQUENCE_FILE, sequenceFileWriter } from "../../release-compiler/derive/sequence-file.js";
import { tempDir } from "./readers/tmp.js";

const LETTERS = "ACDEFGHIKLMNPQRSTVWYX*";

/** Genomes of random sequences (seeded): some empty, one sequence past the reader's 1 MiB window, one genome with none; offsets past a window too (150,000 entries, 1.2 MB). */
function genomes(): string[][] {
  let seed = 11;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const sequence = (length: number) => Array.from({ length }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join("");
  const out = Array.from({ length: 6 }, () => Array.from({ length: 30_000 }, () => sequence(Math.floor(random() * 120))));
  out[2] = [];
  out[4][7] = sequence(1_500_000);
  return out;
}

function written(dir: string) {
  const given = genomes();
  const writer = sequenceFileWriter(dir);
  for (const genome of given) writer.append(genome);
  return { file: writer.finish(), all: given.flat() };
}

describe("the sequence file", () => {
  it("gives back each entry's sequence in order, out of order and in slices, at every pass", () => {
    const dir = tempDir();
    const { file, all } = written(dir);
    expect(file.name).toBe(SEQUENCE_FILE);
    expect(file.count).toBe(all.length);
    expect(file.bytes).toBe(all.join("").length);
    const reader = openSequences(file, dir);
    try {
      expect(reader.count).toBe(all.length);
      // In order (windows read ahead), backwards and at random (exact reads), and mixed.
      for (let e = 1; e <= all.length; e++) if (reader.get(e) !== all[e - 1]) throw new Error(`entry ${e} in order`);
      for (let e = all.length; e >= 1; e--) if (reader.get(e) !== all[e - 1]) throw new Error(`entry ${e} backwards`);
      let seed = 3;
      for (let i = 0; i < 20_000; i++) {
        const e = 1 + ((seed = (seed * 69_069 + 1) % 2 ** 32) % all.length);
        if (reader.get(e) !== all[e - 1]) throw new Error(`entry ${e} at random`);
      }
      // The long one after its neighbour, in order, then alone.
      const long = all.findIndex((s) => s.length > 2 ** 20) + 1;
      expect(reader.get(long - 1)).toBe(all[long - 2]);
      expect(reader.get(long)).toBe(all[long - 1]);
      expect(reader.get(long + 1)).toBe(all[long]);
      expect(reader.get(long)).toBe(all[long - 1]);
      for (const pass of [1, 2]) {
        const slices = [...reader.slices()];
        expect(slices.map((s) => s.length)).toEqual([65_536, 65_536, all.length - 2 * 65_536]);
        expect(slices.flat(), `pass ${pass}`).toEqual(all);
      }
      expect(() => reader.get(0)).toThrow(RangeError);
      expect(() => reader.get(all.length + 1)).toThrow(`entry ${all.length + 1} is not among the sequences (entries 1..${all.length})`);
    } finally {
      reader.close();
    }
  });

  it("of no proteins is an empty file", () => {
    const dir = tempDir();
    const writer = sequenceFileWriter(dir);
    writer.append([]);
    const file = writer.finish();
    const reader = openSequences(file, dir);
    expect([...reader.slices()]).toEqual([]);
    reader.close();
  });

  it("that is missing, cut short or longer than the release says is refused with its path", () => {
    const dir = tempDir();
    const { file } = written(dir);
    const path = join(dir, SEQUENCE_FILE);
    const size = file.bytes;
    truncateSync(path, size - 1);
    expect(() => openSequences(file, dir)).toThrow(`${path}: ${size - 1} bytes where the derived release's sequences take ${size}; its work folder is damaged`);
    writeFileSync(path, "M".repeat(size + 1));
    expect(() => openSequences(file, dir)).toThrow(`${path}: ${size + 1} bytes`);
    expect(() => openSequences(file, join(dir, "elsewhere"))).toThrow(/ENOENT/);
  });

  it("whose offsets' file is cut short or missing is refused with its path", () => {
    const dir = tempDir();
    const { file } = written(dir);
    const path = join(dir, SEQUENCE_FILE + STARTS_SUFFIX);
    const size = (file.count + 1) * 8;
    truncateSync(path, size - 8);
    expect(() => openSequences(file, dir)).toThrow(`${path}: ${size - 8} bytes where the derived release's sequences take ${size}; its work folder is damaged`);
    rmSync(path);
    expect(() => openSequences(file, dir)).toThrow(/ENOENT/);
  });
});
