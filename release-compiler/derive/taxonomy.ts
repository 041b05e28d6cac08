import type { Taxonomy } from "../../release-format/format.js";
import type { SpeciesInfoRow, TreeNode } from "../inputs.js";
import type { Problems } from "../problems.js";

/**
 * The release's taxonomy: every node of the species tree becomes a level; species leaves
 * are named by their scientific name (the level names clients use), internal nodes keep
 * their Newick names.
 */
export interface TaxonomyBuild extends Taxonomy {
  /** Level index of each genome, in species_info order. */
  genomeLevels: number[];
  /** Level index by every accepted name: level name, and species code for species. */
  byName: Map<string, number>;
}

export function buildTaxonomy(
  tree: TreeNode,
  species: SpeciesInfoRow[],
  treeFile: string,
  infoFile: string,
  problems: Problems,
): TaxonomyBuild {
  const genomeByCode = new Map(species.map((s, i) => [s.code, i]));
  const names: string[] = [];
  const parents: number[] = [];
  const genomes: number[] = [];
  const taxonIds: number[] = [];
  const genomeLevels = new Array<number>(species.length).fill(-1);
  const byName = new Map<string, number>();

  const visit = (node: TreeNode, parent: number): void => {
    const index = names.length;
    const isLeaf = node.children.length === 0;
    let name = node.name;
    let genome = -1;
    if (isLeaf) {
      genome = genomeByCode.get(node.name) ?? -1;
      if (genome < 0) {
        problems.report(treeFile, 0, `leaf '${node.name}' is not a species code of ${infoFile}`);
      } else {
        name = species[genome].scientificName;
        genomeLevels[genome] = index;
      }
    } else if (!name) {
      problems.report(treeFile, 0, "every internal node must be named (it is a taxonomic level)");
      name = `unnamed level ${index}`;
    }
    names.push(name);
    parents.push(parent);
    genomes.push(genome);
    taxonIds.push(genome >= 0 ? species[genome].taxonId : /^[1-9][0-9]{0,9}$/.test(name) ? Number(name) : -(index + 1));
    for (const alias of isLeaf && genome >= 0 ? [name, node.name] : [name]) {
      const known = byName.get(alias);
      if (known !== undefined && known !== index) {
        problems.report(treeFile, 0, `level name '${alias}' is used twice in the species tree`);
      }
      byName.set(alias, index);
    }
    for (const child of node.children) visit(child, index);
  };
  visit(tree, -1);

  species.forEach((s, i) => {
    if (genomeLevels[i] < 0) problems.report(infoFile, s.line, `species ${s.code} is not a leaf of ${treeFile}`);
  });
  return { names, parents, genomes, taxonIds, genomeLevels, byName };
}
