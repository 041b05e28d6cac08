/**
 * A group's or family's description (release-compiler/derive/descriptions.ts): the text most of
 * its members have, the first in entry order among equals, "" when none has one; the proteins'
 * descriptions by number, each text once.
 */
import { describe, expect, it } from "vitest";
import { mostCommonDescription } from "../../release-compiler/derive/descriptions.js";
import { descriptionOf, keepUsedDescriptions, NO_DESCRIPTION } from "../../release-compiler/derive/proteins.js";
import { described } from "./described.js";

describe("the proteins' descriptions", () => {
  it("keep the texts some protein has, numbered afresh in the order of their first proteins", () => {
    const t = described(["fasta 1", "fasta 2", "", "fasta 4", "fasta 5"]);
    // An annotation file describes proteins 2, 4 and 5 anew, 4 and 5 alike.
    [t.description[1], t.description[3], t.description[4]] = [t.descriptions.add("kinase"), t.descriptions.add("ligase"), t.descriptions.add("ligase")];
    keepUsedDescriptions(t);
    expect([...t.descriptions]).toEqual(["", "fasta 1", "kinase", "ligase"]);
    expect(Array.from(t.description)).toEqual([2, 3, NO_DESCRIPTION, 4, 4]);
    expect(Array.from(t.description, (_, i) => descriptionOf(t, i))).toEqual(["fasta 1", "kinase", "", "ligase", "ligase"]);
  });
});

describe("the most common description", () => {
  const t = described(["kinase", "ligase", "ligase", "", "", "", "kinase"]);

  it("is the text most members have, whatever order they are given in", () => {
    expect(t.descriptions.numberOf("")).toBe(NO_DESCRIPTION);
    expect(mostCommonDescription(t, [4, 3, 1, 2])).toBe("ligase");
    expect(mostCommonDescription(t, Int32Array.of(7, 2, 1))).toBe("kinase");
  });

  it("is the first in entry order among equals, and never the empty text however many lack one", () => {
    expect(mostCommonDescription(t, [2, 1])).toBe("kinase");
    expect(mostCommonDescription(t, [4, 5, 6, 2])).toBe("ligase");
    expect(mostCommonDescription(t, [4, 5, 6])).toBe("");
    expect(mostCommonDescription(t, [])).toBe("");
  });
});
