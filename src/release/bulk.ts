import type { ProteinRow, SequenceRow } from "../../release-format/format.js";
import type { Release } from "./release.js";
import { resolveEntry } from "./resolve.js";
import { rowsOf } from "./summaries.js";

/**
 * Entry numbers of many entry ids, in their order: undefined for an unknown or ambiguous id.
 * The ids resolve concurrently; index leaves shared by several ids are read once (the release
 * view shares reads under way, and the chunk cache keeps finished ones).
 */
export async function resolveEntries(release: Release, ids: string[]): Promise<Array<number | undefined>> {
  const distinct = [...new Set(ids)];
  const resolved = await Promise.all(distinct.map((id) => resolveEntry(release, id)));
  const byId = new Map(distinct.map((id, i) => [id, resolved[i].kind === "found" ? resolved[i].entry : undefined]));
  return ids.map((id) => byId.get(id));
}

/** Protein and sequence rows of many entries, each chunk of either table read once. */
export async function proteinsWithSequences(
  release: Release,
  entries: Iterable<number>,
): Promise<Map<number, { row: ProteinRow; sequence: SequenceRow }>> {
  const { proteins, sequences } = release.manifest.tables;
  const wanted = [...new Set(entries)];
  const [rows, sequenceRows] = await Promise.all([rowsOf<ProteinRow>(release, proteins, wanted), rowsOf<SequenceRow>(release, sequences, wanted)]);
  return new Map(wanted.map((entry) => [entry, { row: rows.get(entry)!, sequence: sequenceRows.get(entry)! }]));
}
