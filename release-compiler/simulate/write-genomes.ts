/**
 * Per-genome files: proteome/CODE.fa (main isoforms and alternative isoforms), cdna/CODE.fa
 * (coding sequences ending in a stop codon, same ids), gff3/CODE.gff (genes laid out along
 * chromosomes 1..k without overlaps; a polyploid genome's chromosomes are `1A`…`7D`, layout.ts) and splice/CODE.splice (only for genomes with isoforms).
 *
 * GFF3: a `gene` feature `ID=<main protein id>` spanning all isoforms, its CDS features
 * `ID=CDS:<id>;Parent=<id>;protein_id=<id>`; each alternative isoform has an `mRNA` feature
 * `ID=<alt id>;Parent=<main id>` and its own CDS features with `protein_id=<alt id>`. CDS
 * lengths of a protein add up to 3 × (protein length + 1) (the stop codon is included).
 */
import { join } from "node:path";
import type { Gene } from "./evolve.js";
import { geneStructure, type GeneStructure, type GenomeLayout, type IsoformStructure } from "./layout.js";
import { Rng } from "./rng.js";
import { FileSink } from "./sink.js";

interface GenomeFileCounts {
  proteins: number;
  isoformGenes: number;
  alternativeIsoforms: number;
}

/** Called for each gene once its structure is known (annotations). */
type GeneVisitor = (gene: Gene, structure: GeneStructure) => void;

export function writeGenome(out: string, layout: GenomeLayout, seed: number, visit: GeneVisitor): GenomeFileCounts {
  const { organism } = layout;
  const code = organism.code;
  const eukaryote = organism.kingdom === "E";
  const rng = new Rng(seed, "genome", layout.genome);
  const proteome = new FileSink(join(out, "proteome", `${code}.fa`));
  const cdna = new FileSink(join(out, "cdna", `${code}.fa`));
  const gff = new FileSink(join(out, "gff3", `${code}.gff`));
  const spliceFile = { sink: null as FileSink | null };
  gff.write("##gff-version 3\n");

  const counts: GenomeFileCounts = { proteins: 0, isoformGenes: 0, alternativeIsoforms: 0 };
  const species = `OS=${organism.scientificName} OX=${organism.taxonId}`;
  const genes = layout.genes;
  let chromosome = "";
  let cursor = 0;

  const writeCds = (chr: string, start: number, span: number, strand: 1 | -1, isoform: IsoformStructure, parent: string): void => {
    const segments = isoform.segments;
    const lines: string[] = [];
    let done = 0;
    for (const seg of segments) {
      const phase = (3 - (done % 3)) % 3;
      done += seg.to - seg.from;
      const from = strand === 1 ? start + seg.from : start + span - seg.to;
      const to = strand === 1 ? start + seg.to - 1 : start + span - 1 - seg.from;
      lines.push(
        `${chr}\tSimOrtho\tCDS\t${from}\t${to}\t.\t${strand === 1 ? "+" : "-"}\t${phase}\tID=CDS:${isoform.id};Parent=${parent};protein_id=${isoform.id}\n`,
      );
    }
    if (strand === -1) lines.reverse();
    gff.write(lines.join(""));
  };

  genes.forEach((gene, rank) => {
    // Chromosome: genes are split evenly over chromosomes in order (polyploids: named by the layout).
    const chr = layout.chromosomeNames ? layout.chromosomeNames[rank] : String(1 + Math.floor((rank * layout.chromosomes) / genes.length));
    if (chr !== chromosome) {
      chromosome = chr;
      cursor = 1 + (eukaryote ? 1000 + rng.int(20000) : rng.int(500));
    }
    const structure = geneStructure(rng, gene, eukaryote, layout.isoformIds.get(rank) ?? []);
    const { strand, span } = structure;
    const start = cursor;
    const end = start + span - 1;
    cursor = end + 1 + (eukaryote ? 300 + Math.floor(Math.exp(rng.float() * Math.log(40000))) : 20 + rng.int(400));
    const symbol = gene.symbol;
    const description = gene.family.archetype.description;
    const strandSign = strand === 1 ? "+" : "-";
    const location = `chromosome:SIM:${chr}:${start}:${end}:${strand}`;

    proteome.write(`>${gene.proteinId} ${description} ${species} GN=${symbol}\n`);
    proteome.writeWrapped(structure.main.protein);
    cdna.write(`>${gene.proteinId} cds ${location} gene_symbol:${symbol}\n`);
    cdna.writeWrapped(structure.main.cdna);
    gff.write(`${chr}\tSimOrtho\tgene\t${start}\t${end}\t.\t${strandSign}\t.\tID=${gene.proteinId}\n`);
    writeCds(chr, start, span, strand, structure.main, gene.proteinId);
    counts.proteins++;

    if (structure.alternatives.length > 0) {
      counts.isoformGenes++;
      structure.alternatives.forEach((alt, i) => {
        proteome.write(`>${alt.id} ${description} isoform ${i + 2} ${species} GN=${symbol}\n`);
        proteome.writeWrapped(alt.protein);
        cdna.write(`>${alt.id} cds ${location} gene_symbol:${symbol}\n`);
        cdna.writeWrapped(alt.cdna);
        let first = Infinity;
        let last = -Infinity;
        for (const seg of alt.segments) {
          first = Math.min(first, seg.from);
          last = Math.max(last, seg.to);
        }
        const from = strand === 1 ? start + first : start + span - last;
        const to = strand === 1 ? start + last - 1 : start + span - 1 - first;
        gff.write(`${chr}\tSimOrtho\tmRNA\t${from}\t${to}\t.\t${strandSign}\t.\tID=${alt.id};Parent=${gene.proteinId}\n`);
        writeCds(chr, start, span, strand, alt, alt.id);
        counts.proteins++;
        counts.alternativeIsoforms++;
      });
      spliceFile.sink ??= new FileSink(join(out, "splice", `${code}.splice`));
      spliceFile.sink.write(`${[gene.proteinId, ...structure.alternatives.map((a) => a.id)].join("; ")}\n`);
    }
    visit(gene, structure);
  });

  proteome.close();
  cdna.close();
  gff.close();
  spliceFile.sink?.close();
  return counts;
}
