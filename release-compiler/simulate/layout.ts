/**
 * Genome layout: the order of a genome's genes (by position key, so that orthologous genes of
 * related genomes keep a similar order), their protein ids and orthoXML gene ids, which genes
 * have alternative isoforms, and, when the genome is written, each gene's exon structure,
 * alternative isoforms and place on a chromosome.
 *
 * Protein ids: `SIM<CODE>P<number>`, e.g. `SIMHUMANP000123`: numbered 1.. in FASTA order within
 * the genome (at least 6 digits), a gene's alternative isoforms right after its main isoform.
 * orthoXML gene ids (FastOMA style): `1` + genome number (3 digits, 4 from 1,000 genomes) + gene
 * rank + 1 (at least 6 digits), e.g. `1000000001` for the first gene of the first genome.
 *
 * Polyploid genomes (species-tree.ts): each subgenome X has its own chromosomes `1X`, `2X`, …
 * (up to the organism's chromosome count divided by the number of subgenomes: 1A–7D for
 * wheat). A gene's homoeologous group n follows from its position key, so homoeologs, which
 * share their key, lie on homoeologous chromosomes (3A, 3B, 3D) at similar places. Genes are
 * ordered by chromosome (1A, 1B, 1D, 2A, …, as in the IWGSC wheat assembly), then by key.
 */
import type { Family, Gene } from "./evolve.js";
import type { Organism } from "./organisms.js";
import { Rng } from "./rng.js";
import { backTranslate, randomProtein } from "./sequences.js";
import type { SpeciesTree } from "./species-tree.js";

export interface GenomeLayout {
  genome: number;
  organism: Organism;
  /** Genes in FASTA order. */
  genes: Gene[];
  /** FASTA records: genes plus alternative isoforms. */
  proteinCount: number;
  /** Protein id of a gene's alternative isoforms, by gene rank. */
  isoformIds: Map<number, string[]>;
  chromosomes: number;
  /** Polyploid genomes: the chromosome name of each gene, by rank (`3B`); absent otherwise (chromosomes 1..k). */
  chromosomeNames?: string[];
}

const ISOFORM_GENE_FRACTION = 0.05;

function proteinIdFor(code: string, number: number, width: number): string {
  return `SIM${code}P${String(number).padStart(width, "0")}`;
}

export function layoutGenomes(tree: SpeciesTree, families: readonly Family[], seed: number): GenomeLayout[] {
  const buckets: Gene[][] = tree.leaves.map(() => []);
  for (const family of families) for (const gene of family.genes) buckets[gene.genome].push(gene);
  const maxGenes = Math.max(1, ...buckets.map((b) => b.length));
  const xmlWidth = Math.max(6, String(maxGenes).length);
  const genomeWidth = Math.max(3, String(tree.leaves.length - 1).length);

  return tree.leaves.map((leaf, genome) => {
    const organism = leaf.organism!;
    const genes = buckets[genome];
    let chromosomeNames: string[] | undefined;
    if (leaf.subgenomes.length > 0) {
      const subgenomes = leaf.subgenomes;
      const groups = Math.max(1, Math.min(Math.floor(organism.chromosomes / subgenomes.length), Math.floor(genes.length / (5 * subgenomes.length))));
      const group = (g: Gene): number => Math.min(groups - 1, Math.max(0, Math.floor(g.key * groups)));
      const order = (g: Gene): number => group(g) * subgenomes.length + subgenomes.indexOf(g.subgenome);
      genes.sort((a, b) => order(a) - order(b) || a.key - b.key || a.family.number - b.family.number);
      chromosomeNames = genes.map((g) => `${group(g) + 1}${g.subgenome}`);
    } else {
      // Stable sort: equal keys keep family order.
      genes.sort((a, b) => a.key - b.key || a.family.number - b.family.number);
    }
    const rng = new Rng(seed, "isoforms", genome);
    const eukaryote = organism.kingdom === "E";
    let proteins = 0;
    for (const gene of genes) {
      let isoforms = 0;
      if (eukaryote && rng.float() < ISOFORM_GENE_FRACTION) {
        const length = gene.protein.length;
        isoforms = length >= 100 && rng.float() < 0.25 ? 2 : length >= 60 ? 1 : 0;
      }
      gene.isoforms = isoforms;
      proteins += 1 + isoforms;
    }
    const width = Math.max(6, String(proteins).length);
    const isoformIds = new Map<number, string[]>();
    let number = 0;
    genes.forEach((gene, rank) => {
      gene.rank = rank;
      gene.proteinId = proteinIdFor(organism.code, ++number, width);
      gene.xmlId = `1${String(genome).padStart(genomeWidth, "0")}${String(rank + 1).padStart(xmlWidth, "0")}`;
      if (gene.isoforms > 0) {
        const ids: string[] = [];
        for (let i = 0; i < gene.isoforms; i++) ids.push(proteinIdFor(organism.code, ++number, width));
        isoformIds.set(rank, ids);
      }
    });
    const chromosomes = chromosomeNames
      ? new Set(chromosomeNames).size
      : Math.max(1, Math.min(organism.chromosomes, Math.floor(genes.length / 5)));
    return { genome, organism, genes, proteinCount: proteins, isoformIds, chromosomes, chromosomeNames };
  });
}

// ---------------------------------------------------------------------------------------------
// Gene structures

/** A segment of a transcript on the genome, as offsets from the gene start in transcript direction. */
interface Segment {
  /** Offsets [from, to) along the gene in transcript direction. */
  from: number;
  to: number;
}

export interface IsoformStructure {
  id: string;
  protein: Uint8Array;
  cdna: Uint8Array;
  /** CDS segments in transcript order. */
  segments: Segment[];
}

