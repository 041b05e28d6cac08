import type { SpeciesInfoRow, TreeNode } from "../inputs.js";
import { Problems } from "../problems.js";
import { readUniProt } from "../readers/uniprot.js";

/**
 * Scientific names for genomes that species_info leaves unnamed (they fall back to their
 * code), from the UniProt entries of the same NCBI taxon (OS and OX lines). A name is taken
 * only when it is unambiguous: one name per taxon, used by no other genome or level.
 */
export async function nameSpeciesFromUniProt(
  species: SpeciesInfoRow[],
  tree: TreeNode,
  uniprotFiles: string[],
): Promise<void> {
  const unnamed = species.filter((s) => s.scientificName === s.code);
  if (unnamed.length === 0 || uniprotFiles.length === 0) return;
  const wanted = new Set(unnamed.map((s) => s.taxonId));
  const names = new Map<number, Set<string>>();
  // Problems of these files are reported when they are read for their annotations.
  const quiet = new Problems();
  for (const file of uniprotFiles) {
    for await (const entry of readUniProt(file, quiet)) {
      if (entry.taxonId === undefined || !entry.organism || !wanted.has(entry.taxonId)) continue;
      names.set(entry.taxonId, (names.get(entry.taxonId) ?? new Set()).add(entry.organism));
    }
  }
  const taken = new Set(species.map((s) => s.scientificName));
  const levels = (t: TreeNode): string[] => [t.name, ...t.children.flatMap(levels)];
  for (const level of levels(tree)) taken.add(level);
  const perTaxon = new Map<number, number>();
  for (const s of species) perTaxon.set(s.taxonId, (perTaxon.get(s.taxonId) ?? 0) + 1);
  for (const s of unnamed) {
    const candidates = names.get(s.taxonId);
    if (!candidates || candidates.size !== 1 || perTaxon.get(s.taxonId) !== 1) continue;
    const [name] = candidates;
    if (taken.has(name)) continue;
    taken.add(name);
    s.scientificName = name;
  }
}
