/**
 * Release-input simulator: evolves gene families along a species tree of real organisms (and,
 * beyond the 145 real ones, synthetic organisms radiating inside their clades) and
 * writes a complete release input folder (release.json and every input it names) plus truth/,
 * the true orthology for tests. Deterministic: the same options give byte-identical files.
 *
 * Layout of `out`:
 *   release.json, species_info.tsv, species_tree.nwk, hogs.orthoxml,
 *   proteome/CODE.fa, cdna/CODE.fa, gff3/CODE.gff, splice/CODE.splice,
 *   annotations/{go.obo, go.gaf, xrefs.tsv, uniprot.txt, domains.tsv},
 *   truth/{orthologs.tsv, paralogs.tsv, homoeologs.tsv, hogs.tsv, summary.json}
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evolutionContext, evolveFamily, type Family, type FamilyBreadth } from "./evolve.js";
import { layoutGenomes, type GenomeLayout } from "./layout.js";
import { ORGANISMS } from "./organisms.js";
import { buildSpeciesTree, MAX_GENOMES } from "./species-tree.js";
import { TruthWriter } from "./truth.js";
import { AnnotationWriter } from "./write-annotations.js";
import { writeGenome } from "./write-genomes.js";
import { OrthoXmlWriter } from "./write-orthoxml.js";

export interface SimulationOptions {
  /** Output folder (created if missing; files the simulator writes are replaced). */
  out: string;
  /**
   * Number of genomes: the first N organisms of the built-in list (1..MAX_GENOMES, default 12):
   * real organisms up to 145, synthetic ones beyond (synthetic.ts).
   */
  genomes?: number;
  /** Number of simulated gene families (default 400). */
  families?: number;
  /** Random seed, a non-negative integer (default 1). */
  seed?: number;
  /** Write HOG id attributes in hogs.orthoxml (default true). */
  hogIds?: boolean;
  /** Release name (default `Simulated.<seed>`). */
  name?: string;
  /**
   * Add hexaploid bread wheat (WHEAT, subgenomes A, B, D) to the genomes, with homoeologous
   * gene copies and a `Subgenomes` column in species_info.tsv (default false). When wheat is
   * already among the first N organisms it simply becomes polyploid.
   */
  polyploid?: boolean;
  /**
   * Where families are born (evolve.ts): `root` (most span the whole tree) or `clade` (most
   * span a clade). Default: `root` up to the 145 real organisms (the output of those runs is
   * unchanged), `clade` above, where root-born families would make pair rows grow as genomes
   * squared.
   */
  familyBreadth?: FamilyBreadth;
}

/** The default family breadth for N genomes: `root` for the real organisms, `clade` beyond. */
export function defaultFamilyBreadth(genomes: number): FamilyBreadth {
  return genomes > ORGANISMS.length ? "clade" : "root";
}

export interface SimulationSummary {
  name: string;
  seed: number;
  /** Genomes simulated: `genomes`, plus wheat when `polyploid` added it. */
  genomes: number;
  /** Codes of the polyploid genomes. */
  polyploidGenomes: string[];
  /** Simulated families, including those lost everywhere or left in one genome. */
  families: number;
  /** Families in hogs.orthoxml (genes in at least two genomes). */
  familiesWritten: number;
  /** Families whose genes are all in one genome (in the proteomes, not in the orthoXML). */
  singleGenomeFamilies: number;
  /** Families that lost every copy. */
  extinctFamilies: number;
  /** FASTA records: main and alternative isoforms. */
  proteins: number;
  /** Genes (main isoforms). */
  mainIsoforms: number;
  alternativeIsoforms: number;
  /** Genes with alternative isoforms. */
  isoformGenes: number;
  /** Genes referenced by hogs.orthoxml. */
  genesInHogs: number;
  /** Duplication and loss events of the simulation (including those on lineages later lost). */
  duplications: number;
  losses: number;
  orthologPairs: number;
  paralogPairs: number;
  homoeologPairs: number;
  goAnnotations: number;
  xrefs: number;
  uniprotEntries: number;
  domainRows: number;
  speciesTree: string;
  /** Only with `clade` breadth (absent for `root`, so that small runs keep their bytes). */
  familyBreadth?: "clade";
}

const RELEASED = new Uint8Array(0);

export const DEFAULT_GENOMES = 12;
export const DEFAULT_FAMILIES = 400;
export const DEFAULT_SEED = 1;
export const MAX_FAMILIES = 10_000_000;
export { MAX_GENOMES };

/** Files of the generated release config, relative to `out`. */
function releaseConfig(name: string): Record<string, unknown> {
  return {
    name,
    hog_release_letter: "S",
    date: "2026-11-01",
    species_info: "species_info.tsv",
    species_tree: "species_tree.nwk",
    proteomes: "proteome",
    cdna: "cdna",
    hogs: "hogs.orthoxml",
    loci: "gff3",
    isoforms: "splice",
    go_annotations: ["annotations/go.gaf"],
    go_ontology: "annotations/go.obo",
    xrefs: ["annotations/xrefs.tsv"],
    uniprot: ["annotations/uniprot.txt"],
    domains: "annotations/domains.tsv",
  };
}

