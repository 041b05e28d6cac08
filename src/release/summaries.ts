import type { ProteinRow, ProteinSummary, TableRef } from "../../release-format/format.js";
import type { Release } from "./release.js";

/** Shards read at the same time: bounds a request's storage reads in flight. */
const CONCURRENT_SHARDS = 16;

/**
 * Rows of many entries, reading each table shard once (a bounded number at a time), whatever
 * the order of the entries: a list of orthologs, a page of pairs or a bulk request touches a
 * few shards, not one per row.
 */
export async function rowsOf<Row>(release: Release, table: TableRef<Row>, entries: Iterable<number>): Promise<Map<number, Row>> {
  const byShard = new Map<number, number[]>();
  for (const entry of entries) {
    const shard = Math.floor((entry - 1) / table.rowsPerShard);
    const list = byShard.get(shard);
    if (list) list.push(entry);
    else byShard.set(shard, [entry]);
  }
  const shards = [...byShard];
  const out = new Map<number, Row>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < shards.length) {
      const [shard, list] = shards[next++];
      const { firstRow, rows } = await release.blob<{ firstRow: number; rows: Row[] }>(table.shards[shard]);
      for (const entry of list) out.set(entry, rows[entry - 1 - firstRow]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_SHARDS, shards.length) }, worker));
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
