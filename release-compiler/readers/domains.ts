/** Protein domains, TSV `protein_id, source, domain_id, name, start, end` (optional header). Streamed. */
import type { DomainRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, rowBatches } from "./lines.js";

const REQUIRED = ["protein_id", "source", "domain_id"];

/** The rows one at a time (readDomainBatches gives a chunk of lines' rows together; a chunk's problems are reported before its first row). */
export async function* readDomainTsv(path: string, problems: Problems): AsyncGenerator<DomainRow> {
  for await (const rows of readDomainBatches(path, problems)) yield* rows;
}

export function readDomainBatches(path: string, problems: Problems): AsyncGenerator<DomainRow[]> {
  const file = fileLabel(path);
  return rowBatches(path, problems, (text, lineNo) => {
    if (isBlank(text)) return;
    const cols = text.split("\t").map((c) => c.trim());
    if (cols[0] === "protein_id") return; // header
    if (cols.length !== 6) {
      problems.report(
        file,
        lineNo,
        `expected 6 tab-separated columns (protein_id, source, domain_id, name, start, end), found ${cols.length}`,
      );
      return;
    }
    const [proteinId, source, domainId, name, startText, endText] = cols;
    let ok = true;
    const empty = REQUIRED.filter((_, i) => cols[i] === "");
    if (empty.length > 0) {
      problems.report(file, lineNo, `empty ${empty.join(", ")}`);
      ok = false;
    }
    const start = /^\d+$/.test(startText) ? Number(startText) : NaN;
    const end = /^\d+$/.test(endText) ? Number(endText) : NaN;
    if (!Number.isSafeInteger(start) || start < 1) {
      problems.report(file, lineNo, `start "${startText}" is not a positive integer`);
      ok = false;
    }
    if (!Number.isSafeInteger(end) || end < 1) {
      problems.report(file, lineNo, `end "${endText}" is not a positive integer`);
      ok = false;
    }
    if (ok && end < start) {
      problems.report(file, lineNo, `end ${end} is before start ${start}`);
      ok = false;
    }
    if (ok) return { proteinId, source, domainId, name, start, end, line: lineNo };
  });
}
