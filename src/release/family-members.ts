/**
 * The member summaries of a HOG family. A family of up to 128 members carries them in its row;
 * a wider one keeps them in the `familyMembers` table, in tree order, so the members of one of
 * its HOGs are a run of rows read on their own: a 12,000-gene family answers a sub-HOG of ten
 * genes with one 16 kB chunk, not with its whole membership (FORMAT.md, "HOG families").
 */
import { MEMBER_SLICE, type FamilyRow, type ProteinSummary } from "../../release-format/format.js";
import { unavailable } from "../errors.js";
import type { Release } from "./release.js";

/** The summaries of a family's members at these tree positions, in the order given. */
export async function membersAt(release: Release, family: Pick<FamilyRow, "family" | "members" | "firstMember" | "memberChunks">, positions: readonly number[]): Promise<ProteinSummary[]> {
  const inline = family.members;
  if (inline) return positions.map((p) => inline[p]);
  const first = family.firstMember;
  const table = release.manifest.tables.familyMembers;
  const indexes = positions.map((p) => first + p);
  // From the chunks the family's row (or a HOG card) names: no directory page of the table.
  const rows = family.memberChunks ? await release.rowsIn(table, indexes, family.memberChunks) : await release.rowsAt(table, indexes);
  return positions.map((p) => {
    const row = rows.get(first + p);
    if (!row) throw unavailable(`Member ${p} of family ${family.family} is outside its table; the release is inconsistent.`);
    return row;
  });
}

/** Tree positions ordered by their members' entry numbers (the order lists of members are in). */
const byEntry = (family: FamilyRow, positions: readonly number[]): number[] => [...positions].sort((a, b) => family.entries[a] - family.entries[b]);

/**
 * The summaries of a family's members at these tree positions, by entry number; with `limit`,
 * the first `limit` of them only (a page for people of a 12,000-gene HOG reads what it shows).
 */
export function membersByEntry(release: Release, family: FamilyRow, positions: readonly number[], limit = Infinity): Promise<ProteinSummary[]> {
  return membersAt(release, family, byEntry(family, positions).slice(0, limit));
}

/**
 * The summaries of a family's members at these tree positions, by entry number, in slices of
 * MEMBER_SLICE read as the consumer pulls: a HOG of 50,000 genes streams holding one slice.
 * The first slice is read before this resolves, so a storage fault fails the request before
 * any response is sent.
 */
export async function memberSlicesByEntry(release: Release, family: FamilyRow, positions: readonly number[]): Promise<AsyncIterable<ProteinSummary[]>> {
  const sorted = byEntry(family, positions);
  const first = await membersAt(release, family, sorted.slice(0, MEMBER_SLICE));
  return (async function* () {
    yield first;
    for (let from = MEMBER_SLICE; from < sorted.length; from += MEMBER_SLICE) yield await membersAt(release, family, sorted.slice(from, from + MEMBER_SLICE));
  })();
}

/** Per decoded family row: the tree position of each member's entry number. */
const positionIndexes = new WeakMap<FamilyRow, Map<number, number>>();

/** Tree positions of those of `entries` that are members of the family. */
export function positionsOf(family: FamilyRow, entries: Iterable<number>): number[] {
  let index = positionIndexes.get(family);
  if (!index) {
    index = new Map(family.entries.map((e, p) => [e, p]));
    positionIndexes.set(family, index);
  }
  const out: number[] = [];
  for (const e of entries) {
    const p = index.get(e);
    if (p !== undefined) out.push(p);
  }
  return out;
}
