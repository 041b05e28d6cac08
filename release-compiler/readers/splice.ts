/**
 * Splice-variant files (OMA standalone `CODE.splice`): one gene a line, its isoform protein
 * ids separated by `; ` (a bare `;` is tolerated). An isoform may belong to one gene only.
 */
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, readLineBatches } from "./lines.js";

export async function readSplice(path: string, problems: Problems): Promise<Array<{ isoforms: string[]; line: number }>> {
  const file = fileLabel(path);
  const genes: Array<{ isoforms: string[]; line: number }> = [];
  const firstLine = new Map<string, number>();
  for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (isBlank(text) || text.startsWith("#")) continue;
    const isoforms: string[] = [];
    for (const id of text.split(";").map((s) => s.trim())) {
      if (id === "") continue;
      const first = firstLine.get(id);
      if (first !== undefined) {
        problems.report(
          file,
          lineNo,
          first === lineNo ? `isoform ${id} is listed twice on this line` : `isoform ${id} is listed twice (first on line ${first})`,
        );
        continue;
      }
      firstLine.set(id, lineNo);
      isoforms.push(id);
    }
    if (isoforms.length > 0) genes.push({ isoforms, line: lineNo });
  }
  return genes;
}
