import type { FamilyBuild } from "./hogs.js";

/**
 * Per ordered genome pair (row a · genomes + b): genes of a in a HOG family that also has
 * genes of b; for a = b, genes of a in a family with another gene of a. (The pair
 * directory's last column, genes of a with a pairwise ortholog in b, or for a = b with a
 * close paralog or homoeolog, comes with the relations: write/relations.ts.)
 */
export function genesSharingFamilies(families: Iterable<FamilyBuild>, genomeOf: (entry: number) => number, genomes: number): Int32Array {
  const inFamilies = new Int32Array(genomes * genomes);
  // Genes per genome of a family, in typed arrays: a family spanning a clade of hundreds of genomes adds to its square of pairs.
  const count = new Int32Array(genomes);
  const present = new Int32Array(genomes);
  for (const f of families) {
    let n = 0;
    for (const e of f.members) {
      const g = genomeOf(e);
      if (count[g]++ === 0) present[n++] = g;
    }
    for (let i = 0; i < n; i++) {
      const x = present[i];
      const nx = count[x];
      const row = x * genomes;
      for (let j = 0; j < n; j++) if (j !== i || nx > 1) inFamilies[row + present[j]] += nx;
    }
    for (let i = 0; i < n; i++) count[present[i]] = 0;
  }
  return inFamilies;
}
