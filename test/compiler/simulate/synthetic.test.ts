import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTaxonomy } from "../../../release-compiler/derive/taxonomy.js";
import { Problems } from "../../../release-compiler/problems.js";
import { readNewick } from "../../../release-compiler/readers/newick.js";
import { readSpeciesInfo } from "../../../release-compiler/readers/species-info.js";
import { parseSimulateArgs, UsageError } from "../../../release-compiler/simulate/cli.js";
import { ORGANISMS, ROOT_CLADE } from "../../../release-compiler/simulate/organisms.js";
import { pairStats } from "../../../release-compiler/simulate/pair-stats.js";
import { defaultFamilyBreadth, simulateRelease, type SimulationSummary } from "../../../release-compiler/simulate/simulate.js";
import { buildSpeciesTree, MAX_GENOMES, type SpeciesTree } from "../../../release-compiler/simulate/species-tree.js";
import { fullCatalog, REAL_CATALOG, SYNTHETIC_TAXON_BASE } from "../../../release-compiler/simulate/synthetic.js";
import { geneRefs, listFiles, readOrthoXml, readTsv, tempDir } from "./helpers.js";

const root = tempDir("simulate-synthetic");
const dir300 = join(root, "g300"); // 300 genomes: 145 real, 155 synthetic; clade-born families (the default)
const dirSmall = join(root, "g10"); // the small polyploid run whose bytes must not change
let summary300: SimulationSummary;

