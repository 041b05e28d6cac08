/** Cross-references, TSV `protein_id, source, xref` (an optional header line is skipped). Streamed. */
import type { XrefRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, rowBatches } from "./lines.js";

const COLUMNS = ["protein_id", "source", "xref"];

/** The rows one at a time (readXrefBatches gives a chunk of lines' rows together; a chunk's problems are reported before its first row). */
export async function* readXrefTsv(path: string, problems: Problems): AsyncGenerator<XrefRow> {
  for await (const rows of readXrefBatches(path, problems)) yield* rows;
}

export function readXrefBatches(path: string, problems: Problems): AsyncGenerator<XrefRow[]> {
  const file = fileLabel(path);
  return rowBatches(path, problems, (text, lineNo) => {
    if (isBlank(text)) return;
    const cols = text.split("\t").map((c) => c.trim());
    if (cols[0] === "protein_id") return; // header
    if (cols.length !== 3) {
      problems.report(file, lineNo, `expected 3 tab-separated columns (protein_id, source, xref), found ${cols.length}`);
      return;
    }
    const empty = COLUMNS.filter((_, i) => cols[i] === "");
    if (empty.length > 0) {
      problems.report(file, lineNo, `empty ${empty.join(", ")}`);
      return;
    }
    return { proteinId: cols[0], source: cols[1], xref: cols[2], line: lineNo };
  });
}
