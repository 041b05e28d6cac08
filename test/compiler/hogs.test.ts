/**
 * HOG derivation on the orthoXML edge cases of ../shared/data/hog-fixtures: ids, levels
 * (including skipped ones), duplications at the top, inside groups and implied ones, and
 * inverted levels reported with their line.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hogNodes, hogTree, nodeCount, nodeId, nodeLevel, nodeLevels, nodeMembers, rootIdLevels } from "../../release-compiler/derive/hog-columns.js";
import { buildFamily, copyLetter, normaliseHogId, orthoXmlTaxonNames, type FamilyBuild } from "../../release-compiler/derive/hogs.js";
import { familyPairs } from "../../release-compiler/derive/pairs.js";
import { buildTaxonomy, type TaxonomyBuild } from "../../release-compiler/derive/taxonomy.js";
import type { TreeNode } from "../../release-compiler/inputs.js";
import { Problems } from "../../release-compiler/problems.js";
import { readNewick } from "../../release-compiler/readers/newick.js";
import { readOrthoXml } from "../../release-compiler/readers/orthoxml.js";
import { DUPLICATION, SPECIATION, type HogNode } from "../../release-format/format.js";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";

warnWithoutSharedData("the HOG fixture tests");
const FIXTURES = resolve(SHARED_DATA, "hog-fixtures");

interface Derived {
  families: FamilyBuild[];
  taxonomy: TaxonomyBuild;
  problems: Problems;
  /** Entry number → orthoXML protId. */
  protein: string[];
  genomeOf: (entry: number) => number;
  level: (name: string) => number;
}

const leaves = (t: TreeNode): string[] => (t.children.length ? t.children.flatMap(leaves) : [t.name]);

/** Derives the families of a fixture; genomes are the tree's leaves, proteins numbered in gene order. */
async function derive(name: string, prefix = "", folder = FIXTURES): Promise<Derived> {
  const problems = new Problems();
  const tree = (await readNewick(resolve(folder, `${name}.nwk`), problems))!;
  const species = leaves(tree).map((code, i) => ({ code, taxonId: i + 1, scientificName: code, subgenomes: [], line: i + 1 }));
  const taxonomy = buildTaxonomy(tree, species, `${name}.nwk`, "species", problems);
  const entryOfGene = new Map<string, number>();
  const genome: number[] = [];
  const protein: string[] = [];
  let taxonNames = new Map<string, string>();
  const families: FamilyBuild[] = [];
  const file = resolve(folder, `${name}.orthoxml`);
  await readOrthoXml(
    file,
    problems,
    (root) => {
      const f = buildFamily(root, families.length + 1, {
        taxonomy,
        prefix,
        entryOfGene: (id) => entryOfGene.get(id),
        genomeOf: (e) => genome[e - 1],
        taxonNames,
        file,
        problems,
      });
      if (f) families.push(f);
    },
    (header) => {
      for (const sp of header.species) {
        const g = species.findIndex((s) => s.code === sp.name);
        for (const gene of sp.genes) {
          genome.push(g);
          protein.push(gene.protId);
          entryOfGene.set(gene.id, genome.length);
        }
      }
      taxonNames = orthoXmlTaxonNames(header.taxonomy);
    },
  );
  return { families, taxonomy, problems, protein, genomeOf: (e) => genome[e - 1], level: (n) => taxonomy.byName.get(n)! };
}

const nodesOf = (f: FamilyBuild) => hogNodes(f.tree);

/** HOG ids with their level names, in tree order. */
const hogs = (d: Derived, f: FamilyBuild) =>
  nodesOf(f).filter((n) => n.kind === SPECIATION).map((n) => [n.id, n.levels.map((l) => d.taxonomy.names[l])]);

describe("HOG ids", () => {
  it("drops the taxon suffix and carries the release letters", () => {
    expect(normaliseHogId("HOG:0000003.1a_11", "E")).toBe("HOG:E0000003.1a");
    expect(normaliseHogId("HOG:D0620095", "")).toBe("HOG:0620095");
    expect(normaliseHogId("HOG:0001687.1c_431", "")).toBe("HOG:0001687.1c");
    expect(normaliseHogId("HOG_0010360_sub10023", "E")).toBeUndefined();
    expect(normaliseHogId("1", "")).toBeUndefined();
  });

  it("letters copies a…z, then aa, ab…", () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(copyLetter)).toEqual(["a", "b", "z", "aa", "ab", "az", "ba"]);
  });
});

