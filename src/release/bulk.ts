import type { ProteinRow, SequenceRow } from "../../release-format/format.js";
import type { Release } from "./release.js";
import { directEntry } from "./resolve.js";
import { rowsOf } from "./summaries.js";

/**
 * Entry numbers of many entry ids, in their order: undefined for an unknown or ambiguous id.
 * Entry numbers and orthids resolve without reading; the other ids' buckets are read together.
 */
export async function resolveEntries(release: Release, ids: string[]): Promise<Array<number | undefined>> {
  const direct = new Map([...new Set(ids)].map((id) => [id, directEntry(release, id)]));
  // The ids that need the index, looked up together: one genome's ids sort together, so their buckets are read in a few ranges.
  const indexed = await release.lookupMany(release.manifest.indexes.entryIds, [...direct].filter(([, entry]) => entry === undefined).map(([id]) => id));
  const byId = new Map([...direct].map(([id, entry]) => [id, entry ?? onlyEntry(indexed.get(id))]));
  return ids.map((id) => byId.get(id));
}

/** The one entry an index value names; undefined for none or several. */
const onlyEntry = (entries: number[] | undefined) => (entries?.length === 1 ? entries[0] : undefined);

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
