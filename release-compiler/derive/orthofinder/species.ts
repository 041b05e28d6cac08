/**
 * The genomes and levels of an OrthoFinder release.
 *
 * Species: OrthoFinder names a species by its proteome's file name without extension
 * (`Mycoplasma_genitalium` for `Mycoplasma_genitalium.faa`), in the order of the header of
 * `Orthogroups.tsv`. With a `species_info`, each row's `File` column names that species and the
 * row gives its code, taxon id and (optionally) scientific name; the release's genome order is
 * the file's. Without one, the genomes keep OrthoFinder's order and
 * - the code is derived from the name (speciesCode below: `MYCGE` for `Mycoplasma_genitalium`),
 * - the scientific name is the name with `_` as spaces,
 * - the taxon id is local: the species level's negative id (`-(level index + 1)`, as the
 *   format gives internal levels without a taxon id).
 *
 * Levels: OrthoFinder's rooted species tree (`SpeciesTree_rooted_node_labels.txt`, internal
 * nodes N0, N1, …). A `species_tree` with the same topology (leaves: codes or OrthoFinder names)
 * names them: each N<k> takes the name of the node with the same species below it.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { ReleaseConfig } from "../../config.js";
import type { SpeciesInfoRow, TreeNode } from "../../inputs.js";
import type { Problems } from "../../problems.js";
import { fileLabel } from "../../readers/lines.js";
import { readNewick } from "../../readers/newick.js";
import { readTableSpecies } from "../../readers/orthofinder/hog-table.js";
import { locateResults, type OrthoFinderResults } from "../../readers/orthofinder/results.js";
import { readSpeciesInfo } from "../../readers/species-info.js";
import { buildTaxonomy, type TaxonomyBuild } from "../taxonomy.js";

export interface OrthoFinderSpecies {
  results: OrthoFinderResults;
  /** Genomes in release order; `file` is the OrthoFinder species name, `proteomePath` its proteome. */
  species: SpeciesInfoRow[];
  taxonomy: TaxonomyBuild;
  /** OrthoFinder species name → genome index. */
  genomeOfName: Map<string, number>;
  /** OrthoFinder node name (`N0`, `N1`, …) → level index. */
  levelOfNode: Map<string, number>;
}

/** File extensions of proteomes OrthoFinder reads (it takes `.fa`, `.faa`, `.fasta`, `.fas`, `.pep`). */
const PROTEOME_EXTENSION = /\.(fa|faa|fasta|fas|pep)(\.gz)?$/i;

/**
 * The 5-character code of an OrthoFinder species name: its words (split at `_`, space, `.`,
 * `-`; letters and digits only), upper-cased; the first 3 characters of the first word and the
 * first 2 of the second (`Mycoplasma_genitalium` → `MYCGE`, UniProt's own mnemonic pattern), or
 * the first 5 of a single word; `X`s pad it to 5. A code already taken by an earlier species
 * ends in a number instead: `MYCG1`, `MYCG2`, …, `MYC10`.
 */
export function speciesCode(name: string, taken: Set<string>): string {
  const words = name.split(/[_ .\-]+/).map((w) => w.replace(/[^A-Za-z0-9]/g, "").toUpperCase()).filter((w) => w !== "");
  const base = (words.length >= 2 ? words[0].slice(0, 3) + words[1].slice(0, 2) : (words[0] ?? "")).slice(0, 5).padEnd(5, "X");
  if (!taken.has(base)) return base;
  for (let n = 1; ; n++) {
    const digits = String(n);
    const code = base.slice(0, 5 - digits.length) + digits;
    if (!taken.has(code)) return code;
  }
}