function checkInteger(what: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${what} must be an integer in ${min}..${max}, got ${value}`);
  }
}

/** Removes per-genome files a previous run may have left (e.g. with more genomes). */
function removeStaleGenomeFiles(out: string): void {
  const patterns: Array<[string, RegExp]> = [
    ["proteome", /\.fa$/],
    ["cdna", /\.fa$/],
    ["gff3", /\.gff$/],
    ["splice", /\.splice$/],
  ];
  for (const [dir, pattern] of patterns) {
    const path = join(out, dir);
    if (!existsSync(path)) continue;
    for (const file of readdirSync(path)) if (pattern.test(file)) rmSync(join(path, file));
  }
}

export async function simulateRelease(options: SimulationOptions): Promise<SimulationSummary> {
  const genomes = options.genomes ?? DEFAULT_GENOMES;
  const familyCount = options.families ?? DEFAULT_FAMILIES;
  const seed = options.seed ?? DEFAULT_SEED;
  const hogIds = options.hogIds ?? true;
  checkInteger("genomes", genomes, 1, MAX_GENOMES);
  checkInteger("families", familyCount, 1, MAX_FAMILIES);
  checkInteger("seed", seed, 0, Number.MAX_SAFE_INTEGER);
  const familyBreadth = options.familyBreadth ?? defaultFamilyBreadth(genomes);
  if (familyBreadth !== "root" && familyBreadth !== "clade") throw new RangeError(`familyBreadth must be root or clade, got ${familyBreadth}`);
  const name = options.name ?? `Simulated.${seed}`;
  if (!options.out) throw new Error("out is required");
  const out = options.out;

  mkdirSync(out, { recursive: true });
  removeStaleGenomeFiles(out);

  // Evolution.
  const tree = buildSpeciesTree(genomes, { polyploid: options.polyploid ?? false });
  const ctx = evolutionContext(tree, seed, familyBreadth);
  const families: Family[] = [];
  for (let i = 1; i <= familyCount; i++) families.push(evolveFamily(ctx, i));
  const layouts = layoutGenomes(tree, families, seed);

  // Config, species, tree.
  writeFileSync(join(out, "release.json"), `${JSON.stringify(releaseConfig(name), null, 2)}\n`);
  // The Subgenomes column (empty for diploids) only when some genome is polyploid.
  const polyploidGenomes = tree.leaves.filter((l) => l.subgenomes.length > 0);
  const subgenomes = (l: GenomeLayout): string =>
    polyploidGenomes.length > 0 ? `\t${tree.leaves[l.genome].subgenomes.join(",")}` : "";
  writeFileSync(
    join(out, "species_info.tsv"),
    `Name\tNCBITaxonId\tScientificName${polyploidGenomes.length > 0 ? "\tSubgenomes" : ""}\n` +
      layouts.map((l) => `${l.organism.code}\t${l.organism.taxonId}\t${l.organism.scientificName}${subgenomes(l)}\n`).join(""),
  );
  writeFileSync(join(out, "species_tree.nwk"), `${tree.newick}\n`);

  // Genomes and annotations.
  const annotations = new AnnotationWriter(join(out, "annotations"), seed);
  let proteins = 0;
  let alternativeIsoforms = 0;
  let isoformGenes = 0;
  for (const layout of layouts) {
    const annotator = annotations.genome(layout.genome, layout.organism);
    const counts = writeGenome(out, layout, seed, (gene, structure) => annotator.gene(gene, structure));
    // Sequences are not needed any more: let large simulations release them.
    for (const gene of layout.genes) gene.protein = RELEASED;
    proteins += counts.proteins;
    alternativeIsoforms += counts.alternativeIsoforms;
    isoformGenes += counts.isoformGenes;
  }
  annotations.close();

  // HOGs and truth.
  const xml = new OrthoXmlWriter(join(out, "hogs.orthoxml"), tree, hogIds);
  xml.header(layouts, `seed-${seed}`);
  const truth = new TruthWriter(join(out, "truth"));
  let genesInHogs = 0;
  for (const family of families) {
    const geneHogs = xml.family(family);
    if (!geneHogs) continue;
    genesInHogs += geneHogs.length;
    truth.family(family, geneHogs);
  }
  xml.close();
  truth.close();

  const summary: SimulationSummary = {
    name,
    seed,
    genomes: tree.leaves.length,
    polyploidGenomes: polyploidGenomes.map((l) => l.name),
    families: familyCount,
    familiesWritten: xml.familiesWritten,
    singleGenomeFamilies: families.filter((f) => f.genomeCount === 1).length,
    extinctFamilies: families.filter((f) => f.genomeCount === 0).length,
    proteins,
    mainIsoforms: proteins - alternativeIsoforms,
    alternativeIsoforms,
    isoformGenes,
    genesInHogs,
    duplications: families.reduce((s, f) => s + f.duplications, 0),
    losses: families.reduce((s, f) => s + f.losses, 0),
    orthologPairs: truth.orthologPairs,
    paralogPairs: truth.paralogPairs,
    homoeologPairs: truth.homoeologPairs,
    ...annotations.counts,
    speciesTree: tree.newick,
    ...(familyBreadth === "clade" ? { familyBreadth } : {}),
  };
  writeFileSync(join(out, "truth", "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
