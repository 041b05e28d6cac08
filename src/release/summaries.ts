import type { ProteinRow, ProteinSummary, TableRef } from "../../release-format/format.js";
import type { Release } from "./release.js";

/**
 * Rows of many entries (row = entry − 1), reading each chunk once whatever the order of the
 * entries: a list of orthologs, a page of pairs or a bulk request touches a few chunks, not
 * one per row.
 */
export async function rowsOf<Row>(release: Release, table: TableRef<Row>, entries: Iterable<number>): Promise<Map<number, Row>> {
  const rows = await release.rowsAt(table, [...entries].map((e) => e - 1));
  const out = new Map<number, Row>();
  for (const [row, value] of rows) out.set(row + 1, value);
  return out;
}

/**
 * Protein summaries of many entries. Summaries already at hand (the members of the protein's
 * family) are used first; the rest come from the proteins table.
 */
export async function summariesOf(
  release: Release,
  entries: number[],
  known: ProteinSummary[] = [],
): Promise<Map<number, ProteinSummary>> {
  const out = new Map<number, ProteinSummary>();
  const wanted = new Set(entries);
  for (const s of known) if (wanted.has(s.entry)) out.set(s.entry, s);
  const missing = entries.filter((e) => !out.has(e));
  if (missing.length) {
    const rows = await rowsOf<ProteinRow>(release, release.manifest.tables.proteins, missing);
    for (const [entry, row] of rows) out.set(entry, row);
  }
  return out;
}
