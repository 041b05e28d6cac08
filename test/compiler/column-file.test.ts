/**
 * Columns a protein in files of the derive task's folder (release-compiler/derive/column-file.ts):
 * what is appended genome by genome comes back whole, bit for bit; a file that does not hold
 * what the derived release says is refused with its path, never read short.
 */
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { columnFileWriter, loadColumn } from "../../release-compiler/derive/column-file.js";
import { tempDir } from "./readers/tmp.js";

describe("a column file", () => {
  it("gives back what was appended, in order, bit for bit", () => {
    const dir = tempDir();
    const floats = columnFileWriter(dir, "f.bin", "Float64Array");
    const given = [Float64Array.of(1.5, -0, NaN, 2 ** 53 + 2), new Float64Array(0), Float64Array.of(3_000_000_001, -Infinity)];
    for (const g of given) floats.append(g);
    // A view appends its own elements, not its buffer's.
    floats.append(new Float64Array(Float64Array.of(7, 8, 9).buffer, 8, 1));
    const file = floats.finish();
    expect(file).toEqual({ name: "f.bin", type: "Float64Array", length: 7 });
    const back = loadColumn(file, dir, "floats");
    expect(back).toBeInstanceOf(Float64Array);
    expect(new Uint8Array(back.buffer)).toEqual(new Uint8Array(Float64Array.of(1.5, -0, NaN, 2 ** 53 + 2, 3_000_000_001, -Infinity, 8).buffer));

    const bytes = columnFileWriter(dir, "b.bin", "Uint8Array");
    bytes.append(Buffer.from([1, 2, 255]));
    expect([...loadColumn(bytes.finish(), dir, "bytes")]).toEqual([1, 2, 255]);
    const strands = columnFileWriter(dir, "s.bin", "Int8Array");
    strands.append(Int8Array.of(-1, 0, 1));
    expect([...loadColumn(strands.finish(), dir, "strands")]).toEqual([-1, 0, 1]);
  });

  it("takes only arrays of its type", () => {
    const writer = columnFileWriter(tempDir(), "f.bin", "Float64Array");
    expect(() => writer.append(new Int8Array(2) as unknown as Float64Array)).toThrow("f.bin is a column of Float64Array, not of Int8Array");
    writer.abandon();
  });

  it("that is cut short, longer or missing is refused with its path", () => {
    const dir = tempDir();
    const writer = columnFileWriter(dir, "f.bin", "Float64Array");
    writer.append(new Float64Array(100));
    const file = writer.finish();
    const path = join(dir, "f.bin");
    truncateSync(path, 799);
    expect(() => loadColumn(file, dir, "locus starts")).toThrow(`${path}: 799 bytes where the derived release's locus starts take 800; its work folder is damaged`);
    writeFileSync(path, new Uint8Array(808));
    expect(() => loadColumn(file, dir, "locus starts")).toThrow(`${path}: 808 bytes`);
    expect(() => loadColumn(file, join(dir, "elsewhere"), "locus starts")).toThrow(/ENOENT/);
  });
});