export interface GeneStructure {
  strand: 1 | -1;
  /** Length of the gene on the genome. */
  span: number;
  main: IsoformStructure;
  alternatives: IsoformStructure[];
}

/**
 * Exon structure, coding sequence and alternative isoforms of a gene. Prokaryotic genes have a
 * single exon. Eukaryotic genes have 2–6 exons; alternative isoforms either skip an internal
 * exon or replace it by a shorter alternative exon lying in the next intron, so the main isoform
 * is always the longest. Exon boundaries of genes with isoforms fall between codons.
 */
export function geneStructure(rng: Rng, gene: Gene, eukaryote: boolean, isoformIds: readonly string[]): GeneStructure {
  const protein = gene.protein;
  const cdna = backTranslate(rng, protein);
  const length = cdna.length;
  const strand: 1 | -1 = rng.float() < 0.5 ? 1 : -1;
  if (!eukaryote) {
    return {
      strand,
      span: length,
      main: { id: gene.proteinId, protein, cdna, segments: [{ from: 0, to: length }] },
      alternatives: [],
    };
  }

  const isoforms = isoformIds.length;
  const minExons = isoforms === 0 ? 2 : isoforms + 2;
  const maxExons = Math.max(minExons, Math.min(6, Math.floor(length / 45)));
  const exons = Math.min(maxExons, Math.max(minExons, 2 + rng.int(5)));
  const aligned = isoforms > 0;
  // Exon boundaries in cDNA coordinates.
  const cuts = [0];
  {
    const weights = Array.from({ length: exons }, () => 0.4 + rng.float());
    const total = weights.reduce((s, w) => s + w, 0);
    let cumulative = 0;
    for (let i = 0; i < exons - 1; i++) {
      cumulative += weights[i];
      let cut = Math.round((length * cumulative) / total);
      if (aligned) cut -= cut % 3;
      cuts.push(cut);
    }
    cuts.push(length);
    let ok = true;
    for (let i = 1; i < cuts.length; i++) if (cuts[i] - cuts[i - 1] < 30) ok = false;
    if (!ok) {
      for (let i = 1; i < exons; i++) {
        let cut = Math.round((length * i) / exons);
        if (aligned) cut -= cut % 3;
        cuts[i] = cut;
      }
    }
  }

  // Alternative isoform plans: distinct internal exons, skipped or replaced.
  const internal = rng.shuffle(Array.from({ length: exons - 2 }, (_, i) => i + 1)).slice(0, isoforms);
  const plans = internal.map((exon) => {
    const exonLength = cuts[exon + 1] - cuts[exon];
    const replace = rng.float() < 0.5 && exonLength >= 36;
    const altCodons = replace ? Math.max(4, Math.floor((exonLength / 3) * (0.35 + 0.45 * rng.float()))) : 0;
    return { exon, replace, altLength: Math.min(altCodons * 3, exonLength - 3) };
  });

  const introns = Array.from({ length: exons - 1 }, () => 70 + Math.floor(Math.exp(rng.float() * Math.log(2500))));
  for (const plan of plans) {
    if (plan.replace) introns[plan.exon] = Math.max(introns[plan.exon], plan.altLength + 60 + rng.int(400));
  }
  const exonStart: number[] = [];
  let offset = 0;
  for (let i = 0; i < exons; i++) {
    exonStart.push(offset);
    offset += cuts[i + 1] - cuts[i];
    if (i < exons - 1) offset += introns[i];
  }
  const span = offset;
  const segments = (skip: number, replacement?: Segment): Segment[] => {
    const out: Segment[] = [];
    for (let i = 0; i < exons; i++) {
      if (i === skip) {
        if (replacement) out.push(replacement);
        continue;
      }
      out.push({ from: exonStart[i], to: exonStart[i] + cuts[i + 1] - cuts[i] });
    }
    return out;
  };

  const alternatives: IsoformStructure[] = plans.map((plan, i) => {
    const s = cuts[plan.exon];
    const e = cuts[plan.exon + 1];
    if (!plan.replace) {
      const altCdna = new Uint8Array(length - (e - s));
      altCdna.set(cdna.subarray(0, s), 0);
      altCdna.set(cdna.subarray(e), s);
      const altProtein = new Uint8Array(protein.length - (e - s) / 3);
      altProtein.set(protein.subarray(0, s / 3), 0);
      altProtein.set(protein.subarray(e / 3), s / 3);
      return { id: isoformIds[i], protein: altProtein, cdna: altCdna, segments: segments(plan.exon) };
    }
    const inserted = randomProtein(rng, plan.altLength / 3 + 1).subarray(1);
    const insertedCdna = backTranslate(rng, inserted).subarray(0, plan.altLength);
    const altCdna = new Uint8Array(length - (e - s) + plan.altLength);
    altCdna.set(cdna.subarray(0, s), 0);
    altCdna.set(insertedCdna, s);
    altCdna.set(cdna.subarray(e), s + plan.altLength);
    const altProtein = new Uint8Array(protein.length - (e - s) / 3 + inserted.length);
    altProtein.set(protein.subarray(0, s / 3), 0);
    altProtein.set(inserted, s / 3);
    altProtein.set(protein.subarray(e / 3), s / 3 + inserted.length);
    // The alternative exon lies in the intron after the exon it replaces.
    const intronStart = exonStart[plan.exon] + (e - s);
    const room = introns[plan.exon] - plan.altLength - 40;
    const from = intronStart + 20 + rng.int(Math.max(1, room));
    return {
      id: isoformIds[i],
      protein: altProtein,
      cdna: altCdna,
      segments: segments(plan.exon, { from, to: from + plan.altLength }),
    };
  });

  return {
    strand,
    span,
    main: { id: gene.proteinId, protein, cdna, segments: segments(-1) },
    alternatives,
  };
}