export async function readOrthoFinderSpecies(config: ReleaseConfig, problems: Problems): Promise<OrthoFinderSpecies | undefined> {
  const results = locateResults(config.orthofinder!, problems);
  if (!results) return undefined;
  const names = await readTableSpecies(results.orthogroups, "orthogroups", problems);
  if (!names) return undefined;
  const proteomes = proteomeFiles(config.proteomes, names, problems);

  let species: SpeciesInfoRow[];
  const local = !config.speciesInfo;
  if (config.speciesInfo) {
    species = await speciesFromInfo(config.speciesInfo, names, problems);
  } else {
    const taken = new Set<string>();
    species = names.map((name) => {
      const code = speciesCode(name, taken);
      taken.add(code);
      return { code, taxonId: 0, scientificName: name.replace(/_/g, " "), subgenomes: [], file: name, line: 0 };
    });
  }
  for (const s of species) {
    const path = proteomes.get(s.file!);
    if (path) s.proteomePath = path;
  }
  const genomeOfName = new Map(species.map((s, g) => [s.file!, g]));

  const ofTree = await readNewick(results.speciesTree, problems);
  const userTree = config.speciesTree ? await readNewick(config.speciesTree, problems) : undefined;
  if (!ofTree || (config.speciesTree && !userTree) || problems.count) return undefined;
  const tree = releaseTree(ofTree, results.speciesTree, species, genomeOfName, userTree, config.speciesTree, problems);
  if (!tree) return undefined;
  const infoLabel = config.speciesInfo ?? fileLabel(results.orthogroups);
  const taxonomy = buildTaxonomy(tree.root, species, config.speciesTree ?? results.speciesTree, infoLabel, problems);
  if (local) {
    species.forEach((s, g) => {
      const level = taxonomy.genomeLevels[g];
      if (level < 0) return;
      s.taxonId = -(level + 1);
      taxonomy.taxonIds[level] = s.taxonId;
    });
  }
  const levelOfNode = new Map<string, number>();
  for (const [node, name] of tree.levelNames) {
    const level = taxonomy.byName.get(name);
    if (level !== undefined) levelOfNode.set(node, level);
  }
  return { results, species, taxonomy, genomeOfName, levelOfNode };
}

/** Proteome path of each OrthoFinder species: the file of the proteomes folder named `<species>.<fasta extension>`. */
function proteomeFiles(folder: string, names: string[], problems: Problems): Map<string, string> {
  const wanted = new Set(names);
  const found = new Map<string, string>();
  for (const file of readdirSync(folder).sort()) {
    if (!PROTEOME_EXTENSION.test(file)) continue;
    const name = file.replace(PROTEOME_EXTENSION, "");
    if (!wanted.has(name)) continue;
    const other = found.get(name);
    if (other) problems.report(join(folder, file), 0, `a second proteome of OrthoFinder species ${name} (also ${basename(other)})`);
    else found.set(name, join(folder, file));
  }
  for (const name of names) {
    if (!found.has(name)) problems.report(folder, 0, `no proteome of OrthoFinder species ${name}: expected ${name}.fa (or .faa, .fasta, .fas, .pep) in this folder`);
  }
  return found;
}

/** species_info rows, each naming an OrthoFinder species in its `File` column; every species needs one. */
async function speciesFromInfo(path: string, names: string[], problems: Problems): Promise<SpeciesInfoRow[]> {
  const rows = await readSpeciesInfo(path, problems);
  const known = new Set(names);
  const seen = new Map<string, number>();
  const out: SpeciesInfoRow[] = [];
  for (const row of rows) {
    if (row.file === undefined) {
      problems.report(path, row.line, `no File: with "orthofinder", each row names its OrthoFinder species (the proteome file name without extension) in a File column`);
      continue;
    }
    if (!known.has(row.file)) {
      problems.report(path, row.line, `File ${row.file} is not a species of the OrthoFinder results (${names.join(", ")})`);
      continue;
    }
    const before = seen.get(row.file);
    if (before !== undefined) {
      problems.report(path, row.line, `File ${row.file} is given twice (first on line ${before})`);
      continue;
    }
    seen.set(row.file, row.line);
    // Without a ScientificName (the reader fell back to the code), the OrthoFinder name.
    if (row.scientificName === row.code) row.scientificName = row.file.replace(/_/g, " ");
    out.push(row);
  }
  for (const name of names) if (!seen.has(name) && rows.length) problems.report(path, 0, `OrthoFinder species ${name} has no row (File column)`);
  return out;
}

