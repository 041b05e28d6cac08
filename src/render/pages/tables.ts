/**
 * Tables of the pages for people: a generic table (columns that each draw a cell), and the
 * protein table every list of proteins uses (genome proteins and genes, HOG and group members,
 * orthologs), with links to each protein, its genome, HOG and group.
 */
import type { Locus } from "../../../release-format/format.js";
import { esc } from "../html.js";
import { segment, type Links } from "../links.js";
import { link, type Html } from "./layout.js";

export interface Column<T> {
  head: string;
  /** Numbers: right-aligned. */
  num?: boolean;
  /** Long text that may wrap. */
  wrap?: boolean;
  cell(row: T): Html;
}

export function dataTable<T>(columns: Column<T>[], rows: readonly T[], empty = "None."): Html {
  if (!rows.length) return `<p class="empty">${esc(empty)}</p>`;
  const cls = (c: Column<T>) => (c.num ? ' class="num"' : c.wrap ? ' class="wrap"' : "");
  const head = columns.map((c) => `<th scope="col"${cls(c)}>${esc(c.head)}</th>`).join("");
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td${cls(c)}>${c.cell(r)}</td>`).join("")}</tr>`).join("\n");
  return `<div class="scroll"><table class="data"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** A protein as a table row shows it. */
export interface ProteinLine {
  entry: number;
  orthid: string;
  canonicalId: string;
  species: string;
  code: string;
  chromosome: string;
  locus: Locus;
  length: number;
  hog: string;
  group: number;
  isMain: boolean;
}

/** `12: 1,234–5,678 (+)`; an unknown locus is a dash. */
export function locusText(chromosome: string, [start, end, strand]: Locus): string {
  if (!start && !end) return chromosome ? `${chromosome}` : "–";
  const sign = strand === 1 ? " (+)" : strand === -1 ? " (−)" : "";
  return `${chromosome ? `${chromosome}: ` : ""}${start.toLocaleString("en")}–${end.toLocaleString("en")}${sign}`;
}

export const speciesCell = (links: Links, species: string, code: string): Html =>
  `<a class="sp" href="${esc(links.api(`/genome/${segment(code)}/`))}">${esc(species)}</a> <span class="sub">${esc(code)}</span>`;

/**
 * The protein table, with extra columns after the standard ones (a relation type, a score);
 * without the species column when every row is of one genome the page names.
 */
export function proteinTable<T extends ProteinLine>(links: Links, rows: readonly T[], extra: Column<T>[] = [], empty = "No proteins.", species = true): Html {
  const columns: Column<T>[] = [
    {
      head: "Protein",
      cell: (p) => `${link(links.api(`/protein/${p.entry}/`), p.orthid)}<span class="sub">${esc(p.canonicalId)}${p.isMain ? "" : " · isoform"}</span>`,
    },
    ...(species ? [{ head: "Species", cell: (p: T) => speciesCell(links, p.species, p.code) }] : []),
    { head: "Locus", cell: (p) => esc(locusText(p.chromosome, p.locus)) },
    { head: "Length", num: true, cell: (p) => `${p.length.toLocaleString("en")} aa` },
    { head: "HOG", cell: (p) => (p.hog ? link(links.api(`/hog/${segment(p.hog)}/`), p.hog) : `<span class="muted">–</span>`) },
    { head: "Group", num: true, cell: (p) => (p.group ? link(links.api(`/group/${p.group}/`), String(p.group)) : `<span class="muted">–</span>`) },
    ...extra,
  ];
  return dataTable(columns, rows, empty);
}
