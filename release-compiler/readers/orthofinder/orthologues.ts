/**
 * `Orthologues/Orthologues_X/X__v__Y.tsv`: `Orthogroup, X, Y`, each row a set of X genes and a
 * set of Y genes that are all orthologs of each other (`a, b` lists, the FASTA ids as
 * OrthoFinder wrote them). Streamed.
 */
import type { Problems } from "../../problems.js";
import { fileLabel, isBlank, readLineBatches } from "../lines.js";
import { cellGenes } from "./hog-table.js";

export interface OrthologuesRow {
  og: string;
  genes1: string[];
  genes2: string[];
  line: number;
}

/** The rows of each chunk of lines together; `read`: the bytes of the file read so far, after each chunk (readLineBatches). */
export async function* readOrthologueBatches(path: string, species1: string, species2: string, problems: Problems, read?: (bytes: number) => void): AsyncGenerator<OrthologuesRow[]> {
  const file = fileLabel(path);
  let header = false;
  for await (const { lines, firstLineNo } of readLineBatches(path, problems, undefined, read)) {
    const rows: OrthologuesRow[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i], lineNo = firstLineNo + i;
      const cells = text.split("\t");
      if (!header) {
        const expected = ["Orthogroup", species1, species2];
        if (cells.length !== 3 || expected.some((name, i) => cells[i] !== name)) {
          problems.report(file, lineNo, `header must be ${expected.join(", ")} (tab-separated), found: ${cells.join(", ")}`);
          return;
        }
        header = true;
        continue;
      }
      if (isBlank(text)) continue;
      if (cells.length !== 3) {
        problems.report(file, lineNo, `expected 3 tab-separated columns, found ${cells.length}`);
        continue;
      }
      const genes1 = cellGenes(cells[1]);
      const genes2 = cellGenes(cells[2]);
      if (genes1.length === 0 || genes2.length === 0) {
        problems.report(file, lineNo, `no ${genes1.length === 0 ? species1 : species2} gene in the row`);
        continue;
      }
      rows.push({ og: cells[0].trim(), genes1, genes2, line: lineNo });
    }
    yield rows;
  }
  if (!header) problems.report(file, 0, "empty file: expected the header Orthogroup, X, Y");
}
