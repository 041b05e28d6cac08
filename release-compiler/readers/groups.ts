/** Orthologous groups (cliques), TSV `Group, Protein` with a header line (FastOMA's OrthologousGroups.tsv). Streamed. */
import type { GroupRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, readLineBatches } from "./lines.js";

export async function* readGroupsTsv(path: string, problems: Problems): AsyncGenerator<GroupRow> {
  const file = fileLabel(path);
  let first = true;
  for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (isBlank(text)) continue;
    const cols = text.split("\t").map((c) => c.trim());
    const isHeader = first && cols[0].toLowerCase() === "group";
    first = false;
    if (isHeader) continue;
    if (cols.length !== 2) {
      problems.report(file, lineNo, `expected 2 tab-separated columns (Group, Protein), found ${cols.length}`);
      continue;
    }
    if (cols[0] === "" || cols[1] === "") {
      problems.report(file, lineNo, cols[0] === "" ? "empty group id" : "empty protein id");
      continue;
    }
    yield { group: cols[0], protein: cols[1], line: lineNo };
  }
}