beforeAll(async () => {
  summary300 = await simulateRelease({ out: dir300, genomes: 300, families: 600, seed: 5 });
  await simulateRelease({ out: dirSmall, genomes: 10, families: 150, seed: 7, polyploid: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Everything of a tree node that the simulation uses, by preorder. */
function shape(tree: SpeciesTree): unknown[] {
  return tree.nodes.map((n) => [
    n.name,
    n.taxonomyId,
    n.parent?.taxonomyId ?? 0,
    n.age,
    n.height,
    n.branchLength,
    n.genome,
    n.firstGenome,
    n.leafCount,
    n.organism,
    n.subgenomes,
    n.homoeologHeight,
  ]);
}

describe("synthetic organisms", () => {
  it("extend the real organisms to MAX_GENOMES with unique codes, taxon ids and names", () => {
    const { organisms } = fullCatalog();
    expect(MAX_GENOMES).toBe(2500);
    expect(organisms).toHaveLength(MAX_GENOMES);
    expect(organisms.slice(0, ORGANISMS.length)).toEqual(ORGANISMS);
    const synthetic = organisms.slice(ORGANISMS.length);
    expect(new Set(organisms.map((o) => o.code)).size).toBe(MAX_GENOMES);
    expect(new Set(organisms.map((o) => o.taxonId)).size).toBe(MAX_GENOMES);
    expect(new Set(organisms.map((o) => o.scientificName)).size).toBe(MAX_GENOMES);
    const realTaxa = Math.max(...ORGANISMS.map((o) => o.taxonId));
    expect(realTaxa).toBeLessThan(SYNTHETIC_TAXON_BASE);
    synthetic.forEach((o, i) => {
      // Never a real UniProt code (those begin with a letter, or 9), never all digits.
      expect(o.code).toMatch(/^0[A-Z]{4}$/);
      expect(o.taxonId).toBe(SYNTHETIC_TAXON_BASE + i + 1);
      expect(o.scientificName).toMatch(/^[A-Z][a-z]+ [a-z]+$/);
      expect(o.chromosomes).toBeGreaterThanOrEqual(1);
    });
    // Prokaryote-rich, as a large all-of-life release.
    const kingdoms = { E: 0, B: 0, A: 0 };
    for (const o of organisms) kingdoms[o.kingdom]++;
    expect(kingdoms.B).toBeGreaterThan(kingdoms.E);
    expect(kingdoms.A).toBeGreaterThan(100);
  });

  it("radiate inside the real clades: one rooted tree, every organism once, clades named, uniquely, younger than their parents", () => {
    const { organisms, clades } = fullCatalog();
    const byName = new Map(clades.map(([name, age, children]) => [name, { age, children }]));
    expect(byName.size).toBe(clades.length);
    const seen = new Map<string, number>();
    for (const [, , children] of clades) for (const c of children) seen.set(c, (seen.get(c) ?? 0) + 1);
    for (const o of organisms) expect(seen.get(o.code), o.code).toBe(1);
    for (const [name, age, children] of clades) {
      expect(seen.get(name) ?? 0, name).toBe(name === ROOT_CLADE ? 0 : 1);
      expect(children.length, name).toBeGreaterThanOrEqual(2);
      for (const c of children) if (byName.has(c)) expect(byName.get(c)!.age, `${c} younger than ${name}`).toBeLessThan(age);
      expect(age, name).toBeGreaterThan(0);
    }
    // Level names (clades, species codes and scientific names) never clash.
    const names = [...clades.map(([name]) => name), ...organisms.map((o) => o.code), ...organisms.map((o) => o.scientificName)];
    expect(new Set(names).size).toBe(names.length);
  });

  it("leave the tree of N ≤ 145 genomes exactly that of the real organisms", () => {
    for (let n = 1; n <= ORGANISMS.length; n++) {
      for (const polyploid of [false, true]) {
        const full = buildSpeciesTree(n, { polyploid });
        const real = buildSpeciesTree(n, { polyploid, catalog: REAL_CATALOG });
        expect(full.newick, `${n}`).toBe(real.newick);
        expect(shape(full), `${n}`).toEqual(shape(real));
      }
    }
    expect(() => buildSpeciesTree(ORGANISMS.length + 1, { catalog: REAL_CATALOG })).toThrow();
  });

  it("give an ultrametric tree of 2,500 genomes, every node named once, each synthetic species next to its real relative", () => {
    const tree = buildSpeciesTree(MAX_GENOMES);
    expect(tree.leaves).toHaveLength(MAX_GENOMES);
    expect(tree.root.name).toBe(ROOT_CLADE);
    expect(new Set(tree.nodes.map((n) => n.name)).size).toBe(tree.nodes.length);
    for (const node of tree.nodes) {
      expect(node.name).not.toBe("");
      if (node.parent) expect(node.branchLength, node.name).toBeGreaterThan(0);
      if (node.children.length > 0) expect(node.children.length).toBeGreaterThanOrEqual(2);
    }
    for (const leaf of tree.leaves) {
      let depth = 0;
      for (let n: typeof leaf | null = leaf; n; n = n.parent) depth += n.branchLength;
      expect(depth).toBeCloseTo(tree.root.height, 9);
      expect(leaf.age).toBe(0);
    }
    const human = tree.leaves.find((l) => l.name === "HUMAN")!;
    expect(human.parent!.name).toMatch(/^HUMAN radiation/);
    expect(tree.nodes.find((n) => n.name === "HUMAN radiation")!.parent!.name).toBe("Hominini");
  });
});

describe("a 300-genome simulation", () => {
  it("is valid release input: unique codes and taxon ids, a taxonomy the compiler accepts", async () => {
    const problems = new Problems();
    const species = await readSpeciesInfo(join(dir300, "species_info.tsv"), problems);
    const tree = await readNewick(join(dir300, "species_tree.nwk"), problems);
    expect(problems.format()).toBe("");
    expect(species).toHaveLength(300);
    expect(new Set(species.map((s) => s.taxonId)).size).toBe(300);
    expect(species.filter((s) => s.taxonId > SYNTHETIC_TAXON_BASE)).toHaveLength(155);
    const taxonomy = buildTaxonomy(tree!, species, "species_tree.nwk", "species_info.tsv", problems);
    expect(problems.format()).toBe("");
    expect(taxonomy.names).toHaveLength(buildSpeciesTree(300).nodes.length);
    // Every genome has genes; the orthoXML species are the species_info rows.
    const xml = readOrthoXml(join(dir300, "hogs.orthoxml"));
    expect(xml.speciesOrder).toEqual(species.map((s) => s.code));
    expect(new Set([...xml.genes.values()].map((g) => g.species)).size).toBe(300);
    expect(summary300.familyBreadth).toBe("clade");
  });

  it("has families that mostly span a clade, not the tree, and pair rows far below genomes squared", () => {
    const xml = readOrthoXml(join(dir300, "hogs.orthoxml"));
    const spans = xml.groups.map((g) => new Set(geneRefs(g).map((ref) => xml.genes.get(ref)!.species)).size).sort((a, b) => a - b);
    const atRoot = xml.groups.filter((g) => g.kind === "orthologGroup" && g.taxRange === ROOT_CLADE).length;
    expect(atRoot / xml.groups.length).toBeLessThan(0.05);
    expect(spans[Math.floor(spans.length / 2)]).toBeLessThan(30); // median family: under a tenth of the genomes
    expect(spans.filter((s) => s > 150).length / spans.length).toBeLessThan(0.05);
    // Root-born families (the default up to 145 genomes) give ~0.8 ortholog rows per protein per other genome.
    const stats = pairStats(dir300);
    expect(stats.orthologPairs).toBe(summary300.orthologPairs);
    expect(stats.orthologRowsPerProteinPerOtherGenome).toBeLessThan(0.6);
    expect(stats.relationsPerProtein.median).toBeLessThan(150);
    expect(stats.perGenomePair.empty).toBeGreaterThan(0.1);
  });
});

describe("small simulations keep their bytes", () => {
  it("root-born families up to the 145 real organisms, clade-born above, or as asked", () => {
    expect(defaultFamilyBreadth(1)).toBe("root");
    expect(defaultFamilyBreadth(ORGANISMS.length)).toBe("root");
    expect(defaultFamilyBreadth(ORGANISMS.length + 1)).toBe("clade");
    expect(parseSimulateArgs(["--out", "x"])).toMatchObject({ familyBreadth: undefined });
    expect(parseSimulateArgs(["--out", "x", "--family-breadth", "clade"])).toMatchObject({ familyBreadth: "clade" });
    expect(parseSimulateArgs(["--out", "x", "--family-breadth", "root", "--genomes", "2500"])).toMatchObject({ familyBreadth: "root", genomes: 2500 });
    expect(() => parseSimulateArgs(["--out", "x", "--family-breadth", "wide"])).toThrow(UsageError);
  });

  it("--genomes 10 --families 150 --seed 7 --polyploid writes the files it wrote before synthetic organisms", () => {
    // The digest of every file (path and bytes) of this run as of the commit that added synthetic
    // organisms. Change it only for an intended change of what small simulations write: the
    // demo and the tests' fixtures are small simulations.
    const hash = createHash("sha256");
    for (const file of listFiles(dirSmall)) {
      hash.update(`${file}\0`);
      hash.update(readFileSync(join(dirSmall, file)));
      hash.update("\0");
    }
    expect(hash.digest("hex")).toBe("8566941fa625632c422cf288e4f2692644728fe0004948561f005b47356d264a");
    expect(readTsv(join(dirSmall, "species_info.tsv")).every((r) => Number(r.NCBITaxId ?? r.NCBITaxonId) < SYNTHETIC_TAXON_BASE)).toBe(true);
  });
});
