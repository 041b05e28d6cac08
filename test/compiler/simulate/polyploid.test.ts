/**
 * The simulator's polyploid genome (`polyploid: true`): hexaploid bread wheat with subgenomes
 * A, B, D, homoeologous gene copies joined by species-level orthologGroups, chromosomes named
 * after their subgenome, the Subgenomes column of species_info.tsv and truth/homoeologs.tsv.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../../release-compiler/compile.js";
import { Problems } from "../../../release-compiler/problems.js";
import { readSpeciesInfo } from "../../../release-compiler/readers/species-info.js";
import { parseSimulateArgs } from "../../../release-compiler/simulate/cli.js";
import { POLYPLOID } from "../../../release-compiler/simulate/organisms.js";
import { simulateRelease, type SimulationSummary } from "../../../release-compiler/simulate/simulate.js";
import { buildSpeciesTree, MAX_GENOMES } from "../../../release-compiler/simulate/species-tree.js";
import { geneRefs, listFiles, readFasta, readOrthoXml, readTsv, tempDir, type OrthoXml, type XmlNode } from "./helpers.js";

const root = tempDir("simulate-polyploid");
const dirP = join(root, "p"); // 12 genomes + wheat, 400 families, seed 7
const dirQ = join(root, "q"); // same again
const dirD = join(root, "d"); // same without polyploid
const dirR = join(root, "r"); // 20 genomes (rice and Arabidopsis: wheat joins the BOP clade) + wheat, seed 4
let summaryP: SimulationSummary;
let summaryR: SimulationSummary;

beforeAll(async () => {
  summaryP = await simulateRelease({ out: dirP, genomes: 12, families: 400, seed: 7, polyploid: true });
  await simulateRelease({ out: dirQ, genomes: 12, families: 400, seed: 7, polyploid: true });
  await simulateRelease({ out: dirD, genomes: 12, families: 400, seed: 7 });
  summaryR = await simulateRelease({ out: dirR, genomes: 20, families: 250, seed: 4, polyploid: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const DIRS = () => [dirP, dirR];
const codes = (dir: string): string[] => readTsv(join(dir, "species_info.tsv")).map((r) => r.Name);

/** Chromosome of every gene (main isoform) of a genome, from its GFF `gene` features. */
function chromosomes(dir: string, code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(join(dir, "gff3", `${code}.gff`), "latin1").split("\n")) {
    const f = line.split("\t");
    if (f[2] === "gene") out.set(/ID=([^;]+)/.exec(f[8])![1], f[0]);
  }
  return out;
}

interface Derived {
  /** "p|q" (sorted) -> rel type by E.4 from the sorted-first protein's side. */
  orthologs: Map<string, { first: string; n1: number; n2: number }>;
  paralogs: Set<string>;
  /** Same-species pairs whose most recent common node is an orthologGroup, with that group. */
  homoeologs: Map<string, Extract<XmlNode, { children: XmlNode[] }>>;
}

const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** The pairs the orthoXML implies, by the most recent common node of each pair of genes. */
function derive(xml: OrthoXml): Derived {
  const out: Derived = { orthologs: new Map(), paralogs: new Set(), homoeologs: new Map() };
  const visit = (node: XmlNode): void => {
    if (node.kind === "geneRef") return;
    const parts = node.children.map(geneRefs);
    const all = parts.flat().map((r) => xml.genes.get(r)!);
    const count = (species: string): number => all.filter((g) => g.species === species).length;
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) {
        for (const a of parts[i]) {
          for (const b of parts[j]) {
            const ga = xml.genes.get(a)!;
            const gb = xml.genes.get(b)!;
            const k = key(ga.protId, gb.protId);
            if (node.kind === "paralogGroup") {
              if (ga.species === gb.species) out.paralogs.add(k);
            } else if (ga.species === gb.species) {
              out.homoeologs.set(k, node);
            } else {
              const [g1, g2] = ga.protId < gb.protId ? [ga, gb] : [gb, ga];
              out.orthologs.set(k, { first: g1.protId, n1: count(g1.species), n2: count(g2.species) });
            }
          }
        }
      }
    }
    node.children.forEach(visit);
  };
  xml.groups.forEach(visit);
  return out;
}

