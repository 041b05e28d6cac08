/**
 * The orthoXML's gene ids → entries as the threads reading the families share them: plain whole
 * numbers in sorted shared arrays, other ids in a map, the same answers either way.
 */
import { describe, expect, it } from "vitest";
import { geneEntries, geneEntriesFrom } from "../../release-compiler/derive/gene-entries.js";

const asked = ["7", "1000000010", "12", "3", "0", "007", "+7", "7.0", "1e3", "", "999999999999999", "x7", "8"];

/** What a Map of the same genes answers. */
const mapAnswers = (genes: Array<[string, number]>) => {
  const map = new Map(genes);
  return asked.map((id) => [map.get(id), map.has(id)]);
};

describe("gene entries", () => {
  it("hold whole-number ids in sorted shared arrays, answering as a Map would (a repeated id its last entry)", () => {
    const genes: Array<[string, number]> = [["1000000010", 5], ["7", 1], ["12", 2], ["0", 9], ["7", 4], ["999999999999999", 6], ["3", 3]];
    const { entries, data } = geneEntries(genes);
    expect("numbers" in data && data.numbers.buffer instanceof SharedArrayBuffer && data.entries.buffer instanceof SharedArrayBuffer).toBe(true);
    expect(asked.map((id) => [entries.get(id), entries.has(id)])).toEqual(mapAnswers(genes));
    // As a worker thread gets them: the same memory, the same answers.
    const posted = geneEntriesFrom(structuredClone(data));
    expect(asked.map((id) => [posted.get(id), posted.has(id)])).toEqual(mapAnswers(genes));
  });

  it("keep ids that are not plain whole numbers in a map, answering alike", () => {
    const genes: Array<[string, number]> = [["7", 1], ["007", 2], ["g12", 3], ["7", 4]];
    const { entries, data } = geneEntries(genes);
    expect("numbers" in data).toBe(false);
    expect(asked.map((id) => [entries.get(id), entries.has(id)])).toEqual(mapAnswers(genes));
    const posted = geneEntriesFrom(structuredClone(data));
    expect(asked.map((id) => [posted.get(id), posted.has(id)])).toEqual(mapAnswers(genes));
  });

  it("answer nothing for a header without genes", () => {
    const { entries } = geneEntries([]);
    expect(entries.get("1")).toBeUndefined();
  });
});
