/**
 * Strings a protein, packed (release-compiler/packed-strings.ts): a column read back as written,
 * empty strings and any script included; and the proteins' FASTA ids, numbered in the order
 * added, looked up both ways, at any size and in any script, against a Map kept beside it.
 */
import { describe, expect, it } from "vitest";
import { IdIndex, StringColumn } from "../../release-compiler/packed-strings.js";

/** A deterministic shuffle (a linear congruential generator). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("StringColumn", () => {
  it("gives back each string as appended, empty ones and any script too, and tells one apart without making it", () => {
    const strings = ["Q00002", "", "sp|P69905|HBA_HUMAN", "é", "", "蛋白", "P😀", "x".repeat(5_000), ""];
    const column = new StringColumn(2);
    expect(strings.map((s) => column.push(s))).toEqual(strings.map((_, i) => i));
    expect(column.length).toBe(strings.length);
    expect(strings.map((_, i) => column.at(i))).toEqual(strings);
    expect([...column.range(2, 4)]).toEqual(strings.slice(2, 4));
    expect(strings.every((s, i) => column.is(i, s))).toBe(true);
    expect(column.is(1, "x") || column.is(0, "") || column.is(3, "Ã©") || column.is(9, "") || column.is(-1, "")).toBe(false);
    expect(() => column.at(9)).toThrow(RangeError);
    const back = StringColumn.from({ bytes: column.parts().bytes.slice(), starts: column.parts().starts.slice() });
    expect([...back]).toEqual(strings);
    back.push("more");
    expect(back.at(9)).toBe("more");
    expect([...column]).toEqual(strings);
    expect(() => StringColumn.from({ bytes: new Uint8Array(3), starts: Uint32Array.of(0, 2) })).toThrow(/no column/);
  });
});

describe("IdIndex", () => {
  it("numbers ids in the order added and finds them both ways; an id added again keeps its number", () => {
    const index = new IdIndex(4);
    expect([index.add("P1"), index.add("sp|Q00002|KIN_HUMAN"), index.add("P3")]).toEqual([1, 2, 3]);
    expect(index.add("P1")).toBe(1);
    expect(index.count).toBe(3);
    expect(index.numberOf("P3")).toBe(3);
    expect(index.numberOf("P")).toBeUndefined();
    expect(index.numberOf("P30")).toBeUndefined();
    expect(index.numberOf("")).toBeUndefined();
    expect(index.idOf(2)).toBe("sp|Q00002|KIN_HUMAN");
    expect([...index]).toEqual(["P1", "sp|Q00002|KIN_HUMAN", "P3"]);
    expect([...index.range(2, 3)]).toEqual(["sp|Q00002|KIN_HUMAN"]);
    expect(index.is(3, "P3") && !index.is(3, "P1") && !index.is(4, "P3") && !index.is(0, "P1")).toBe(true);
    expect(() => index.idOf(4)).toThrow(RangeError);
    expect(() => index.idOf(0)).toThrow(RangeError);
  });

  it("keeps ids in any script apart, byte for byte (an id is never matched by its bytes read as Latin-1)", () => {
    const ids = ["é", "Ã©", "e\u0301", "蛋白1", "P😀", "P\u{1F600}x", "ü", "\u00fc\u00fc"];
    const index = IdIndex.of(ids);
    expect(ids.map((id) => index.numberOf(id))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ids.map((_, i) => index.idOf(i + 1))).toEqual(ids);
    expect(ids.every((id, i) => index.is(i + 1, id))).toBe(true);
    expect(index.is(1, "Ã©") || index.is(2, "é") || index.is(7, "Ã¼")).toBe(false);
    expect(index.numberOf("蛋白2")).toBeUndefined();
  });

  it("finds every one of 100,000 ids after its table is made again many times, and no id it was not given", () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `SIM${String(i % 97).padStart(4, "0")}P${String(i).padStart(6, "0")}`);
    const index = new IdIndex(16);
    for (const id of ids) index.add(id);
    const reference = new Map(ids.map((id, i) => [id, i + 1]));
    // Fresh strings (slices of a line), hits and misses, in a shuffled order.
    const asked = shuffled([...ids, ...ids.slice(0, 20_000).map((id) => id.replace("SIM", "SIN")), ...ids.slice(0, 5_000).map((id) => `${id}x`)], 7);
    const line = asked.join("\t");
    let at = 0;
    for (const id of asked) {
      const slice = line.slice(at, (at += id.length + 1) - 1);
      if (index.numberOf(slice) !== reference.get(slice)) expect(index.numberOf(slice), slice).toBe(reference.get(slice));
    }
    expect(index.count).toBe(100_000);
    expect(index.idOf(54_321)).toBe(ids[54_320]);
  });

  it("comes back from its parts, and goes on growing", () => {
    const index = IdIndex.of(Array.from({ length: 3_000 }, (_, i) => `id${i}`));
    const parts = index.parts();
    const back = IdIndex.from({ bytes: parts.bytes.slice(), starts: parts.starts.slice(), table: parts.table.slice(), tags: parts.tags.slice() });
    expect(back.count).toBe(3_000);
    expect(back.numberOf("id2999")).toBe(3_000);
    expect(back.add("more")).toBe(3_001);
    for (let i = 0; i < 5_000; i++) back.add(`next${i}`);
    expect(back.numberOf("id17")).toBe(18);
    expect(back.numberOf("next4999")).toBe(8_001);
    expect(back.idOf(8_001)).toBe("next4999");
    expect(() => IdIndex.from({ ...parts, table: new Int32Array(3) })).toThrow(/no index/);
  });
});