function relType(n1: number, n2: number): string {
  if (n1 === 1) return n2 === 1 ? "1:1" : "1:n";
  return n2 === 1 ? "m:1" : "m:n";
}

/** Fraction of the 4-mers of a that occur in b: a cheap similarity that tolerates indels. */
function similarity(a: string, b: string): number {
  const kmers = new Set<string>();
  for (let i = 0; i + 4 <= b.length; i++) kmers.add(b.slice(i, i + 4));
  let shared = 0;
  for (let i = 0; i + 4 <= a.length; i++) if (kmers.has(a.slice(i, i + 4))) shared++;
  return shared / Math.max(1, a.length - 3);
}

describe("polyploid species tree", () => {
  it("adds wheat where the real taxonomy puts it, with subgenomes A, B, D", () => {
    expect(POLYPLOID).toMatchObject({ code: "WHEAT", subgenomes: ["A", "B", "D"] });
    const small = buildSpeciesTree(3, { polyploid: true });
    expect(small.newick).toBe("(((HUMAN,PANTR)Hominini,GORGO)Homininae,WHEAT)Eukaryota;");
    const rice = buildSpeciesTree(20, { polyploid: true });
    expect(rice.newick).toContain("(ORYSJ,WHEAT)'BOP clade'");
    const wheat = rice.leaves.find((l) => l.name === "WHEAT")!;
    expect(wheat.organism).toMatchObject({ taxonId: 4565, scientificName: "Triticum aestivum" });
    expect(wheat.subgenomes).toEqual(["A", "B", "D"]);
    // The progenitors' split lies inside wheat's branch, closer to the leaf than to its parent.
    expect(wheat.homoeologHeight).toBeGreaterThan(0);
    expect(wheat.homoeologHeight).toBeLessThan(wheat.branchLength / 2);
    // Wheat among the first N organisms: no extra genome, it just becomes polyploid.
    const all = buildSpeciesTree(MAX_GENOMES, { polyploid: true });
    expect(all.leaves).toHaveLength(MAX_GENOMES);
    expect(all.leaves.filter((l) => l.subgenomes.length > 0).map((l) => l.name)).toEqual(["WHEAT"]);
    // Without the option nothing is polyploid, wheat included.
    for (const n of [3, 20, MAX_GENOMES]) {
      for (const node of buildSpeciesTree(n).nodes) expect(node.subgenomes).toEqual([]);
    }
  });

  it("has a --polyploid command-line flag", () => {
    expect(parseSimulateArgs(["--out", "x", "--polyploid"])).toMatchObject({ polyploid: true });
    expect(parseSimulateArgs(["--out", "x"])).toMatchObject({ polyploid: false });
  });
});