describe("a family's tree as columns", () => {
  // An id on two nodes (a chain of speciations), skipped levels, a duplication, an unplaced level, a score that is not an integer.
  const nodes: HogNode[] = [
    { kind: SPECIATION, parent: -1, lo: 0, hi: 5, id: "HOG:E0000007", level: 0, levels: [0], completeness: 1 },
    { kind: SPECIATION, parent: 0, lo: 0, hi: 4, id: "HOG:E0000007", level: 3, levels: [1, 2, 3], completeness: 0.3333 },
    { kind: DUPLICATION, parent: 1, lo: 0, hi: 3, id: "", level: -1, levels: [], completeness: -1 },
    { kind: SPECIATION, parent: 2, lo: 0, hi: 2, id: "HOG:E0000007.1a", level: 4, levels: [4], completeness: 0.125 },
    { kind: SPECIATION, parent: 2, lo: 2, hi: 3, id: "HOG:E0000007.1b", level: -1, levels: [-1], completeness: -1 },
  ];

  it("give back the nodes field for field, in HogNode's order (a family row is encoded from them)", () => {
    const tree = hogTree(nodes);
    const back = hogNodes(tree);
    expect(back).toEqual(nodes);
    expect(back.map((n) => Object.keys(n))).toEqual(nodes.map((n) => Object.keys(n)));
    expect(nodeCount(tree)).toBe(5);
    expect([0, 1, 2, 3, 4].map((i) => [nodeId(tree, i), nodeLevel(tree, i), [...nodeLevels(tree, i)], nodeMembers(tree, i)])).toEqual(
      nodes.map((n) => [n.id, n.level, n.levels, [n.lo, n.hi]]),
    );
  });

  it("hold each HOG id once, in the order of its first node, and the root id's levels over its nodes", () => {
    const tree = hogTree(nodes);
    expect(tree.ids).toEqual(["HOG:E0000007", "HOG:E0000007.1a", "HOG:E0000007.1b"]);
    expect(rootIdLevels(tree)).toEqual([0, 1, 2, 3]);
    // What the serializer carries to worker threads and into the derived release: the same tree.
    expect(hogNodes(structuredClone(tree))).toEqual(nodes);
  });
});

