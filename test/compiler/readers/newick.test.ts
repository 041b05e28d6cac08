import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TreeNode } from "../../../release-compiler/inputs.js";
import { parseNewick, readNewick } from "../../../release-compiler/readers/newick.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

function leaves(t: TreeNode): string[] {
  const out: string[] = [];
  const stack = [t];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.children.length === 0) out.push(n.name);
    else stack.push(...[...n.children].reverse());
  }
  return out;
}

function parse(text: string) {
  const problems = new Problems();
  const tree = parseNewick(text, "t.nwk", problems);
  return { tree, problems: messages(problems) };
}

describe.skipIf(!hasSharedData)("readNewick on real data", () => {
  it("reads the primates species tree with named internal nodes", async () => {
    const problems = new Problems();
    const tree = await readNewick(data("primates-chr12/species_tree.nwk"), problems);
    expect(problems.list).toEqual([]);
    expect(tree?.name).toBe("Simiiformes");
    expect(leaves(tree!)).toEqual(["CALJA", "MACFA", "MACMU", "PAPAN", "CHLSB", "PONAB", "GORGO", "PANPA", "PANTR", "HUMAN", "NOMLE"]);
  });

  it("reads every hog-fixtures tree and the bacteria3 tree", async () => {
    const expected: Record<string, [string, number]> = {
      "birds.nwk": ["Root", 379],
      "cases.nwk": ["Mammalia", 6],
      "euk-HOG0001687.nwk": ["internal_0", 1275],
      "inverted_level.nwk": ["Family", 3],
      "paralogs_only_inside_og.nwk": ["Passeriformes_4a", 4],
      "paralogs_only_toplevel_og.nwk": ["Pitta_sordida-Sapayoa_aenigma", 2],
      "shared_missing_level.nwk": ["Family", 6],
      "simpleEx.nwk": ["Vertebrata", 6],
    };
    const files = readdirSync(data("hog-fixtures")).filter((f) => f.endsWith(".nwk"));
    expect(files.sort()).toEqual(Object.keys(expected).sort());
    for (const f of files) {
      const problems = new Problems();
      const tree = await readNewick(data("hog-fixtures", f), problems);
      expect(messages(problems), f).toEqual([]);
      expect([tree?.name, leaves(tree!).length], f).toEqual(expected[f]);
    }
    const problems = new Problems();
    const b = await readNewick(data("bacteria3/species_tree_checked.nwk"), problems);
    expect(problems.list).toEqual([]);
    expect(b).toEqual({
      name: "inter2",
      branchLength: 0,
      children: [
        { name: "inter1", branchLength: 1, children: [{ name: "AQUAE", branchLength: 1, children: [] }, { name: "CHLTR", branchLength: 1, children: [] }] },
        { name: "MYCGE", branchLength: 1, children: [] },
      ],
    });
  });

  it("keeps quoted labels with spaces and unquoted labels with spaces (cases, birds)", async () => {
    const problems = new Problems();
    const cases = await readNewick(data("hog-fixtures/cases.nwk"), problems);
    expect(leaves(cases!)).toContain("mus musculus");
    const birds = await readNewick(data("hog-fixtures/birds.nwk"), problems);
    expect(leaves(birds!)[0]).toBe("Danio rerio");
    expect(problems.list).toEqual([]);
  });
});

describe("parseNewick", () => {
  it("handles quotes, escaped quotes, comments, whitespace and branch lengths", () => {
    const { tree, problems } = parse("( 'a b':1.5 ,\n [comment] \"c\"\"d\" : 2e-1 , A_B[&&NHX:x=1] )'it''s' : .5 ;\n");
    expect(problems).toEqual([]);
    expect(tree).toEqual({
      name: "it's",
      branchLength: 0.5,
      children: [
        { name: "a b", branchLength: 1.5, children: [] },
        { name: 'c"d', branchLength: 0.2, children: [] },
        { name: "A_B", children: [] },
      ],
    });
  });

  it("parses a deep caterpillar tree without recursion", () => {
    const depth = 20_000;
    const text = "(".repeat(depth) + "L0" + Array.from({ length: depth }, (_, i) => `,L${i + 1})`).join("") + ";";
    const { tree, problems } = parse(text);
    expect(problems).toEqual([]);
    expect(leaves(tree!)).toHaveLength(depth + 1);
  });

  it("reports unbalanced parentheses", () => {
    expect(parse("((A,B),C;")).toEqual({ tree: undefined, problems: ["1: unbalanced parentheses: 1 '(' not closed (column 1)"] });
    expect(parse("(A,\n(B,(C,D)\n")).toEqual({ tree: undefined, problems: ["1: unbalanced parentheses: 2 '(' not closed (column 1)"] });
    expect(parse("(A,B));").problems).toEqual(["1: unbalanced parentheses: ')' without a matching '(' (column 6)"]);
  });

  it("reports trailing garbage, empty input, a missing ';' and duplicate leaves", () => {
    expect(parse("(A,B);\nxyz").problems).toEqual(["2: trailing text after ';': \"xyz\" (column 1)"]);
    expect(parse("  \n ").problems).toEqual(["1: empty Newick tree: the file has no tree"]);
    const noSemicolon = parse("(A,B)root");
    expect(noSemicolon.tree?.name).toBe("root");
    expect(noSemicolon.problems).toEqual(["1: missing ';' at the end of the tree (column 9)"]);
    expect(parse("(A,\n(B,A));").problems).toEqual(['2: duplicate leaf name "A" at column 4 (first at line 1, column 2)']);
  });

  it("reports syntax errors with their position", () => {
    expect(parse("(A,,B);").problems).toEqual(["1: leaf without a name before ',' (column 4)"]);
    expect(parse("(A:x,B);").problems).toEqual(['1: invalid branch length "x" (column 4)']);
    expect(parse("(A,B)C D(E);").problems).toEqual(["1: unexpected '(' after a node (missing ','?) (column 9)"]);
    expect(parse("('A,B);").problems).toEqual(["1: unclosed quoted label: ' without a matching ' (column 2)"]);
    expect(parse("(A[x,B);").problems).toEqual(["1: unclosed comment: '[' without a matching ']' (column 3)"]);
    expect(parse("A,B;").problems).toEqual(["1: unexpected ',' outside parentheses (column 2)"]);
  });

  it("reports an unreadable file", async () => {
    const problems = new Problems();
    expect(await readNewick("/nonexistent/tree.nwk", problems)).toBeUndefined();
    expect(messages(problems)).toEqual(["0: file not found"]);
  });

  it("reports a binary file", async () => {
    const problems = new Problems();
    expect(await readNewick(tempFile("t.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x00, 0x28, 0x41, 0x3b])), problems)).toBeUndefined();
    expect(messages(problems)).toEqual(["0: binary file (it contains NUL bytes), expected text"]);
  });

  it("reads a gzipped tree", async () => {
    const problems = new Problems();
    const tree = await readNewick(tempFile("t.nwk.gz", "(A,B)C;", { gzip: true }), problems);
    expect(tree?.name).toBe("C");
  });
});
