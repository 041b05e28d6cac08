/**
 * GO annotations in GAF 2.0–2.2: 15 required tab-separated columns (16 and 17 optional),
 * `!` lines are headers. Streamed row by row.
 */
import type { GafRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, rowBatches } from "./lines.js";

const GO_ID_RE = /^GO:\d{7}$/;

/** The rows one at a time (readGafBatches gives a chunk of lines' rows together; a chunk's problems are reported before its first row). */
export async function* readGaf(path: string, problems: Problems): AsyncGenerator<GafRow> {
  for await (const rows of readGafBatches(path, problems)) yield* rows;
}

export function readGafBatches(path: string, problems: Problems): AsyncGenerator<GafRow[]> {
  const file = fileLabel(path);
  return rowBatches(path, problems, (text, lineNo) => {
    if (text.startsWith("!") || isBlank(text)) return;
    const cols = text.split("\t");
    if (cols.length < 15 || cols.length > 17) {
      problems.report(file, lineNo, `expected 15 to 17 tab-separated columns (GAF 2.x), found ${cols.length}`);
      return;
    }
    const [db, objectId, symbol, qualifier, goId, reference, evidence, withFrom, aspect, , , , , date, assignedBy] =
      cols.map((c) => c.trim());
    let ok = true;
    if (objectId === "") {
      problems.report(file, lineNo, "empty DB object id (column 2)");
      ok = false;
    }
    if (!GO_ID_RE.test(goId)) {
      problems.report(file, lineNo, `GO id "${goId}" is not of the form GO:0000000 (column 5)`);
      ok = false;
    }
    if (aspect !== "P" && aspect !== "F" && aspect !== "C") {
      problems.report(file, lineNo, `aspect "${aspect}" is not one of P, F, C (column 9)`);
      ok = false;
    }
    if (!ok) return;
    return {
      db,
      objectId,
      symbol,
      qualifier,
      goId,
      reference,
      evidence,
      withFrom,
      aspect: aspect as GafRow["aspect"],
      date,
      assignedBy,
      line: lineNo,
    };
  });
}
