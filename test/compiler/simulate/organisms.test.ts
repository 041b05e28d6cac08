import { describe, expect, it } from "vitest";
import { ARCHETYPES, DOMAIN_KINDS } from "../../../release-compiler/simulate/catalog.js";
import { GO_TERMS } from "../../../release-compiler/simulate/go-terms.js";
import { parseNewick } from "../../../release-compiler/simulate/newick.js";
import { CLADES, ORGANISMS, ROOT_CLADE } from "../../../release-compiler/simulate/organisms.js";
import { buildSpeciesTree, MAX_GENOMES } from "../../../release-compiler/simulate/species-tree.js";

describe("built-in organisms", () => {
  it("has at least 110 organisms with unique 5-character codes and taxon ids", () => {
    expect(ORGANISMS.length).toBeGreaterThanOrEqual(110);
    expect(MAX_GENOMES).toBeGreaterThan(ORGANISMS.length); // synthetic organisms beyond (synthetic.test.ts)
    const codes = new Set(ORGANISMS.map((o) => o.code));
    const taxa = new Set(ORGANISMS.map((o) => o.taxonId));
    expect(codes.size).toBe(ORGANISMS.length);
    expect(taxa.size).toBe(ORGANISMS.length);
    for (const o of ORGANISMS) {
      expect(o.code).toMatch(/^[A-Z][A-Z0-9]{4}$/);
      expect(o.taxonId).toBeGreaterThan(0);
      expect(o.scientificName.trim()).not.toBe("");
      expect(o.chromosomes).toBeGreaterThanOrEqual(1);
    }
    expect(ORGANISMS.slice(0, 20).map((o) => o.code)).toEqual([
      "HUMAN", "PANTR", "GORGO", "PONAB", "MACMU", "MOUSE", "RATNO", "BOVIN", "CANLF", "CHICK",
      "XENTR", "DANRE", "DROME", "CAEEL", "YEAST", "SCHPO", "ARATH", "ORYSJ", "ECOLI", "BACSU",
    ]);
    expect(ORGANISMS.find((o) => o.code === "HUMAN")).toMatchObject({ taxonId: 9606, scientificName: "Homo sapiens" });
    expect(ORGANISMS.find((o) => o.code === "ECOLI")).toMatchObject({ taxonId: 83333, kingdom: "B" });
  });

  it("places every organism and every clade exactly once in one rooted tree with decreasing ages", () => {
    const clades = new Map(CLADES.map(([name, age, children]) => [name, { age, children }]));
    expect(clades.size).toBe(CLADES.length);
    const seen = new Map<string, number>();
    for (const [, , children] of CLADES) for (const c of children) seen.set(c, (seen.get(c) ?? 0) + 1);
    for (const o of ORGANISMS) expect(seen.get(o.code), o.code).toBe(1);
    for (const [name] of CLADES) expect(seen.get(name) ?? 0, name).toBe(name === ROOT_CLADE ? 0 : 1);
    for (const name of seen.keys()) expect(clades.has(name) || ORGANISMS.some((o) => o.code === name), name).toBe(true);
    for (const [name, age, children] of CLADES) {
      expect(children.length, name).toBeGreaterThanOrEqual(2);
      for (const c of children) if (clades.has(c)) expect(clades.get(c)!.age, `${c} younger than ${name}`).toBeLessThan(age);
    }
  });

  it("restricts the tree to the first N organisms and collapses single-child clades", () => {
    expect(buildSpeciesTree(1).newick).toBe("HUMAN;");
    expect(buildSpeciesTree(3).newick).toBe("((HUMAN,PANTR)Hominini,GORGO)Homininae;");
    expect(buildSpeciesTree(7).newick).toBe(
      "(((((HUMAN,PANTR)Hominini,GORGO)Homininae,PONAB)Hominidae,MACMU)Catarrhini,(MOUSE,RATNO)Murinae)Euarchontoglires;",
    );
    for (const n of [2, 12, 20, 40, 110, ORGANISMS.length]) {
      const tree = buildSpeciesTree(n);
      expect(tree.leaves).toHaveLength(n);
      expect(new Set(tree.leaves.map((l) => l.name))).toEqual(new Set(ORGANISMS.slice(0, n).map((o) => o.code)));
      for (const node of tree.nodes) if (node.children.length > 0) expect(node.children.length).toBeGreaterThanOrEqual(2);
      tree.nodes.forEach((node, i) => expect(node.taxonomyId).toBe(i + 1));
      // The Newick round-trips, quoted names included.
      const parsed = parseNewick(tree.newick);
      const names: string[] = [];
      const walk = (x: { name: string; children: Array<{ name: string; children: unknown[] }> }): void => {
        names.push(x.name);
        for (const c of x.children) walk(c as never);
      };
      walk(parsed as never);
      expect(names).toEqual(tree.nodes.map((node) => node.name));
    }
    expect(buildSpeciesTree(MAX_GENOMES).newick).toContain("'BOP clade'");
    expect(buildSpeciesTree(MAX_GENOMES).root.name).toBe("LUCA");
    expect(() => buildSpeciesTree(0)).toThrow();
    expect(() => buildSpeciesTree(MAX_GENOMES + 1)).toThrow();
  });
});

describe("GO terms and protein archetypes", () => {
  it("is a real GO subset closed under is_a with the three roots", () => {
    const ids = new Set(GO_TERMS.map((t) => t.id));
    expect(ids.size).toBe(GO_TERMS.length);
    expect(GO_TERMS.length).toBeGreaterThanOrEqual(60);
    for (const root of ["GO:0008150", "GO:0003674", "GO:0005575"]) expect(ids.has(root)).toBe(true);
    const byId = new Map(GO_TERMS.map((t) => [t.id, t]));
    for (const t of GO_TERMS) {
      expect(t.id).toMatch(/^GO:\d{7}$/);
      for (const p of t.isA) {
        expect(ids.has(p), `${t.id} is_a ${p}`).toBe(true);
        expect(byId.get(p)!.namespace).toBe(t.namespace);
      }
    }
    expect(byId.get("GO:0004672")).toMatchObject({ name: "protein kinase activity", namespace: "molecular_function" });
  });

  it("uses known GO terms and domain kinds", () => {
    const ids = new Set(GO_TERMS.map((t) => t.id));
    for (const a of ARCHETYPES) {
      for (const go of a.go) expect(ids.has(go), go).toBe(true);
      for (const d of a.domains) expect(DOMAIN_KINDS[d], d).toBeDefined();
    }
  });
});
