/**
 * Pairwise relations: two protein ids a line, then optionally the relation type, a distance
 * and a score (FastOMA's orthologs.tsv has only the two ids). Streamed.
 */
import { REL_TYPES } from "../../release-format/format.js";
import type { PairRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, rowBatches } from "./lines.js";

const HEADER_WORDS = new Set(["protein1", "protein_1", "id1", "entry1", "gene1"]);
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The rows one at a time (readPairBatches gives a chunk of lines' rows together; a chunk's problems are reported before its first row). */
export async function* readPairsTsv(path: string, problems: Problems, read?: (bytes: number) => void): AsyncGenerator<PairRow> {
  for await (const rows of readPairBatches(path, problems, read)) yield* rows;
}

/** The rows of each chunk of lines together; `read`: the bytes of the file read so far, after each chunk (readLineBatches). */
export function readPairBatches(path: string, problems: Problems, read?: (bytes: number) => void): AsyncGenerator<PairRow[]> {
  const file = fileLabel(path);
  let first = true;
  return rowBatches(path, problems, (text, lineNo) => {
    if (isBlank(text)) return;
    const cols = text.split("\t").map((c) => c.trim());
    // Only the first line may be a header, recognised by its first column name.
    const isHeader = first && HEADER_WORDS.has(cols[0].toLowerCase());
    first = false;
    if (isHeader) return;
    if (cols.length < 2 || cols.length > 5) {
      problems.report(
        file,
        lineNo,
        `expected 2 to 5 tab-separated columns (protein1, protein2[, rel_type, distance, score]), found ${cols.length}`,
      );
      return;
    }
    const [protein1, protein2, relType = "", distanceText = "", scoreText = ""] = cols;
    let ok = true;
    if (protein1 === "" || protein2 === "") {
      problems.report(file, lineNo, "empty protein id");
      ok = false;
    } else if (protein1 === protein2) {
      problems.report(file, lineNo, `protein ${protein1} is paired with itself`);
      ok = false;
    }
    if (relType !== "" && !(REL_TYPES as readonly string[]).includes(relType)) {
      problems.report(file, lineNo, `relation type "${relType}" is not one of ${REL_TYPES.join(", ")}`);
      ok = false;
    }
    const number = (name: string, t: string): number | undefined => {
      if (t === "") return undefined;
      if (!FLOAT_RE.test(t)) {
        problems.report(file, lineNo, `${name} "${t}" is not a number`);
        ok = false;
        return undefined;
      }
      return Number(t);
    };
    const distance = number("distance", distanceText);
    const score = number("score", scoreText);
    if (!ok) return;
    const row: PairRow = { protein1, protein2, line: lineNo };
    if (relType !== "") row.relType = relType;
    if (distance !== undefined) row.distance = distance;
    if (score !== undefined) row.score = score;
    return row;
  }, read);
}
