/**
 * Where things are in an OrthoFinder `Results_*` folder, 2.5.x or 3.x layout:
 * - `Orthogroups/Orthogroups.tsv`: the orthogroups; its header names the species (the proteome
 *   file names without extension), in OrthoFinder's order;
 * - `Phylogenetic_Hierarchical_Orthogroups/N<k>.tsv`: the HOGs of species-tree node N<k>. 3.x
 *   writes no `N0.tsv`: the root level's groups are the orthogroups themselves;
 * - `Species_Tree/SpeciesTree_rooted_node_labels.txt`: the rooted species tree, internal nodes N0, N1, …;
 * - `Orthologues/Orthologues_X/X__v__Y.tsv` (optional; OrthoFinder 3 may skip them);
 * - `Resolved_Gene_Trees/` (optional): `OG…_tree.txt` files (2.x) or one `Resolved_Gene_Trees.txt`
 *   with an `OG…: newick` line per orthogroup (3.x).
 * Nothing is read here but folder listings; the files are streamed by the other readers.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Problems } from "../../problems.js";

export interface OrthoFinderResults {
  folder: string;
  /** `2.x` when the root level has its `N0.tsv`, `3.x` when its groups are the orthogroups. */
  layout: "2.x" | "3.x";
  orthogroups: string;
  speciesTree: string;
  /** `N<k>.tsv` files by level name (`N1`), in numeric order. */
  hogTables: Array<{ level: string; path: string }>;
  /** `X__v__Y.tsv` files: `[X, Y, path]`, in folder and file name order; empty without `Orthologues/`. */
  orthologues: Array<[string, string, string]>;
  geneTrees?: { kind: "files"; files: Array<{ orthogroup: string; path: string }> } | { kind: "lines"; path: string };
}

const HOG_TABLE = /^(N\d+)\.tsv$/;
const PAIR_FILE = /^(.+)__v__(.+)\.tsv$/;
const TREE_FILE = /^(OG\d+)_tree\.txt$/;

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function locateResults(folder: string, problems: Problems): OrthoFinderResults | undefined {
  const orthogroups = join(folder, "Orthogroups", "Orthogroups.tsv");
  const speciesTree = join(folder, "Species_Tree", "SpeciesTree_rooted_node_labels.txt");
  let missing = false;
  for (const path of [orthogroups, speciesTree]) {
    if (!isFile(path)) {
      problems.report(path, 0, `file not found: is ${folder} an OrthoFinder Results_* folder?`);
      missing = true;
    }
  }
  if (missing) return undefined;

  const hogFolder = join(folder, "Phylogenetic_Hierarchical_Orthogroups");
  const hogTables = isFolder(hogFolder)
    ? readdirSync(hogFolder)
        .map((name) => HOG_TABLE.exec(name))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ level: m[1], path: join(hogFolder, m[0]) }))
        .sort((a, b) => Number(a.level.slice(1)) - Number(b.level.slice(1)))
    : [];
  const layout = hogTables.some((t) => t.level === "N0") ? "2.x" : "3.x";

  const orthologues: Array<[string, string, string]> = [];
  const pairFolder = join(folder, "Orthologues");
  if (isFolder(pairFolder)) {
    for (const sub of readdirSync(pairFolder).sort(byName)) {
      if (!sub.startsWith("Orthologues_") || !isFolder(join(pairFolder, sub))) continue;
      for (const name of readdirSync(join(pairFolder, sub)).sort(byName)) {
        const m = PAIR_FILE.exec(name);
        if (m) orthologues.push([m[1], m[2], join(pairFolder, sub, name)]);
      }
    }
  }

  let geneTrees: OrthoFinderResults["geneTrees"];
  const treeFolder = join(folder, "Resolved_Gene_Trees");
  const treeLines = join(treeFolder, "Resolved_Gene_Trees.txt");
  if (isFile(treeLines)) geneTrees = { kind: "lines", path: treeLines };
  else if (isFolder(treeFolder)) {
    const files = readdirSync(treeFolder)
      .map((name) => TREE_FILE.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ orthogroup: m[1], path: join(treeFolder, m[0]) }))
      .sort((a, b) => byName(a.orthogroup, b.orthogroup));
    if (files.length) geneTrees = { kind: "files", files };
  }
  return { folder, layout, orthogroups, speciesTree, hogTables, orthologues, ...(geneTrees ? { geneTrees } : {}) };
}