describe("simulated polyploid genome", () => {
  it("lists wheat in species_info.tsv with a Subgenomes column the compiler's reader accepts", async () => {
    expect(codes(dirP)).toEqual([
      "HUMAN", "PANTR", "GORGO", "PONAB", "MACMU", "MOUSE", "RATNO", "BOVIN", "CANLF", "CHICK", "XENTR", "DANRE", "WHEAT",
    ]);
    expect(summaryP.genomes).toBe(13);
    expect(summaryP.polyploidGenomes).toEqual(["WHEAT"]);
    expect(summaryR.genomes).toBe(21);
    for (const dir of DIRS()) {
      const text = readFileSync(join(dir, "species_info.tsv"), "utf8");
      expect(text.split("\n")[0]).toBe("Name\tNCBITaxonId\tScientificName\tSubgenomes");
      expect(text).toContain("\nWHEAT\t4565\tTriticum aestivum\tA,B,D\n");
      const problems = new Problems();
      const rows = await readSpeciesInfo(join(dir, "species_info.tsv"), problems);
      expect(problems.list).toEqual([]);
      expect(rows.map((r) => r.code)).toEqual(codes(dir));
      for (const r of rows) expect(r.subgenomes).toEqual(r.code === "WHEAT" ? ["A", "B", "D"] : []);
    }
    // Without polyploid genomes the file keeps its three columns.
    expect(readFileSync(join(dirD, "species_info.tsv"), "utf8").split("\n")[0]).toBe("Name\tNCBITaxonId\tScientificName");
  });

  it("lays wheat genes on chromosomes 1A..7D, ordered 1A, 1B, 1D, 2A, …; other genomes keep 1..k", () => {
    for (const dir of DIRS()) {
      const chr = chromosomes(dir, "WHEAT");
      const fasta = readFasta(join(dir, "proteome", "WHEAT.fa"));
      const mains = fasta.filter((e) => chr.has(e.id));
      expect(mains.length).toBe(chr.size);
      expect(chr.size).toBeGreaterThan(300);
      const names = [...chr.values()];
      for (const name of names) expect(name).toMatch(/^[1-7][ABD]$/);
      expect(new Set(names)).toEqual(new Set(["1", "2", "3", "4", "5", "6", "7"].flatMap((n) => ["A", "B", "D"].map((s) => n + s))));
      // Chromosomes in assembly order, each one contiguous in FASTA order.
      const order = [...new Set(mains.map((e) => chr.get(e.id)!))];
      expect(order).toEqual([...order].sort());
      // Every subgenome holds a fair share of the genes.
      for (const s of ["A", "B", "D"]) expect(names.filter((n) => n.endsWith(s)).length).toBeGreaterThan(0.2 * names.length);
      for (const code of codes(dir)) {
        if (code === "WHEAT") continue;
        for (const name of chromosomes(dir, code).values()) expect(name).toMatch(/^\d+$/);
      }
    }
  });

  it("is deterministic; polyploid and diploid runs of one seed differ", () => {
    const files = listFiles(dirP);
    expect(listFiles(dirQ)).toEqual(files);
    for (const file of files) expect(readFileSync(join(dirQ, file)).equals(readFileSync(join(dirP, file))), file).toBe(true);
    expect(files).toContain("truth/homoeologs.tsv");
    expect(listFiles(dirD)).not.toContain("proteome/WHEAT.fa");
    expect(readFileSync(join(dirD, "truth", "homoeologs.tsv"), "utf8")).toBe("protein1\tprotein2\n");
  });
});