describe.skipIf(!hasSharedData)("hog-fixtures", () => {
  it("adds the levels a group skips below its parent (shared_missing_level)", async () => {
    const d = await derive("shared_missing_level");
    expect(d.problems.list).toEqual([]);
    expect(d.families).toHaveLength(1);
    // Ids that are not HOG ids are replaced by generated ones.
    expect(hogs(d, d.families[0])).toEqual([["HOG:0000001", ["Family"]]]);
    expect(d.families[0].members).toHaveLength(6);
    expect(nodesOf(d.families[0])[0].completeness).toBe(1);
  });

  it("reports a group whose level lies above its parent's, with its line (inverted_level)", async () => {
    const d = await derive("inverted_level");
    expect(d.problems.list).toHaveLength(1);
    expect(d.problems.list[0].file).toContain("inverted_level.orthoxml");
    expect(d.problems.list[0].line).toBe(
      (await import("node:fs")).readFileSync(resolve(FIXTURES, "inverted_level.orthoxml"), "utf8").split("\n").findIndex((l) => l.includes("family_inner")) + 1,
    );
    expect(d.problems.list[0].message).toBe("level 'Family' of HOG HOG:0000001 is not below level 'Sub' of the HOG containing it");
  });

  it("reports a gene whose species lies outside its HOG's level, with its line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-hog-"));
    writeFileSync(join(dir, "outside.nwk"), "((A,B)AB,C)ABC;");
    const genes = ["A", "B", "C"].map((sp, i) => `<species name="${sp}" NCBITaxId="${i + 1}"><database name="d" version="1"><genes><gene id="${i + 1}" protId="${sp}1"/></genes></database></species>`);
    writeFileSync(
      join(dir, "outside.orthoxml"),
      `<orthoXML xmlns="http://orthoXML.org/2011/" version="0.5" origin="t" originVersion="1">\n${genes.join("\n")}\n<groups>\n` +
        `<orthologGroup><property name="TaxRange" value="AB"/>\n<geneRef id="1"/>\n<geneRef id="3"/>\n</orthologGroup>\n</groups>\n</orthoXML>\n`,
    );
    const d = await derive("outside", "", dir);
    expect(d.problems.list).toEqual([
      { file: join(dir, "outside.orthoxml"), line: 8, message: "gene 3 of C is not below level 'AB' of HOG HOG:0000001" },
    ]);
  });

  it("numbers duplications below a top group and makes single genes sub-HOGs (paralogs_only_toplevel_og)", async () => {
    const d = await derive("paralogs_only_toplevel_og", "E");
    expect(d.problems.list).toEqual([]);
    const f = d.families[0];
    const species = ["PITSOR", "SAPAEN"];
    expect(hogs(d, f)).toEqual([
      ["HOG:E0000001", ["Pitta_sordida-Sapayoa_aenigma"]],
      ...["1a", "1b", "2a", "2b", "2c"].map((s, i) => [`HOG:E0000001.${s}`, [species[d.genomeOf(f.members[i])]]]),
    ]);
    expect(nodesOf(f).filter((n) => n.kind === DUPLICATION)).toHaveLength(2);
    // Copies of one species after a duplication are close paralogs; across species, orthologs.
    const pairs = familyPairs(f, d.genomeOf);
    expect(pairs.filter((p) => p.relType === "close paralog").length).toBeGreaterThan(0);
    for (const p of pairs) expect(p.relType === "close paralog").toBe(d.genomeOf(p.entry1) === d.genomeOf(p.entry2));
  });

  it("turns sibling groups on one level into copies of an implied duplication (paralogs_only_inside_og)", async () => {
    const d = await derive("paralogs_only_inside_og");
    expect(d.problems.list).toEqual([]);
    const ids = hogs(d, d.families[0]).map(([id]) => id);
    expect(ids.slice(0, 3)).toEqual(["HOG:0000001", "HOG:0000001.1a", "HOG:0000001.1b"]);
    // Every (id, level) names one node at most.
    const seen = new Set<string>();
    for (const n of nodesOf(d.families[0]).filter((x) => x.kind === SPECIATION)) {
      for (const l of n.levels) {
        expect(seen.has(`${n.id}@${l}`)).toBe(false);
        seen.add(`${n.id}@${l}`);
      }
    }
  });

  it("gives a gene below a duplication an id no group of the file has (FastOMA letters nested paralogGroups apart)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-hog-"));
    writeFileSync(join(dir, "letters.nwk"), "((A,B)AB,C)ABC;");
    const ids = [1, 2, 3, 4, 5, 6];
    const species = ["A", "A", "A", "A", "B", "C"];
    const genes = ["A", "B", "C"].map(
      (sp, s) =>
        `<species name="${sp}" NCBITaxId="${s + 1}"><database name="d" version="1"><genes>` +
        ids.filter((i) => species[i - 1] === sp).map((i) => `<gene id="${i}" protId="${sp}${i}"/>`).join("") +
        `</genes></database></species>`,
    );
    // FastOMA counts the nested paralogGroup as one copy (.1a), so the gene after it is its .1b and the group .1c;
    // flattened, the gene 3 would take .1c.
    writeFileSync(
      join(dir, "letters.orthoxml"),
      `<orthoXML xmlns="http://orthoXML.org/2011/" version="0.5" origin="t" originVersion="1">\n${genes.join("\n")}\n<groups>\n` +
        `<orthologGroup id="HOG:0000001_1"><property name="TaxRange" value="ABC"/>\n<geneRef id="6"/>\n<paralogGroup>\n` +
        `<paralogGroup><geneRef id="1"/><geneRef id="2"/></paralogGroup>\n<geneRef id="3"/>\n` +
        `<orthologGroup id="HOG:0000001.1c_2"><property name="TaxRange" value="AB"/><geneRef id="4"/><geneRef id="5"/></orthologGroup>\n` +
        `</paralogGroup>\n</orthologGroup>\n</groups>\n</orthoXML>\n`,
    );
    const d = await derive("letters", "", dir);
    expect(d.problems.list).toEqual([]);
    expect(hogs(d, d.families[0]).map(([id]) => id)).toEqual(["HOG:0000001", "HOG:0000001.1a", "HOG:0000001.1b", "HOG:0000001.1e", "HOG:0000001.1c"]);
  });

  it("keeps FastOMA ids and places sub-HOG levels (euk-HOG0001687)", async () => {
    const d = await derive("euk-HOG0001687");
    const ids = new Set(d.families.flatMap((f) => hogs(d, f).map(([id]) => id as string)));
    expect(ids.has("HOG:0001687")).toBe(true);
    expect(ids.has("HOG:0001687.1c")).toBe(true);
    for (const f of d.families) {
      for (const n of nodesOf(f)) if (n.kind === SPECIATION) expect(n.levels.every((l) => l >= 0)).toBe(true);
    }
  });

  it("derives every fixture without unexpected problems", async () => {
    for (const name of ["birds", "cases", "simpleEx"]) {
      const d = await derive(name);
      expect(d.problems.list, name).toEqual([]);
      expect(d.families.length, name).toBeGreaterThan(0);
      for (const f of d.families) {
        // Member ranges nest: every node's slice lies inside its parent's.
        const nodes = nodesOf(f);
        for (const n of nodes) {
          if (n.parent >= 0) expect(n.lo >= nodes[n.parent].lo && n.hi <= nodes[n.parent].hi).toBe(true);
        }
      }
    }
  });
});
