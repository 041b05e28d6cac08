import type { ProteinRow, ProteinSummary, TableRef } from "./format.js";
import type { Release } from "./release.js";

/**
 * Rows of many entries, reading each table shard once (in parallel), whatever the order of
 * the entries: a list of orthologs or a page of pairs touches a few shards, not one per row.
 */
export async function rowsOf<Row>(release: Release, table: TableRef<Row>, entries: Iterable<number>): Promise<Map<number, Row>> {
  const byShard = new Map<number, number[]>();
  for (const entry of entries) {
    const shard = Math.floor((entry - 1) / table.rowsPerShard);
    const list = byShard.get(shard);
    if (list) list.push(entry);
    else byShard.set(shard, [entry]);
  }
  const out = new Map<number, Row>();
  await Promise.all(
    [...byShard].map(async ([shard, list]) => {
      const { firstRow, rows } = await release.blob<{ firstRow: number; rows: Row[] }>(table.shards[shard]);
      for (const entry of list) out.set(entry, rows[entry - 1 - firstRow]);
    }),
  );
  return out;
}

/**
 * Protein summaries of many entries. Summaries already at hand (the members embedded in a
 * family row) are used first; the rest come from the proteins table.
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
