/**
 * The simulator's record of the true relations, for tests that compare what the compiler
 * derives with what really happened (truth/, not part of the release config). Only families
 * written to hogs.orthoxml (present in at least two genomes) are recorded; proteins are main
 * isoforms.
 *
 * - orthologs.tsv `protein1 protein2 rel_type`: every pair of genes of different genomes whose
 *   last common ancestor in the true gene tree is a speciation, once, protein1 first in
 *   (genome order, FASTA order). rel_type from protein1's side: n1 = genes of protein1's genome
 *   orthologous to protein2, n2 = genes of protein2's genome orthologous to protein1; `1:1`,
 *   `1:n` (n1 = 1, n2 > 1), `m:1` (n1 > 1, n2 = 1) or `m:n`. These are the counts of E.4: the
 *   genes of each genome in the HOG at the MRCA level (all copies of a polyploid genome count,
 *   so a gene with three wheat homoeologs is `1:n` from the diploid side).
 * - paralogs.tsv `protein1 protein2`: pairs of genes of the same genome whose last common
 *   ancestor is a duplication, protein1 first in FASTA order.
 * - homoeologs.tsv `protein1 protein2`: pairs of genes of a polyploid genome, in different
 *   subgenomes, whose last common ancestor is the split of the subgenomes' progenitors (a
 *   speciation at the genome's own species node; an orthologGroup whose TaxRange is the species
 *   in hogs.orthoxml), protein1 first in FASTA order. Only the header when no genome is
 *   polyploid. Homoeologs are neither in orthologs.tsv nor in paralogs.tsv.
 * - hogs.tsv `protein root_hog hog_id`: each gene's root HOG and its deepest sub-HOG (without
 *   `_taxon` suffix and release letter): the id of the orthologGroup directly above it in
 *   hogs.orthoxml, or, for a geneRef that is a child of a paralogGroup, the id X.{n}{letter}
 *   of its position there (a single-gene sub-HOG; see write-orthoxml.ts).
 * Lines are grouped by family in orthoXML order; within a family they follow the gene tree.
 */
import { join } from "node:path";
import { DUPLICATION, SPECIATION, type Family, type Gene, type GeneNode } from "./evolve.js";
import { FileSink } from "./sink.js";
import type { GeneHog } from "./write-orthoxml.js";

function genesByGenome(node: GeneNode): Map<number, Gene[]> {
  const map = new Map<number, Gene[]>();
  const visit = (n: GeneNode): void => {
    if (n.gene) {
      const list = map.get(n.gene.genome);
      if (list) list.push(n.gene);
      else map.set(n.gene.genome, [n.gene]);
    }
    for (const c of n.children) visit(c);
  };
  visit(node);
  return map;
}

function relation(n1: number, n2: number): string {
  if (n1 === 1) return n2 === 1 ? "1:1" : "1:n";
  return n2 === 1 ? "m:1" : "m:n";
}

export class TruthWriter {
  private readonly orthologs: FileSink;
  private readonly paralogs: FileSink;
  private readonly hogs: FileSink;
  private readonly homoeologs: FileSink;
  orthologPairs = 0;
  paralogPairs = 0;
  homoeologPairs = 0;

  constructor(dir: string) {
    this.orthologs = new FileSink(join(dir, "orthologs.tsv"));
    this.paralogs = new FileSink(join(dir, "paralogs.tsv"));
    this.hogs = new FileSink(join(dir, "hogs.tsv"));
    this.homoeologs = new FileSink(join(dir, "homoeologs.tsv"));
    this.orthologs.write("protein1\tprotein2\trel_type\n");
    this.paralogs.write("protein1\tprotein2\n");
    this.homoeologs.write("protein1\tprotein2\n");
    this.hogs.write("protein\troot_hog\thog_id\n");
  }

  family(family: Family, geneHogs: readonly GeneHog[]): void {
    for (const { gene, rootHog, hog } of geneHogs) this.hogs.write(`${gene.proteinId}\t${rootHog}\t${hog}\n`);

    const orthologs = this.orthologs;
    const paralogs = this.paralogs;
    const homoeologs = this.homoeologs;
    const visit = (node: GeneNode): void => {
      if (node.kind === SPECIATION && node.species.children.length === 0) {
        // A polyploid genome's subgenome split: every pair across children is a homoeolog pair.
        const parts = node.children.map((c) => genesByGenome(c).get(node.species.genome) ?? []);
        for (let i = 0; i < parts.length; i++) {
          for (let j = i + 1; j < parts.length; j++) {
            for (const a of parts[i]) {
              for (const b of parts[j]) {
                homoeologs.write(a.rank < b.rank ? `${a.proteinId}\t${b.proteinId}\n` : `${b.proteinId}\t${a.proteinId}\n`);
              }
            }
            this.homoeologPairs += parts[i].length * parts[j].length;
          }
        }
      } else if (node.kind === SPECIATION || node.kind === DUPLICATION) {
        const parts = node.children.map(genesByGenome);
        for (let i = 0; i < parts.length; i++) {
          for (let j = i + 1; j < parts.length; j++) {
            if (node.kind === SPECIATION) {
              for (const [genomeA, genesA] of parts[i]) {
                for (const [genomeB, genesB] of parts[j]) {
                  // protein1 is from the earlier genome.
                  const [first, second] = genomeA < genomeB ? [genesA, genesB] : [genesB, genesA];
                  const rel = `\t${relation(first.length, second.length)}\n`;
                  for (const p of first) {
                    const prefix = `${p.proteinId}\t`;
                    for (const q of second) orthologs.write(prefix + q.proteinId + rel);
                  }
                  this.orthologPairs += first.length * second.length;
                }
              }
            } else {
              for (const [genome, genesA] of parts[i]) {
                const genesB = parts[j].get(genome);
                if (!genesB) continue;
                for (const a of genesA) {
                  for (const b of genesB) {
                    paralogs.write(a.rank < b.rank ? `${a.proteinId}\t${b.proteinId}\n` : `${b.proteinId}\t${a.proteinId}\n`);
                  }
                }
                this.paralogPairs += genesA.length * genesB.length;
              }
            }
          }
        }
      }
      for (const c of node.children) visit(c);
    };
    if (family.tree) visit(family.tree);
  }

  close(): void {
    this.orthologs.close();
    this.paralogs.close();
    this.hogs.close();
    this.homoeologs.close();
  }
}