describe("homoeologs in the orthoXML and the truth", () => {
  it("joins homoeologs by orthologGroups whose TaxRange is wheat itself, nested where a single gene would be", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const wheatTaxon = [...xml.taxa].find(([, name]) => name === "WHEAT")![0];
      let speciesLevel = 0;
      let withParalogs = 0;
      let insideParalogGroup = 0;
      const visit = (node: XmlNode, parent: XmlNode | null): void => {
        if (node.kind === "geneRef") return;
        const species = new Set(geneRefs(node).map((r) => xml.genes.get(r)!.species));
        if (node.kind === "orthologGroup" && node.taxRange === "WHEAT") {
          speciesLevel++;
          expect(node.taxonId).toBe(wheatTaxon);
          expect(node.completeness).toBe(1);
          expect([...species]).toEqual(["WHEAT"]);
          expect(node.children.length).toBeGreaterThanOrEqual(2);
          // One child per surviving subgenome copy: a gene, or a paralogGroup of its duplicates.
          expect(node.children.length).toBeLessThanOrEqual(3);
          if (node.children.some((c) => c.kind === "paralogGroup")) withParalogs++;
          if (parent?.kind === "paralogGroup") insideParalogGroup++;
          expect(parent).not.toBeNull();
        } else if (node.kind === "orthologGroup") {
          // Every other orthologGroup spans at least two genomes.
          expect(species.size).toBeGreaterThanOrEqual(2);
        }
        node.children.forEach((c) => visit(c, node));
      };
      xml.groups.forEach((g) => visit(g, null));
      expect(speciesLevel).toBeGreaterThan(50);
      if (dir === dirP) {
        // Duplications after (inside a subgenome) and before the polyploidisation both occur.
        expect(withParalogs).toBeGreaterThan(0);
        expect(insideParalogGroup).toBeGreaterThan(0);
      }
    }
  });

  it("records exactly the same-genome pairs in different subgenomes whose most recent common node is an orthologGroup", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const derived = derive(xml);
      const chr = chromosomes(dir, "WHEAT");
      const rank = new Map(readFasta(join(dir, "proteome", "WHEAT.fa")).map((e, i) => [e.id, i]));
      const rows = readTsv(join(dir, "truth", "homoeologs.tsv"));
      expect(rows.length).toBeGreaterThan(100);
      expect(new Set(rows.map((r) => key(r.protein1, r.protein2)))).toEqual(new Set(derived.homoeologs.keys()));
      expect(rows.length).toBe(derived.homoeologs.size);
      const errors: string[] = [];
      let sameGroup = 0;
      for (const r of rows) {
        const [c1, c2] = [chr.get(r.protein1), chr.get(r.protein2)];
        if (!c1 || !c2) errors.push(`${r.protein1} ${r.protein2}: not both wheat genes`);
        else if (c1.slice(-1) === c2.slice(-1)) errors.push(`${r.protein1} ${r.protein2}: same subgenome ${c1} ${c2}`);
        else if (c1.slice(0, -1) === c2.slice(0, -1)) sameGroup++;
        if (!(rank.get(r.protein1)! < rank.get(r.protein2)!)) errors.push(`${r.protein1} ${r.protein2}: not in FASTA order`);
        const group = derived.homoeologs.get(key(r.protein1, r.protein2))!;
        if (group.kind !== "orthologGroup" || group.taxRange !== "WHEAT") errors.push(`${r.protein1} ${r.protein2}: MRCA ${group.kind} ${group.taxRange}`);
      }
      expect(errors).toEqual([]);
      // Homoeologs lie on homoeologous chromosomes (3A, 3B, 3D), at similar places.
      expect(sameGroup).toBeGreaterThan(0.9 * rows.length);
      const summary = JSON.parse(readFileSync(join(dir, "truth", "summary.json"), "utf8"));
      expect(summary.homoeologPairs).toBe(rows.length);
    }
  });

  it("keeps true orthologs and paralogs exact, with relation types counting every wheat copy (E.4)", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const derived = derive(xml);
      const orthologs = readTsv(join(dir, "truth", "orthologs.tsv"));
      const paralogs = readTsv(join(dir, "truth", "paralogs.tsv"));
      expect(new Set(orthologs.map((r) => key(r.protein1, r.protein2)))).toEqual(new Set(derived.orthologs.keys()));
      expect(orthologs.length).toBe(derived.orthologs.size);
      expect(new Set(paralogs.map((r) => key(r.protein1, r.protein2)))).toEqual(derived.paralogs);
      expect(paralogs.length).toBe(derived.paralogs.size);
      const errors: string[] = [];
      const wheatTypes = new Map<string, number>();
      for (const r of orthologs) {
        const d = derived.orthologs.get(key(r.protein1, r.protein2))!;
        const [n1, n2] = d.first === r.protein1 ? [d.n1, d.n2] : [d.n2, d.n1];
        if (r.rel_type !== relType(n1, n2)) errors.push(`${r.protein1} ${r.protein2}: ${r.rel_type}, E.4 gives ${relType(n1, n2)}`);
        // The type seen from the other genome's side.
        const mirror: Record<string, string> = { "1:1": "1:1", "1:n": "m:1", "m:1": "1:n", "m:n": "m:n" };
        if (r.protein2.startsWith("SIMWHEAT")) wheatTypes.set(r.rel_type, (wheatTypes.get(r.rel_type) ?? 0) + 1);
        else if (r.protein1.startsWith("SIMWHEAT")) wheatTypes.set(mirror[r.rel_type], (wheatTypes.get(mirror[r.rel_type]) ?? 0) + 1);
      }
      expect(errors).toEqual([]);
      // With up to three copies, wheat is mostly on the "many" side.
      expect((wheatTypes.get("1:n") ?? 0) + (wheatTypes.get("m:n") ?? 0)).toBeGreaterThan(3 * (wheatTypes.get("1:1") ?? 0));
    }
  });

  it("makes homoeologs more alike than wheat genes and their orthologs in other genomes", () => {
    const dir = dirR;
    const sequences = new Map(codes(dir).flatMap((code) => readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => [e.id, e.sequence])));
    const mean = (pairs: Array<[string, string]>): number =>
      pairs.reduce((s, [a, b]) => s + similarity(sequences.get(a)!, sequences.get(b)!), 0) / pairs.length;
    const homoeologs = readTsv(join(dir, "truth", "homoeologs.tsv")).map((r): [string, string] => [r.protein1, r.protein2]);
    const nearest = readTsv(join(dir, "truth", "orthologs.tsv"))
      .filter((r) => r.protein1.startsWith("SIMORYSJ") && r.protein2.startsWith("SIMWHEAT"))
      .map((r): [string, string] => [r.protein1, r.protein2]);
    expect(nearest.length).toBeGreaterThan(100);
    const h = mean(homoeologs);
    const o = mean(nearest);
    // Diverged (moderately), but clearly less than wheat from rice (split 55 Mya).
    expect(1 - h).toBeGreaterThan(0.005);
    expect(1 - h).toBeLessThan(0.6 * (1 - o));
    const identical = homoeologs.filter(([a, b]) => sequences.get(a) === sequences.get(b)).length;
    expect(identical).toBeLessThan(0.5 * homoeologs.length);
  });

  it("loses some homoeologous copies (fractionation), keeping most genes in three copies", () => {
    const xml = readOrthoXml(join(dirP, "hogs.orthoxml"));
    const copies = [0, 0, 0, 0];
    const visit = (node: XmlNode): void => {
      if (node.kind === "geneRef") return;
      if (node.kind === "orthologGroup" && node.taxRange === "WHEAT") copies[Math.min(3, node.children.length)]++;
      node.children.forEach(visit);
    };
    xml.groups.forEach(visit);
    // With 15% loss per copy, three copies are about 2.4 times as frequent as two (0.61 vs 0.33 × 0.75).
    expect(copies[3]).toBeGreaterThan(copies[2]);
    expect(copies[2]).toBeGreaterThan(0.1 * copies[3]);
  });
});

describe("compiling a polyploid simulation", () => {
  it("compiles without problems, with the subgenomes and homoeologs of the truth", async () => {
    const buildDir = resolve(import.meta.dirname, "../../../build");
    mkdirSync(buildDir, { recursive: true });
    const dir = mkdtempSync(join(buildDir, "polyploid-compile-"));
    try {
      const input = join(dir, "input");
      await simulateRelease({ out: input, genomes: 6, families: 80, seed: 11, polyploid: true, name: "Polyploid.Test" });
      const result = await compileRelease(join(input, "release.json"), join(dir, "release"));
      const wheat = result.manifest.genomes.find((g) => g.code === "WHEAT");
      expect(wheat?.subgenomes).toEqual(["A", "B", "D"]);
      expect(result.manifest.genomes.filter((g) => g.subgenomes.length)).toEqual([wheat]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
