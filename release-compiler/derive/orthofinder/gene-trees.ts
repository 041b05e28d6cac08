/**
 * OrthoFinder's resolved gene trees as the release's `geneTrees` table: each family serves the
 * tree of its root's orthogroup (2.x splits a few orthogroups into several N0 HOGs: each of
 * those families serves the whole tree). Every leaf must name a protein: `<species>_<gene id>`,
 * the OrthoFinder species name, `_`, then the FASTA id. Trees wait in a file of the derive
 * task's folder until their family's row is written, so they are never all held.
 */
import { appendFileSync, closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { GeneTreeRow } from "../../../release-format/format.js";
import type { Problems } from "../../problems.js";
import { readGeneTrees } from "../../readers/orthofinder/gene-trees.js";
import type { ProteinTable } from "../proteins.js";
import type { OrthoFinderSpecies } from "./species.js";

/** The trees as read: their Newick text in a file of the task's folder, and where each orthogroup's is. */
export interface GeneTreeStore {
  /** How many families have a tree. */
  count: number;
  /** The file's name in the folder it was written to. */
  file: string;
  at: Map<string, [number, number]>;
  /** Per family - 1, the orthogroup of its root. */
  orthogroupOf: string[];
}

export interface GeneTreeTable {
  /** The row of family `family` (1-based). Reads the file. */
  rowOf(family: number): GeneTreeRow;
  close(): void;
}

/** The trees of `store`, read from `folder`, where readOrthoFinderGeneTrees wrote them. */
export function openGeneTrees(store: GeneTreeStore, folder: string): GeneTreeTable {
  const fd = openSync(join(folder, store.file), "r");
  return {
    rowOf(family) {
      const og = store.orthogroupOf[family - 1];
      const at = store.at.get(og);
      if (!at) return null;
      const buffer = Buffer.alloc(at[1]);
      readSync(fd, buffer, 0, at[1], at[0]);
      return [og, buffer.toString("utf8")];
    },
    close() {
      closeSync(fd);
    },
  };
}

export async function readOrthoFinderGeneTrees(
  of: OrthoFinderSpecies,
  orthogroupOf: string[],
  proteins: ProteinTable,
  problems: Problems,
  folder: string,
): Promise<GeneTreeStore | undefined> {
  const source = of.results.geneTrees;
  if (!source) return undefined;
  // Species names longest first: a name may be a prefix of another (`Ecoli` and `Ecoli_K12`).
  const names = [...of.genomeOfName.keys()].sort((a, b) => b.length - a.length);
  const leafEntry = (leaf: string): number | undefined => {
    for (const name of names) {
      if (!leaf.startsWith(`${name}_`)) continue;
      const entry = proteins.inputIds.numberOf(leaf.slice(name.length + 1));
      if (entry !== undefined && proteins.genome[entry - 1] === of.genomeOfName.get(name)) return entry;
    }
    return undefined;
  };

  const wanted = new Set(orthogroupOf);
  const file = "gene-trees.txt";
  const path = join(folder, file);
  const stored = new Map<string, [number, number]>();
  let offset = 0;
  let unused = 0;
  let firstUnused = { file: "", line: 0 };
  for await (const tree of readGeneTrees(source, problems)) {
    const bad = tree.leaves.filter((leaf) => leafEntry(leaf) === undefined);
    if (bad.length) {
      const shown = bad.slice(0, 3).join(", ") + (bad.length > 3 ? `, … (${bad.length} leaves)` : "");
      problems.report(tree.file, tree.line, `leaf ${shown} of the tree of ${tree.orthogroup} is not <species>_<protein id> of a proteome`);
      continue;
    }
    if (!wanted.has(tree.orthogroup)) {
      if (!unused++) firstUnused = { file: tree.file, line: tree.line };
      continue;
    }
    const bytes = Buffer.from(tree.newick, "utf8");
    appendFileSync(path, bytes);
    stored.set(tree.orthogroup, [offset, bytes.length]);
    offset += bytes.length;
  }
  if (unused) problems.warn(firstUnused.file, firstUnused.line, `${unused} gene tree(s) of orthogroups in no HOG family are not served (the first here)`);
  if (stored.size === 0) return undefined;

  return { count: orthogroupOf.filter((og) => stored.has(og)).length, file, at: stored, orthogroupOf };
}
