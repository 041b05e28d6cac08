/**
 * A group's or family's description (release-compiler/derive/descriptions.ts): the text most of
 * its members have, the first in entry order among equals, "" when none has one; the proteins'
 * descriptions by number, each text once.
 */
import { describe, expect, it } from "vitest";
import { mostCommonDescription } from "../../release-compiler/derive/descriptions.js";
import { NO_DESCRIPTION } from "../../release-compiler/derive/proteins.js";
import { described } from "./described.js";

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
