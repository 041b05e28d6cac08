import { describe, expect, it } from "vitest";
import { readObo } from "../../../release-compiler/readers/obo.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

describe.skipIf(!hasSharedData)("readObo on real data", () => {
  it("reads go-basic.obo: 9,178 terms, Typedefs skipped", async () => {
    const problems = new Problems();
    const terms = await readObo(data("primates-chr12/annotations/go-basic.obo"), problems);
    expect(problems.list).toEqual([]);
    expect(terms.size).toBe(9178);
    expect(terms.get("GO:0000003")).toEqual({
      id: "GO:0000003",
      name: "reproduction",
      namespace: "biological_process",
      isA: ["GO:0008150"],
      altIds: [],
      obsolete: false,
    });
    expect(terms.get("GO:0000022")?.isA).toEqual(["GO:0051231", "GO:1903047"]);
    expect(terms.get("GO:0000015")?.namespace).toBe("cellular_component");
    expect(terms.has("part_of")).toBe(false);
  });
});

describe("readObo problems", () => {
  it("reads alt_id and is_obsolete; reports missing id/name/namespace and unknown namespaces", async () => {
    const file = tempFile(
      "a.obo",
      [
        "format-version: 1.2", // 1
        "", // 2
        "[Term]", // 3
        "id: GO:0000001 ! a comment", // 4
        "name: mitochondrion inheritance", // 5
        "namespace: biological_process", // 6
        "alt_id: GO:0000002", // 7
        "is_a: GO:0048308 ! organelle inheritance", // 8
        "is_a: GO:0048311 {source=x} ! mitochondrion distribution", // 9
        "is_obsolete: true", // 10
        "", // 11
        "[Term]", // 12
        "name: no id", // 13
        "", // 14
        "[Term]", // 15
        "id: GO:0000005", // 16
        "namespace: molecular_function", // 17
        "", // 18
        "[Term]", // 19
        "id: GO:0000006", // 20
        "name: x", // 21
        "", // 22
        "[Term]", // 23
        "id: GO:0000007", // 24
        "name: y", // 25
        "namespace: external", // 26
        "[Typedef]", // 27
        "id: part_of", // 28
        "name: part of", // 29
      ].join("\n"),
    );
    const problems = new Problems();
    const terms = await readObo(file, problems);
    expect([...terms.keys()]).toEqual(["GO:0000001"]);
    expect(terms.get("GO:0000001")).toEqual({
      id: "GO:0000001",
      name: "mitochondrion inheritance",
      namespace: "biological_process",
      isA: ["GO:0048308", "GO:0048311"],
      altIds: ["GO:0000002"],
      obsolete: true,
    });
    expect(messages(problems)).toEqual([
      "12: [Term] without an id",
      "15: term GO:0000005 has no name",
      "19: term GO:0000006 has no namespace",
      '23: term GO:0000007 has an unknown namespace "external" (expected biological_process, molecular_function or cellular_component)',
    ]);
  });
});
