import { ApiError } from "../errors.js";
import type { ProteinRow, SequenceRow } from "./format.js";
import type { Release } from "./release.js";
import { resolveEntry } from "./resolve.js";

/** Sequence shards read at the same time: bounds the shards held in memory at once. */
const CONCURRENT_SHARDS = 16;

/**
 * Entry numbers of many entry ids, in their order: undefined for an unknown or ambiguous id.
 * The ids resolve concurrently; index leaves shared by several ids are read once (the release
 * view shares reads under way, and the blob cache keeps finished ones).
 */
export async function resolveEntries(release: Release, ids: string[]): Promise<Array<number | undefined>> {
  const distinct = [...new Set(ids)];
  const entries = await Promise.all(
    distinct.map((id) =>
      resolveEntry(release, id).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }),
    ),
  );
  const byId = new Map(distinct.map((id, i) => [id, entries[i]]));
  return ids.map((id) => byId.get(id));
}

/**
 * Protein and sequence rows of many entries, each shard read once. Entries are taken shard of
 * the sequences table by shard, a bounded number of shards at a time, so a thousand entries
 * spread over a large release neither read one shard per entry nor hold every shard at once.
 */
export async function proteinsWithSequences(
  release: Release,
  entries: Iterable<number>,
): Promise<Map<number, { row: ProteinRow; sequence: SequenceRow }>> {
  const { proteins, sequences } = release.manifest.tables;
  const byShard = new Map<number, number[]>();
  for (const entry of new Set(entries)) {
    const shard = Math.floor((entry - 1) / sequences.rowsPerShard);
    const list = byShard.get(shard);
    if (list) list.push(entry);
    else byShard.set(shard, [entry]);
  }
  const groups = [...byShard].sort(([a], [b]) => a - b).map(([, list]) => list);
  const out = new Map<number, { row: ProteinRow; sequence: SequenceRow }>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < groups.length) {
      const group = groups[next++];
      await Promise.all(
        group.map(async (entry) => {
          const [row, sequence] = await Promise.all([release.row(proteins, entry - 1), release.row(sequences, entry - 1)]);
          out.set(entry, { row, sequence });
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_SHARDS, groups.length) }, worker));
  return out;
}
