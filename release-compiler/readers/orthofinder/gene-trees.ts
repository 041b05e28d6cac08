/**
 * OrthoFinder's resolved gene trees, one orthogroup at a time: 2.x writes a file per orthogroup
 * (`Resolved_Gene_Trees/OG0000123_tree.txt`), 3.x one file with a line per orthogroup
 * (`OG0000123: (…);`). Each tree is parsed (the Newick reader: balanced, one tree, `;`), and
 * handed over with its leaf labels (`<species>_<gene id>`) and its text as written.
 */
import type { TreeNode } from "../../inputs.js";
import { Problems } from "../../problems.js";
import { fileLabel, ioMessage, isBlank, readLineBatches, readText } from "../lines.js";
import { parseNewick } from "../newick.js";
import type { OrthoFinderResults } from "./results.js";

export interface GeneTree {
  orthogroup: string;
  /** The tree as the file writes it (trimmed; without the `OG…: ` of a 3.x line). */
  newick: string;
  leaves: string[];
  file: string;
  line: number;
}

const LINE = /^(OG\d+):\s*(.*)$/;

export async function* readGeneTrees(source: NonNullable<OrthoFinderResults["geneTrees"]>, problems: Problems): AsyncGenerator<GeneTree> {
  if (source.kind === "files") {
    for (const { orthogroup, path } of source.files) {
      let text: string;
      try {
        text = (await readText(path)).trim();
      } catch (err) {
        problems.report(fileLabel(path), 0, ioMessage(err));
        continue;
      }
      const tree = parseNewick(text, fileLabel(path), problems);
      if (tree) yield { orthogroup, newick: text, leaves: leafNames(tree), file: fileLabel(path), line: 1 };
    }
    return;
  }
  const file = fileLabel(source.path);
  const first = new Map<string, number>();
  for await (const { lines, firstLineNo } of readLineBatches(source.path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (isBlank(text)) continue;
    const m = LINE.exec(text.trim());
    if (!m) {
      problems.report(file, lineNo, "expected `OG<number>: <Newick tree>`");
      continue;
    }
    const [, orthogroup, newick] = m;
    const before = first.get(orthogroup);
    if (before !== undefined) {
      problems.report(file, lineNo, `${orthogroup} has a second tree (first on line ${before})`);
      continue;
    }
    first.set(orthogroup, lineNo);
    // The Newick reader counts lines from its text: its problems are moved to this line.
    const local = new Problems();
    const tree = parseNewick(newick, file, local);
    for (const p of local.list) problems.report(file, lineNo, `${orthogroup}: ${p.message}`);
    if (tree) yield { orthogroup, newick, leaves: leafNames(tree), file, line: lineNo };
  }
}

/** Leaf labels, left to right, without recursion (gene trees can be deep). */
function leafNames(root: TreeNode): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.children.length === 0) out.push(node.name);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}
