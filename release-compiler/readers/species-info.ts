/**
 * species_info.tsv: one row per genome, header with at least `Name` and `NCBITaxonId`
 * (FastOMA's format; extra columns such as `DBRelease`, `Source` are ignored). Optional columns:
 * `ScientificName`, and `Subgenomes` for a polyploid genome: a comma-separated list of at least
 * two distinct single upper-case letters (`A,B,D`; each protein's chromosome name ends with its
 * subgenome letter, as in wheat's `1A`), empty (or no column) for a diploid genome.
 */
import type { SpeciesInfoRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, readLines } from "./lines.js";

const CODE_RE = /^[A-Z0-9]{5}$/;
const REQUIRED = ["Name", "NCBITaxonId"] as const;
/** `File`: the proteome's file name without extension, for OrthoFinder results (release-compiler/derive/orthofinder/species.ts). */
const OPTIONAL = ["ScientificName", "Subgenomes", "File"] as const;

export async function readSpeciesInfo(path: string, problems: Problems): Promise<SpeciesInfoRow[]> {
  const file = fileLabel(path);
  const rows: SpeciesInfoRow[] = [];
  const firstLineOfCode = new Map<string, number>();
  let header: string[] | undefined;
  const col: Record<string, number> = {};
  const problemsBefore = problems.count;

  for await (const { text, lineNo } of readLines(path, problems)) {
    if (isBlank(text)) continue;
    const fields = text.split("\t").map((f) => f.trim());
    if (!header) {
      header = fields;
      // Header names matched case-insensitively: `ncbitaxonid` is an obvious typo, not a different column.
      const lower = header.map((h) => h.toLowerCase());
      for (const name of [...REQUIRED, ...OPTIONAL]) {
        const i = lower.indexOf(name.toLowerCase());
        if (i >= 0) col[name] = i;
      }
      const missing = REQUIRED.filter((name) => col[name] === undefined);
      if (missing.length > 0) {
        problems.report(
          file,
          lineNo,
          `header is missing the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (found: ${header.join(", ")})`,
        );
        return rows; // Without the required columns no row can be read.
      }
      continue;
    }
    if (fields.length !== header.length) {
      problems.report(file, lineNo, `expected ${header.length} tab-separated columns, found ${fields.length}`);
      continue;
    }
    const code = fields[col.Name];
    const taxon = fields[col.NCBITaxonId];
    let ok = true;
    if (!CODE_RE.test(code)) {
      problems.report(file, lineNo, `species code "${code}" must be 5 upper-case letters or digits`);
      ok = false;
    }
    const taxonId = /^\d+$/.test(taxon) ? Number(taxon) : NaN;
    if (!Number.isSafeInteger(taxonId) || taxonId < 1) {
      problems.report(file, lineNo, `NCBITaxonId "${taxon}" is not a positive integer`);
      ok = false;
    }
    const subgenomes: string[] = [];
    const sub = col.Subgenomes !== undefined ? fields[col.Subgenomes] : "";
    if (sub !== "") {
      let subOk = true;
      for (const letter of sub.split(",").map((s) => s.trim())) {
        if (!/^[A-Z]$/.test(letter)) {
          problems.report(file, lineNo, `subgenome "${letter}" is not a single upper-case letter (Subgenomes: "${sub}")`);
          subOk = false;
        } else if (subgenomes.includes(letter)) {
          problems.report(file, lineNo, `subgenome ${letter} is listed twice`);
          subOk = false;
        } else subgenomes.push(letter);
      }
      if (subOk && subgenomes.length < 2) {
        problems.report(
          file,
          lineNo,
          `Subgenomes "${sub}" names a single subgenome: a polyploid genome has at least two (leave it empty for a diploid genome)`,
        );
        subOk = false;
      }
      if (!subOk) ok = false;
    }
    const first = firstLineOfCode.get(code);
    if (first !== undefined) {
      problems.report(file, lineNo, `duplicate species code ${code} (first on line ${first})`);
      continue;
    }
    if (!ok) continue;
    firstLineOfCode.set(code, lineNo);
    const scientific = col.ScientificName !== undefined ? fields[col.ScientificName] : "";
    const row: SpeciesInfoRow = { code, taxonId, scientificName: scientific || code, subgenomes, line: lineNo };
    if (col.File !== undefined && fields[col.File] !== "") row.file = fields[col.File];
    rows.push(row);
  }
  if (!header && problems.count === problemsBefore) {
    problems.report(file, 0, "empty file: expected a header line with the columns Name and NCBITaxonId");
  }
  return rows;
}