/** Sorted genome indexes below a node, as a key. */
type CladeKey = string;

/**
 * The release's species tree: OrthoFinder's, leaves renamed to codes, internal nodes named by the
 * user's tree where one is given (same topology), else N0, N1, …; and each N<k>'s level name.
 */
function releaseTree(
  ofTree: TreeNode,
  ofFile: string,
  species: SpeciesInfoRow[],
  genomeOfName: Map<string, number>,
  userTree: TreeNode | undefined,
  userFile: string | undefined,
  problems: Problems,
): { root: TreeNode; levelNames: Map<string, string> } | undefined {
  const before = problems.count;
  const genomeOfCode = new Map(species.map((s, g) => [s.code, g]));
  const leafGenome = (name: string, file: string, byCode: boolean): number | undefined => {
    const g = genomeOfName.get(name) ?? (byCode ? genomeOfCode.get(name) : undefined);
    if (g === undefined) problems.report(file, 0, `leaf '${name}' is not a species of the OrthoFinder results${byCode ? " (nor a species code)" : ""}`);
    return g;
  };
  // The user tree's internal names by clade.
  const userNames = new Map<CladeKey, string>();
  if (userTree) {
    cladesOf(userTree, (name) => leafGenome(name, userFile!, true), (key, node) => {
      if (node.children.length > 0) userNames.set(key, node.name);
    });
  }
  const levelNames = new Map<string, string>();
  const ofClades = new Set<CladeKey>();
  const copy = (node: TreeNode): TreeNode => ({ name: node.name, children: node.children.map(copy) });
  const root = copy(ofTree);
  cladesOf(root, (name) => leafGenome(name, ofFile, false), (key, node) => {
    if (node.children.length === 0) {
      const g = genomeOfName.get(node.name);
      if (g !== undefined) node.name = species[g].code;
      return;
    }
    ofClades.add(key);
    const name = userTree ? userNames.get(key) : node.name;
    if (userTree && name === undefined) {
      problems.report(userFile!, 0, `no node of this tree has exactly the species of OrthoFinder's ${node.name} (${describe(key, species)}): the trees' topologies differ`);
    }
    levelNames.set(node.name, name ?? node.name);
    node.name = name ?? node.name;
  });
  if (userTree) {
    for (const [key, name] of userNames) {
      if (!ofClades.has(key)) problems.report(userFile!, 0, `node '${name}' (${describe(key, species)}) is not a clade of OrthoFinder's species tree ${ofFile}: the trees' topologies differ`);
    }
  }
  const leaves = leafNames(root);
  for (const s of species) if (!leaves.has(s.code)) problems.report(ofFile, 0, `OrthoFinder species ${s.file} is not a leaf of the species tree`);
  return problems.count === before ? { root, levelNames } : undefined;
}

const describe = (key: CladeKey, species: SpeciesInfoRow[]) => key.split(",").map((g) => species[Number(g)]?.code ?? g).join(", ");

function leafNames(root: TreeNode): Set<string> {
  const out = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.children.length === 0) out.add(n.name);
    stack.push(...n.children);
  }
  return out;
}

/** Calls `visit(key, node)` for every node in preorder with the sorted genome indexes below it. */
function cladesOf(root: TreeNode, genomeOf: (leaf: string) => number | undefined, visit: (key: CladeKey, node: TreeNode) => void): void {
  const below = new Map<TreeNode, number[]>();
  // Postorder without recursion: the genomes below each node.
  const order: TreeNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    order.push(n);
    stack.push(...n.children);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    if (n.children.length === 0) {
      const g = genomeOf(n.name);
      below.set(n, g === undefined ? [] : [g]);
    } else below.set(n, n.children.flatMap((c) => below.get(c)!).sort((a, b) => a - b));
  }
  for (const n of order) visit(below.get(n)!.join(","), n);
}
