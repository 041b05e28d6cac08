import type { SpeciesInfoRow } from "../inputs.js";
import { chromosomeOf, type ProteinTable } from "./proteins.js";

/**
 * A protein's subgenome: the last letter of its chromosome (`3B` → `B`), when that is a
 * subgenome of its polyploid genome; "" otherwise. Homoeologs are told from paralogs by it.
 */
export function subgenomeReader(species: SpeciesInfoRow[], proteins: ProteinTable): (entry: number) => string {
  return (entry) => {
    const subgenomes = species[proteins.genome[entry - 1]].subgenomes ?? [];
    if (!subgenomes.length) return "";
    const last = chromosomeOf(proteins, entry - 1).slice(-1);
    return subgenomes.includes(last) ? last : "";
  };
}
