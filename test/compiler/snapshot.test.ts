/**
 * Task outputs as snapshots (release-compiler/snapshot.ts): what is written comes back exactly
 * (the bytes of a release rest on it), long arrays and Maps in slices, and each field of a plain
 * object is read when first used, not before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IdIndex, StringColumn } from "../../release-compiler/packed-strings.js";
import { loadSnapshot, saveSnapshot } from "../../release-compiler/snapshot.js";

const LONG = 200_000; // several slices

describe("snapshots", () => {
  it("give back every value exactly: holes, Maps, typed arrays, Buffers, NaN, -0, undefined, nested objects", () => {
    const holes = new Array<number[] | undefined>(LONG);
    for (let i = 0; i < LONG; i += 7) holes[i] = [i, i + 1];
    const value = {
      count: 3,
      ids: Array.from({ length: LONG }, (_, i) => `P${i}`),
      holes,
      byId: new Map(Array.from({ length: LONG }, (_, i) => [`P${i}`, i + 1])),
      genome: Int32Array.from({ length: LONG }, (_, i) => i % 100),
      hashes: Buffer.from("00ff10", "hex"),
      odd: [NaN, -0, undefined, null, Infinity],
      nested: { taxonomy: { names: ["LUCA", "Homo sapiens"], byName: new Map([["LUCA", 0]]) }, empty: {} },
    };
    const path = join(mkdtempSync(join(tmpdir(), "orth-snapshot-")), "output.v8");
    saveSnapshot(path, value);
    const back = loadSnapshot<typeof value>(path);
    expect(back.ids).toEqual(value.ids);
    expect(Object.keys(back.holes).length).toBe(Object.keys(holes).length);
    expect(back.holes.length).toBe(LONG);
    expect(3 in back.holes).toBe(false);
    expect(back.holes[7]).toEqual([7, 8]);
    expect(back.byId).toEqual(value.byId);
    expect(back.genome).toEqual(value.genome);
    expect(Buffer.isBuffer(back.hashes) && back.hashes.equals(value.hashes)).toBe(true);
    expect(Object.is(back.odd[1], -0) && Number.isNaN(back.odd[0]) && back.odd[2] === undefined && 2 in back.odd).toBe(true);
    expect(back.nested.taxonomy.byName.get("LUCA")).toBe(0);
    expect({ ...back }).toEqual(value);
  });

  it("reads a field when it is first used, not before", () => {
    const path = join(mkdtempSync(join(tmpdir(), "orth-snapshot-")), "output.v8");
    const sequences = Array.from({ length: 10 }, (_, i) => `${"MKV".repeat(50)}${i}`);
    saveSnapshot(path, { count: 10, proteins: { genome: [0, 0, 1], sequence: sequences } });
    const back = loadSnapshot<{ count: number; proteins: { genome: number[]; sequence: string[] } }>(path);
    expect(back.count).toBe(10);
    expect(back.proteins.genome).toEqual([0, 0, 1]);
    // What was read stays; what was not is read from the file, which is gone.
    rmSync(path);
    expect(back.proteins.genome).toEqual([0, 0, 1]);
    expect(() => back.proteins.sequence).toThrow(/ENOENT/);
  });

  it("give back an IdIndex and a StringColumn as one, their arrays in frames of 16 MiB as they are held", () => {
    // 700,000 ids of 27 bytes: 18.9 MB of bytes and 5.6 MB of starts, in three frames and one.
    const ids = Array.from({ length: 700_000 }, (_, i) => `SIMULATEDGENOMEP${String(i).padStart(11, "0")}`);
    const path = join(mkdtempSync(join(tmpdir(), "orth-snapshot-")), "output.v8");
    const accessions = StringColumn.of(ids.map((id, i) => (i % 3 ? "" : `P${i}`)));
    saveSnapshot(path, { proteins: { count: ids.length, inputIds: IdIndex.of(ids), accessions, after: ["kept"] } });
    const back = loadSnapshot<{ proteins: { count: number; inputIds: IdIndex; accessions: StringColumn; after: string[] } }>(path);
    expect(back.proteins.after).toEqual(["kept"]);
    expect(back.proteins.accessions).toBeInstanceOf(StringColumn);
    expect([...back.proteins.accessions].every((a, i) => a === accessions.at(i))).toBe(true);
    const { inputIds } = back.proteins;
    expect(inputIds).toBeInstanceOf(IdIndex);
    expect(inputIds.count).toBe(700_000);
    expect(inputIds.numberOf(ids[654_321])).toBe(654_322);
    expect(inputIds.idOf(700_000)).toBe(ids[699_999]);
    // Its arrays byte for byte (toEqual would walk 4 M elements one key at a time).
    const bytesOf = (index: IdIndex) => Object.values(index.parts()).map((a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    const fresh = bytesOf(IdIndex.of(ids));
    expect(bytesOf(inputIds).map((b, i) => b.equals(fresh[i]))).toEqual([true, true, true, true]);
    // A frame cut short is named.
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 20));
    expect(() => loadSnapshot<{ proteins: { inputIds: IdIndex } }>(path).proteins.inputIds).toThrow(/ends early|frame of/);
  });

  it("give back typed arrays as they were, in frames of 16 MiB as they are held, a view as long as itself", () => {
    // 2.5 M doubles: 20 MB, two frames; NaN and -0 bit for bit.
    const completeness = Float64Array.from({ length: 2_500_000 }, (_, i) => (i % 7 === 0 ? NaN : i % 11 === 0 ? -0 : i / 3));
    const members = Int32Array.from({ length: 1000 }, (_, i) => i * 3);
    const value = { families: { completeness, members: members.subarray(100, 300), flags: new Uint8Array(0), hashes: Buffer.from("00ff", "hex") } };
    const path = join(mkdtempSync(join(tmpdir(), "orth-snapshot-")), "output.v8");
    saveSnapshot(path, value);
    const back = loadSnapshot<typeof value>(path).families;
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    expect(back.completeness).toBeInstanceOf(Float64Array);
    expect(bytes(back.completeness).equals(bytes(completeness))).toBe(true);
    // A view is written as its own elements, and read back into an array of its own.
    expect(Array.from(back.members)).toEqual(Array.from(members.subarray(100, 300)));
    expect(back.members.buffer.byteLength).toBe(800);
    expect(back.flags).toEqual(new Uint8Array(0));
    expect(Buffer.isBuffer(back.hashes) && back.hashes.equals(value.families.hashes)).toBe(true);
    // A frame cut short is named.
    writeFileSync(path, readFileSync(path).subarray(0, 5_000_000));
    expect(() => loadSnapshot<typeof value>(path).families.completeness).toThrow(/ends early|frame of/);
  });

  it("says where a cut-short file ends", () => {
    const path = join(mkdtempSync(join(tmpdir(), "orth-snapshot-")), "output.v8");
    saveSnapshot(path, { ids: ["a", "b"] });
    writeFileSync(path, readFileSync(path).subarray(0, 12));
    expect(() => loadSnapshot(path)).toThrow(/output\.v8: ends early, at byte \d+/);
  });
});
