import { describe, expect, it } from "vitest";
import { readSplice } from "../../../release-compiler/readers/splice.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readSplice on real data", () => {
  it("reads isoforms-toy/DB/human.splice", async () => {
    const problems = new Problems();
    expect(await readSplice(data("isoforms-toy/DB/human.splice"), problems)).toEqual([
      { isoforms: ["ENSP00000235222", "ENSP00000304188"], line: 1 },
    ]);
    expect(problems.list).toEqual([]);
  });
});

describe("readSplice problems", () => {
  it("tolerates ';' without a space and blank lines; reports ids listed twice", async () => {
    const file = tempFile("h.splice", "a1; a2;a3\n\nb1;b2; b1\nc1; a2\nd1\n");
    const problems = new Problems();
    expect(await readSplice(file, problems)).toEqual([
      { isoforms: ["a1", "a2", "a3"], line: 1 },
      { isoforms: ["b1", "b2"], line: 3 },
      { isoforms: ["c1"], line: 4 },
      { isoforms: ["d1"], line: 5 },
    ]);
    expect(messages(problems)).toEqual([
      "3: isoform b1 is listed twice on this line",
      "4: isoform a2 is listed twice (first on line 1)",
    ]);
  });
});
