import type { GenomeDetail } from "../../release-format/format.js";
import { chromosomeOf, type ProteinTable } from "./proteins.js";

/**
 * Chromosomes of a genome in order of first appearance, with runs of consecutive entry
 * numbers, and the runs of its genes (main isoforms): what the genome's protein and gene
 * lists page through.
 */
export function genomeDetail(p: ProteinTable, g: number): GenomeDetail {
  const byChromosome = new Map<string, Array<[number, number]>>();
  const first = p.genomeFirstEntry[g];
  for (let e = first; e < first + p.genomeSize[g]; e++) {
    const chr = chromosomeOf(p, e - 1);
    const ranges = byChromosome.get(chr) ?? [];
    const last = ranges[ranges.length - 1];
    if (last && last[1] === e - 1) last[1] = e;
    else ranges.push([e, e]);
    byChromosome.set(chr, ranges);
  }
  const geneRanges: Array<[number, number]> = [];
  for (let e = first; e < first + p.genomeSize[g]; e++) {
    if (!p.isMain[e - 1]) continue;
    const last = geneRanges[geneRanges.length - 1];
    if (last && last[1] === e - 1) last[1] = e;
    else geneRanges.push([e, e]);
  }
  return { chromosomes: [...byChromosome].map(([id, entryRanges]) => ({ id, entryRanges })), geneRanges };
}

/** Genes of a genome: its main isoforms. */
export function countGenes(p: ProteinTable, g: number): number {
  let n = 0;
  const first = p.genomeFirstEntry[g];
  for (let e = first; e < first + p.genomeSize[g]; e++) if (p.isMain[e - 1]) n++;
  return n;
}
