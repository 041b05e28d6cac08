/**
 * OrthoFinder's group tables, streamed row by row:
 * - `Phylogenetic_Hierarchical_Orthogroups/N<k>.tsv`: `HOG, OG, Gene Tree Parent Clade`, then one
 *   column per species;
 * - `Orthogroups/Orthogroups.tsv`: `Orthogroup`, then one column per species (the HOGs of the
 *   root level in the 3.x layout: each orthogroup is its own HOG there).
 * A species cell lists gene ids separated by `, ` (the FASTA ids as OrthoFinder wrote them).
 */
import { BigMap } from "../../collections.js";
import type { Problems } from "../../problems.js";
import { fileLabel, isBlank, readLineBatches, readLines } from "../lines.js";

export type HogTableKind = "hogs" | "orthogroups";

export interface HogTableRow {
  /** The group's own id: `N1.HOG0000005`, or the orthogroup's for `Orthogroups.tsv`. */
  hog: string;
  /** The orthogroup it belongs to (`OG0000005`). */
  og: string;
  /** Gene ids of each species column, in header order. */
  genes: string[][];
  line: number;
}

const LEADING: Record<HogTableKind, string[]> = {
  hogs: ["HOG", "OG", "Gene Tree Parent Clade"],
  orthogroups: ["Orthogroup"],
};

/** The species columns of a table's header (undefined, with a problem, when the header is not the table's). */
export function speciesColumns(header: string[], kind: HogTableKind, file: string, problems: Problems): string[] | undefined {
  const leading = LEADING[kind];
  if (leading.some((name, i) => header[i] !== name)) {
    problems.report(file, 1, `header must start with ${leading.join(", ")} (tab-separated), found: ${header.slice(0, leading.length).join(", ")}`);
    return undefined;
  }
  const species = header.slice(leading.length);
  if (species.length === 0) problems.report(file, 1, "header names no species column");
  return species;
}

/** The species an OrthoFinder group table's header names (its first line), or undefined with a problem. */
export async function readTableSpecies(path: string, kind: HogTableKind, problems: Problems): Promise<string[] | undefined> {
  for await (const { text } of readLines(path, problems)) return speciesColumns(text.split("\t"), kind, fileLabel(path), problems);
  problems.report(fileLabel(path), 0, "empty file: expected a header line");
  return undefined;
}

/** Splits a species cell into gene ids (`a, b, c`); an empty cell is no gene. */
export function cellGenes(cell: string): string[] {
  if (cell.trim() === "") return [];
  return cell.split(",").map((g) => g.trim()).filter((g) => g !== "");
}

/**
 * Rows of a table whose header names `species` (the release's OrthoFinder species, any order);
 * `onHeader` receives the header's species columns. Rows with problems are reported and skipped.
 */
export async function* readHogTable(
  path: string,
  kind: HogTableKind,
  problems: Problems,
  onHeader: (species: string[]) => void,
): AsyncGenerator<HogTableRow> {
  const file = fileLabel(path);
  // A HOG per row: a public release's tables may list more than a Map holds (collections.ts).
  const first = new BigMap<string, number>();
  let columns: number | undefined;
  const lead = LEADING[kind].length;
  for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (columns === undefined) {
      const species = speciesColumns(text.split("\t"), kind, file, problems);
      if (!species) return;
      columns = lead + species.length;
      onHeader(species);
      continue;
    }
    if (isBlank(text)) continue;
    const cells = text.split("\t");
    if (cells.length !== columns) {
      problems.report(file, lineNo, `expected ${columns} tab-separated columns, found ${cells.length}`);
      continue;
    }
    const hog = cells[0].trim();
    const og = kind === "hogs" ? cells[1].trim() : hog;
    if (hog === "" || og === "") {
      problems.report(file, lineNo, kind === "hogs" ? "empty HOG or OG id" : "empty orthogroup id");
      continue;
    }
    const before = first.get(hog);
    if (before !== undefined) {
      problems.report(file, lineNo, `${hog} is listed twice (first on line ${before})`);
      continue;
    }
    first.set(hog, lineNo);
    const genes = cells.slice(lead).map(cellGenes);
    if (genes.every((g) => g.length === 0)) {
      problems.report(file, lineNo, `${hog} has no gene`);
      continue;
    }
    yield { hog, og, genes, line: lineNo };
  }
  if (columns === undefined) problems.report(file, 0, "empty file: expected a header line");
}
