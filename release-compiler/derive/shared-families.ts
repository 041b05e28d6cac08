import type { FamilyBuild } from "./hogs.js";

/**
 * Per ordered genome pair (row a · genomes + b): genes of a in a HOG family that also has
 * genes of b; for a = b, genes of a in a family with another gene of a. (The pair
 * directory's last column, genes of a with a pairwise ortholog in b, or for a = b with a
 * close paralog or homoeolog, comes with the relations: write/relations.ts.)
 */
export function genesSharingFamilies(families: FamilyBuild[], genomeOf: (entry: number) => number, genomes: number): Int32Array {
  const inFamilies = new Int32Array(genomes * genomes);
  for (const f of families) {
    const genes = new Map<number, number>();
    for (const e of f.members) genes.set(genomeOf(e), (genes.get(genomeOf(e)) ?? 0) + 1);
    for (const [x, nx] of genes) {
      for (const [y] of genes) if (x !== y || nx > 1) inFamilies[x * genomes + y] += nx;
    }
  }
  return inFamilies;
}
